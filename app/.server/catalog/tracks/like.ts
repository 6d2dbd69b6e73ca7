import { seedTables, type Sounding } from "../../analysis/similarity.ts";
import { FIELDS } from "../../analysis/fingerprint.ts";

const FIELD_COUNT = FIELDS.length;
import { KEY_NAMES, LIKE_LIMIT, LIKE_PER_ALBUM, LIKE_SPREAD_WINDOW, type TrackSort } from "../../../lib/catalog/track-query.ts";
import { NO_BPM, NO_KEY, NO_SECONDS, PRINT_BYTES, type TrackFigures } from "./figures.ts";
import type { TrackTable } from "./table.ts";

/**
 * The neighbours of a `like=` view (issue #19, ADR 0104, docs/product-rules.md "More like
 * this"): an exact scan of every fingerprinted track that passes the view's other filters,
 * keeping the LIKE_LIMIT nearest in a bounded heap (nothing of the catalog's size is sorted
 * or kept), then the album rule on the first page, then the order asked.
 */

/** Copies of one recording (the same fingerprint: the same audio on several albums) among the first LIKE_SPREAD_WINDOW. */
const LIKE_PER_RECORDING = 2;

/** What the scan compares against: the seed's sound, and the tracks never listed (the seed and its audio's other copies). */
export interface LikeSeedSound {
  sounding: Sounding;
  exclude: ReadonlySet<number>;
  /** names the seed in cache keys */
  cacheId: string;
}

/** A bounded max-heap of (distance, track): the `size` smallest distances seen. */
class NearestHeap {
  readonly d: Float64Array;
  readonly t: Int32Array;
  readonly size: number;
  length = 0;
  constructor(size: number) {
    this.size = size;
    this.d = new Float64Array(size);
    this.t = new Int32Array(size);
  }
  /** the largest distance kept, or Infinity while not full */
  get bound(): number {
    return this.length < this.size ? Infinity : this.d[0];
  }
  push(distance: number, track: number): void {
    const { d, t } = this;
    if (this.length < this.size) {
      let i = this.length++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (d[p] >= distance) break;
        d[i] = d[p];
        t[i] = t[p];
        i = p;
      }
      d[i] = distance;
      t[i] = track;
      return;
    }
    if (distance >= d[0]) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.length) break;
      const r = l + 1;
      const c = r < this.length && d[r] > d[l] ? r : l;
      if (d[c] <= distance) break;
      d[i] = d[c];
      t[i] = t[c];
      i = c;
    }
    d[i] = distance;
    t[i] = track;
  }
  /** the tracks kept, nearest first (ties in title order) */
  sorted(titleRank: Int32Array): { tracks: Int32Array; distances: Float64Array } {
    const idx = Array.from({ length: this.length }, (_, i) => i);
    idx.sort((a, b) => this.d[a] - this.d[b] || titleRank[this.t[a]] - titleRank[this.t[b]]);
    return { tracks: Int32Array.from(idx, (i) => this.t[i]), distances: Float64Array.from(idx, (i) => this.d[i]) };
  }
}

export interface LikeScanInput {
  table: TrackTable;
  figures: TrackFigures;
  seed: LikeSeedSound;
  /** the tracks the other filters leave (null: every track), tested per track */
  keep: ((t: number) => boolean) | null;
  /** the key filter (KEY_NAMES positions), or null */
  wanted: Uint8Array | null;
  limit?: number;
}

export interface LikeList {
  /** nearest first, the album rule applied: at most LIKE_PER_ALBUM of one album among the first LIKE_SPREAD_WINDOW */
  tracks: Int32Array;
  /** the key filter's choices: the keys among the neighbours found without the key filter */
  keyCounts: { key: string; count: number }[];
}

/** The scan (see the module's comment). */
export function nearestTracks(input: LikeScanInput): LikeList {
  const { table, figures, seed, keep, wanted } = input;
  const limit = input.limit ?? LIKE_LIMIT;
  const model = figures.model;
  const tables = seedTables(seed.sounding);
  // the excluded tracks (the seed and its copies) are dropped after the scan: room for them in the heaps
  const room = limit + seed.exclude.size;
  const all = new NearestHeap(room);
  const keyed = wanted ? new NearestHeap(room) : all;
  const { prints, printed, bpm, key } = figures;
  const n = table.count;
  // The scan's inner loop (2.5 million tracks, ADR 0104): the tempo and key terms first, then
  // the fields heaviest first, abandoning a track as soon as it is past the heap's worst
  // (most are after a few fields once the heap is full). Same sum as scanDistance, reordered.
  const w = model.fieldWeights;
  const order = Int32Array.from(w.keys()).sort((x, y) => w[y] - w[x]);
  const weights = Float64Array.from(order, (j) => w[j]);
  const own = Float64Array.from(order, (j) => seed.sounding.fingerprint[j]);
  const d = FIELD_COUNT;
  for (let t = 0; t < n; t++) {
    if (!printed[t]) continue;
    if (keep && !keep(t)) continue;
    const k = key[t];
    const b = bpm[t];
    let bound = all.bound;
    if (wanted && wanted[k] && keyed.bound > bound) bound = keyed.bound;
    let dist = tables.tempo[b > 511 ? 511 : b] + tables.key[k > 31 ? 31 : k];
    if (dist >= bound) continue;
    const at = t * d;
    for (let i = 0; i < d; i++) {
      const diff = own[i] - prints[at + order[i]];
      dist += weights[i] * diff * diff;
      if ((i & 7) === 7 && dist >= bound) break;
    }
    if (dist >= bound) continue;
    if (dist < all.bound) all.push(dist, t);
    if (wanted && wanted[k] && dist < keyed.bound) keyed.push(dist, t);
  }
  const drop = (heap: NearestHeap) => {
    const sorted = heap.sorted(table.titleRank);
    const kept = sorted.tracks.filter((t) => !seed.exclude.has(t));
    return kept.subarray(0, limit);
  };
  const allTracks = drop(all);
  const counts = new Int32Array(KEY_NAMES.length);
  for (const t of allTracks) if (key[t] !== NO_KEY) counts[key[t]]++;
  const keyCounts: { key: string; count: number }[] = [];
  for (let k = 0; k < counts.length; k++) if (counts[k] > 0) keyCounts.push({ key: KEY_NAMES[k], count: counts[k] });
  const tracks = wanted ? drop(keyed) : allTracks;
  // the same recording under several albums sounds the same: it counts as one "album" for the rule too
  const soundOf = new Map<string, number>();
  const groups = Int32Array.from(tracks, (t) => {
    const sound = Buffer.from(prints.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)).toString("latin1");
    let g = soundOf.get(sound);
    if (g === undefined) soundOf.set(sound, (g = soundOf.size));
    return g;
  });
  const byAlbum = spreadAlbums(tracks, table.trackAlbum);
  const position = new Map<number, number>();
  tracks.forEach((t, i) => position.set(t, i));
  return { tracks: spreadAlbums(byAlbum, (t) => groups[position.get(t)!], LIKE_PER_RECORDING), keyCounts };
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
