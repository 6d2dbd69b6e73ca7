import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startCatalog, type CatalogService } from "../../app/.server/catalog/service.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { startFakeServer, type Answer, type FakeServer } from "../../benchmarks/lib/http-fake.ts";
import { captureLogger } from "../fakes/log-capture.ts";

const albums = [
  { name: "Sounds of Ghana", artist: "Kofi Mensah", genre: "African", artwork: "cover-01.webp", keywords: ["african", "ghana"], featured: true, tracks: [{ s3Path: "track-01.wav", Filename: "Accra Morning" }] },
  null,
  { name: "Oldies", artist: "Ana", genre: "Jazz", artwork: "cover-02.webp", keywords: ["jazz", "oldies jazz"], featured: false, tracks: [] },
  { artist: "entry without a name" },
];
const channels = [
  null,
  { name: "Golden Roads TV", description: "d", category: "Music", language: "English", country: "UK", keywords: ["music"], thumbnail: "channel-01.webp", subscriberCount: 1_500_000, videoCount: 40, lastUpdated: "2026-01-01T00:00:00.000Z" },
];

let dataDir: string;
let upstream: FakeServer;
let payload: { albums: unknown; channels: unknown };
let service: CatalogService | undefined;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-sources-"));
  payload = { albums, channels };
  upstream = await startFakeServer("/static/", (req) => {
    if (req.path === "/merged.json") return { status: 200, body: payload.albums };
    if (req.path === "/channels.json") return { status: 200, body: payload.channels };
    return { status: 404, body: { message: "Not Found" } };
  });
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = async (env: Record<string, string>) => {
  const log = captureLogger();
  service = await startCatalog({
    config: parseConfig({ DATA_DIR: dataDir, ...env }),
    logger: log.logger,
    refresh: false,
    retry: { baseMs: 1 },
    timeoutMs: 500,
  });
  return { service, log };
};

describe("album and channel sources", () => {
  it("reads albums and channels over http(s): nulls and invalid entries dropped, with a logged count", async () => {
    const { service, log } = await start({ ALBUMS_URL: `${upstream.url}merged.json`, CHANNELS_URL: `${upstream.url}channels.json` });
    await service.syncNow();
    const snap = service.snapshot();
    expect(snap.albums.toArray().map((a) => a.name)).toEqual(["Sounds of Ghana", "Oldies"]);
    expect(snap.albums.get(0)).toMatchObject({ artist: "Kofi Mensah", keywords: ["african", "ghana"], featured: true });
    expect(snap.albums.id(0)).toMatch(/^[A-Za-z0-9_-]{10}$/);
    expect(snap.channels.map((c) => c.name)).toEqual(["Golden Roads TV"]);
    expect(upstream.requestsTo("/merged.json")[0].headers.accept).toBe("application/json");
    expect(log.lines().find((l) => l.msg === "dropped invalid catalog entries")).toMatchObject({ source: "albums", invalid: 1 });
  });

  it("reads albums from a file path", async () => {
    const file = path.join(dataDir, "my-albums.json");
    fs.writeFileSync(file, JSON.stringify(albums));
    const { service } = await start({ ALBUMS_URL: file });
    // a local file is read before startCatalog returns: the first page already has it
    expect(service.snapshot().albums.toArray().map((a) => a.name)).toEqual(["Sounds of Ghana", "Oldies"]);
  });

  it("a file that is not valid JSON is a logged failure, not a crash", async () => {
    const file = path.join(dataDir, "broken.json");
    fs.writeFileSync(file, "[{");
    const { service, log } = await start({ ALBUMS_URL: file });
    expect(service.snapshot().albums.toArray()).toEqual([]);
    expect(service.status().find((s) => s.name === "albums")).toMatchObject({ ok: false, error: expect.stringMatching(/Malformed JSON/) });
    expect(log.messages()).toContain("catalog source failed; serving its last snapshot");
  });

  it("version increments when the data changes, not on an unchanged sync", async () => {
    const { service } = await start({ ALBUMS_URL: `${upstream.url}merged.json` });
    await service.syncNow();
    const v1 = service.snapshot().version;
    await service.syncNow();
    expect(service.snapshot().version).toBe(v1);
    payload.albums = [...albums, { name: "New Album", artist: "Mei", keywords: ["house"] }];
    await service.syncNow();
    expect(service.snapshot().version).toBeGreaterThan(v1);
    expect(service.snapshot().albums.toArray().map((a) => a.name)).toContain("New Album");
  });
});

// Issue #42 "One sync per cluster", ADR 0157: an upstream that gives a change stamp is asked with
// it, so an unchanged list costs a 304 — no download, no parse, no hash — even after a restart
// (the stamp is kept in the snapshot's header).
describe("conditional requests to http(s) upstreams", () => {
  let etag: string;
  let modified: string;
  beforeEach(async () => {
    etag = '"v1"';
    modified = "Wed, 25 Nov 2026 10:00:00 GMT";
    // this block's upstream gives change stamps
    await upstream.close();
  });
  const serve = async () => {
    upstream = await startFakeServer("/static/", (req): Answer => {
      if (req.path === "/merged.json") {
        if (req.headers["if-none-match"] === etag) return { status: 304, body: undefined };
        return { status: 200, body: payload.albums, headers: { ETag: etag } };
      }
      if (req.path === "/channels.json") {
        if (req.headers["if-modified-since"] === modified) return { status: 304, body: undefined };
        return { status: 200, body: payload.channels, headers: { "Last-Modified": modified } };
      }
      return { status: 404, body: { message: "Not Found" } };
    });
  };

  it("sends the served list's ETag or Last-Modified; a 304 changes nothing; a new stamp brings the new list", async () => {
    await serve();
    const env = { ALBUMS_URL: `${upstream.url}merged.json`, CHANNELS_URL: `${upstream.url}channels.json`, CATALOG_CHANNELS_ENABLED: "true" };
    const { service } = await start(env);
    await service.syncNow();
    const v1 = service.snapshot().version;
    expect(upstream.requestsTo("/merged.json")[0].headers["if-none-match"]).toBeUndefined();

    await service.syncNow();
    const [albumsAgain, channelsAgain] = [upstream.requestsTo("/merged.json").at(-1)!, upstream.requestsTo("/channels.json").at(-1)!];
    expect(albumsAgain.headers["if-none-match"]).toBe('"v1"');
    expect(channelsAgain.headers["if-modified-since"]).toBe(modified);
    expect(service.snapshot().version).toBe(v1);
    expect(service.status().every((s) => s.ok)).toBe(true);

    // after a restart the stamp comes from the snapshot's header: still a 304
    await service.close();
    const again = await start(env);
    const before = upstream.requestsTo("/merged.json").length;
    await again.service.syncNow();
    expect(upstream.requestsTo("/merged.json").slice(before).map((r) => r.headers["if-none-match"])).toEqual(['"v1"']);
    expect(again.service.snapshot().albums.toArray().map((a) => a.name)).toEqual(["Sounds of Ghana", "Oldies"]);

    etag = '"v2"';
    payload.albums = [...albums, { name: "New Album", artist: "Mei", keywords: ["house"] }];
    const v2 = again.service.snapshot().version;
    await again.service.syncNow();
    expect(again.service.snapshot().version).toBeGreaterThan(v2);
    expect(again.service.snapshot().albums.toArray().map((a) => a.name)).toContain("New Album");
  });

  it("a forced sync asks without the stamp (the operator re-reads the list)", async () => {
    await serve();
    const { service } = await start({ ALBUMS_URL: `${upstream.url}merged.json` });
    await service.syncNow();
    await service.syncNow({ force: true, sources: ["albums"] });
    expect(upstream.requestsTo("/merged.json").at(-1)!.headers["if-none-match"]).toBeUndefined();
  });
});

describe("a source down at start-up", () => {
  it("serves the snapshot on disk, logs the failure, and recovers when the source is back", async () => {
    const env = { ALBUMS_URL: `${upstream.url}merged.json` };
    const first = await start(env);
    await first.service.syncNow();
    const ids = first.service.snapshot().albums.toArray().map((a) => a.id);
    await first.service.close();
    service = undefined;
    expect(fs.existsSync(path.join(dataDir, "catalog", "snapshots", "albums.json"))).toBe(true);

    const before = upstream.requestsTo("/merged.json").length;
    // exactly one sync's worth of failures: the first try and its 3 retries
    upstream.fail("/merged.json", { kind: "status", status: 500, message: "upstream down" }, 4);
    const { service: second, log } = await start(env);
    // before any sync finishes, the snapshot is already served
    expect(second.snapshot().albums.toArray().map((a) => a.id)).toEqual(ids);
    await second.syncNow();
    expect(second.snapshot().albums.toArray().map((a) => a.id)).toEqual(ids);
    const failure = log.lines().find((l) => l.msg === "catalog source failed; serving its last snapshot");
    expect(failure).toMatchObject({ source: "albums", status: 500, err: "upstream down", level: 50 });
    expect(second.status().find((s) => s.name === "albums")).toMatchObject({ ok: false, count: 2 });
    // 1 try + 3 retries, then it gave up until the next sync
    expect(upstream.requestsTo("/merged.json").length - before).toBe(1 + 3);

    // the source is back: the next sync succeeds
    await second.syncNow();
    expect(second.status().find((s) => s.name === "albums")).toMatchObject({ ok: true, count: 2 });
  });

  it("a source that hangs never holds up start-up", async () => {
    upstream.fail("/merged.json", { kind: "hang" }, 100);
    const { service } = await start({ ALBUMS_URL: `${upstream.url}merged.json` });
    // start-up returned while the album request is still in flight (4 attempts of 500 ms
    // each would have ended in a logged error had it waited)
    expect(upstream.requestsTo("/merged.json").length).toBeGreaterThanOrEqual(1);
    const albumsStatus = service.status().find((s) => s.name === "albums");
    expect(albumsStatus?.ok).toBe(false);
    expect(albumsStatus?.error).toBeUndefined();
    expect(service.snapshot().albums.toArray()).toEqual([]);
    // the other (local sample) sources are there
    expect(service.snapshot().channels.length).toBeGreaterThan(0);
    await service.syncNow();
    expect(service.status().find((s) => s.name === "albums")?.error).toMatch(/timed out/);
  });
});
