import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { ANALYZER_VERSION } from "../../app/.server/analysis/analyze.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";
import { createAnalysisLookup } from "../../app/.server/analysis/stage/lookup.ts";
import { createCatalogIndexes } from "../../app/.server/catalog/indexes.ts";
import { NO_YIELD } from "../../app/.server/catalog/tracks/yielding.ts";
import type { CatalogSnapshot } from "../../app/.server/catalog/service.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";

/**
 * Issue #42, ADR 0151: a result stored by a process whose clock runs five minutes behind
 * (libfaketime: Debian's `faketime`) reaches another process's track index, which like= answers
 * are made from. Before ADR 0151 readers looked for results by the writer's clock, 60 s back
 * from the newest they had seen: such a result was never read until the next catalog change.
 */

const RESULTS = 12;
const SKEW = "-5m";
const faketime = spawnSync("faketime", ["-f", "+0", "true"]).status === 0;
if (!faketime) console.log("skipped: the clock-skewed writer needs libfaketime's `faketime` (apt-get install faketime)");

let pg: TestPostgres;
beforeAll(async () => {
  if (faketime) pg = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

/** The lines a child prints, awaited one at a time. */
function lines(child: ChildProcessWithoutNullStreams) {
  const queue: string[] = [];
  const waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  readline.createInterface({ input: child.stdout }).on("line", (line) => (waiting.length ? waiting.shift()!.resolve(line) : queue.push(line)));
  let stderr = "";
  let exited: Error | undefined;
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.once("exit", (code) => {
    exited = new Error(`the writer exited (${code}): ${stderr}`);
    for (const w of waiting.splice(0)) w.reject(exited);
  });
  return {
    next: () =>
      new Promise<string>((resolve, reject) => {
        if (queue.length) return resolve(queue.shift()!);
        if (exited) return reject(exited);
        waiting.push({ resolve, reject });
      }),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

describe.skipIf(!faketime)("results seen in the database's order (PostgreSQL)", () => {
  it("a writer five minutes behind: each result reaches the reader's track index, within seconds", async () => {
    const url = await pg.createDatabase("result_order");
    const config = parseConfig({ DATA_DIR: "/nonexistent", DATABASE_URL: url, LOG_LEVEL: "silent" });
    const keys = Array.from({ length: RESULTS }, (_, i) => `order/track-${i}.mp3`);
    const snapshot: CatalogSnapshot = {
      albums: [{ id: "a", name: "Night Drive", artist: "Ana", genre: "Jazz", artwork: "", keywords: [], featured: false, tracks: keys.map((k, i) => ({ s3Path: k, Filename: `Track ${i}.mp3` })) }],
      films: [],
      singles: [],
      channels: [],
      genres: [],
      version: 1,
      updatedAt: "2026-11-29T00:00:00Z",
    };
    // the reader: an origin's lookup and track index, as services.ts wires them (its watch)
    const store = await openAnalysisStore(config);
    const lookup = await createAnalysisLookup(store, { logger: createLogger("silent") });
    const index = createCatalogIndexes({ snapshot: () => snapshot, mediaUrl: (key) => `/media/${key}` }, lookup, { tracks: { yielder: () => NO_YIELD } }).tracks;
    const unwatch = lookup.watch(() => void index.ready());
    // a result stored on time first: the reader has seen a newer clock than the writer's
    const now = Date.now();
    await store.reconcile([{ key: "on-time", identity: "x" }], now);
    await store.claim({ owner: "here", now, leaseMs: 60_000, limit: 1 });
    const onTime = { durationSeconds: 60, bpm: 90, bpmConfidence: 0.9, key: null, keyConfidence: 0, loudnessLufs: -14, previewPeaks: [0.5], overviewPeaks: [0.5], analyzerVersion: ANALYZER_VERSION };
    expect(await store.finishDone("on-time", "here", "x", onTime, now)).toBe(true);
    await index.ready();

    const writer = spawn("faketime", ["-f", SKEW, process.execPath, path.resolve("tests/support/analysis-skewed-writer.ts")], {
      env: { ...process.env, DATABASE_URL: url },
    });
    const out = lines(writer);
    try {
      const [, writerClock] = (await out.next()).split(" ");
      expect(Date.now() - Number(writerClock)).toBeGreaterThan(4 * 60_000);
      const lags: number[] = [];
      for (const [i, key] of keys.entries()) {
        writer.stdin.write(`${key}\n`);
        expect((await out.next()).startsWith(`stored ${key}`)).toBe(true);
        const stored = performance.now();
        // a condition, not a fixed wait: the index has the result (a bound, so a fault ends the test)
        while ((index.stats()?.analysed ?? 0) < i + 1) {
          if (performance.now() - stored > 30_000) throw new Error(`${key} not seen in 30 s`);
          await new Promise((r) => setTimeout(r, 10));
        }
        lags.push(performance.now() - stored);
      }
      const sorted = [...lags].sort((a, b) => a - b);
      console.log(`result → visible in the track index, ${RESULTS} results from a writer ${SKEW}: p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(percentile(sorted, 99))} ms`);
      // the filters and like= read these figures: every result is found by its tempo
      const q = { q: "", genre: "", subGenres: [], bpm: { min: 100, max: 150 }, duration: null, keys: [], sort: "title" as const, page: 1 };
      expect((await index.query(q)).total).toBe(RESULTS);
    } finally {
      writer.stdin.end();
      writer.kill();
      unwatch();
      index.stop();
      await lookup.close();
    }
  }, 120_000);
});
