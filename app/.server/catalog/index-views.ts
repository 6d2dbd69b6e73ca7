import type { IndexData } from "./index-data.ts";
import { collect, EMPTY, remember } from "./index-data.ts";
import type { CardMaker } from "./index-cards.ts";
import { matchKeys } from "./match-keys.ts";
import { rankedAlbums } from "./search/ranking.ts";
import type { CatalogSearch } from "./search/types.ts";
import type { CatalogCardData } from "../../lib/catalog/cards.ts";
import { albumTermsMatch, channelMatches, matchesSearch, musicTerms, singleMatches } from "../../lib/catalog/matching.ts";
import { clampPage, PAGE_SIZE, pageCountFor } from "../../lib/catalog/pagination.ts";
import type { AlbumsState, ChannelsState, SinglesState } from "../../lib/catalog/types.ts";

export interface CatalogQueryResult {
  total: number;
  /** the page actually shown (the requested one, clamped) */
  page: number;
  pageCount: number;
  items: CatalogCardData[];
  /**
   * true when a search was answered by the substring rule because the catalog search is not
   * built yet for these albums (the seconds after a start or a catalog change): such a page is
   * sent but not kept by the page cache, or it would serve substring results for its lifetime.
   */
  provisional?: boolean;
}

/**
 * Each view of the album index (index.ts) over one catalog version's data: the matches of its
 * filters and search (product-rules §5), cached in the version's match cache under match-keys.ts's
 * key, and one page of cards.
 */

/** Most options a derived (data-driven) genre level offers. */
export const MAX_DERIVED_OPTIONS = 40;

/** One page of a match list (null: every item), its page clamped to the page count. */
export function pageOf(count: number, positions: Int32Array | null, requested: number, cardAt: (i: number) => CatalogCardData): CatalogQueryResult {
  const total = positions ? positions.length : count;
  const pageCount = pageCountFor(total);
  const p = clampPage(requested, pageCount);
  const start = (p - 1) * PAGE_SIZE;
  const end = Math.min(total, start + PAGE_SIZE);
  const items: CatalogCardData[] = [];
  for (let k = start; k < end; k++) items.push(cardAt(positions ? positions[k] : k));
  return { total, page: p, pageCount, items };
}

/**
 * Matching positions of the music filter + search, cached per key. null = every album. A
 * search is the catalog search's (issue #10, ADR 0099: typo-tolerant, prefix-aware, best
 * first) when `ranked` is given, i.e. once the track index has built it for these albums;
 * until then, the substring rule.
 */
export function musicMatches(b: IndexData, terms: string[], words: string[], ranked: CatalogSearch | null): Int32Array | null {
  if (!terms.length && !words.length) return null;
  const c = b.columns;
  return remember(b.cache, matchKeys.albums(terms, words, ranked?.id), () => {
    if (ranked) return rankedAlbums(ranked, words.join(" "), (i) => albumTermsMatch(c.name[i], c.keywords[i], terms));
    const candidates = terms.length ? (c.buckets.get(terms[0]) ?? EMPTY) : null;
    return collect(c.albums.length, candidates, (i) => albumTermsMatch(c.name[i], c.keywords[i], terms) && matchesSearch(c.search[i], words));
  });
}

/** `search`: the catalog search in use, read once (the search answered with and the provisional flag must agree). */
export function albumsView(b: IndexData, cards: CardMaker, state: AlbumsState, words: string[], search: CatalogSearch | null): CatalogQueryResult {
  const ranked = search?.albumTable === b.columns.albums ? search : null;
  const result = pageOf(b.columns.albums.length, musicMatches(b, musicTerms(state), words, ranked), state.page, (i) => cards.album(b.columns.albums, i));
  return words.length && !ranked ? { ...result, provisional: true } : result;
}

export function filmsView(b: IndexData, cards: CardMaker, page: number, words: string[]): CatalogQueryResult {
  // product-rules §5: films are not filtered (the search field still applies)
  const positions = words.length ? remember(b.cache, matchKeys.films(words), () => collect(b.films.length, null, (i) => matchesSearch(b.filmSearch[i], words))) : null;
  return pageOf(b.films.length, positions, page, (i) => cards.film(b.films[i]));
}

export function singlesView(b: IndexData, cards: CardMaker, state: SinglesState, words: string[]): CatalogQueryResult {
  const active = Boolean(state.genre || state.subGenre || words.length);
  const positions = active
    ? remember(b.cache, matchKeys.singles(state.genre, state.subGenre, words), () =>
        collect(b.singles.length, null, (i) => singleMatches(b.singles[i], state) && matchesSearch(b.singleSearch[i], words)),
      )
    : null;
  return pageOf(b.singles.length, positions, state.page, (i) => cards.single(b.singles[i]));
}

export function channelsView(b: IndexData, cards: CardMaker, state: ChannelsState, words: string[]): CatalogQueryResult {
  const positions = remember(b.cache, matchKeys.channels(state, words), () =>
    collect(b.channels.length, null, (i) => channelMatches(b.channels[i], b.channelHay[i], state) && matchesSearch(b.channelHay[i], words)),
  );
  return pageOf(b.channels.length, positions, state.page, (i) => cards.channel(b.channels[i]));
}

/** A music filter level the static tree does not define: the album keywords found at that position among the albums matching the path so far. */
export function derivedLevel(b: IndexData, path: string[]): string[] {
  const c = b.columns;
  return remember<string[]>(b.cache, matchKeys.genreLevel(path), () => {
    const terms = path.map((p) => p.trim().toLowerCase());
    const positions = musicMatches(b, terms, [], null) ?? EMPTY;
    const depth = path.length;
    const seen = new Map<string, string>();
    for (let k = 0; k < positions.length && seen.size < MAX_DERIVED_OPTIONS * 4; k++) {
      const i = positions[k];
      const lower = c.keywords[i][depth];
      if (lower && !seen.has(lower)) seen.set(lower, String(c.albums.keywords(i)[depth]).trim());
    }
    return [...seen.values()].sort((x, y) => x.localeCompare(y)).slice(0, MAX_DERIVED_OPTIONS);
  });
}

