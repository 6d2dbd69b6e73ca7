import { LRUCache } from "lru-cache";
import type { NumberRange } from "../../../lib/catalog/track-query.ts";
import { albumTermsMatch } from "../../../lib/catalog/matching.ts";
import { NO_BPM, NO_SECONDS, type TrackFigures } from "./figures.ts";
import type { TrackTable } from "./table.ts";
import type { TrackSearcher } from "../search/types.ts";

/** A page of the track view as a query finds it (query.ts, like-query.ts). */
export interface PageMatches {
  /** tracks matching every filter */
  total: number;
  /** the keys of the matches without the key filter, in KEY_NAMES order */
  keyCounts: { key: string; count: number }[];
  /** the positions of the page asked, in the order asked */
  page: Int32Array;
}

export interface Base {
  tracks: Int32Array;
  scores: Float32Array | null;
  keyCounts: { key: string; count: number }[];
}

export type Cached = Base;

const cachedBytes = (value: Cached, key: string) => key.length * 2 + 64 + value.tracks.byteLength + (value.scores?.byteLength ?? 0) + 24 * 32;

export function createTrackCache(maxBytes: number): LRUCache<string, Cached> {
  return new LRUCache<string, Cached>({ maxSize: maxBytes, sizeCalculation: cachedBytes });
}

/** The walk's counts per filter: 33 numbers each, so a count bound is enough. */
export function createCountsCache(): LRUCache<string, Int32Array> {
  return new LRUCache<string, Int32Array>({ max: 2000 });
}

/** A range with its ends as whole numbers; null when the range asks nothing, or cannot match (NaN). */
export function wholeRange(range: NumberRange | null): [number, number] | null {
  if (!range) return null;
  const lo = range.min === null || !Number.isFinite(range.min) ? -Infinity : range.min;
  const hi = range.max === null || !Number.isFinite(range.max) ? Infinity : range.max;
  if (lo === -Infinity && hi === Infinity) return null;
  return [lo, hi];
}

/** What a track-view query reads: the table, its figures, the search and the caches. */
export interface TrackQueryContext {
  table: TrackTable;
  figures: TrackFigures;
  search: TrackSearcher;
  cache: LRUCache<string, Cached>;
  /** per tempo and length filter: the matches per packed key (index 32: all of them) */
  counts: LRUCache<string, Int32Array>;
  /** identifies (table, figures) in cache keys */
  generation: number;
  /** TrackIndexOptions.likeApproximateFrom */
  likeApproximateFrom?: number;
}

/** The genre filter's albums as a mask over album positions, or null when no genre is chosen. */
export function genreAlbums(ctx: TrackQueryContext, terms: string[]): Uint8Array | null {
  if (!terms.length) return null;
  const { table } = ctx;
  const mask = new Uint8Array(table.albums.length);
  const bucket = table.albumBuckets.get(terms[0]);
  if (!bucket) return mask;
  for (let j = 0; j < bucket.length; j++) {
    const a = bucket[j];
    // the album name is read only for the genres product-rules §5 matches by name (african, asian, latin)
    if (albumTermsMatch(terms.length > 1 ? table.albums.name(a).toLowerCase() : "", table.albumKeywords[a], terms)) mask[a] = 1;
  }
  return mask;
}

/** Whether track `t`'s measured tempo and length fall in the ranges (an unmeasured figure matches no range). */
export function inFigureRanges(figures: TrackFigures, t: number, bpm: [number, number] | null, seconds: [number, number] | null): boolean {
  if (bpm) {
    const b = figures.bpm[t];
    if (b === NO_BPM || b < bpm[0] || b > bpm[1]) return false;
  }
  if (seconds) {
    const s = figures.seconds[t];
    if (s === NO_SECONDS || s < seconds[0] || s > seconds[1]) return false;
  }
  return true;
}
