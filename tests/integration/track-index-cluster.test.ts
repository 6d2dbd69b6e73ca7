import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openCatalogCluster, type CatalogCluster } from "../../app/.server/catalog/cluster-sync.ts";
import { createCatalogIndexes } from "../../app/.server/catalog/indexes.ts";
import type { CatalogSource } from "../../app/.server/catalog/index.ts";
import type { CatalogSnapshot } from "../../app/.server/catalog/service.ts";
import { sampleAlbums } from "../../app/.server/catalog/sample/generate.ts";
import type { TrackIndex } from "../../app/.server/catalog/tracks/track-index.ts";
import { NO_YIELD } from "../../app/.server/catalog/tracks/yielding.ts";
import { indexFormat, prefetchIndexVersion } from "../../app/.server/catalog/tracks/index-versions.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";
import { createAnalysisLookup } from "../../app/.server/analysis/stage/lookup.ts";
import { createSharedPostgres, type SharedPostgres } from "../../app/.server/db/postgres-pool.ts";
import type { Album } from "../../app/lib/catalog/types.ts";
import type { TrackQuery } from "../../app/lib/catalog/track-query.ts";
import { DEFAULT_SEED } from "../../app/.server/catalog/sample/generate.ts";
import { seedPostgresResults } from "../../benchmarks/lib/bench-tracks.ts";
import { captureLogger } from "../fakes/log-capture.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

// Issue #42 "The index built once per cluster", ADR 0162 amended (its items 2–3, first slice):
// the lease holder publishes its track index's figures file as a version in PostgreSQL; a
// process that starts into the cluster takes it instead of reading every stored result, and
// reads only the results stored after the version's cursor. Machines here are track indexes in
// one test process, each with its own DATA_DIR and PostgreSQL pool, on one database (as
// catalog-cluster.test.ts does for the catalog).

const ALBUMS = 40;

let db: TestPostgres;
let url: string;
let n = 0;
const albums: Album[] = [...sampleAlbums(ALBUMS, DEFAULT_SEED, { distinctAudio: true })].map((a, i) => ({ ...a, id: `al${i}` }));
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  db = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await db?.stop();
});
beforeEach(async () => {
  url = await db.createDatabase(`track_index_${++n}`);
  // the schema, then the synthetic results (fingerprints and passage codes, as bench:cluster writes them)
  const store = await openAnalysisStore({ DATA_DIR: os.tmpdir(), DATABASE_URL: url });
  await store.close();
  await sql(async (c) => void (await seedPostgresResults((text, params) => c.query(text, params), ALBUMS, { fingerprints: true, passages: true })));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function sql<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
const rows = <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) => sql(async (c) => (await c.query<T>(text, params)).rows);

function source(list: Album[]): CatalogSource {
  const snap: CatalogSnapshot = { albums: list, films: [], singles: [], channels: [], genres: [], version: 1, updatedAt: "2026-11-29T00:00:00Z" };
  return { snapshot: () => snap, mediaUrl: (key) => `/media/${encodeURIComponent(key)}` };
}

/** A machine's server process: its own DATA_DIR and pool; `lead`: it holds the cluster's sync lease. */
async function machine(opts: { lead?: boolean; albums?: Album[]; dataDir?: string; prefetch?: Promise<unknown> } = {}) {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "track-index-cluster-"));
  const postgres: SharedPostgres = createSharedPostgres(url, 4);
  const log = captureLogger();
  const store = await openAnalysisStore({ DATA_DIR: dataDir, DATABASE_URL: url }, { postgres });
  const analysis = await createAnalysisLookup(store, { logger: log.logger });
  let cluster: CatalogCluster | undefined;
  if (opts.lead) {
    cluster = await openCatalogCluster({ postgres, dir: path.join(dataDir, "catalog", "snapshots"), log: log.logger, leaseSeconds: 30, maxBytes: 1e9 });
    expect(await cluster.lead()).toBe(true);
  }
  const figuresDir = path.join(dataDir, "catalog", "index");
  const { tracks } = createCatalogIndexes(source(opts.albums ?? albums), analysis, {
    tracks: { yielder: () => NO_YIELD, logger: log.logger, analysisStore: { DATA_DIR: dataDir, DATABASE_URL: url }, figuresDir, cluster: { publisher: cluster, prefetch: opts.prefetch } },
  });
  cleanups.push(async () => {
    tracks.stop();
    await cluster?.close();
    await analysis.close();
    await postgres.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { tracks, log, figuresDir, dataDir, cluster };
}

const Q = (over: Partial<TrackQuery> = {}): TrackQuery => ({ q: "", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "similarity", page: 1, ...over });
/** what a visitor is shown of a like= view: its rows' titles and albums, and why each is listed */
const likeList = async (index: TrackIndex, seed: string) => {
  const result = await index.query(Q({ like: seed }));
  return { total: result.total, rows: result.rows.map((r) => `${r.id} ${r.title} · ${r.album} · ${r.bpm} · ${r.why ?? ""}`) };
};
const SEEDS = ["al0:0", "al7:1", "al23:0"];
const versions = () => rows<{ version: string; result_seq: string; table_digest: string }>("SELECT version, result_seq, table_digest FROM track_index_versions ORDER BY version");
const resultCount = async () => Number((await rows<{ n: string }>("SELECT count(*) AS n FROM track_analysis WHERE result_seq IS NOT NULL"))[0].n);

describe("the track index built once per cluster (PostgreSQL)", () => {
  it("the lease holder publishes its figures; a process that starts into the cluster takes them, reads only the results after them, and answers like= as the holder does", async () => {
    const holder = await machine({ lead: true });
    await holder.tracks.ready();
    const all = await resultCount();
    expect(holder.tracks.stats()).toMatchObject({ resultsRead: all, publishedSource: null, columnsFrom: "snapshot" });
    await waitFor("a track index version published", async () => (await versions()).length === 1);
    const [published] = await versions();
    expect(Number(published.result_seq)).toBe(holder.tracks.stats()!.resultsThrough);

    // one result stored after the version (a track analysed again): the joiner reads that one only
    const [{ key }] = await rows<{ key: string }>("SELECT key FROM track_analysis ORDER BY result_seq LIMIT 1");
    await rows("UPDATE track_analysis SET analysis = jsonb_set(analysis::jsonb, '{bpm}', '77')::text, result_seq = nextval('track_analysis_result_seq') WHERE key = $1", [key]);

    const joined = await machine();
    await joined.tracks.ready();
    const stats = joined.tracks.stats()!;
    expect(stats.publishedSource).toMatchObject({ version: Number(published.version), downloaded: true });
    // the version was written for the same track lists: its columns and title postings are taken too (ADR 0162, seventh session)
    expect(stats.columnsFrom).toBe("version");
    expect(stats.resultsRead).toBe(1);
    expect(stats.resultsThrough).toBeGreaterThan(Number(published.result_seq));
    expect(joined.log.messages()).toContain("track index: figures taken from a published version");
    // another process of the same machine opens the machine's copy: no second download, one file
    const sibling = await machine({ dataDir: joined.dataDir });
    await sibling.tracks.ready();
    expect(sibling.tracks.stats()).toMatchObject({ publishedSource: { version: Number(published.version), downloaded: false }, columnsFrom: "version" });
    expect(fs.readdirSync(joined.figuresDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // the same lists as a process that read every result itself (the holder, after the same refresh)
    const rebuilt = await machine();
    await rebuilt.tracks.ready();
    // the search over the titles answers as from the snapshot: the same tracks, in the same order
    for (const q of ["night", "love sky", "nihgt", "coracao", "abrabɔ"]) {
      const page = async (index: TrackIndex) => (await index.query(Q({ q, sort: "relevance" }))).rows.map((r) => `${r.id} ${r.title}`);
      const shown = await page(joined.tracks);
      expect(shown.length, q).toBeGreaterThan(0);
      expect(shown).toEqual(await page(rebuilt.tracks));
    }
    for (const seed of SEEDS) {
      const list = await likeList(joined.tracks, seed);
      expect(list.rows.length).toBeGreaterThan(0);
      expect(list).toEqual(await likeList(rebuilt.tracks, seed));
    }
    // the re-analysed track's new tempo is served: its figures came from the delta
    expect((await joined.tracks.query(Q({ sort: "bpm", bpm: { min: 77, max: 77 } }))).total).toBeGreaterThan(0);
  }, 120_000);

  it("a process that starts into the cluster brings the newest version in while it reads the catalog: its build opens that copy and downloads nothing; a stopped download answers at once", async () => {
    const holder = await machine({ lead: true });
    await holder.tracks.ready();
    await waitFor("a track index version published", async () => (await versions()).length === 1);
    const [published] = await versions();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "track-index-cluster-"));
    const dir = path.join(dataDir, "catalog", "index");
    // the build starts while the download runs: it waits for it rather than download the same file beside it
    const prefetch = prefetchIndexVersion({ databaseUrl: url, dir, format: indexFormat() });
    const joined = await machine({ dataDir, prefetch });
    await joined.tracks.ready();
    expect(await prefetch).toMatchObject({ version: Number(published.version), downloaded: true });
    expect(joined.tracks.stats()).toMatchObject({ publishedSource: { version: Number(published.version), downloaded: false }, columnsFrom: "version" });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".bin"))).toHaveLength(1);
    for (const seed of SEEDS) expect(await likeList(joined.tracks, seed)).toEqual(await likeList(holder.tracks, seed));

    // a stop (shutdown) during the download ends it: the promise answers null at once
    const stopping = new AbortController();
    const stopped = prefetchIndexVersion({ databaseUrl: url, dir: path.join(dataDir, "elsewhere"), format: indexFormat() }, stopping.signal);
    stopping.abort();
    expect(await stopped).toBeNull();
    // nothing published for another format: null, and nothing written
    expect(await prefetchIndexVersion({ databaseUrl: url, dir: path.join(dataDir, "other"), format: "figures-index 0" })).toBeNull();
    expect(fs.existsSync(path.join(dataDir, "other"))).toBe(false);
  }, 120_000);

  it("a process whose table differs (one album more) does not take the version: it reads every result", async () => {
    const holder = await machine({ lead: true });
    await holder.tracks.ready();
    await waitFor("a track index version published", async () => (await versions()).length === 1);
    const extra: Album = { ...albums[0], id: "al-extra", name: "One More", tracks: albums[0].tracks.map((t, i) => ({ ...t, s3Path: `extra-${i}.mp3` })) };
    const other = await machine({ albums: [...albums, extra] });
    await other.tracks.ready();
    expect(other.tracks.stats()).toMatchObject({ publishedSource: null, resultsRead: await resultCount(), columnsFrom: "snapshot" });
    expect((await likeList(other.tracks, SEEDS[0])).rows.length).toBeGreaterThan(0);
  }, 120_000);

  it("takes its own table's version when the newest published is another table's (the download beside the columns is by format only)", async () => {
    const first = await machine({ lead: true });
    await first.tracks.ready();
    await waitFor("the first table's version published", async () => (await versions()).length === 1);
    const lists = await Promise.all(SEEDS.map((seed) => likeList(first.tracks, seed)));
    first.tracks.stop();
    await first.cluster!.close();
    const extra: Album = { ...albums[0], id: "al-extra", name: "One More", tracks: albums[0].tracks.map((t, i) => ({ ...t, s3Path: `extra-${i}.mp3` })) };
    const second = await machine({ lead: true, albums: [...albums, extra] });
    await second.tracks.ready();
    await waitFor("the second table's version published", async () => (await versions()).length === 2);
    const [own, newest] = await versions();
    expect(own.table_digest).not.toBe(newest.table_digest);
    const joined = await machine();
    await joined.tracks.ready();
    // chosen by its track lists' digest, the older version gives the columns as well
    expect(joined.tracks.stats()).toMatchObject({ publishedSource: { version: Number(own.version) }, resultsRead: 0, columnsFrom: "version" });
    expect(await Promise.all(SEEDS.map((seed) => likeList(joined.tracks, seed)))).toEqual(lists);
  }, 120_000);

  it("refuses a corrupted version, builds from the results instead and still answers; no temp file is left", async () => {
    const holder = await machine({ lead: true });
    await holder.tracks.ready();
    await waitFor("a track index version published", async () => (await versions()).length === 1);
    // one byte of the stored file changed: its SHA-256 no longer matches the version's
    await rows("UPDATE track_index_chunks SET data = set_byte(data, 5000, (get_byte(data, 5000) + 1) % 256) WHERE seq = 0");
    const joined = await machine();
    await joined.tracks.ready();
    expect(joined.tracks.stats()).toMatchObject({ publishedSource: null, resultsRead: await resultCount(), columnsFrom: "snapshot" });
    expect(joined.log.lines().find((l) => l.msg === "could not take the published track index version; building it from the results")?.err).toMatch(/is not whole/);
    for (const seed of SEEDS) expect(await likeList(joined.tracks, seed)).toEqual(await likeList(holder.tracks, seed));
    expect(fs.readdirSync(joined.figuresDir).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    // cut short (its last chunk gone): refused as well
    await rows("DELETE FROM track_index_chunks WHERE seq = (SELECT max(seq) FROM track_index_chunks)");
    const cut = await machine();
    await cut.tracks.ready();
    expect(cut.tracks.stats()).toMatchObject({ publishedSource: null });
    expect((await likeList(cut.tracks, SEEDS[1])).rows.length).toBeGreaterThan(0);
  }, 120_000);
  it("a version's upload keeps neither the holder's renewal nor another machine's look at the lease waiting (the fencing check comes last)", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "track-index-cluster-"));
    const pools = [createSharedPostgres(url, 2), createSharedPostgres(url, 2)];
    const log = captureLogger();
    const open = (postgres: SharedPostgres, name: string) => openCatalogCluster({ postgres, dir: path.join(dataDir, name), log: log.logger, leaseSeconds: 30, maxBytes: 1e9 });
    const holder = await open(pools[0], "holder");
    const other = await open(pools[1], "other");
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    cleanups.push(async () => {
      await blocker.end().catch(() => undefined);
      await holder.close();
      await other.close();
      for (const p of pools) await p.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    expect(await holder.lead()).toBe(true);
    // a file of three chunks, published as a version
    const file = path.join(dataDir, "figures-0123456789abcdef0123456789abcdef.bin");
    fs.writeFileSync(file, Buffer.alloc(9 * 1024 * 1024, 7));
    // another session holds the chunks' table, so the upload waits at its first chunk, as a long upload would
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE track_index_chunks IN SHARE MODE");
    const publishing = holder.publishIndex({ file, table: "a".repeat(64), format: "test format", resultSeq: 0, maxBytes: 1e9 });
    await waitFor("the upload waiting on its first chunk", async () => (await rows("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO track_index_chunks%'")).length > 0 || undefined);
    // meanwhile the holder renews its lease, and another machine's look answers (it is not the holder)
    expect(await holder.lead()).toBe(true);
    expect(await other.lead()).toBe(false);
    await blocker.query("COMMIT");
    // the upload then finishes and is committed under the lease
    expect(await publishing).toBeGreaterThan(0);
    expect(await versions()).toHaveLength(1);

    // a holder whose lease another machine took while it uploaded publishes nothing (fenced at its end)
    fs.writeFileSync(file, Buffer.alloc(9 * 1024 * 1024, 8));
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE track_index_chunks IN SHARE MODE");
    const late = holder.publishIndex({ file, table: "a".repeat(64), format: "test format", resultSeq: 0, maxBytes: 1e9 });
    await waitFor("the second upload waiting on its first chunk", async () => (await rows("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO track_index_chunks%'")).length > 0 || undefined);
    await rows("UPDATE catalog_sync_lease SET expires_at = now() - interval '1 second'");
    expect(await other.lead()).toBe(true);
    await blocker.query("COMMIT");
    expect(await late).toBeUndefined();
    expect(await versions()).toHaveLength(1);
  });
});
