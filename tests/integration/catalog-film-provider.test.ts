import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FilmProviderClient } from "../../app/.server/catalog/film-provider/client.ts";
import { startCatalog } from "../../app/.server/catalog/service.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { startFakeFilmProvider, type FakeFilmProvider } from "../fakes/film-provider.ts";
import { startFakeServer } from "../../benchmarks/lib/http-fake.ts";
import { captureLogger } from "../fakes/log-capture.ts";

const EMAIL = "catalog@example.com";
const PASSWORD = "s3cret-film";

const details = [
  { film_id: "1", title: "Detail Title", format: "Documentary", portrait: "p1.webp", film_status: "draft" },
  { film_id: "2", title: "Second", format: "Feature Film", landscape: "l2.webp", film_status: "completed" },
  { film_id: "3", title: "Unfinished", format: "Short Film", film_status: "processing" },
];
const catalog: Record<string, unknown>[] = [
  { film_id: "1", title: "Catalog Title", film_status: "completed" },
  { film_id: "4", title: "Catalog Only", format: "Series", artwork: ["a4.webp"], film_status: "completed" },
  null as unknown as Record<string, unknown>,
];

let fake: FakeFilmProvider;
const waits: number[] = [];
const client = (timeoutMs = 2000) =>
  new FilmProviderClient({
    baseUrl: fake.url,
    email: EMAIL,
    password: PASSWORD,
    timeoutMs,
    retry: { sleep: async (ms) => void waits.push(ms) },
  });

beforeEach(async () => {
  waits.length = 0;
  fake = await startFakeFilmProvider({ email: EMAIL, password: PASSWORD, catalog, details });
});
afterEach(() => fake.close());

describe("FilmProviderClient against a fake provider over loopback", () => {
  it("logs in with JSON {email,password}, then sends Access-Key on dbcatalog and dbdetails", async () => {
    const c = client();
    expect(await c.catalogItems()).toEqual(catalog);
    expect(await c.detailItems()).toEqual(details);

    const [login] = fake.requestsTo("/login");
    expect(login.method).toBe("POST");
    expect(login.headers["content-type"]).toBe("application/json");
    expect(login.headers.accept).toBe("application/json");
    expect(JSON.parse(login.body)).toEqual({ email: EMAIL, password: PASSWORD });
    for (const p of ["/dbcatalog", "/dbdetails"]) {
      const [req] = fake.requestsTo(p);
      expect(req.method).toBe("GET");
      expect(req.headers["access-key"]).toBe("film-token-1");
      expect(req.headers.accept).toBe("application/json");
    }
    // the token is reused: one login for both lists
    expect(fake.requestsTo("/login")).toHaveLength(1);
  });

  it("logs in again once after a 401, then succeeds", async () => {
    const c = client();
    await c.catalogItems();
    fake.expireTokens();
    expect(await c.detailItems()).toEqual(details);
    expect(fake.tokens).toEqual(["film-token-1", "film-token-2"]);
    expect(fake.requestsTo("/dbdetails").map((r) => r.headers["access-key"])).toEqual(["film-token-1", "film-token-2"]);
  });

  it("re-logs in only once: a second 401 is an error", async () => {
    fake.fail("/dbcatalog", { kind: "status", status: 401, message: "Token revoked" }, 2);
    await expect(client().catalogItems()).rejects.toMatchObject({ status: 401, message: "Token revoked" });
    expect(fake.requestsTo("/login")).toHaveLength(2);
  });

  it("wrong credentials: the provider's message, no endless retries", async () => {
    const c = new FilmProviderClient({ baseUrl: fake.url, email: EMAIL, password: "wrong", retry: { sleep: async () => {} } });
    await expect(c.catalogItems()).rejects.toMatchObject({ status: 401, message: "Invalid credentials" });
    expect(fake.requestsTo("/login")).toHaveLength(1);
  });

  it("retries 500s with exponential backoff", async () => {
    fake.fail("/dbcatalog", { kind: "status", status: 500 }, 2);
    expect(await client().catalogItems()).toHaveLength(3);
    expect(fake.requestsTo("/dbcatalog")).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it("times out a hanging call and retries it", async () => {
    fake.fail("/dbdetails", { kind: "hang" }, 1);
    const started = Date.now();
    expect(await client(300).detailItems()).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(fake.requestsTo("/dbdetails")).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it("gives up after 3 retries of malformed JSON", async () => {
    fake.fail("/dbcatalog", { kind: "malformed" }, 10);
    await expect(client().catalogItems()).rejects.toThrow(/Malformed JSON/);
    expect(fake.requestsTo("/dbcatalog")).toHaveLength(4);
    expect(waits).toEqual([1000, 2000, 4000]);
  });

  it("does not parse a non-JSON answer", async () => {
    fake.fail("/dbcatalog", { kind: "html" }, 1);
    await expect(client().catalogItems()).rejects.toThrow(/Expected JSON/);
  });
});

describe("redirects never carry the provider's credentials elsewhere (issue #7)", () => {
  it("a redirect to another origin is followed without the Access-Key", async () => {
    // another origin: another port on loopback, recording what it is sent
    const elsewhere = await startFakeServer("/elsewhere/", () => ({ status: 200, body: { items: [{ film_id: "9", title: "Moved" }] } }));
    try {
      fake.fail("/dbcatalog", { kind: "redirect", status: 302, location: `${elsewhere.url}dbcatalog` });
      expect(await client().catalogItems()).toEqual([{ film_id: "9", title: "Moved" }]);
      const [moved] = elsewhere.requestsTo("/dbcatalog");
      expect(moved.headers["access-key"]).toBeUndefined();
      expect(moved.headers.authorization).toBeUndefined();
      expect(moved.headers.accept).toBe("application/json");
      // the first hop did carry it
      expect(fake.requestsTo("/dbcatalog")[0].headers["access-key"]).toBe("film-token-1");
    } finally {
      await elsewhere.close();
    }
  });

  it("a redirect within the provider keeps the Access-Key", async () => {
    fake.fail("/dbcatalog", { kind: "redirect", status: 301, location: `${fake.url}dbdetails` });
    expect(await client().catalogItems()).toEqual(details);
    expect(fake.requestsTo("/dbdetails")[0].headers["access-key"]).toBe("film-token-1");
  });

  it("the login (email and password in its body) is never re-posted to another origin", async () => {
    const elsewhere = await startFakeServer("/elsewhere/", () => ({ status: 200, body: { access_token: "stolen" } }));
    try {
      fake.fail("/login", { kind: "redirect", status: 307, location: `${elsewhere.url}login` });
      await expect(client().catalogItems()).rejects.toThrow(/Refused a redirect of a request body to another origin/);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe("films from the provider in the catalog service", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-films-"));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("merges both lists by film_id and keeps only completed films", async () => {
    const { logger } = captureLogger();
    const config = parseConfig({ DATA_DIR: dataDir, FILM_API_URL: fake.url, FILM_API_EMAIL: EMAIL, FILM_API_PASSWORD: PASSWORD });
    const catalogService = await startCatalog({ config, logger, refresh: false, retry: { baseMs: 1 } });
    await catalogService.syncNow();
    const films = catalogService.snapshot().films;
    expect(films.map((f) => [f.film_id, f.title])).toEqual([
      ["1", "Catalog Title"],
      ["2", "Second"],
      ["4", "Catalog Only"],
    ]);
    // merged: the catalog's title and status over the detail's format and portrait
    expect(films[0]).toMatchObject({ format: "Documentary", portrait: "p1.webp", film_status: "completed" });
    // the token never leaves the server: it is not in the snapshot handed to loaders
    expect(JSON.stringify(catalogService.snapshot())).not.toContain("film-token");
    await catalogService.close();
  });
});
