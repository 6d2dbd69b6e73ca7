import { describe, expect, it } from "vitest";
import { ANALYZER_VERSION, type TrackAnalysis } from "../../analysis/analyze.ts";
import { encodeSegments, segmentWindows, WINDOW_BYTES } from "../../analysis/segments.ts";
import { decodePassageCodes, encodePassageCodes, passageCodebook } from "../../analysis/passage-codes.ts";
import { AnalysisStore } from "../../analysis/stage/store.ts";
import { openSqliteDatabase } from "../../analysis/stage/store-sqlite.ts";
import type { SqlDatabase } from "../../db/sql.ts";
import { createPrng } from "../sample/prng.ts";
import { buildTrackColumns } from "./table.ts";
import { FiguresBuilder } from "./figures-builder.ts";
import { readFigures } from "./figures-read.ts";
import { MAX_TRACK_PASSAGES, passageCodesOf } from "./passage-index.ts";
import { NO_YIELD } from "./yielding.ts";

// The index build's read of passages (ADR 0134): a track whose analysis stored this codebook's
// codes is built from them without its anchors (~1 KB a track) ever leaving the store; a track
// whose codes are absent (an analysis before version 8) or another codebook's (a refit) is
// coded from its anchors, read by key for it alone (ADR 0130's fallback). A real SQLite store.

const rng = createPrng(134);
const windows = (count: number) => Uint8Array.from({ length: count * WINDOW_BYTES }, () => 40 + Math.floor(rng.next() * 170));
const analysis = (segments: string | null, passageCodes?: string | null): TrackAnalysis => ({
  durationSeconds: 180,
  bpm: 120,
  bpmConfidence: 0.9,
  key: "C major",
  keyConfidence: 0.9,
  loudnessLufs: -14,
  previewPeaks: [0.5],
  overviewPeaks: [0.5],
  segments,
  ...(passageCodes === undefined ? {} : { passageCodes }),
  analyzerVersion: ANALYZER_VERSION,
});

/** A store over an in-memory SQLite database whose every returned string value is recorded (what left the database). */
function countingStore(): { store: AnalysisStore; returned: string[]; segmentsAsked: string[][] } {
  const db = openSqliteDatabase(":memory:");
  const returned: string[] = [];
  const counted: SqlDatabase = Object.assign(Object.create(db) as SqlDatabase, {
    async query<R>(sql: string, params?: readonly unknown[]): Promise<R[]> {
      const rows = await db.query<R>(sql, params);
      for (const row of rows) for (const v of Object.values(row as object)) if (typeof v === "string") returned.push(v);
      return rows;
    },
  });
  const store = new AnalysisStore(counted);
  const segmentsAsked: string[][] = [];
  const segmentsOf = store.segmentsOf.bind(store);
  store.segmentsOf = (keys) => (segmentsAsked.push([...keys]), segmentsOf(keys));
  return { store, returned, segmentsAsked };
}

async function storeResults(store: AnalysisStore, results: Record<string, TrackAnalysis>): Promise<void> {
  await store.reconcile(Object.keys(results).map((key) => ({ key, identity: `${key}-1` })), 0);
  for (const claim of await store.claim({ owner: "x", now: 0, leaseMs: 60_000, limit: 100 })) await store.finishDone(claim.key, "x", claim.identity, results[claim.key], 10);
}

/** Builds the figures of one album holding `keys` through the store, two rows a page; each track's codes in track order. */
async function build(store: AnalysisStore, keys: string[]): Promise<Uint32Array[]> {
  const columns = await buildTrackColumns(1, () => keys.map((k) => ({ s3Path: k, Filename: `${k}.mp3` })), NO_YIELD);
  const builder = await FiguresBuilder.create(columns, null, NO_YIELD);
  await readFigures(store, builder, null, 2, NO_YIELD);
  return keys.map((_, t) => builder.passageCodes.slice(t * MAX_TRACK_PASSAGES, t * MAX_TRACK_PASSAGES + builder.passageCount[t]));
}

const book = passageCodebook();
/** A refitted codebook (its id differs): codes it made are not this codebook's. */
const refit = { ...book, means: book.means.map((v, i) => (i === 0 ? v + 1 : v)) };
const distinct = (stored: string) => [...new Set(decodePassageCodes(stored)!)];

describe("the index build's read of passages (ADR 0134)", () => {
  it("builds a track with this codebook's stored codes without reading its anchors", async () => {
    const { store, returned, segmentsAsked } = countingStore();
    const w = windows(18);
    // the anchors stored differ from what the codes were made of: a build that coded them would give other codes
    const anchors = encodeSegments(windows(18));
    const codes = encodePassageCodes(w)!;
    await storeResults(store, { fresh: analysis(anchors, codes), other: analysis(encodeSegments(windows(12)), encodePassageCodes(windows(12))) });
    const [built] = await build(store, ["fresh", "other"]);
    expect([...built]).toEqual(distinct(codes).slice(0, MAX_TRACK_PASSAGES));
    expect(built.length).toBeGreaterThan(0);
    // the anchors never left the database, and the store was not asked for them
    expect(returned.some((v) => v.includes(anchors))).toBe(false);
    expect(returned.join("").length).toBeLessThan(anchors.length);
    expect(segmentsAsked).toEqual([]);
    await store.close();
  });

  it("codes from its anchors, read by key for it alone, a track whose codes are absent or another codebook's", async () => {
    const { store, segmentsAsked } = countingStore();
    const stale = windows(15);
    const old = windows(9);
    const fresh = windows(6);
    await storeResults(store, {
      refitted: analysis(encodeSegments(stale), encodePassageCodes(stale, refit)),
      version7: analysis(encodeSegments(old)),
      fresh: analysis(encodeSegments(fresh), encodePassageCodes(fresh)),
      silent: analysis(null, null),
    });
    const [refitted, version7, builtFresh, silent] = await build(store, ["refitted", "version7", "fresh", "silent"]);
    expect([...refitted]).toEqual([...passageCodesOf(segmentWindows(encodeSegments(stale))!)]);
    expect(refitted.length).toBeGreaterThan(0);
    expect([...version7]).toEqual([...passageCodesOf(segmentWindows(encodeSegments(old))!)]);
    expect([...builtFresh]).toEqual(distinct(encodePassageCodes(fresh)!));
    expect(silent.length).toBe(0);
    // only the two tracks whose codes could not be used, never the fresh or the silent one
    expect(segmentsAsked.flat().sort()).toEqual(["refitted", "version7"]);
    await store.close();
  });
});
