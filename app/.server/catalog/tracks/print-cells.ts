import { FIELDS } from "../../analysis/fingerprint.ts";
import type { SimilarityModel } from "../../analysis/similarity.ts";
import type { Yielder } from "./yielding.ts";

/**
 * A coarse quantiser over the fingerprints (issue #29, ADR 0124): the `like=` view's
 * approximate first stage at scale. Each fingerprinted row of TrackFigures.prints belongs to
 * one of at most CELLS cells (a two-level k-means over the rows' search vectors); the rows of
 * each cell are listed (ascending) in `cellRows`, `cellStarts` their offsets, so a view visits
 * the cells nearest its seed first, measures the visited rows with the exact distance
 * (like.ts), and stops at a visit budget. Four bytes a track (the row's place in its cell's
 * list); the centroids are CELLS × 44 floats (90 KB). Deterministic: no random draw (the
 * seeds of the k-means are rows evenly spaced through the layout), so a rebuild over the same
 * figures gives the same cells.
 */

/** Fingerprinted tracks from which the cells are made (fewer: none, every view is the exact scan). */
export const QUANTISE_FROM = 100_000;
/** Top-level cells × cells within each: CELLS in all. */
const TOP = 32;
const SUB = 16;
export const CELLS = TOP * SUB;
/** Rows the k-means is fitted on (evenly spaced through the layout), and its Lloyd iterations. */
const SAMPLE = 32_768;
const ITERATIONS = 10;

const D = FIELDS.length;

/**
 * THE vector a track is quantised by (and a seed's cells are ordered by): the space in which
 * the squared Euclidean distance is the fingerprint part of the site's distance
 * (similarity.ts scanDistance: Σ fieldWeights[i] × diff², so each byte times √fieldWeights[i]).
 * A learned linear map of the fingerprint (ADR 0123 "What is left") is applied here and
 * nowhere else: the cells then follow the mapped space while the re-rank keeps the site's
 * distance (like.ts). Writes D floats at `out[outAt…]`.
 */
export function searchVector(model: SimilarityModel, bytes: Uint8Array, at: number, out: Float32Array, outAt = 0): void {
  const w = model.fieldWeights;
  for (let i = 0; i < D; i++) out[outAt + i] = Math.sqrt(w[i]) * bytes[at + i];
}

/** The cells of TrackFigures (all empty when none were made). */
export interface PrintCells {
  /** cell c's rows are cellRows[cellStarts[c] … cellStarts[c + 1]); length CELLS + 1, or 0 (no cells) */
  cellStarts: Int32Array;
  cellRows: Int32Array;
  /**
   * each listed row's tempo and key group (print-layout.ts GROUPS: BPM × 32 + key), beside
   * cellRows: the visit reads its tempo and key terms in list order and touches the row's
   * bytes (a cache miss each, far apart in 112 MB at 2.5 million tracks) only when the terms
   * alone are not already past the worst kept (ADR 0124)
   */
  cellGroups: Uint16Array;
  /** CELLS × D, in searchVector's space */
  centroids: Float32Array;
}

/** No cells (fresh arrays each time: the build worker transfers them). */
export const noCells = (): PrintCells => ({ cellStarts: new Int32Array(0), cellRows: new Int32Array(0), cellGroups: new Uint16Array(0), centroids: new Float32Array(0) });

/** The nearest of `k` centroids at `cs[from…]` to the vector at `v[at…]`, abandoning each past the best. */
function nearest(v: Float32Array, at: number, cs: Float32Array, from: number, k: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < k; c++) {
    const o = (from + c) * D;
    let d = 0;
    for (let i = 0; i < D; i++) {
      const x = v[at + i] - cs[o + i];
      d += x * x;
      if ((i & 7) === 7 && d >= bestD) break;
    }
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** Lloyd's k-means of the vectors `members` (indices into `v`), `k` centroids written at `cs[from…]`, seeded by evenly spaced members. */
async function kmeans(v: Float32Array, members: Int32Array, cs: Float32Array, from: number, k: number, yielder: Yielder): Promise<Int32Array> {
  const n = members.length;
  const of = new Int32Array(n);
  if (n === 0) return of;
  for (let c = 0; c < k; c++) cs.set(v.subarray(members[Math.floor(((c + 0.5) * n) / k)] * D, members[Math.floor(((c + 0.5) * n) / k)] * D + D), (from + c) * D);
  const sums = new Float64Array(k * D);
  const counts = new Int32Array(k);
  for (let it = 0; it < ITERATIONS; it++) {
    sums.fill(0);
    counts.fill(0);
    for (let j = 0; j < n; j++) {
      const at = members[j] * D;
      const c = nearest(v, at, cs, from, k);
      of[j] = c;
      counts[c]++;
      for (let i = 0; i < D; i++) sums[c * D + i] += v[at + i];
      if ((j & 255) === 255) await yielder.maybeYield();
    }
    // an empty cell keeps its centroid (it stays empty or takes rows at the assignment)
    for (let c = 0; c < k; c++) if (counts[c]) for (let i = 0; i < D; i++) cs[(from + c) * D + i] = sums[c * D + i] / counts[c];
    await yielder.yield();
  }
  return of;
}

/**
 * The cells of `count` laid-out rows (`prints`, D bytes a row) under `model`: none below
 * `quantiseFrom` rows. Fitted on SAMPLE rows: TOP cells, then SUB within each; every row then
 * goes to its nearest top cell's nearest sub-cell (48 distances a row, not 512).
 */
export async function buildCells(prints: Uint8Array, printStarts: Int32Array, count: number, model: SimilarityModel, yielder: Yielder, quantiseFrom = QUANTISE_FROM): Promise<PrintCells> {
  if (count < Math.max(quantiseFrom, 1)) return noCells();
  const step = Math.max(1, count / SAMPLE);
  const sampled = Math.min(count, SAMPLE);
  const sample = new Float32Array(sampled * D);
  for (let j = 0; j < sampled; j++) searchVector(model, prints, Math.floor(j * step) * D, sample, j * D);
  const top = new Float32Array(TOP * D);
  const all = Int32Array.from({ length: sampled }, (_, j) => j);
  const topOf = await kmeans(sample, all, top, 0, TOP, yielder);
  const centroids = new Float32Array(CELLS * D);
  for (let c = 0; c < TOP; c++) {
    const members = Int32Array.from(all.filter((j) => topOf[j] === c));
    if (members.length === 0) {
      for (let s = 0; s < SUB; s++) centroids.set(top.subarray(c * D, c * D + D), (c * SUB + s) * D);
      continue;
    }
    await kmeans(sample, members, centroids, c * SUB, SUB, yielder);
  }
  // every row's cell, then the rows listed by cell (a counting sort: rows ascending in each)
  const cellOf = new Uint16Array(count);
  const cellStarts = new Int32Array(CELLS + 1);
  const v = new Float32Array(D);
  for (let p = 0; p < count; p++) {
    searchVector(model, prints, p * D, v);
    const t = nearest(v, 0, top, 0, TOP);
    const c = t * SUB + nearest(v, 0, centroids, t * SUB, SUB);
    cellOf[p] = c;
    cellStarts[c + 1]++;
    if ((p & 1023) === 1023) await yielder.maybeYield();
  }
  for (let c = 0; c < CELLS; c++) cellStarts[c + 1] += cellStarts[c];
  const next = cellStarts.slice(0, CELLS);
  const cellRows = new Int32Array(count);
  for (let p = 0; p < count; p++) cellRows[next[cellOf[p]]++] = p;
  await yielder.yield();
  // each row's group (the layout's), then in list order
  const groupOfRow = cellOf;
  for (let g = 0; g + 1 < printStarts.length; g++) groupOfRow.fill(g, printStarts[g], printStarts[g + 1]);
  const cellGroups = new Uint16Array(count);
  for (let j = 0; j < count; j++) cellGroups[j] = groupOfRow[cellRows[j]];
  await yielder.yield();
  return { cellStarts, cellRows, cellGroups, centroids };
}

/** The cells nearest first to a seed's search vector `v` (searchVector), with each one's squared distance. */
export function cellOrder(cells: PrintCells, v: Float32Array): { order: Int32Array; distance: Float64Array } {
  const k = cells.cellStarts.length - 1;
  const distance = new Float64Array(k);
  const cs = cells.centroids;
  for (let c = 0; c < k; c++) {
    let d = 0;
    for (let i = 0; i < D; i++) {
      const x = v[i] - cs[c * D + i];
      d += x * x;
    }
    distance[c] = d;
  }
  const order = Int32Array.from({ length: k }, (_, c) => c).sort((a, b) => distance[a] - distance[b] || a - b);
  return { order, distance };
}
