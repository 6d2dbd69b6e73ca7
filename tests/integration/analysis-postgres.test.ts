import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "pg";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { ANALYZER_VERSION, type TrackAnalysis } from "../../app/.server/analysis/analyze.ts";
import { startAnalyzer } from "../../app/.server/analysis/stage/analyzer.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";
import { catalogWith, countingPool, walkAndDrain, writeBeat } from "../support/analysis-stage.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { expectFiguresRead } from "../support/analysis-figures.ts";
import { POSTGRES_FIGURES_AFTER } from "../../app/.server/analysis/stage/store-reads.ts";
import { createAnalysisLookup } from "../../app/.server/analysis/stage/lookup.ts";
import { createCatalogIndexes } from "../../app/.server/catalog/indexes.ts";
import { NO_YIELD } from "../../app/.server/catalog/tracks/yielding.ts";
import type { CatalogSnapshot } from "../../app/.server/catalog/service.ts";

/**
 * Several analyzers on one PostgreSQL (issue #9: `npm run analyzer` scales out; ADR 0091):
 * they share the work through FOR UPDATE SKIP LOCKED and leases, and no track is analysed
 * twice. Each analyzer has its own store (its own connection pool), as separate processes do.
 */

const logger = createLogger("silent");
let pg: TestPostgres;
let dataDir: string;

beforeAll(async () => {
  pg = await startTestPostgres();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-pg-"));
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("analysis on PostgreSQL", () => {
  it("numbers the results of a database made before result_seq in their old order, once, and new results after them (ADR 0151)", async () => {
    const url = await pg.createDatabase("before_result_seq");
    const analysis = (seconds: number) => JSON.stringify({ durationSeconds: seconds, bpm: 120, bpmConfidence: 0.9, key: "A minor", keyConfidence: 0.8,
      loudnessLufs: -14, previewPeaks: [0.5], overviewPeaks: [0.5], analyzerVersion: ANALYZER_VERSION });
    // the table as the store made it before ADR 0151, holding results (its result_at the writers' clocks)
    const old = new postgres.Client({ connectionString: url });
    await old.connect();
    try {
      await old.query(`CREATE TABLE track_analysis (key TEXT PRIMARY KEY, identity TEXT NOT NULL, status TEXT NOT NULL, analysis TEXT,
        analyzer_version INTEGER, reason TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL, lease_owner TEXT,
        lease_until BIGINT, result_at BIGINT, finished_at BIGINT, updated_at BIGINT NOT NULL)`);
      const insert = "INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, next_attempt_at, result_at, updated_at) VALUES ($1, 'i', $2, $3, $4, 0, $5, 0)";
      await old.query(insert, ["late", "done", analysis(30), ANALYZER_VERSION, 3_000]);
      await old.query(insert, ["early", "done", analysis(20), ANALYZER_VERSION, 1_000]);
      await old.query(insert, ["same-time-b", "done", analysis(25), ANALYZER_VERSION, 2_000]);
      await old.query(insert, ["same-time-a", "done", analysis(24), ANALYZER_VERSION, 2_000]);
      await old.query(insert, ["queued", "pending", null, null, null]);
    } finally {
      await old.end();
    }
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: "silent" });
    const store = await openAnalysisStore(config);
    try {
      const all = await store.figuresAfter(null, 10);
      expect(all.rows.map((r) => r.key)).toEqual(["early", "same-time-a", "same-time-b", "late"]);
      expect(all.next).toEqual({ seq: 4 });
      // a result stored now comes after the numbered ones, whatever its writer's clock says
      await store.reconcile([{ key: "fresh", identity: "fresh1" }], 0);
      const [claim] = await store.claim({ owner: "w", now: 0, leaseMs: 60_000, limit: 1 });
      expect(await store.finishDone(claim.key, "w", claim.identity, JSON.parse(analysis(60)) as TrackAnalysis, 0)).toBe(true);
      expect((await store.figuresAfter(all.next, 10)).rows.map((r) => r.key)).toEqual(["fresh"]);
    } finally {
      await store.close();
    }
    // opened again (another process, a restart): nothing numbered twice
    const again = await openAnalysisStore(config);
    try {
      expect((await again.figuresAfter(null, 10)).rows.map((r) => r.key)).toEqual(["early", "same-time-a", "same-time-b", "late", "fresh"]);
    } finally {
      await again.close();
    }
  });

  it("two analyzers walking the same catalog at once never analyse a track twice", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: await pg.createDatabase("two_analyzers"), ANALYSIS_CONCURRENCY: "2", LOG_LEVEL: "silent" });
    const keys = Array.from({ length: 12 }, (_, i) => `shared/track-${String(i).padStart(2, "0")}.wav`);
    for (const [i, key] of keys.entries()) writeBeat(path.join(dataDir, "media"), key, { bpm: 90 + i * 5, seconds: 3 });
    const data = catalogWith(keys.slice(0, 6), keys.slice(6), keys.slice(3, 9));

    const stores = await Promise.all([openAnalysisStore(config), openAnalysisStore(config)]);
    const pools = [countingPool(2), countingPool(2)];
    const analyzers = stores.map((store, i) => startAnalyzer({ config, logger, store, pool: pools[i] }));
    try {
      await Promise.all(analyzers.map((a) => walkAndDrain(a, data)));
      // one more look each: anything the other queued meanwhile is done too
      await Promise.all(analyzers.map((a) => a.idle()));

      const analysed = [...pools[0].inputs, ...pools[1].inputs].sort();
      expect(analysed).toEqual(keys.map((k) => path.basename(k)).sort());
      // and they shared it
      expect(pools[0].inputs.length).toBeGreaterThan(0);
      expect(pools[1].inputs.length).toBeGreaterThan(0);
      expect(await stores[0].summary({ now: Date.now() })).toMatchObject({ done: 12, pending: 0, failed: 0, analysing: 0 });
      const results = await stores[1].results(keys);
      expect(results).toHaveLength(12);
      for (const r of results) expect(r.analysis.analyzerVersion).toBe(ANALYZER_VERSION);
    } finally {
      await Promise.all(analyzers.map((a) => a.stop({ deadlineMs: 5_000 })));
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("claims taken at once are all different rows, and a crashed analyzer's come back after the lease", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: await pg.createDatabase("claims"), LOG_LEVEL: "silent" });
    const stores = await Promise.all(Array.from({ length: 4 }, () => openAnalysisStore(config)));
    try {
      const observed = Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, identity: "size=1;mtime=1" }));
      expect(await stores[0].reconcile(observed, 0)).toBe(40);
      // twenty claimers at once over four pools: SKIP LOCKED hands each row to one of them
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 4].claim({ owner: `o${i}`, now: 0, leaseMs: 60_000, limit: 3 })));
      const taken = claims.flat().map((c) => c.key);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken).toHaveLength(40);

      // none of them finished (a crash): nothing comes back before the leases end, everything after
      expect(await stores[1].claim({ owner: "late", now: 59_000, leaseMs: 60_000, limit: 50 })).toEqual([]);
      const back = await stores[1].claim({ owner: "late", now: 60_001, leaseMs: 60_000, limit: 50 });
      expect(back).toHaveLength(40);
      expect(back.every((c) => c.attempts === 2)).toBe(true);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("reads the figures of every result in pages, then only what changed (the track index's bulk read, issue #10)", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: await pg.createDatabase("figures"), LOG_LEVEL: "silent" });
    const store = await openAnalysisStore(config);
    try {
      await expectFiguresRead(store);
    } finally {
      await store.close();
    }
  });

  it("reads a page of figures and the results' marker through an index, not a scan of every result (bench:cluster, ADR 0157 amended)", async () => {
    const url = await pg.createDatabase("result_order");
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: "silent" });
    const store = await openAnalysisStore(config);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      // 50,000 results, as the writers number them
      await client.query(
        `INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, result_seq, finished_at, updated_at)
         SELECT 'k' || i, 'x', 'done', '{"bpm":120}', $1, 0, 0, 1, nextval('track_analysis_result_seq'), 0, 0 FROM generate_series(1, 50000) AS i`,
        [ANALYZER_VERSION],
      );
      await client.query("ANALYZE track_analysis");
      const plan = async (sql: string, params: unknown[] = []) => (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r["QUERY PLAN"]).join("\n");
      // the track index's page read (store-reads.ts figuresAfter, its statement) from a cursor half-way, and the marker (store.ts)
      const page = await plan(POSTGRES_FIGURES_AFTER, [25_000, 5_000]);
      const marker = await plan("SELECT MAX(result_seq) FROM track_analysis");
      for (const p of [page, marker]) {
        expect(p).toMatch(/Index (Only )?Scan/);
        expect(p).not.toMatch(/Seq Scan/);
      }
      const figures = await store.figuresAfter({ seq: 49_990 }, 5000);
      expect(figures.rows.map((r) => r.key)).toEqual(Array.from({ length: 10 }, (_, i) => `k${49_991 + i}`));
    } finally {
      await client.end();
      await store.close();
    }
  });

  it("gives the track index's build worker every figure through its own connection (ADR 0100, amended)", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, DATABASE_URL: await pg.createDatabase("track_index"), LOG_LEVEL: "silent" });
    const store = await openAnalysisStore(config);
    try {
      await store.reconcile(["k1", "k2"].map((key) => ({ key, identity: `${key}-1` })), 0);
      const figures = { k1: { seconds: 95, bpm: 121, key: "A minor" }, k2: { seconds: 30, bpm: null, key: null } } as const;
      for (const claim of await store.claim({ owner: "x", now: 0, leaseMs: 60_000, limit: 10 })) {
        const f = figures[claim.key as keyof typeof figures];
        const analysis = { durationSeconds: f.seconds, bpm: f.bpm, bpmConfidence: 0.9, key: f.key, keyConfidence: 0.8, loudnessLufs: -14, previewPeaks: [0.5], overviewPeaks: [0.5], analyzerVersion: ANALYZER_VERSION };
        await store.finishDone(claim.key, "x", claim.identity, analysis, 10);
      }
      const lookup = await createAnalysisLookup(store, { logger });
      let readHere = 0;
      const counted = { ...lookup, version: lookup.version, figuresAfter: (...args: Parameters<typeof lookup.figuresAfter>) => (readHere++, lookup.figuresAfter(...args)) };
      const track = (title: string, key: string) => ({ s3Path: key, Filename: `${title}.mp3` });
      const snapshot: CatalogSnapshot = {
        albums: [{ id: "a", name: "Night Drive", artist: "Ana", genre: "Jazz", artwork: "", keywords: ["jazz"], featured: false, tracks: [track("Fast One", "k1"), track("Short One", "k2"), track("Unheard", "k3")] }],
        films: [],
        singles: [],
        channels: [],
        genres: [],
        version: 1,
        updatedAt: "2026-11-23T00:00:00Z",
      };
      const index = createCatalogIndexes({ snapshot: () => snapshot, mediaUrl: (key) => `/media/${key}` }, counted, { tracks: { yielder: () => NO_YIELD, analysisStore: config, logger } }).tracks;
      await index.ready();
      expect(readHere).toBe(0);
      expect(index.stats()).toMatchObject({ tracks: 3, analysed: 2 });
      const q = { q: "", genre: "", subGenres: [], bpm: { min: 120, max: 125 }, duration: null, keys: [], sort: "title" as const, page: 1 };
      expect((await index.query(q)).rows.map((r) => [r.title, r.bpm, r.key])).toEqual([["Fast One", 121, "A minor"]]);
      index.stop();
    } finally {
      await store.close();
    }
  });
});
