import { seedTables, type Sounding } from "../../analysis/similarity.ts";
import { FIELDS } from "../../analysis/fingerprint.ts";

const FIELD_COUNT = FIELDS.length;
import { KEY_NAMES, LIKE_LIMIT, LIKE_PER_ALBUM, LIKE_SPREAD_WINDOW, type TrackSort } from "../../../lib/catalog/track-query.ts";
import { lowerBound, NO_BPM, NO_KEY, NO_SECONDS, PRINT_BYTES, type TrackFigures } from "./figures.ts";
import { GROUPS } from "./print-layout.ts";
import { cellOrder, searchVector } from "./print-cells.ts";
import type { TrackTable } from "./table.ts";
import { NearestHeap } from "./select-lowest.ts";
import { readElements } from "./figure-bytes.ts";

/**
 * The neighbours of a `like=` view (issue #19, ADR 0104, docs/product-rules.md "More like
 * this"): an exact scan of every fingerprinted track that passes the view's other filters,
 * keeping the LIKE_LIMIT nearest in a bounded heap (nothing of the catalog's size is sorted
 * or kept), then the album rule on the first page, then the order asked. At scale (issue #29,
 * ADR 0124) the tracks measured are those of the cells nearest the seed, up to a visit
 * budget: the same distance, heap, filters and rules, an approximate list.
 */

/** Copies of one recording (the same fingerprint: the same audio on several albums) among the first LIKE_SPREAD_WINDOW. */
const LIKE_PER_RECORDING = 2;

/** What the scan compares against: the seed's sound, and the tracks never listed (the seed and its audio's other copies). */
export interface LikeSeedSound {
  sounding: Sounding;
  exclude: ReadonlySet<number>;
  /** names the seed in cache keys */
  cacheId: string;
  /**
   * A second stage over the scan's kept list, nearest first (a reference file's passages:
   * passages.ts, issue #29, ADR 0122); null when it could not be made (the list then keeps the
   * scan's order and is not cached). Applied before the album and recording rules.
   */
  rerank?: (kept: Int32Array) => Promise<Int32Array | null>;
  /**
   * A reference file's seed: without passages its first stage stays the exact scan at any size
   * (ADR 0124): an excerpt's whole fingerprint lies far from its source's (ADR 0122), and the
   * cells nearest the excerpt lose sources the exact scan keeps. With passages its candidates
   * come from them (ADR 0129, like-query.ts) and the scan may be the approximate one.
   */
  reference?: boolean;
  /**
   * A reference file's passage windows (segments.ts, ≤ 12): its first stage over the catalog's
   * passages (passage-index.ts, issue #29, ADR 0129) adds the tracks holding a passage like
   * one of them to the scan's kept list before `rerank`.
   */
  passages?: Uint8Array;
}


export interface LikeScanInput {
  table: TrackTable;
  figures: TrackFigures;
  seed: LikeSeedSound;
  /** the tracks the other filters leave (null: every track), tested per track; the ranges below are not its part */
  keep: ((t: number) => boolean) | null;
  /** the tempo and length filters (inFigureRanges' meaning), read from the layout: whole groups left out */
  bpm?: [number, number] | null;
  seconds?: [number, number] | null;
  /** the key filter (KEY_NAMES positions), or null */
  wanted: Uint8Array | null;
  limit?: number;
  /** the kept tracks nearest first without the album and recording rules (listRules), for a second stage */
  ordered?: boolean;
  /** the share of the tracks `keep` leaves (a genre's or a search's; 1 without): the approximate stage's choice (ADR 0124) */
  keepShare?: number;
  /** tests and the bench: the approximate stage's visit budget (default visitBudget), and the candidates from which it is taken (APPROXIMATE_FROM) */
  budget?: number;
  approximateFrom?: number;
}

export interface LikeList {
  /** nearest first, the album rule applied (unless `ordered` was asked): at most LIKE_PER_ALBUM of one album among the first LIKE_SPREAD_WINDOW */
  tracks: Int32Array;
  /** the key filter's choices: the keys among the neighbours found without the key filter */
  keyCounts: { key: string; count: number }[];
  /** whether the approximate first stage made the list (ADR 0124), and the tracks it measured then (-1: the exact scan) */
  approximate: boolean;
  visited: number;
}

/**
 * The approximate first stage (issue #29, ADR 0124): taken when the figures have cells
 * (print-cells.ts, from QUANTISE_FROM fingerprinted tracks) and the filters leave at least
 * this many candidates (estimated: the tempo, length and key ranges counted exactly from the
 * layout, times the share of a genre or a search); below it the exact scan is cheap and a
 * small catalog, or a narrow view, sees the exact order.
 */
export const APPROXIMATE_FROM = 100_000;
/** The tracks measured (after the filters) by the approximate stage: a share of the candidates, at least VISIT_MIN. */
const VISIT_MIN = 30_000;
const VISIT_SHARE = 0.08;
export const visitBudget = (candidates: number) => Math.max(VISIT_MIN, Math.ceil(VISIT_SHARE * candidates));

/** Rows read from the figures' file at once (ADR 0162): 16,384 × 44 bytes, 704 KB, one buffer reused by the scan. */
const READ_ROWS = 16_384;

/** Group order keys: a group's term rounded down to this grid (then its number), sorted as plain numbers. */
const TERM_GRID = 1 << 20;

/**
 * The scan (see the module's comment). Exact: every fingerprinted track the filters leave is
 * either measured or provably farther than the LIKE_LIMIT kept. The fingerprints are laid out
 * by tempo and key (TrackFigures.prints, ADR 0116), and a group's tempo and key terms are the
 * same for all its tracks: the groups the tempo filter leaves are visited nearest term first,
 * so the kept list tightens early, and the scan stops at the first group whose term alone is
 * past the worst kept. In a group, the fields are summed heaviest first and a track is
 * abandoned once past the worst kept (most are, after a few fields).
 */
export function nearestTracks(input: LikeScanInput): LikeList {
  const { table, figures, seed, keep, wanted } = input;
  const bpmRange = input.bpm ?? null;
  const secondsRange = input.seconds ?? null;
  const limit = input.limit ?? LIKE_LIMIT;
  const model = figures.model;
  const tables = seedTables(seed.sounding);
  // the excluded tracks (the seed and its copies) are dropped after the scan: room for them in the heaps
  const room = limit + seed.exclude.size;
  const all = new NearestHeap(room, table.titleRank);
  const keyed = wanted ? new NearestHeap(room, table.titleRank) : all;
  const { printTracks, printStarts, printSeconds, bpm, key, bytes } = figures;
  // the rows' bytes: a view of memory, or read from the figures' file a slice at a time (ADR 0162)
  const inMemory = bytes.memory("prints");
  const scratch = { buffer: new Uint8Array(0) };
  const readRows = (section: "prints" | "cellPrints", from: number, to: number) => readElements(bytes, section, from, to - from, PRINT_BYTES, scratch);

  // The groups to visit: packed tempo 0 is "none" (no tempo range matches it), 511 holds every
  // tempo from 511 up (its tracks are tested one by one against a range).
  const bFrom = bpmRange ? Math.min(511, Math.max(1, Math.ceil(bpmRange[0]))) : 0;
  const bTo = bpmRange ? Math.min(511, Math.floor(bpmRange[1])) : 511;
  const visits: number[] = [];
  const [s0, s1] = secondsRange ?? [0, 0];
  const [b0, b1] = bpmRange ?? [0, 0];
  const sFrom = secondsRange ? Math.max(0, Math.ceil(s0)) : 0;
  const sEnd = secondsRange ? Math.min(NO_SECONDS, Math.floor(s1) + 1) : NO_SECONDS + 1;
  const cells = figures.cellStarts.length > 0;
  // the candidates the ranges leave (the shown list's: the wanted keys only), for the choice of stage
  let candidates = 0;
  for (let b = bFrom; b <= bTo; b++) {
    for (let k = 0; k < 32; k++) {
      const g = b * 32 + k;
      if (printStarts[g + 1] === printStarts[g]) continue;
      if (cells && (!wanted || (k < wanted.length && wanted[k] === 1))) {
        candidates += secondsRange ? lowerBound(printSeconds, printStarts[g], printStarts[g + 1], sEnd) - lowerBound(printSeconds, printStarts[g], printStarts[g + 1], sFrom) : printStarts[g + 1] - printStarts[g];
      }
      // the rounded term (down, so a later group's true term is never below an earlier one's key) and the group
      visits.push(Math.floor((tables.tempo[b] + tables.key[k]) * TERM_GRID) * GROUPS + g);
    }
  }

  const w = model.fieldWeights;
  const fieldOrder = Int32Array.from(w.keys()).sort((x, y) => w[y] - w[x]);
  const weights = Float64Array.from(fieldOrder, (j) => w[j]);
  const own = Float64Array.from(fieldOrder, (j) => seed.sounding.fingerprint[j]);
  const d = FIELD_COUNT;
  /** the distance a track must not pass to enter a list it would feed (the keyed list only for a wanted key) */
  const worstKept = (isWanted: boolean) => (isWanted && keyed.bound > all.bound ? keyed.bound : all.bound);
  candidates *= Math.min(1, Math.max(0, input.keepShare ?? 1));
  const approximate = cells && candidates >= (input.approximateFrom ?? APPROXIMATE_FROM);
  let visited = -1;
  if (approximate) {
    // ADR 0124: the cells nearest the seed first, every row of a cell that the filters leave
    // measured exactly as below, until `budget` tracks of the shown list have been measured
    const budget = input.budget ?? visitBudget(candidates);
    const own32 = new Float32Array(d);
    searchVector(model, seed.sounding.fingerprint, 0, own32);
    const { cellStarts, cellRows, cellGroups } = figures;
    const nearestCells = cellOrder(figures, own32).order;
    // from a file, a cell's rows in the cells' order ("cellPrints"), READ_ROWS at a time; in memory, the rows themselves
    const byCell = inMemory === null;
    let rows: Uint8Array = inMemory ?? new Uint8Array(0);
    let rowsFrom = 0;
    let rowsTo = 0;
    visited = 0;
    visit: for (let ci = 0; ci < nearestCells.length; ci++) {
      const c = nearestCells[ci];
      const rowsEnd = cellStarts[c + 1];
      for (let j = cellStarts[c]; j < rowsEnd; j++) {
        // the row's tempo and key from the list (its group), its track and bytes only when needed
        const g = cellGroups[j];
        const b = g >> 5;
        if (b < bFrom || b > bTo) continue;
        const p = cellRows[j];
        if (secondsRange) {
          const s = printSeconds[p];
          if (s < sFrom || s >= sEnd) continue;
        }
        const k = g & 31;
        const isWanted = wanted !== null && k < wanted.length && wanted[k] === 1;
        let t = -1;
        if (keep !== null || (bpmRange !== null && b === 511)) {
          t = printTracks[p];
          if (bpmRange !== null && b === 511 && (bpm[t] < b0 || bpm[t] > b1)) continue;
          if (keep !== null && !keep(t)) continue;
        }
        const bound = worstKept(isWanted);
        let dist = tables.tempo[b] + tables.key[k];
        if (dist <= bound) {
          if (byCell && (j < rowsFrom || j >= rowsTo)) {
            rowsFrom = j;
            rowsTo = Math.min(rowsEnd, j + READ_ROWS);
            rows = readRows("cellPrints", rowsFrom, rowsTo);
          }
          const at = byCell ? (j - rowsFrom) * d : p * d;
          for (let i = 0; i < d; i++) {
            const diff = own[i] - rows[at + fieldOrder[i]];
            dist += weights[i] * diff * diff;
            if ((i & 7) === 7 && dist > bound) break;
          }
          if (dist <= bound) {
            if (t < 0) t = printTracks[p];
            all.push(dist, t);
            if (isWanted) keyed.push(dist, t);
          }
        }
        if ((wanted === null || isWanted) && ++visited >= budget) break visit;
      }
    }
  }
  // the exact scan (ADR 0116): the groups nearest term first
  const order = approximate ? new Float64Array(0) : Float64Array.from(visits).sort();
  for (let v = 0; v < order.length; v++) {
    const g = order[v] % GROUPS;
    const b = g >> 5;
    const k = g & 31;
    const isWanted = wanted !== null && k < wanted.length && wanted[k] === 1;
    const worst = worstKept(isWanted);
    // every later group's term is at least this one's rounded term: none of them can enter either list
    if (Math.floor(order[v] / GROUPS) / TERM_GRID > Math.max(all.bound, keyed.bound)) break;
    const term = tables.tempo[b] + tables.key[k];
    if (term > worst) continue;
    const testBpm = bpmRange !== null && b === 511;
    let bound = worst;
    // a group's rows are in length order (print-layout.ts): the length range is a slice of it
    let from = printStarts[g];
    let end = printStarts[g + 1];
    if (secondsRange) {
      end = lowerBound(printSeconds, from, end, Math.min(NO_SECONDS, Math.floor(s1) + 1));
      from = lowerBound(printSeconds, from, end, Math.max(0, Math.ceil(s0)));
    }
    let rows: Uint8Array = inMemory ?? new Uint8Array(0);
    let rowsFrom = inMemory ? 0 : from;
    let rowsTo = inMemory ? end : from;
    for (let p = from; p < end; p++) {
      const t = printTracks[p];
      if (testBpm && (bpm[t] < b0 || bpm[t] > b1)) continue;
      if (keep && !keep(t)) continue;
      if (p >= rowsTo) {
        rowsFrom = p;
        rowsTo = Math.min(end, p + READ_ROWS);
        rows = readRows("prints", rowsFrom, rowsTo);
      }
      let dist = term;
      const at = (p - rowsFrom) * d;
      for (let i = 0; i < d; i++) {
        const diff = own[i] - rows[at + fieldOrder[i]];
        dist += weights[i] * diff * diff;
        if ((i & 7) === 7 && dist > bound) break;
      }
      if (dist > bound) continue;
      all.push(dist, t);
      if (isWanted) keyed.push(dist, t);
      bound = worstKept(isWanted);
    }
  }
  const drop = (heap: NearestHeap) => heap.sorted().filter((t) => !seed.exclude.has(t)).subarray(0, limit);
  const allTracks = drop(all);
  const counts = new Int32Array(KEY_NAMES.length);
  for (const t of allTracks) if (key[t] !== NO_KEY) counts[key[t]]++;
  const keyCounts: { key: string; count: number }[] = [];
  for (let k = 0; k < counts.length; k++) if (counts[k] > 0) keyCounts.push({ key: KEY_NAMES[k], count: counts[k] });
  const tracks = wanted ? drop(keyed) : allTracks;
  return { tracks: input.ordered ? tracks : listRules(table, figures, tracks), keyCounts, approximate, visited };
}

/**
 * The rules of a like= list, over the tracks nearest first: the same recording under several
 * albums counts as one "album" too, then at most LIKE_PER_ALBUM of one album among the first
 * LIKE_SPREAD_WINDOW (spreadAlbums).
 */
export function listRules(table: TrackTable, figures: TrackFigures, tracks: Int32Array): Int32Array {
  // the same recording under several albums sounds the same: it counts as one "album" for the rule too
  const soundOf = new Map<string, number>();
  const groups = Int32Array.from(tracks, (t) => {
    const sound = Buffer.from(figures.printOf(figures.printRow[t])).toString("latin1");
    let g = soundOf.get(sound);
    if (g === undefined) soundOf.set(sound, (g = soundOf.size));
    return g;
  });
  const byAlbum = spreadAlbums(tracks, table.trackAlbum);
  const position = new Map<number, number>();
  tracks.forEach((t, i) => position.set(t, i));
  return spreadAlbums(byAlbum, (t) => groups[position.get(t)!], LIKE_PER_RECORDING);
}

/**
 * docs/product-rules.md "More like this": one album may not fill the first page. Walking the
 * list nearest first, a track whose album already has LIKE_PER_ALBUM among the first
 * LIKE_SPREAD_WINDOW waits; the waiting ones follow the window, in their order.
 */
export function spreadAlbums(tracks: Int32Array, trackAlbum: Int32Array | ((t: number) => number), perAlbum = LIKE_PER_ALBUM, window = LIKE_SPREAD_WINDOW): Int32Array {
  const albumOf = typeof trackAlbum === "function" ? trackAlbum : (t: number) => trackAlbum[t];
  const out = new Int32Array(tracks.length);
  const waiting: number[] = [];
  const inWindow = new Map<number, number>();
  let o = 0;
  for (let i = 0; i < tracks.length; i++) {
    const t = tracks[i];
    if (o >= window) {
      out[o++] = t;
      continue;
    }
    const a = albumOf(t);
    const c = inWindow.get(a) ?? 0;
    if (c >= perAlbum) {
      waiting.push(t);
      continue;
    }
    inWindow.set(a, c + 1);
    out[o++] = t;
    // the window is full: the waiting tracks come next, before the rest
    if (o === window) for (const w of waiting.splice(0)) out[o++] = w;
  }
  for (const w of waiting) out[o++] = w;
  return out;
}

/** The neighbours in another order than similarity (issue #19: the other sorts still work), ties in similarity order. */
export function reorder(list: Int32Array, sort: TrackSort, table: TrackTable, figures: TrackFigures): Int32Array {
  if (sort === "similarity" || sort === "relevance") return list;
  const place = new Map<number, number>();
  list.forEach((t, i) => place.set(t, i));
  const keyOf = (t: number): number => {
    if (sort === "title") return table.titleRank[t];
    const none = sort === "bpm" || sort === "-bpm" ? NO_BPM : NO_SECONDS;
    const v = sort === "bpm" || sort === "-bpm" ? figures.bpm[t] : figures.seconds[t];
    if (v === none) return Number.MAX_SAFE_INTEGER;
    return sort.startsWith("-") ? -v : v;
  };
  return Int32Array.from([...list].sort((a, b) => keyOf(a) - keyOf(b) || place.get(a)! - place.get(b)!));
}
