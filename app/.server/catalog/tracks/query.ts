import { normalizeTerms } from "../../../lib/catalog/matching.ts";
import { KEY_NAMES, type TrackQuery, type TrackSort } from "../../../lib/catalog/track-query.ts";
import { countInRanges, keyIndex, NO_BPM, NO_KEY, NO_SECONDS, PACKED_NO_SECONDS, type FigureSort, type TrackFigures } from "./figures.ts";
import { Int32Column } from "./columns.ts";
import type { LikeSeedSound } from "./like.ts";
import { likePage } from "./like-query.ts";
import { matchKeys } from "../match-keys.ts";
import { genreAlbums, inFigureRanges, wholeRange, type Base, type PageMatches, type TrackQueryContext } from "./query-context.ts";


/**
 * Answers a TrackQuery over the track table and its figures (issue #10, ADR 0100): the total,
 * the key counts and the positions of the one page asked; the rows are made by the caller
 * (track-index.ts). Nothing of the size of the catalog is sorted or copied per query:
 * - without a search (and without a genre, or a genre of more than a sixteenth of the
 *   tracks), the figures' groups count the matches and the keys (figures.ts countInRanges),
 *   and a pass over the packed figures laid out in the order asked keeps the page, stopping
 *   once it is full: memory read front to back;
 * - with a search or a small genre, the matches (positions in track order, search scores) and
 *   their key counts are kept in an LRU bounded by bytes (as the album index: ADR 0060), and
 *   the page is picked from them by a histogram of a coarse order key, sorting only the members
 *   of the buckets the page falls in.
 * Cache keys carry the table and figures generation, so results over older figures are never
 * served after a refresh.
 */

function keyCountsOf(figures: TrackFigures, tracks: Int32Array): { key: string; count: number }[] {
  const counts = new Int32Array(KEY_NAMES.length);
  for (let j = 0; j < tracks.length; j++) {
    const k = figures.key[tracks[j]];
    if (k !== NO_KEY) counts[k]++;
  }
  return keyList(counts);
}

function keyList(counts: Int32Array): { key: string; count: number }[] {
  const out: { key: string; count: number }[] = [];
  for (let k = 0; k < counts.length; k++) if (counts[k] > 0) out.push({ key: KEY_NAMES[k], count: counts[k] });
  return out;
}

function base(ctx: TrackQueryContext, q: TrackQuery, cacheKey: string, terms: string[], bpm: [number, number] | null, seconds: [number, number] | null): Base {
  const hit = ctx.cache.get(cacheKey);
  if (hit) return hit;
  const { table, figures } = ctx;
  const albums = genreAlbums(ctx, terms);
  const hits = ctx.search.tracks(q.q);
  const keep = (t: number) => {
    if (albums && albums[table.trackAlbum[t]] === 0) return false;
    return inFigureRanges(figures, t, bpm, seconds);
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
  } else if (albums) {
    // the genre's albums, one range of tracks each
    const bucket = table.albumBuckets.get(terms[0]) ?? new Int32Array(0);
    for (let j = 0; j < bucket.length; j++) {
      const a = bucket[j];
      if (albums[a]) for (let t = table.albumStart[a]; t < table.albumStart[a + 1]; t++) if (keep(t)) out.push(t);
    }
  } else {
    for (let t = 0; t < table.count; t++) if (keep(t)) out.push(t);
  }
  const tracks = out.finish();
  const value: Base = { tracks, scores, keyCounts: keyCountsOf(figures, tracks) };
  ctx.cache.set(cacheKey, value);
  return value;
}

/**
 * The order asked, read front to back over the packed figures: the matches of the tempo and
 * length filters, the page kept. Their counts per key (the total, and the key filter's choices)
 * come from the figures' groups (countInRanges, issue #18) and are remembered per filter (a few
 * hundred bytes), so the read stops as soon as the page is full; in an order by the filtered
 * figure itself it starts at the filter's first track. Without a tempo or length filter the page
 * is a slice.
 */
function walk(
  ctx: TrackQueryContext,
  sort: "title" | FigureSort,
  bpm: [number, number] | null,
  seconds: [number, number] | null,
  wanted: Uint8Array | null,
  start: number,
  size: number,
): PageMatches {
  const { table, figures } = ctx;
  const packed = figures.packed[sort];
  const order = sort === "title" ? table.titleOrder : figures.orders[sort];
  const n = table.count;
  const countsKey = matchKeys.trackCounts(ctx.generation, bpm, seconds);
  let counts = ctx.counts.get(countsKey);
  if (!counts) ctx.counts.set(countsKey, (counts = countInRanges(figures, bpm, seconds)));
  let total = counts[32];
  if (wanted) {
    total = 0;
    for (let k = 0; k < 32; k++) if (wanted[k]) total += counts[k];
  }
  const keyCounts = keyList(counts.subarray(0, KEY_NAMES.length));
  if (!wanted && !bpm && !seconds) {
    const page = order.subarray(Math.min(start, n), Math.min(n, start + size));
    return { total, keyCounts, page: page.slice() };
  }
  const page = new Int32Array(Math.max(0, Math.min(size, total - start)));
  let kept = 0;
  let seen = 0;
  const [bLo, bHi] = bpm ?? [0, 0];
  const [sLo, sHi] = seconds ?? [0, 0];
  for (let i = walkStart(packed, sort, bpm, seconds); i < n && kept < page.length; i++) {
    const p = packed[i];
    if (bpm) {
      const b = p & 511;
      if (b === 0 || b < bLo || b > bHi) continue;
    }
    if (seconds) {
      const s = (p >>> 9) & 2047;
      if (s === PACKED_NO_SECONDS || s < sLo || s > sHi) continue;
    }
    if (wanted && !wanted[p >>> 20]) continue;
    if (seen++ >= start) page[kept++] = order[i];
  }
  return { total, keyCounts, page: page.subarray(0, kept) };
}

/**
 * Where a walk over the figures laid out in `sort` may start: in an order by tempo or by length,
 * the first track inside that figure's filter (a binary search: the order ascends or descends
 * by it, the tracks without it last); 0 otherwise.
 */
function walkStart(packed: Uint32Array, sort: "title" | FigureSort, bpm: [number, number] | null, seconds: [number, number] | null): number {
  let inside: ((p: number) => boolean) | null = null;
  // each test is false before the filter's first track and true from it on (the tail included)
  if (bpm && sort === "bpm") inside = (p) => (p & 511) === 0 || (p & 511) >= bpm[0];
  else if (bpm && sort === "-bpm") inside = (p) => (p & 511) === 0 || (p & 511) <= bpm[1];
  else if (seconds && sort === "duration") inside = (p) => ((p >>> 9) & 2047) >= seconds[0];
  else if (seconds && sort === "-duration") inside = (p) => ((p >>> 9) & 2047) === PACKED_NO_SECONDS || ((p >>> 9) & 2047) <= seconds[1];
  if (!inside) return 0;
  let lo = 0;
  let hi = packed.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inside(packed[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The positions [start, start + size) of `subset` in the order asked, ties in title order:
 * each member gets a coarse bucket (≤ 65,538 of them) and a fine key (exact); a histogram of
 * the buckets finds those the page falls in, and only their members are sorted.
 */
function pageOf(ctx: TrackQueryContext, subset: Int32Array, scores: Float32Array | null, sort: TrackSort, start: number, size: number): Int32Array {
  const { table, figures } = ctx;
  const n = table.count;
  const m = subset.length;
  if (start >= m) return new Int32Array(0);
  // the exact key of each member: (its figure or score step) × n + its title rank
  const fine = new Float64Array(m);
  let divisor: number;
  if (sort === "relevance" && scores) {
    let max = 0;
    for (let j = 0; j < m; j++) if (scores[j] > max) max = scores[j];
    for (let j = 0; j < m; j++) fine[j] = Math.floor((1 - (max > 0 ? scores[j] / max : 0)) * 0xfffff) * n + table.titleRank[subset[j]];
    divisor = n * 256;
  } else if (sort === "title" || sort === "relevance") {
    for (let j = 0; j < m; j++) fine[j] = table.titleRank[subset[j]];
    divisor = 2 ** Math.max(0, Math.ceil(Math.log2(Math.max(1, n / 4096))));
  } else {
    const values = sort === "bpm" || sort === "-bpm" ? figures.bpm : figures.seconds;
    const none = sort === "bpm" || sort === "-bpm" ? NO_BPM : NO_SECONDS;
    const descending = sort.startsWith("-");
    for (let j = 0; j < m; j++) {
      const t = subset[j];
      const v = values[t];
      // tracks without the figure last, in both directions
      fine[j] = (v === none ? 0x10000 : descending ? 0xffff - v : v) * n + table.titleRank[t];
    }
    divisor = n;
  }
  // coarse buckets (at most 65,538): a histogram finds those the page falls in
  const bucketOf = new Int32Array(m);
  let buckets = 0;
  for (let j = 0; j < m; j++) {
    const b = Math.floor(fine[j] / divisor);
    bucketOf[j] = b;
    if (b >= buckets) buckets = b + 1;
  }
  const histogram = new Int32Array(buckets + 1);
  for (let j = 0; j < m; j++) histogram[bucketOf[j] + 1]++;
  for (let b = 0; b < buckets; b++) histogram[b + 1] += histogram[b];
  // histogram[b] = members in buckets before b; the page spans buckets first…last
  const end = Math.min(m, start + size);
  let first = 0;
  while (histogram[first + 1] <= start) first++;
  let last = first;
  while (histogram[last + 1] < end) last++;
  const from = start - histogram[first];
  const out = new Int32Array(end - start);
  const inWindow = histogram[last + 1] - histogram[first];
  if (inWindow <= LARGE_WINDOW) {
    const keys = new Float64Array(inWindow);
    let k = 0;
    for (let j = 0; j < m; j++) if (bucketOf[j] >= first && bucketOf[j] <= last) keys[k++] = fine[j];
    keys.sort();
    for (let i = 0; i < out.length; i++) out[i] = table.titleOrder[keys[from + i] % n];
    return out;
  }
  // Many members in the page's buckets (a search whose matches score alike, a genre's tracks of
  // one tempo): grouped by their exact figure or score (few values), then the page's part of
  // each group picked in title order by the same histogram (by title rank), not sorted whole.
  const low = Math.floor((first * divisor) / n);
  const span = Math.floor(((last + 1) * divisor) / n) - low + 1;
  const groupOf = new Int32Array(inWindow);
  const members = new Int32Array(inWindow);
  const groupSize = new Int32Array(span + 1);
  let k = 0;
  for (let j = 0; j < m; j++) {
    if (bucketOf[j] >= first && bucketOf[j] <= last) {
      const g = Math.floor(fine[j] / n) - low;
      groupOf[k] = g;
      members[k++] = subset[j];
      groupSize[g]++;
    }
  }
  let skip = from;
  let i = 0;
  for (let g = 0; g <= span && i < out.length; g++) {
    if (skip >= groupSize[g]) {
      skip -= groupSize[g];
      continue;
    }
    const group = new Int32Array(groupSize[g]);
    let c = 0;
    for (let j = 0; j < inWindow; j++) if (groupOf[j] === g) group[c++] = members[j];
    const part = pageOf(ctx, group, null, "title", skip, out.length - i);
    out.set(part, i);
    i += part.length;
    skip = 0;
  }
  return out;
}

/** Beyond this many members in the page's buckets, pageOf groups them instead of sorting. */
const LARGE_WINDOW = 20_000;

/**
 * The page of tracks a query asks for, their total and the key filter's choices. With `seed`
 * (a `like=` view whose seed has a fingerprint), the tracks are its neighbours (like.ts).
 */
export async function matchPage(ctx: TrackQueryContext, q: TrackQuery, start: number, size: number, seed?: LikeSeedSound): Promise<PageMatches> {
  const terms = q.genre.trim() ? normalizeTerms([q.genre, ...q.subGenres]) : [];
  const bpm = wholeRange(q.bpm);
  const seconds = wholeRange(q.duration);
  const words = ctx.search.normalize(q.q);
  const keys = [...new Set(q.keys.map(keyIndex).filter((k) => k >= 0))].sort((a, b) => a - b);
  const sort: TrackSort = q.sort === "relevance" && !words ? "title" : q.sort === "similarity" && !seed ? "title" : q.sort;
  let wanted: Uint8Array | null = null;
  if (keys.length) {
    wanted = new Uint8Array(256);
    for (const k of keys) wanted[k] = 1;
  }
  if (seed) return likePage(ctx, { terms, bpm, seconds, words, keys, wanted, sort, q: q.q }, seed, start, size);
  if (sort === "similarity") throw new Error("unreachable: similarity without a seed");

  // neither a search nor a genre: the whole catalog in the order asked
  if (!words && !terms.length && sort !== "relevance") return walk(ctx, sort, bpm, seconds, wanted, start, size);

  const baseKey = matchKeys.tracks(ctx.generation, terms, bpm, seconds, words);
  const b = base(ctx, q, baseKey, terms, bpm, seconds);
  let subset = b.tracks;
  let scores = b.scores;
  if (wanted) {
    const kept = new Int32Array(subset.length);
    const keptScores = scores ? new Float32Array(subset.length) : null;
    let k = 0;
    for (let j = 0; j < subset.length; j++) {
      if (wanted[ctx.figures.key[subset[j]]]) {
        if (keptScores) keptScores[k] = scores![j];
        kept[k++] = subset[j];
      }
    }
    subset = kept.subarray(0, k);
    scores = keptScores ? keptScores.subarray(0, k) : null;
  }
  return { total: subset.length, keyCounts: b.keyCounts, page: pageOf(ctx, subset, scores, sort, start, size) };
}
