import { LRUCache } from "lru-cache";
import { albumTermsMatch, normalizeTerms } from "../../../lib/catalog/matching.ts";
import { KEY_NAMES, type NumberRange, type TrackQuery, type TrackSort } from "../../../lib/catalog/track-query.ts";
import { keyIndex, NO_BPM, NO_KEY, NO_SECONDS, type TrackFigures } from "./figures.ts";
import type { TrackTable } from "./table.ts";
import { orderByScore } from "./search.ts";
import { Int32Column } from "./columns.ts";

/**
 * Answers a TrackQuery over the track table and its figures (issue #10, ADR 0100), up to the
 * ordered track positions; the rows of the page are made by the caller (track-index.ts).
 *
 * Work is cached in two steps, one byte budget (an LRU, as the album index: ADR 0060):
 * - the matches of the genre, tempo, length and search filters (positions in track order, and
 *   the search scores), without the key filter, with the key counts they give (the key
 *   filter's choices are the keys of the results without the key filter);
 * - the matches with the key filter, in the order asked.
 * A page is then a slice. Each entry carries the figures' identity, so results computed over
 * older figures are never served after a refresh.
 */

/** Search hits: track positions (ascending) and a score each (higher is better). */
export interface SearchHits {
  tracks: Int32Array;
  scores: Float32Array;
}

export interface TrackSearcher {
  /** the tracks matching every word of `q`, or null when `q` has no word */
  tracks(q: string): SearchHits | null;
  /** the normalised form of `q` for cache keys ("" for none) */
  normalize(q: string): string;
}

export interface Matches {
  /** positions in the order asked */
  order: Int32Array;
  keyCounts: { key: string; count: number }[];
}

interface Base {
  tracks: Int32Array;
  scores: Float32Array | null;
  keyCounts: { key: string; count: number }[];
}

type Cached = Base | Int32Array;

const cachedBytes = (value: Cached, key: string) =>
  key.length * 2 + 64 + (value instanceof Int32Array ? value.byteLength : value.tracks.byteLength + (value.scores?.byteLength ?? 0) + 24 * 32);

export function createTrackCache(maxBytes: number): LRUCache<string, Cached> {
  return new LRUCache<string, Cached>({ maxSize: maxBytes, sizeCalculation: cachedBytes });
}

/** A range with its ends as whole numbers; null when the range asks nothing, or cannot match (NaN). */
function wholeRange(range: NumberRange | null): [number, number] | null {
  if (!range) return null;
  const lo = range.min === null || !Number.isFinite(range.min) ? -Infinity : range.min;
  const hi = range.max === null || !Number.isFinite(range.max) ? Infinity : range.max;
  if (lo === -Infinity && hi === Infinity) return null;
  return [lo, hi];
}

const rangeKey = (r: [number, number] | null) => (r ? `${r[0]}-${r[1]}` : "");

export interface TrackQueryContext {
  table: TrackTable;
  figures: TrackFigures;
  search: TrackSearcher;
  cache: LRUCache<string, Cached>;
  /** identifies (table, figures) in cache keys */
  generation: number;
}

/** The genre filter's albums as a mask over album positions, or null when no genre is chosen. */
function genreAlbums(ctx: TrackQueryContext, terms: string[]): Uint8Array | null {
  if (!terms.length) return null;
  const { table } = ctx;
  const mask = new Uint8Array(table.albums.length);
  const bucket = table.albumBuckets.get(terms[0]);
  if (!bucket) return mask;
  for (let j = 0; j < bucket.length; j++) {
    const a = bucket[j];
    // the album name is read only for the genres spec §5 matches by name (african, asian, latin)
    if (albumTermsMatch(terms.length > 1 ? table.albums.name(a).toLowerCase() : "", table.albumKeywords[a], terms)) mask[a] = 1;
  }
  return mask;
}

function keyCountsOf(figures: TrackFigures, tracks: Int32Array): { key: string; count: number }[] {
  const counts = new Int32Array(KEY_NAMES.length);
  for (let j = 0; j < tracks.length; j++) {
    const k = figures.key[tracks[j]];
    if (k !== NO_KEY) counts[k]++;
  }
  const out: { key: string; count: number }[] = [];
  for (let k = 0; k < counts.length; k++) if (counts[k] > 0) out.push({ key: KEY_NAMES[k], count: counts[k] });
  return out;
}

function base(ctx: TrackQueryContext, q: TrackQuery, cacheKey: string, terms: string[], bpm: [number, number] | null, seconds: [number, number] | null): Base {
  const hit = ctx.cache.get(cacheKey);
  if (hit && !(hit instanceof Int32Array)) return hit;
  const { table, figures } = ctx;
  const albums = genreAlbums(ctx, terms);
  const hits = ctx.search.tracks(q.q);
  const keep = (t: number) => {
    if (albums && albums[table.trackAlbum[t]] === 0) return false;
    if (bpm) {
      const b = figures.bpm[t];
      if (b === NO_BPM || b < bpm[0] || b > bpm[1]) return false;
    }
    if (seconds) {
      const s = figures.seconds[t];
      if (s === NO_SECONDS || s < seconds[0] || s > seconds[1]) return false;
    }
    return true;
  };
  const out = new Int32Column(hits ? Math.max(16, hits.tracks.length) : 1024);
  let scores: Float32Array | null = null;
  if (hits) {
    scores = new Float32Array(hits.tracks.length);
    for (let j = 0; j < hits.tracks.length; j++) {
      const t = hits.tracks[j];
      if (keep(t)) {
        scores[out.length] = hits.scores[j];
        out.push(t);
      }
    }
    scores = scores.slice(0, out.length);
  } else if (albums && !bpm && !seconds) {
    // only the genre: whole albums, one range each
    const bucket = table.albumBuckets.get(terms[0]) ?? new Int32Array(0);
    for (let j = 0; j < bucket.length; j++) {
      const a = bucket[j];
      if (albums[a]) for (let t = table.albumStart[a]; t < table.albumStart[a + 1]; t++) out.push(t);
    }
  } else {
    for (let t = 0; t < table.count; t++) if (keep(t)) out.push(t);
  }
  const tracks = out.finish();
  const value: Base = { tracks, scores, keyCounts: keyCountsOf(figures, tracks) };
  ctx.cache.set(cacheKey, value);
  return value;
}

/** Subsets at most this share of the catalog are sorted; larger ones are read off the precomputed orders. */
const SORT_SHARE = 1 / 16;

/**
 * `subset` (ascending positions) in the order `sort` asks, ties in title order. The whole
 * catalog's orders are precomputed (table.titleOrder, figures.orders); a large subset is read
 * off them through a mask, a small one is sorted by one float key per track.
 */
function ordered(ctx: TrackQueryContext, subset: Int32Array, scores: Float32Array | null, sort: TrackSort): Int32Array {
  const { table, figures } = ctx;
  const n = table.count;
  const m = subset.length;
  if (sort === "relevance" && scores) return orderByScore(subset, scores, n, (t) => table.titleRank[t], (r) => table.titleOrder[r]);
  const whole: Int32Array = sort === "bpm" || sort === "-bpm" || sort === "duration" || sort === "-duration" ? figures.orders[sort] : table.titleOrder;
  if (m === n) return whole;
  if (m > n * SORT_SHARE) {
    const mask = new Uint8Array(n);
    for (let j = 0; j < m; j++) mask[subset[j]] = 1;
    const out = new Int32Array(m);
    let k = 0;
    for (let i = 0; i < n && k < m; i++) if (mask[whole[i]]) out[k++] = whole[i];
    return out;
  }
  const keys = new Float64Array(m);
  const figure = sort === "bpm" || sort === "-bpm" ? figures.bpm : sort === "duration" || sort === "-duration" ? figures.seconds : null;
  const none = figure === figures.bpm ? NO_BPM : NO_SECONDS;
  const descending = sort.startsWith("-");
  for (let j = 0; j < m; j++) {
    const t = subset[j];
    let primary = 0;
    if (figure) {
      const v = figure[t];
      // tracks without the figure last, in both directions
      primary = v === none ? 0x10000 : descending ? 0xffff - v : v;
    }
    keys[j] = primary * n + table.titleRank[t];
  }
  return decode(keys.sort(), n, table.titleOrder);
}

/** Sorted keys `primary * n + titleRank` back to track positions. */
function decode(keys: Float64Array, n: number, titleOrder: Int32Array): Int32Array {
  const out = new Int32Array(keys.length);
  for (let j = 0; j < keys.length; j++) out[j] = titleOrder[keys[j] % n];
  return out;
}

/** The tracks a query selects, in its order, and the key filter's choices. */
export function matchTracks(ctx: TrackQueryContext, q: TrackQuery): Matches {
  const terms = q.genre.trim() ? normalizeTerms([q.genre, ...q.subGenres]) : [];
  const bpm = wholeRange(q.bpm);
  const seconds = wholeRange(q.duration);
  const words = ctx.search.normalize(q.q);
  const keys = [...new Set(q.keys.map(keyIndex).filter((k) => k >= 0))].sort((a, b) => a - b);
  const sort: TrackSort = q.sort === "relevance" && !words ? "title" : q.sort;
  const baseKey = `${ctx.generation}|${terms.join("\u0001")}|${rangeKey(bpm)}|${rangeKey(seconds)}|${words}`;
  const b = base(ctx, q, baseKey, terms, bpm, seconds);
  const orderKey = `${baseKey}|${keys.join(",")}|${sort}`;
  let order = ctx.cache.get(orderKey);
  if (!(order instanceof Int32Array)) {
    let subset = b.tracks;
    let scores = b.scores;
    if (keys.length) {
      const wanted = new Uint8Array(256);
      for (const k of keys) wanted[k] = 1;
      const kept = new Int32Array(subset.length);
      const keptScores = scores ? new Float32Array(subset.length) : null;
      let k = 0;
      for (let j = 0; j < subset.length; j++) {
        if (wanted[ctx.figures.key[subset[j]]]) {
          if (keptScores) keptScores[k] = scores![j];
          kept[k++] = subset[j];
        }
      }
      subset = kept.slice(0, k);
      scores = keptScores ? keptScores.slice(0, k) : null;
    }
    order = ordered(ctx, subset, scores, sort);
    // the whole catalog's order is one of the table's own arrays: nothing to keep
    if (order.length < ctx.table.count) ctx.cache.set(orderKey, order);
  }
  return { order, keyCounts: b.keyCounts };
}
