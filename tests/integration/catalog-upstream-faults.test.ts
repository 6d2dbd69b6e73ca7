import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalogIndex } from "../../app/.server/catalog/index.ts";
import { startCatalog, type CatalogDeps, type CatalogService } from "../../app/.server/catalog/service.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { defaultCatalogState } from "../../app/lib/catalog/url-state.ts";
import { startFakeServer, type FakeServer } from "../../benchmarks/lib/http-fake.ts";
import { captureLogger } from "../fakes/log-capture.ts";
import { albumEntry as album } from "../support/catalog-fixtures.ts";

/**
 * Issue #7 "Upstream faults keep the last good data" and the upstream bounds: an album source
 * over loopback answers faults in turn, and a visitor must keep seeing every album, with the
 * snapshot on disk untouched, until the operator forces the change.
 */
const FIVE = [1, 2, 3, 4, 5].map(album);
const NAMES = FIVE.map((a) => a.name);

let dataDir: string;
let upstream: FakeServer;
let payload: unknown;
let service: CatalogService | undefined;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-faults-"));
  payload = FIVE;
  upstream = await startFakeServer("/static/", (req) =>
    req.path === "/merged.json" ? { status: 200, body: payload } : { status: 404, body: { message: "Not Found" } },
  );
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ALBUMS_URL = () => `${upstream.url}merged.json`;
const snapshotFile = () => path.join(dataDir, "catalog", "snapshots", "albums.json");

const start = async (env: Record<string, string> = {}, deps: Partial<CatalogDeps> = {}) => {
  const log = captureLogger();
  service = await startCatalog({
    config: parseConfig({ DATA_DIR: dataDir, ALBUMS_URL: ALBUMS_URL(), ...env }),
    logger: log.logger,
    refresh: false,
    retry: { baseMs: 1 },
    timeoutMs: 2000,
    ...deps,
  });
  await service.syncNow({ sources: ["albums"] });
  return { service, log };
};

/** What a visitor sees on /catalog: the album cards of every page. */
const shownAlbums = (s: CatalogService) => {
  const index = createCatalogIndex(s);
  const first = index.query(defaultCatalogState());
  const names: string[] = [];
  for (let page = 1; page <= first.pageCount; page++) {
    for (const card of index.query({ ...defaultCatalogState(), page }).items) if (card.kind === "album") names.push(card.name);
  }
  return names;
};
const albumsStatus = (s: CatalogService) => s.status().find((x) => x.name === "albums")!;

describe("upstream faults keep the last good snapshot", () => {
  it("[], {}, invalid JSON, all-invalid entries and a list cut by more than half: every album still shown, snapshot byte-identical; --force accepts the smaller list", async () => {
    const { service, log } = await start();
    expect(shownAlbums(service)).toEqual(NAMES);
    const good = fs.readFileSync(snapshotFile());

    const faults: { what: string; answer: () => void; error: RegExp }[] = [
      { what: "an empty list", answer: () => (payload = []), error: /empty list; the snapshot has 5/ },
      { what: "an object", answer: () => (payload = {}), error: /expected a list/ },
      // invalid JSON is retried (it may be a truncated read): every try gets it
      { what: "invalid JSON", answer: () => upstream.fail("/merged.json", { kind: "malformed" }, 4), error: /Malformed JSON/ },
      { what: "entries that all fail validation", answer: () => (payload = [{ artist: "no name" }, { name: "" }, 42]), error: /none of the 3 entries/ },
      { what: "a list cut from 5 to 2", answer: () => (payload = FIVE.slice(0, 2)), error: /shrank from 5 to 2/ },
    ];
    for (const fault of faults) {
      payload = FIVE;
      fault.answer();
      await service.syncNow();
      expect(shownAlbums(service), fault.what).toEqual(NAMES);
      expect(fs.readFileSync(snapshotFile()).equals(good), `${fault.what}: snapshot file unchanged`).toBe(true);
      expect(albumsStatus(service), fault.what).toMatchObject({ ok: false, count: 5, error: expect.stringMatching(fault.error) });
    }
    // each was logged as an error, the held-back answers with their counts
    const errors = log.lines().filter((l) => l.level === 50 && l.source === "albums");
    expect(errors).toHaveLength(5);
    expect(errors.find((l) => l.msg === "catalog source answer held back; serving its last snapshot" && l.count === 2)).toMatchObject({
      snapshotCount: 5,
      maxShrink: 0.5,
    });

    // the operator: the catalog really was cut down
    payload = FIVE.slice(0, 2);
    await service.syncNow({ force: true, sources: ["albums"] });
    expect(shownAlbums(service)).toEqual(NAMES.slice(0, 2));
    expect(albumsStatus(service)).toMatchObject({ ok: true, count: 2 });
    const replaced = JSON.parse(fs.readFileSync(snapshotFile(), "utf8")) as { data: { name: string }[] };
    expect(replaced.data.map((a) => a.name)).toEqual(NAMES.slice(0, 2));
  });

  it("a smaller list within CATALOG_MAX_SHRINK is accepted", async () => {
    const { service } = await start({ CATALOG_MAX_SHRINK: "0.7" });
    payload = FIVE.slice(0, 2);
    await service.syncNow();
    expect(shownAlbums(service)).toEqual(NAMES.slice(0, 2));
  });

  it("with no snapshot yet, an empty list is a fresh, empty catalog", async () => {
    payload = [];
    const { service } = await start();
    expect(albumsStatus(service)).toMatchObject({ ok: true, count: 0 });
    expect(fs.existsSync(snapshotFile())).toBe(true);
    payload = FIVE;
    await service.syncNow();
    expect(shownAlbums(service)).toEqual(NAMES);
  });

  it("a file source emptied on disk is held back too, and --force accepts it", async () => {
    const file = path.join(dataDir, "albums.json");
    fs.writeFileSync(file, JSON.stringify(FIVE));
    const { service } = await start({ ALBUMS_URL: file });
    const good = fs.readFileSync(snapshotFile());
    fs.writeFileSync(file, "[]");
    await service.syncNow();
    await service.syncNow();
    expect(shownAlbums(service)).toEqual(NAMES);
    expect(fs.readFileSync(snapshotFile()).equals(good)).toBe(true);
    await service.syncNow({ force: true });
    expect(shownAlbums(service)).toEqual([]);
  });
});

describe("upstream bounds", () => {
  it("a body over UPSTREAM_MAX_BYTES is cut off while streaming: clear error, snapshot kept, memory flat", async () => {
    const { service } = await start({ UPSTREAM_MAX_BYTES: String(1024 * 1024) });
    const good = fs.readFileSync(snapshotFile());
    const progress = { sent: 0 };
    // no Content-Length (chunked): only counting the bytes read can stop it
    upstream.fail("/merged.json", { kind: "stream", bytes: 128 * 1024 * 1024, progress });
    const requests = upstream.requestsTo("/merged.json").length;
    const rss = process.memoryUsage().rss;
    await service.syncNow();
    expect(albumsStatus(service)).toMatchObject({ ok: false, error: expect.stringMatching(/too large.*UPSTREAM_MAX_BYTES \(1048576 bytes\)/) });
    expect(shownAlbums(service)).toEqual(NAMES);
    expect(fs.readFileSync(snapshotFile()).equals(good)).toBe(true);
    // the reader stopped soon after the cap: the upstream never got to send its 128 MiB
    expect(progress.sent).toBeLessThan(16 * 1024 * 1024);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
    // not retried: the same upstream would send the same body
    expect(upstream.requestsTo("/merged.json")).toHaveLength(requests + 1);
  });

  it("a declared Content-Length over the cap is refused before the body is read", async () => {
    const { service } = await start({ UPSTREAM_MAX_BYTES: String(1024 * 1024) });
    const progress = { sent: 0 };
    upstream.fail("/merged.json", { kind: "stream", bytes: 64 * 1024 * 1024, declareLength: true, progress });
    await service.syncNow();
    expect(albumsStatus(service).error).toMatch(/too large/);
    expect(progress.sent).toBeLessThan(16 * 1024 * 1024);
    expect(shownAlbums(service)).toEqual(NAMES);
  });

  it("a file source over UPSTREAM_MAX_BYTES is refused without being read", async () => {
    const file = path.join(dataDir, "albums.json");
    fs.writeFileSync(file, JSON.stringify(FIVE));
    const { service } = await start({ ALBUMS_URL: file, UPSTREAM_MAX_BYTES: "4096" });
    fs.writeFileSync(file, JSON.stringify([...FIVE, ...Array.from({ length: 100 }, (_, i) => album(100 + i))]));
    await service.syncNow();
    expect(albumsStatus(service)).toMatchObject({ ok: false, error: expect.stringMatching(/too large: over UPSTREAM_MAX_BYTES \(4096 bytes\)/) });
    expect(shownAlbums(service)).toEqual(NAMES);
  });

  it("UPSTREAM_TIMEOUT_SECONDS covers the body: an answer that trickles in forever times out", async () => {
    // no timeoutMs override: the configuration's value is used
    const { service } = await start({ UPSTREAM_TIMEOUT_SECONDS: "1" }, { timeoutMs: undefined, retry: { retries: 0 } });
    upstream.fail("/merged.json", { kind: "trickle" });
    await service.syncNow();
    expect(albumsStatus(service)).toMatchObject({ ok: false, error: expect.stringMatching(/timed out after 1 s/) });
    expect(shownAlbums(service)).toEqual(NAMES);
  });
});
