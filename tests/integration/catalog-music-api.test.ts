import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MusicApiClient } from "../../app/.server/catalog/music-api/client.ts";
import { sampleMusicApi } from "../../app/.server/catalog/sample/generate.ts";
import { startCatalog, type CatalogService } from "../../app/.server/catalog/service.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { startFakeServer } from "../../benchmarks/lib/http-fake.ts";
import { captureLogger } from "../fakes/log-capture.ts";
import { musicApiEnv, startFakeMusicApi, type FakeMusicApi, type MusicApiData } from "../../benchmarks/lib/music-api.ts";
import { releaseDetailEntry as detail, submissionEntry as audio } from "../support/catalog-fixtures.ts";

const creds = {
  username: "catalog-reader",
  password: "p@ss word&=",
  clientId: "site-client",
  clientSecret: "client-secret-value",
  scope: "catalog.read",
  grantType: "password",
  appSource: "northbeat-site",
};


function smallData(): MusicApiData {
  return {
    audios: [
      audio("3", "zebra song", "Ana"),
      audio("1", "Apple", "Kofi"),
      audio("1", "Apple", "Kofi"),
      audio("2", "APPLE", "kofi"),
      audio("4", "Hidden", "Test", "US999999"),
      audio("5", "Pending", "Mei", "US100001", "PENDING"),
      audio("6", "banana", "Mei"),
    ],
    details: { "1": detail("1", { sub: "Synth-pop", date: "2023-03-09" }), "3": detail("3"), "6": detail("6"), "4": detail("4") },
    genres: [{ Name: "Pop" }, { Name: "Country" }],
    subGenres: { Pop: [{ Name: "Indie Pop" }, { Name: "Synth-pop" }], Country: [] },
  };
}

let fake: FakeMusicApi;
const waits: number[] = [];
const client = (timeoutMs = 2000) =>
  new MusicApiClient({ baseUrl: fake.url, ...creds, timeoutMs, retry: { sleep: async (ms) => void waits.push(ms) } });

beforeEach(async () => {
  waits.length = 0;
  fake = await startFakeMusicApi(creds, smallData());
});
afterEach(() => fake.close());

describe("MusicApiClient against a fake API over loopback", () => {
  it("logs in with a form-urlencoded body and X-App-Source, then sends Bearer on every call", async () => {
    const c = client();
    await c.deliveredSubmissions();
    await c.genres();
    await c.subGenres("Pop");
    await c.releaseDetail("1");

    const logins = fake.requestsTo("/login");
    expect(logins).toHaveLength(1);
    const [login] = logins;
    expect(login.method).toBe("POST");
    expect(login.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(login.headers["x-app-source"]).toBe(creds.appSource);
    expect(login.headers.accept).toBe("application/json");
    expect(Object.fromEntries(new URLSearchParams(login.body))).toEqual({
      grant_type: "password",
      username: creds.username,
      password: creds.password,
      scope: creds.scope,
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
    });

    const calls = fake.requests.filter((r) => r.path !== "/login");
    expect(calls.map((r) => `${r.path}?${r.query}`)).toEqual([
      "/submissions/all/catalog?status=DELIVERED",
      "/api/Genre/?",
      "/api/Genre/Get/SubGenres?GenreName=Pop",
      "/submissions/catalog/all-data/submission_id?submission_id=1",
    ]);
    for (const r of calls) expect(r.headers.authorization).toBe("Bearer music-token-1");
  });

  it("reuses the token until a 401, then logs in again once", async () => {
    const c = client();
    await c.genres();
    await c.genres();
    expect(fake.tokens).toHaveLength(1);
    fake.expireTokens();
    expect(await c.genres()).toEqual([{ Name: "Pop" }, { Name: "Country" }]);
    expect(fake.tokens).toEqual(["music-token-1", "music-token-2"]);
    fake.fail("/api/Genre/", { kind: "status", status: 401 }, 2);
    await expect(c.genres()).rejects.toMatchObject({ status: 401 });
    expect(fake.tokens).toHaveLength(3);
  });

  it("retries 500s and a hanging call with backoff", async () => {
    fake.fail("/submissions/all/catalog", { kind: "status", status: 503 }, 1);
    fake.fail("/submissions/all/catalog", { kind: "hang" }, 1);
    expect(await client(300).deliveredSubmissions()).toHaveLength(6);
    expect(fake.requestsTo("/submissions/all/catalog")).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it("a non-OK status raises the response's message, or 'Request failed'", async () => {
    await expect(client().releaseDetail("nope")).rejects.toMatchObject({ status: 404, message: "Submission not found" });
    fake.fail("/api/Genre/", { kind: "html" }, 1);
    await expect(client().genres()).rejects.toThrow(/Expected JSON/);
  });
});

describe("redirects never carry the API's credentials elsewhere (issue #7)", () => {
  it("a redirect to another origin is followed without the Bearer token", async () => {
    const elsewhere = await startFakeServer("/elsewhere/", () => ({ status: 200, body: [{ Name: "Moved" }] }));
    try {
      fake.fail("/api/Genre/", { kind: "redirect", status: 308, location: `${elsewhere.url}genres` });
      expect(await client().genres()).toEqual([{ Name: "Moved" }]);
      const [moved] = elsewhere.requestsTo("/genres");
      expect(moved.headers.authorization).toBeUndefined();
      expect(moved.headers.cookie).toBeUndefined();
      expect(fake.requestsTo("/api/Genre/")[0].headers.authorization).toMatch(/^Bearer /);
    } finally {
      await elsewhere.close();
    }
  });

  it("the login form (password, client secret) is never re-posted to another origin", async () => {
    const elsewhere = await startFakeServer("/elsewhere/", () => ({ status: 200, body: { access_token: "stolen" } }));
    try {
      fake.fail("/login", { kind: "redirect", status: 307, location: `${elsewhere.url}login` });
      await expect(client().genres()).rejects.toThrow(/Refused a redirect of a request body to another origin/);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it("a redirect to a non-http(s) location, or a redirect loop, is refused", async () => {
    const c = client();
    fake.fail("/api/Genre/", { kind: "redirect", status: 302, location: "file:///etc/passwd" });
    await expect(c.genres()).rejects.toThrow(/Refused a redirect .*file:/);
    fake.fail("/api/Genre/", { kind: "redirect", status: 302, location: `${fake.url}api/Genre/` }, 10);
    await expect(c.genres()).rejects.toThrow(/Too many redirects/);
    // one request refused at its redirect; then a request and 5 redirects followed
    expect(fake.requestsTo("/api/Genre/")).toHaveLength(1 + 1 + 5);
  });
});

describe("singles, details and genres in the catalog service", () => {
  let dataDir: string;
  let service: CatalogService | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-music-"));
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string> = {}) => {
    const log = captureLogger();
    const config = parseConfig({
      DATA_DIR: dataDir,
      ...musicApiEnv(fake.url, creds),
      MUSIC_API_EXCLUDED_USER_IDS: "US999999, US888888",
      ...env,
    });
    service = await startCatalog({ config, logger: log.logger, refresh: false, retry: { baseMs: 1 }, timeoutMs: 1000 });
    await service.syncNow();
    return { service, log };
  };

  it("shows the visible singles with sub-genre and release date from their details", async () => {
    const { service } = await start();
    const singles = service.snapshot().singles;
    // excluded user, duplicate id, case-insensitive duplicate and PENDING are gone; sorted ignoring case
    expect(singles.map((s) => s.title)).toEqual(["Apple", "banana", "zebra song"]);
    expect(singles[0]).toMatchObject({ id: "1", subGenre: "Synth-pop", releaseDate: "2023-03-09", keywords: [""] });
    expect(service.snapshot().genres).toEqual(["Pop", "Country"]);
  });

  it("fetches each release detail once and answers the sheet from the cache", async () => {
    const { service } = await start();
    const before = fake.requestsTo("/submissions/catalog/all-data").length;
    expect(before).toBe(3);
    const d = await service.releaseDetail("1");
    expect(d).toMatchObject({ submissionId: "1", label: "WL", subGenre: "Synth-pop" });
    await service.syncNow();
    expect(fake.requestsTo("/submissions/catalog/all-data")).toHaveLength(before);
    // an excluded user's submission is never looked up, even by id
    expect(await service.releaseDetail("4")).toBeNull();
    expect(fake.requestsTo("/submissions/catalog/all-data")).toHaveLength(before);
  });

  it("a sync that changes nothing leaves the served snapshot as it was; a change is announced once (ADR 0084)", async () => {
    const { service } = await start();
    const served = service.snapshot();
    const changes: { sources: readonly string[]; cause: string }[] = [];
    service.onChange((change) => changes.push(change));
    await service.syncNow();
    expect(service.snapshot()).toBe(served);
    expect(changes).toEqual([]);

    fake.data = { ...smallData(), audios: [...smallData().audios, audio("7", "cherry", "Mei")] };
    await service.syncNow();
    expect(changes).toEqual([{ version: served.version + 1, sources: ["singles"], cause: "sync" }]);
    expect(service.snapshot().singles.map((s) => s.title)).toEqual(["Apple", "banana", "cherry", "zebra song"]);
  });

  it("caches sub-genres; an empty list stays empty", async () => {
    const { service } = await start();
    const calls = fake.requestsTo("/api/Genre/Get/SubGenres").length;
    expect(await service.subGenres("Pop")).toEqual(["Indie Pop", "Synth-pop"]);
    expect(await service.subGenres("Country")).toEqual([]);
    expect(fake.requestsTo("/api/Genre/Get/SubGenres")).toHaveLength(calls);
  });

  it("a genre response that is not a list: warning and an empty list", async () => {
    fake.data = { ...smallData(), genres: { Name: "Pop" }, subGenres: { Pop: "nope" as unknown as [] } };
    const { service, log } = await start();
    expect(service.snapshot().genres).toEqual([]);
    expect(log.lines().filter((l) => l.level === 40).map((l) => l.msg)).toContain("genre response is not a list");
    expect(await service.subGenres("Pop")).toEqual([]);
  });

  it("no singles: the warning 'No singles data received from API' and an empty list", async () => {
    fake.data = { ...smallData(), audios: [] };
    const { service, log } = await start();
    expect(service.snapshot().singles).toEqual([]);
    expect(log.lines().find((l) => l.msg === "No singles data received from API")?.level).toBe(40);
  });

  it("the sample music data goes through the same pipeline (no MUSIC_API_*)", async () => {
    const log = captureLogger();
    service = await startCatalog({ config: parseConfig({ DATA_DIR: dataDir }), logger: log.logger, refresh: false });
    const singles = service.snapshot().singles;
    const sample = sampleMusicApi();
    const delivered = sample.audios.filter((a) => a.status === "DELIVERED" && !sample.testUserIds.includes(String(a.user_id)));
    expect(singles.length).toBeGreaterThan(30);
    expect(singles.length).toBeLessThan(delivered.length);
    expect(new Set(singles.map((s) => s.id)).size).toBe(singles.length);
    expect(singles.every((s) => s.releaseDate)).toBe(true);
    const titles = singles.map((s) => s.title.toLowerCase());
    expect([...titles].sort()).toEqual(titles);
  });
});
