import { CELLS, decodePassageCodes, distancesTo, encodeWindow, HALF, HALF_CODES, passageCodebook, RESIDUAL_BITS, RESIDUAL_CODES, RESIDUAL_PART, RESIDUAL_PARTS, residualOf, scaled, type PassageCodebook } from "../../analysis/passage-codes.ts";
import { segmentWindows, WINDOW_BYTES } from "../../analysis/segments.ts";
import { reorderBySegments } from "./passage-reorder.ts";
import { lowestFirst } from "./select-lowest.ts";
import { memoryBytes, readHalfWords, readWords, type FigureBytes } from "./figure-bytes.ts";

/**
 * A reference file's first stage over the catalog's passages (issue #29, ADR 0129): an
 * inverted multi-index (passage-codes.ts) of every track's passage windows, in the process's
 * memory beside the track index's figures but not in the like= index's bytes (issue #29: ≤ 64
 * bytes a track there).
 *
 * Layout: `starts` (CELLS + 1 offsets) into `postings`, one 32-bit word a passage: the track
 * (22 bits) and the passage's residual code (10 bits), ascending by track in each cell. A track
 * keeps at most MAX_TRACK_PASSAGES of its windows (its distinct codes, thinned evenly past
 * that): **≤ 96 bytes a track, 4 bytes a passage** (~68 bytes for a three-minute track), plus
 * 256 KB of offsets. Tracks past MAX_TRACKS (2^22) are not indexed: the stage is then absent
 * and a reference view keeps the scan's candidates (ADR 0122).
 *
 * A query (passageCandidates) visits, for each of a reference's windows (≤ 12), the cells
 * nearest it first (the multi-sequence algorithm of the inverted multi-index) until it has read
 * POSTINGS_BUDGET ÷ windows postings (or visited MAX_CELLS_PER_WINDOW cells), places each
 * track by its passage's asymmetric distance (the cell's centroids plus the residual's), and
 * keeps the PASSAGE_CANDIDATES tracks nearest over the reference's windows: the candidates whose
 * stored passages the re-rank reads (passages.ts). Work and reads are bounded whatever the
 * catalog's size.
 */

export const MAX_TRACK_PASSAGES = 24;
export const MAX_TRACKS = 1 << 22;
/** Postings read by one query at most, over all of its windows (each window reads its share, ≥ 1). */
export const POSTINGS_BUDGET = 120_000;
/** Cells visited for one window at most (a small catalog's cells are mostly empty). */
export const MAX_CELLS_PER_WINDOW = 8_192;
/**
 * The candidates a reference view's re-rank reads from the analysis store, besides the scan's
 * kept list: 2,400 (ADR 0134; 480 before), their passages alone (~1 KB each, ≤ ~3.7 MB a first
 * ask): at 1 million tracks the source is among the first 480 by the codes for 66 % of
 * excerpts, among 2,400 for 95 %.
 */
export const PASSAGE_CANDIDATES = 2_400;
/**
 * The first stage's tracks placed a second time, in memory, before PASSAGE_CANDIDATES of them
 * are kept (ADR 0137, reorderBySegments): 20,000 for a one-window reference (a 20 s excerpt),
 * REORDER_WORK ÷ its windows for a longer one (≥ PASSAGE_CANDIDATES). At 1 million tracks the
 * codes hold the source among their first 20,000 where their own order does not put it among
 * 2,400.
 */
export const REORDER_WORK = 20_000;

/** A track's code of one passage: its cell × 2^16 + its residual code (passage-codes.ts), as stored (ADR 0130). */
const CELL_SHIFT = 16;
const RESIDUAL_MASK = (1 << CELL_SHIFT) - 1;

/** What `storedTrackCodes` says of a result whose stored codes cannot be used: its codes must be made from its passages. */
export const PASSAGES_NEEDED = "passages needed";

/**
 * The one decision of whether a result's stored codes serve the index (ADR 0130, 0134): its
 * distinct codes (cell × 2^16 + residual, at most MAX_TRACK_PASSAGES) when this codebook made
 * them and they decode (analyser 8 and later), else PASSAGES_NEEDED (an analysis before
 * version 8, a refitted codebook, a malformed value: the passages are coded instead). The index
 * build reads a track's passages from the store only when this says so (figures-read.ts), and
 * trackPassageCodes codes them.
 */
export function storedTrackCodes(storedCodes: string | null | undefined, book: PassageCodebook = passageCodebook()): Uint32Array | typeof PASSAGES_NEEDED {
  const kept = decodePassageCodes(storedCodes, book);
  return kept ? distinctCodes(kept) : PASSAGES_NEEDED;
}

/** A track's codes made from its passages (segments.ts, base64), or null without passages. */
export function codesFromPassages(stored: string | null | undefined, book: PassageCodebook = passageCodebook()): Uint32Array | null {
  const w = segmentWindows(stored);
  return w ? passageCodesOf(w, book) : null;
}

/**
 * A track's passage codes (cell × 2^16 + residual), at most MAX_TRACK_PASSAGES, distinct; null
 * without passages. The codes its analysis stored when they serve (storedTrackCodes); otherwise
 * its anchors are coded here (an analysis before version 8, or a refit).
 */
export function trackPassageCodes(stored: string | null | undefined, storedCodes?: string | null, book: PassageCodebook = passageCodebook()): Uint32Array | null {
  const kept = storedTrackCodes(storedCodes, book);
  return kept === PASSAGES_NEEDED ? codesFromPassages(stored, book) : kept;
}

/** Every window's code, then its distinct ones (distinctCodes). */
export function passageCodesOf(w: Uint8Array, book: PassageCodebook = passageCodebook()): Uint32Array {
  const scratch = new Float64Array(WINDOW_BYTES);
  const all = new Uint32Array(Math.floor(w.length / WINDOW_BYTES));
  for (let i = 0; i < all.length; i++) {
    const { cell, residual } = encodeWindow(book, w, i * WINDOW_BYTES, scratch);
    all[i] = (cell * (1 << CELL_SHIFT) + residual) >>> 0;
  }
  return distinctCodes(all);
}

/** A track's distinct codes in window order, at most MAX_TRACK_PASSAGES (thinned evenly past that). */
function distinctCodes(all: Uint32Array): Uint32Array {
  const codes: number[] = [];
  const seen = new Set<number>();
  for (const code of all) {
    if (seen.has(code)) continue;
    seen.add(code);
    codes.push(code);
  }
  if (codes.length <= MAX_TRACK_PASSAGES) return Uint32Array.from(codes);
  return Uint32Array.from({ length: MAX_TRACK_PASSAGES }, (_, i) => codes[Math.round((i * (codes.length - 1)) / (MAX_TRACK_PASSAGES - 1))]);
}

export interface PassageIndex {
  /** CELLS + 1 offsets into postings and residuals */
  starts: Int32Array;
  /** each passage's track, ascending in each cell */
  postings: Uint32Array;
  /** each passage's residual code */
  residuals: Uint16Array;
  /**
   * The same passages by track (ADR 0137): track t's codes (cell × 2^16 + residual, in window
   * order) from trackStarts[t] to trackStarts[t + 1] in `codes`, so the stage can place its
   * first REORDER_WORK ÷ windows by the segments between a track's consecutive windows
   * (reorderBySegments). 4 bytes a passage and 4 a track.
   */
  trackStarts: Int32Array;
  codes: Uint32Array;
}

/**
 * A passage index as the stage reads it (ADR 0162): its offsets in memory, its postings,
 * residuals and codes by track read from the figures' bytes (TrackFigures.bytes: a file shared
 * by the machine's processes, or memory) a cell, or a track, at a time.
 */
export interface PassageSource {
  starts: Int32Array;
  trackStarts: Int32Array;
  bytes: FigureBytes;
}

/** A built index (arrays in memory) as a source: tests and labs. */
export function passageSource(index: PassageIndex): PassageSource {
  return { starts: index.starts, trackStarts: index.trackStarts, bytes: memoryBytes({ prints: new Uint8Array(0), cellPrints: new Uint8Array(0), postings: index.postings, residuals: index.residuals, trackCodes: index.codes }) };
}

const sourceOf = (index: PassageIndex | PassageSource): PassageSource => ("bytes" in index ? index : passageSource(index));

/** No index (fresh arrays each time: the build worker transfers the figures' buffers). */
const noPassageIndex = (): PassageIndex => ({ starts: new Int32Array(0), postings: new Uint32Array(0), residuals: new Uint16Array(0), trackStarts: new Int32Array(0), codes: new Uint32Array(0) });

/** The index of `count` tracks' codes (MAX_TRACK_PASSAGES slots a track in `codes`, `used[t]` of them set). */
export function buildPassageIndex(codes: Uint32Array, used: Uint8Array, count: number): PassageIndex {
  if (count > MAX_TRACKS) return noPassageIndex();
  const starts = new Int32Array(CELLS + 1);
  let total = 0;
  for (let t = 0; t < count; t++) {
    for (let i = 0; i < used[t]; i++) starts[(codes[t * MAX_TRACK_PASSAGES + i] >>> CELL_SHIFT) + 1]++;
    total += used[t];
  }
  if (total === 0) return noPassageIndex();
  for (let c = 0; c < CELLS; c++) starts[c + 1] += starts[c];
  const next = starts.slice(0, CELLS);
  const postings = new Uint32Array(total);
  const residuals = new Uint16Array(total);
  const trackStarts = new Int32Array(count + 1);
  const byTrack = new Uint32Array(total);
  let k = 0;
  for (let t = 0; t < count; t++) {
    trackStarts[t] = k;
    for (let i = 0; i < used[t]; i++) {
      const code = codes[t * MAX_TRACK_PASSAGES + i];
      const at = next[code >>> CELL_SHIFT]++;
      postings[at] = t;
      residuals[at] = code & RESIDUAL_MASK;
      byTrack[k++] = code;
    }
  }
  trackStarts[count] = k;
  return { starts, postings, residuals, trackStarts, codes: byTrack };
}

/** A built index's codes back into per-track slots, in window order (a refresh starts from the previous figures). */
export function restorePassageCodes(index: Pick<PassageIndex, "trackStarts" | "codes">, codes: Uint32Array, used: Uint8Array): void {
  const { trackStarts, codes: byTrack } = index;
  const count = Math.min(used.length, trackStarts.length - 1);
  for (let t = 0; t < count; t++) {
    const n = Math.min(MAX_TRACK_PASSAGES, trackStarts[t + 1] - trackStarts[t]);
    codes.set(byTrack.subarray(trackStarts[t], trackStarts[t] + n), t * MAX_TRACK_PASSAGES);
    used[t] = n;
  }
}

/** A min-heap of cells (i, j) of the two sorted centroid lists by the sum of their distances. */
class PairHeap {
  private key: number[] = [];
  private pair: number[] = [];
  get size(): number {
    return this.key.length;
  }
  push(k: number, p: number): void {
    const { key, pair } = this;
    let i = key.length;
    key.push(k);
    pair.push(p);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (key[up] <= k) break;
      key[i] = key[up];
      pair[i] = pair[up];
      i = up;
    }
    key[i] = k;
    pair[i] = p;
  }
  pop(): number {
    const { key, pair } = this;
    const top = pair[0];
    const lastK = key.pop()!;
    const lastP = pair.pop()!;
    if (key.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= key.length) break;
        const c = l + 1 < key.length && key[l + 1] < key[l] ? l + 1 : l;
        if (key[c] >= lastK) break;
        key[i] = key[c];
        pair[i] = pair[c];
        i = c;
      }
      key[i] = lastK;
      pair[i] = lastP;
    }
    return top;
  }
}

/**
 * A query's scratch, one per index (queries are synchronous, so one at a time): per track its
 * nearest distance for the current window and its score, stamped by query: 16 bytes a track
 * (40 MB at 2.5 million), made on the first query; no per-query allocation of the catalog's size.
 */
interface Scratch {
  query: number;
  window: Int32Array;
  query_: Int32Array;
  best: Float32Array;
  score: Float32Array;
}
const scratches = new WeakMap<Int32Array, Scratch>();
function scratchOf(index: PassageSource): Scratch {
  let sc = scratches.get(index.trackStarts);
  if (!sc) {
    // every posting's track is one of the index's (trackStarts: one offset a track, and one after)
    const tracks = Math.max(0, index.trackStarts.length - 1);
    sc = { query: 0, window: new Int32Array(tracks), query_: new Int32Array(tracks), best: new Float32Array(tracks), score: new Float32Array(tracks) };
    scratches.set(index.trackStarts, sc);
  }
  // stamps stay below 2^31 / 16 (a window's stamp is query × 16 + window)
  if (sc.query > 100_000_000) {
    sc.query = 0;
    sc.window.fill(0);
    sc.query_.fill(0);
  }
  return sc;
}

export interface PassageCandidates {
  /** nearest first by the passage codes (ties by track position) */
  tracks: Int32Array;
  /** postings read and cells visited: the bounds' witnesses */
  postings: number;
  cells: number;
}

/**
 * The tracks whose passages lie nearest a reference's windows (see the module's comment):
 * `accept` applies the view's filters. For each window, a track's place is its nearest passage's
 * coded distance; a track not reached for a window takes that window's farthest distance read.
 */
export function passageCandidates(from: PassageIndex | PassageSource, windows: Uint8Array, accept: (t: number) => boolean, opts: { limit?: number; budget?: number; book?: PassageCodebook; reorder?: boolean } = {}): PassageCandidates {
  const index = sourceOf(from);
  const wanted = opts.limit ?? PASSAGE_CANDIDATES;
  // ADR 0137: the codes' first REORDER_WORK ÷ windows, placed again by reorderBySegments
  const reorder = opts.reorder !== false && index.trackStarts.length > 0;
  const limit = reorder ? Math.max(wanted, Math.floor(REORDER_WORK / Math.max(1, Math.floor(windows.length / WINDOW_BYTES)))) : wanted;
  const book = opts.book ?? passageCodebook();
  const { starts, bytes } = index;
  const postingsRead = { buffer: new Uint8Array(0) };
  const residualsRead = { buffer: new Uint8Array(0) };
  const count = Math.floor(windows.length / WINDOW_BYTES);
  if (starts.length === 0 || count === 0 || limit <= 0) return { tracks: new Int32Array(0), postings: 0, cells: 0 };
  const perWindow = Math.max(1, Math.floor((opts.budget ?? POSTINGS_BUDGET) / count));
  const x = new Float64Array(WINDOW_BYTES);
  const dm = new Float64Array(HALF_CODES);
  const ds = new Float64Array(HALF_CODES);
  // the cell's table of residual distances, each entry made when a posting first needs it: a
  // cell of a 250,000-track catalog holds ~64 passages, fewer than the table's 512 entries
  const table = new Float64Array(RESIDUAL_PARTS * RESIDUAL_CODES);
  const made = new Int32Array(RESIDUAL_PARTS * RESIDUAL_CODES);
  let cellStamp = 0;
  const part = (p: number, c: number) => {
    const e = p * RESIDUAL_CODES + c;
    if (made[e] !== cellStamp) {
      made[e] = cellStamp;
      distancesTo(book.residuals, 1, residual, p * RESIDUAL_PART, table, RESIDUAL_PART, e * RESIDUAL_PART, e);
    }
    return table[e];
  };
  const residual = new Float64Array(WINDOW_BYTES);
  const visited = new Uint8Array(CELLS);
  // score(t) = Σ over windows of its distance there; kept as the sum of (distance − the window's farthest read) for the windows that reached it
  const sc = scratchOf(index);
  const stamp = ++sc.query;
  const reached: number[] = [];
  let read = 0;
  let cellsVisited = 0;
  for (let w = 0; w < count; w++) {
    scaled(book, windows, w * WINDOW_BYTES, x);
    distancesTo(book.means, HALF_CODES, x, 0, dm);
    distancesTo(book.spreads, HALF_CODES, x, HALF, ds);
    const om = Int32Array.from({ length: HALF_CODES }, (_, i) => i).sort((a, b) => dm[a] - dm[b]);
    const os = Int32Array.from({ length: HALF_CODES }, (_, i) => i).sort((a, b) => ds[a] - ds[b]);
    const here: number[] = [];
    let farthest = 0;
    let readHere = 0;
    const touched: number[] = [];
    const heap = new PairHeap();
    heap.push(dm[om[0]] + ds[os[0]], 0);
    visited[0] = 1;
    touched.push(0);
    let cellsHere = 0;
    while (heap.size > 0 && readHere < perWindow && cellsHere < MAX_CELLS_PER_WINDOW) {
      const p = heap.pop();
      const i = p >> 8;
      const j = p & 255;
      cellsHere++;
      // the multi-sequence algorithm: (i+1, j) once (i+1, j−1) was visited, (i, j+1) once (i−1, j+1) was
      const tryPush = (a: number, b: number) => {
        if (a >= HALF_CODES || b >= HALF_CODES) return;
        const q = (a << 8) | b;
        if (visited[q]) return;
        if ((a === 0 || visited[((a - 1) << 8) | b]) && (b === 0 || visited[(a << 8) | (b - 1)])) {
          visited[q] = 1;
          touched.push(q);
          heap.push(dm[om[a]] + ds[os[b]], q);
        }
      };
      const a = om[i];
      const b = os[j];
      const cell = a * HALF_CODES + b;
      const from = starts[cell];
      const to = Math.min(starts[cell + 1], from + perWindow - readHere);
      if (to > from) {
        // the cell's postings and residuals, as far as the window's budget reads (one read each from a file)
        const postings = readWords(bytes, "postings", from, to - from, postingsRead);
        const residuals = readHalfWords(bytes, "residuals", from, to - from, residualsRead);
        // the asymmetric distances of this cell's residual codes: x minus the cell's centroids, to each part's residual centroids
        residualOf(book, x, a, b, residual);
        cellStamp++;
        for (let k = 0; k < to - from && readHere < perWindow; k++) {
          const t = postings[k];
          readHere++;
          if (!accept(t)) continue;
          // the two parts' centroids (passage-codes.ts: RESIDUAL_PARTS 2), low bits first
          const r = residuals[k];
          const d = part(0, r & (RESIDUAL_CODES - 1)) + part(1, r >>> RESIDUAL_BITS);
          if (sc.window[t] !== stamp * 16 + w) {
            sc.window[t] = stamp * 16 + w;
            sc.best[t] = d;
            here.push(t);
          } else if (d < sc.best[t]) sc.best[t] = d;
          if (d > farthest) farthest = d;
        }
      }
      tryPush(i + 1, j);
      tryPush(i, j + 1);
    }
    for (const q of touched) visited[q] = 0;
    read += readHere;
    cellsVisited += cellsHere;
    for (const t of here) {
      if (sc.query_[t] !== stamp) {
        sc.query_[t] = stamp;
        sc.score[t] = 0;
        reached.push(t);
      }
      sc.score[t] += sc.best[t] - farthest;
    }
  }
  // the `limit` lowest scores (ties by track), without sorting every track reached
  const order = Int32Array.from(reached);
  const score = (t: number) => sc.score[t];
  const tracks = lowestFirst(order, score, limit);
  return { tracks: reorder ? reorderBySegments(index, windows, tracks, wanted, book) : tracks, postings: read, cells: cellsVisited };
}
