import { LIKE_LIMIT, type TrackSort } from "../../../lib/catalog/track-query.ts";
import { matchKeys } from "../match-keys.ts";
import { listRules, nearestTracks, reorder, type LikeSeedSound } from "./like.ts";
import { NO_BPM, NO_SECONDS } from "./figures.ts";
import { passageCandidates } from "./passage-index.ts";
import { genreAlbums, type PageMatches, type TrackQueryContext } from "./query-context.ts";

/**
 * The `like=` view's query (issue #19, ADR 0104): the seed's nearest neighbours among the tracks
 * every other filter of the track view keeps, found by like.ts and cached with the view's other
 * match lists (query.ts).
 */
export interface LikeFilters {
  terms: string[];
  bpm: [number, number] | null;
  seconds: [number, number] | null;
  words: string;
  keys: number[];
  wanted: Uint8Array | null;
  sort: TrackSort;
  q: string;
}

/**
 * A `like=` view's page: the seed's nearest neighbours among the tracks every other filter
 * keeps (like.ts), cached by the seed and the filters as the other lists are (not by the sort:
 * every order of them is made from the one list).
 */
export async function likePage(ctx: TrackQueryContext, f: LikeFilters, seed: LikeSeedSound, start: number, size: number): Promise<PageMatches> {
  const cacheKey = matchKeys.like(ctx.generation, seed.cacheId, f);
  let hit = ctx.cache.get(cacheKey);
  if (!hit) {
    const { table, figures } = ctx;
    const albums = genreAlbums(ctx, f.terms);
    let inSearch: Uint8Array | null = null;
    // the share of the tracks a genre and a search leave: the scan's choice of its exact or approximate stage (ADR 0124)
    let keepShare = 1;
    if (albums) {
      let tracks = 0;
      for (let a = 0; a < albums.length; a++) if (albums[a]) tracks += table.albumStart[a + 1] - table.albumStart[a];
      keepShare *= tracks / Math.max(1, table.count);
    }
    if (f.words) {
      inSearch = new Uint8Array(table.count);
      const hits = ctx.search.tracks(f.q);
      if (hits) for (let j = 0; j < hits.tracks.length; j++) inSearch[hits.tracks[j]] = 1;
      keepShare *= (hits?.tracks.length ?? 0) / Math.max(1, table.count);
    }
    const { bpm, seconds } = f;
    // the tempo and length ranges are read from the scan's own layout (like.ts); the rest here
    const keep =
      albums || inSearch
        ? (t: number) => {
            if (albums && albums[table.trackAlbum[t]] === 0) return false;
            return !inSearch || inSearch[t] === 1;
          }
        : null;
    // a reference with passages finds its candidates by them (below): its scan may then be the
    // approximate one (ADR 0124); without passages it stays exact (ADR 0122)
    const byPassages = seed.reference && seed.passages && figures.passageStarts.length > 0;
    const list = nearestTracks({ table, figures, seed, keep, bpm, seconds, wanted: f.wanted, ordered: true, keepShare, approximateFrom: seed.reference && !byPassages ? Infinity : ctx.likeApproximateFrom });
    let candidates = list.tracks;
    if (byPassages) {
      // the first stage over passages (issue #29, ADR 0129): the tracks holding a passage like
      // the reference's, with the view's filters, after the scan's kept list (its order is the
      // fallback's), at most PASSAGE_CANDIDATES more
      const { wanted } = f;
      const accept = (t: number) => {
        if (figures.printRow[t] < 0) return false;
        if (bpm && (figures.bpm[t] === NO_BPM || figures.bpm[t] < bpm[0] || figures.bpm[t] > bpm[1])) return false;
        if (seconds && (figures.seconds[t] === NO_SECONDS || figures.seconds[t] < seconds[0] || figures.seconds[t] > seconds[1])) return false;
        if (wanted && !(figures.key[t] < wanted.length && wanted[figures.key[t]] === 1)) return false;
        return !keep || keep(t);
      };
      const found = passageCandidates({ starts: figures.passageStarts, trackStarts: figures.passageTrackStarts, bytes: figures.bytes }, seed.passages!, accept);
      const inList = new Set(list.tracks);
      candidates = Int32Array.from([...list.tracks, ...[...found.tracks].filter((t) => !inList.has(t))]);
    }
    // a reference's second stage (its passages, ADR 0122); without it (a store that did not
    // answer in time) the scan's order is shown and not cached, so the next ask tries again
    const reranked = seed.rerank ? await seed.rerank(candidates).catch(() => null) : list.tracks;
    hit = { tracks: listRules(table, figures, reranked ? reranked.subarray(0, LIKE_LIMIT) : list.tracks), scores: null, keyCounts: list.keyCounts };
    if (reranked) ctx.cache.set(cacheKey, hit);
  }
  // the list is kept most similar first; a visitor's other sort of it costs a sort of ≤ LIKE_LIMIT tracks, not a scan
  const tracks = reorder(hit.tracks, f.sort, ctx.table, ctx.figures);
  return { total: tracks.length, keyCounts: hit.keyCounts, page: tracks.slice(Math.min(start, tracks.length), Math.min(tracks.length, start + size)) };
}
