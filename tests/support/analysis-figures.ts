import { expect } from "vitest";
import { ANALYZER_VERSION, type TrackAnalysis } from "../../app/.server/analysis/analyze.ts";
import type { AnalysisStore } from "../../app/.server/analysis/stage/store.ts";

const result = (seconds: number, bpm: number | null, key: string | null): TrackAnalysis => ({
  durationSeconds: seconds,
  bpm,
  bpmConfidence: 0.9,
  key,
  keyConfidence: 0.8,
  loudnessLufs: -14,
  previewPeaks: Array.from({ length: 100 }, (_, i) => i / 100),
  overviewPeaks: [0.5],
  analyzerVersion: ANALYZER_VERSION,
});

/**
 * The bulk read of figures the track index makes (issue #10), the same on SQLite
 * (app/.server/analysis/stage/store.test.ts) and PostgreSQL (tests/integration/analysis-postgres.test.ts): every result
 * in the order the database numbered them (ADR 0151), in pages; then after the cursor only what changed, a withdrawn result
 * (other audio under its key) with no seconds; pending and failed rows never.
 */
export async function expectFiguresRead(store: AnalysisStore): Promise<void> {
  const lease = { leaseMs: 60_000, limit: 10 };
  await store.reconcile(["a", "b", "c", "never"].map((key) => ({ key, identity: `${key}1` })), 0);
  const figures: Record<string, TrackAnalysis> = { a: result(61.5, 120.4, "A minor"), b: result(200, null, "C major"), c: { ...result(30, 90, null), segments: "AQID", passageCodes: "AQQF" } };
  for (const claim of await store.claim({ owner: "x", now: 0, ...lease })) {
    if (figures[claim.key]) await store.finishDone(claim.key, "x", claim.identity, figures[claim.key], 10);
    else await store.finishFailed(claim, "x", claim.identity, "unreadable", 10);
  }

  const first = await store.figuresAfter(null, 2);
  expect(first.rows).toHaveLength(2);
  const second = await store.figuresAfter(first.next, 2);
  const all = [...first.rows, ...second.rows];
  expect(all.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
    { key: "a", seconds: 61.5, bpm: 120.4, musicalKey: "A minor" },
    { key: "b", seconds: 200, bpm: null, musicalKey: "C major" },
    // the stored codes (ADR 0130) and whether there are passages, not the passages themselves (ADR 0134): the build reads the codes
    { key: "c", seconds: 30, bpm: 90, musicalKey: null, hasSegments: true, passageCodes: "AQQF" },
  ]);
  // the passages, by key, for the rows whose codes the build cannot use (ADR 0134); keys without none
  expect(await store.segmentsOf(["c", "a", "never", "nowhere"])).toEqual(new Map([["c", "AQID"]]));
  const end = second.next ?? first.next;
  expect((await store.figuresAfter(end, 10)).rows).toEqual([]);

  // other audio under "a": its result is withdrawn, and the next read after the cursor says so
  await store.reconcile([{ key: "a", identity: "a2" }], 20_000);
  const changed = await store.figuresAfter(end, 10);
  expect(changed.rows).toEqual([{ key: "a", seconds: null, bpm: null, musicalKey: null }]);
  expect(changed.next?.seq).toBeGreaterThan(end!.seq);
}
