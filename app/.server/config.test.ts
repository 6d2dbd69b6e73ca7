import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, trustProxySetting } from "./config.ts";

describe("parseConfig", () => {
  it("gives the documented defaults for an empty environment", () => {
    const c = parseConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.HOST).toBe("0.0.0.0");
    expect(c.SITE_URL).toBe("http://localhost:3000");
    expect(c.DATA_DIR).toMatch(/\/data$/);
    expect(c.MAIL_TRANSPORT).toBe("file");
    expect(c.MEDIA_URL).toBe("/media");
    expect(c.FILM_MEDIA_URL).toBe("/media");
    expect(c.SES_REGION).toBe("us-east-1");
    expect(c.MUSIC_API_GRANT_TYPE).toBe("password");
    expect(c.CATALOG_REFRESH_SECONDS).toBe(900);
    expect(c.MUSIC_API_EXCLUDED_USER_IDS).toEqual([]);
    expect(c.CATALOG_CHANNELS_ENABLED).toBe(false);
    expect(c.OUTBOX_WORKER).toBe(true);
    expect(c.ANALYSIS_CONCURRENCY).toBe(1);
    expect(c.ANALYSIS_WORKER).toBe(true);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.LEAD_RETENTION_DAYS).toBe(365);
  });

  it("reads LEAD_RETENTION_DAYS as a whole number of days (issue #16)", () => {
    expect(parseConfig({ LEAD_RETENTION_DAYS: "30" }).LEAD_RETENTION_DAYS).toBe(30);
    expect(parseConfig({ LEAD_RETENTION_DAYS: "1" }).LEAD_RETENTION_DAYS).toBe(1);
  });

  it("derives SITE_URL from PORT and strips a trailing slash from an explicit one", () => {
    expect(parseConfig({ PORT: "8080" }).SITE_URL).toBe("http://localhost:8080");
    expect(parseConfig({ SITE_URL: "https://www.example.com/" }).SITE_URL).toBe("https://www.example.com");
  });

  it("splits the excluded user ids and reads boolean flags", () => {
    const c = parseConfig({
      MUSIC_API_EXCLUDED_USER_IDS: " US000001, US000002 ,,",
      CATALOG_CHANNELS_ENABLED: "true",
      OUTBOX_WORKER: "0",
      ANALYSIS_WORKER: "false",
      ANALYSIS_CONCURRENCY: "4",
    });
    expect(c.MUSIC_API_EXCLUDED_USER_IDS).toEqual(["US000001", "US000002"]);
    expect(c.CATALOG_CHANNELS_ENABLED).toBe(true);
    expect(c.OUTBOX_WORKER).toBe(false);
    expect(c.ANALYSIS_WORKER).toBe(false);
    expect(c.ANALYSIS_CONCURRENCY).toBe(4);
  });

  it.each([
    ["PORT", { PORT: "eighty" }],
    ["PORT", { PORT: "70000" }],
    ["SITE_URL", { SITE_URL: "not a url" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://db/site" }],
    ["MAIL_TRANSPORT", { MAIL_TRANSPORT: "carrier-pigeon" }],
    ["SMTP_URL", { MAIL_TRANSPORT: "smtp" }],
    ["CONTACT_TO", { CONTACT_TO: "not-an-address" }],
    ["CATALOG_REFRESH_SECONDS", { CATALOG_REFRESH_SECONDS: "-5" }],
    ["ALBUMS_URL", { ALBUMS_URL: "ftp://example.com/merged.json" }],
    ["FILM_API_URL", { FILM_API_URL: "https://films.example.com/" }],
    ["MUSIC_API_URL", { MUSIC_API_URL: "https://music.example.com/" }],
    ["CATALOG_CHANNELS_ENABLED", { CATALOG_CHANNELS_ENABLED: "maybe" }],
    ["ANALYSIS_CONCURRENCY", { ANALYSIS_CONCURRENCY: "0" }],
    ["ANALYSIS_CONCURRENCY", { ANALYSIS_CONCURRENCY: "17" }],
    ["LEAD_RETENTION_DAYS", { LEAD_RETENTION_DAYS: "0" }],
    ["LEAD_RETENTION_DAYS", { LEAD_RETENTION_DAYS: "-30" }],
    ["LEAD_RETENTION_DAYS", { LEAD_RETENTION_DAYS: "1.5" }],
    ["LEAD_RETENTION_DAYS", { LEAD_RETENTION_DAYS: "a year" }],
    ["METRICS_PORT", { METRICS_PORT: "70000" }],
    ["METRICS_PORT", { METRICS_PORT: "nine" }],
    ["METRICS_PORT", { PORT: "9100", METRICS_PORT: "9100" }],
    ["METRICS_HOST", { METRICS_HOST: "" }],
  ])("rejects a bad %s with a message that names it", (variable, env) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`${variable}:`);
    expect((error as ConfigError).issues.map((i) => i.variable)).toContain(variable);
  });

  it("keeps metrics off unless METRICS_PORT is set, on loopback by default (issue #31)", () => {
    expect(parseConfig({}).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: "" }).METRICS_PORT).toBeUndefined();
    expect(parseConfig({}).METRICS_HOST).toBe("127.0.0.1");
    const c = parseConfig({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" });
    expect([c.METRICS_PORT, c.METRICS_HOST]).toEqual([9464, "0.0.0.0"]);
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", SITE_URL: "" }).DATABASE_URL).toBeUndefined();
  });
});

describe("trustProxySetting", () => {
  it("maps TRUST_PROXY to Express values", () => {
    expect(trustProxySetting("true")).toBe(true);
    expect(trustProxySetting("false")).toBe(false);
    expect(trustProxySetting("2")).toBe(2);
    expect(trustProxySetting("loopback, 10.0.0.0/8")).toBe("loopback, 10.0.0.0/8");
  });
});
