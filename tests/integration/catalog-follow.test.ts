import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalogIndex } from "../../app/.server/catalog/index.ts";
import { samplePaths } from "../../app/.server/catalog/sample/ensure.ts";
import { startCatalog, type CatalogDeps, type CatalogService } from "../../app/.server/catalog/service.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { defaultCatalogState } from "../../app/lib/catalog/url-state.ts";
import { startFakeServer, type FakeServer } from "../../benchmarks/lib/http-fake.ts";
import { captureLogger } from "../fakes/log-capture.ts";
import { musicApiEnv, startFakeMusicApi, type FakeMusicApi, type MusicApiData } from "../../benchmarks/lib/music-api.ts";
import { waitFor } from "../support/wait.ts";
import { albumEntry as album, releaseDetailEntry as detail, submissionEntry as audio } from "../support/catalog-fixtures.ts";

/**
 * Issue #8 "Several cores": with WEB_CONCURRENCY > 1 one server process syncs the catalog and
 * the others follow it (ADR 0081). A follower shares the syncing process's DATA_DIR, serves
 * the snapshots it writes (albums, singles with their release details, genres, sub-genres),
 * and never calls an upstream itself, nor generates the sample catalog.
 */


const creds = {
  username: "catalog-reader",
  password: "secret",
  clientId: "site-client",
  clientSecret: "client-secret",
  scope: "catalog.read",
  grantType: "password",
  appSource: "northbeat-site",
};
const musicData = (): MusicApiData => ({
  // single 3 has no release detail upstream (404): the follower must not go looking for it
  audios: [audio("1", "Apple"), audio("2", "Banana"), audio("3", "Cherry")],
  details: { "1": detail("1", { sub: "Synth-pop" }), "2": detail("2", { sub: "Indie Pop" }) },
  genres: [{ Name: "Pop" }, { Name: "Country" }],
  subGenres: { Pop: [{ Name: "Indie Pop" }, { Name: "Synth-pop" }], Country: [{ Name: "Bluegrass" }] },
});

let dataDir: string;
let files: FakeServer;
let music: FakeMusicApi;
let albums: unknown[];
const services: CatalogService[] = [];

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-follow-"));
  albums = [1, 2, 3, 4, 5].map(album);
  files = await startFakeServer("/static/", (req) =>
    req.path === "/merged.json"
      ? { status: 200, body: albums }
      : req.path === "/channels.json" || req.path === "/films.json"
        ? { status: 200, body: [] }
        : { status: 404, body: { message: "Not Found" } },
  );
  music = await startFakeMusicApi(creds, musicData());
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await files.close();
  await music.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const upstreamConfig = () =>
  parseConfig({
    DATA_DIR: dataDir,
    ALBUMS_URL: `${files.url}merged.json`,
    CHANNELS_URL: `${files.url}channels.json`,
    FILMS_URL: `${files.url}films.json`,
    ...musicApiEnv(music.url, creds),
  });

const start = async (config: ReturnType<typeof parseConfig>, deps: Partial<CatalogDeps> = {}) => {
  const service = await startCatalog({ config, logger: captureLogger().logger, refresh: false, retry: { baseMs: 1 }, timeoutMs: 2000, ...deps });
  services.push(service);
  return service;
};
const follower = (config: ReturnType<typeof parseConfig>) => start(config, { follow: true, followIntervalMs: 50 });

/** Album names a visitor sees on /catalog, every page. */
const shownAlbums = (s: CatalogService) => {
  const index = createCatalogIndex(s);
  const names: string[] = [];
  const pages = index.query(defaultCatalogState()).pageCount;
  for (let page = 1; page <= pages; page++) {
    for (const card of index.query({ ...defaultCatalogState(), page }).items) if (card.kind === "album") names.push(card.name);
  }
  return names;
};
const content = (s: CatalogService) => {
  const { albums, films, singles, channels, genres } = s.snapshot();
  return { albums: albums.toArray(), films, singles, channels, genres };
};
const upstreamRequests = () => files.requests.length + music.requests.length;

describe("a follower catalog (WEB_CONCURRENCY > 1)", () => {
  it("serves what the syncing process wrote, adopts its next sync, and never calls an upstream", async () => {
    const config = upstreamConfig();
    // Started first, on an empty DATA_DIR: an empty catalog, and not one upstream request.
    const follow = await follower(config);
    await follow.syncNow();
    expect(content(follow)).toEqual({ albums: [], films: [], singles: [], channels: [], genres: [] });
    expect(upstreamRequests()).toBe(0);

    const sync = await start(config);
    await sync.syncNow();
    const afterSync = upstreamRequests();
    expect(afterSync).toBeGreaterThan(0);
    expect(shownAlbums(sync)).toEqual(["Album 1", "Album 2", "Album 3", "Album 4", "Album 5"]);

    // The follower catches up: the same albums, the singles with their release details, the
    // genres and the sub-genres, all from the snapshots.
    // one look adopts the sources' snapshots, then the lookups (sub-genres, release details):
    // wait for both, or a busy machine sees the first without the second
    await waitFor("the follower to adopt the snapshots", () => JSON.stringify(content(follow)) === JSON.stringify(content(sync)));
    await waitFor("the follower to adopt the lookups", async () => (await follow.subGenres("Pop")).length > 0 || undefined);
    expect(shownAlbums(follow)).toEqual(shownAlbums(sync));
    expect(follow.snapshot().singles.map((s) => s.title).sort()).toEqual(["Apple", "Banana", "Cherry"]);
    expect(await follow.subGenres("Pop")).toEqual(["Indie Pop", "Synth-pop"]);
    expect(await follow.subGenres("Country")).toEqual(["Bluegrass"]);
    expect(await follow.releaseDetail("1")).toEqual(await sync.releaseDetail("1"));
    // What the snapshots lack, the follower answers without asking the upstream.
    const beforeLookups = upstreamRequests();
    expect(await follow.releaseDetail("3")).toBeNull();
    expect(await follow.subGenres("Jazz")).toEqual([]);
    await follow.syncNow();
    await new Promise((r) => setTimeout(r, 300)); // several follow intervals
    expect(upstreamRequests()).toBe(beforeLookups);

    // The syncing process's next sync reaches the follower without a restart.
    const versionBefore = follow.snapshot().version;
    albums = [1, 2, 3, 4, 5, 6].map(album);
    await sync.syncNow({ sources: ["albums"] });
    const afterSecondSync = upstreamRequests();
    await waitFor("the follower to show album 6", () => shownAlbums(follow).includes("Album 6"));
    expect(shownAlbums(follow)).toHaveLength(6);
    expect(follow.snapshot().version).toBeGreaterThan(versionBefore);
    expect(follow.status().find((s) => s.name === "albums")).toMatchObject({ count: 6 });
    await new Promise((r) => setTimeout(r, 300));
    expect(upstreamRequests()).toBe(afterSecondSync);
  });

  it("never generates the sample catalog: it shows it once the syncing process has", { timeout: 120_000 }, async () => {
    // No sources configured: the sample catalog in DATA_DIR is the default of every source.
    const config = parseConfig({ DATA_DIR: dataDir });
    const sample = samplePaths(dataDir);
    const follow = await follower(config);
    expect(fs.existsSync(sample.dir)).toBe(false);
    expect(fs.existsSync(sample.media)).toBe(false);
    expect(shownAlbums(follow)).toEqual([]);

    const sync = await start(config);
    expect(fs.existsSync(sample.albums)).toBe(true);
    await waitFor("the follower to show the sample albums", () => shownAlbums(follow).length > 0, 30_000);
    await waitFor("the follower to match the syncing process", () => JSON.stringify(content(follow)) === JSON.stringify(content(sync)), 30_000);
    expect(shownAlbums(follow)).toEqual(shownAlbums(sync));
  });
});
