import type { CatalogSnapshot } from "./service.ts";
import type { AlbumColumns } from "./album-columns.ts";
import { buildIndexData, DEFAULT_CACHE_BYTES, type IndexData } from "./index-data.ts";
import { createCardMaker } from "./index-cards.ts";
import { albumsView, channelsView, derivedLevel, filmsView, singlesView, type CatalogQueryResult } from "./index-views.ts";
import type { CatalogSearch } from "./search/types.ts";
import type { Single } from "../../lib/catalog/types.ts";
import type { AlbumCardData, AlbumDetailData, CardImage, FilmCardData, SingleCardData } from "../../lib/catalog/cards.ts";
import type { ItemPageKind } from "../../lib/catalog/item-url.ts";
import { searchWords } from "../../lib/catalog/matching.ts";
import { genreLevels, type GenreLevel } from "../../lib/catalog/genre-tree.ts";
import type { CatalogState } from "../../lib/catalog/url-state.ts";

export { DEFAULT_CACHE_BYTES } from "./index-data.ts";

/**
 * The in-process catalog index behind /catalog (DESIGN.md §1). It keeps lower-cased copies
 * of the fields the filters read, buckets albums by their first keyword (the music filter
 * always fixes it), and caches the matching positions per filter key, so a filtered page at
 * 250,000 albums costs a bucket scan once and a slice afterwards. It is rebuilt lazily, on
 * the first query after the snapshot's version changes (ADR 0060).
 * Its match cache is bounded by bytes (index-data.ts). One index per catalog service, built in
 * createServices (app/.server/services.ts) with the current catalog search (search/current.ts).
 */
export type CatalogSource = {
  snapshot(): CatalogSnapshot;
  mediaUrl(key: string, kind: "music" | "film"): string;
  /** CATALOG_CACHE_MAX_BYTES, when the source is the catalog service */
  readonly cacheBytes?: number;
};

export interface CatalogIndexOptions {
  /** bytes of cached match lists and derived filter options (default 64 MiB) */
  maxCacheBytes?: number;
  /**
   * The catalog search in use (search/current.ts): the album view ranks a search with it once
   * it indexed these albums; before (or without it) a search is answered by the substring rule.
   */
  search?: () => CatalogSearch | null;
}

export type { CatalogQueryResult } from "./index-views.ts";

/** Every item with a page of its own (issue #11): albums, then singles, then films. */
export interface ItemPageList {
  readonly length: number;
  /** the item at a position, 0 ≤ i < length */
  at(i: number): { kind: ItemPageKind; id: string; name: string };
}

export interface CatalogIndex {
  query(state: CatalogState): CatalogQueryResult;
  /** the music filter's levels for the chosen path, deeper levels derived from keywords */
  musicLevels(genre: string, subGenres: readonly string[]): GenreLevel[];
  album(id: string): AlbumDetailData | null;
  /** an album's card (no tracks: nothing read from the snapshot file), or null */
  albumCard(id: string): AlbumCardData | null;
  /**
   * The same, with each track's audio key (its s3Path) in `keys[i]` for `album.tracks[i]`:
   * the server looks up analysis results by key (issue #9); keys never reach the browser.
   */
  albumWithKeys(id: string): { album: AlbumDetailData; keys: string[] } | null;
  single(id: string): Single | null;
  singleCard(single: Single): SingleCardData;
  /** a film's card with the item page's larger image, or null (issue #11) */
  film(id: string): FilmCardData | null;
  /** the item pages, for the sitemap (issue #11) */
  itemPages(): ItemPageList;
  /** product-rules §2 Home: up to 6 featured albums */
  featuredAlbums(limit?: number): AlbumCardData[];
  /** the singles genre list (product-rules §7 api/Genre/) */
  singlesGenres(): string[];
  /** image of any item for the sheet (larger thumbnails) */
  image(key: string, kind: "music" | "film", max?: 320 | 640 | 960): CardImage | null;
  readonly version: number;
  readonly updatedAt: string;
  /** what the match cache holds now (an operator's figure, and the bound's test) */
  cacheUsage(): { entries: number; bytes: number; maxBytes: number };
  /** the current version's album columns (built here, read by the track index too) */
  albumColumns(): AlbumColumns;
  /** the media URL of a key, as the catalog service makes it */
  mediaUrl(key: string, kind: "music" | "film"): string;
  /** the catalog's match-cache budget (CATALOG_CACHE_MAX_BYTES), shared with the track index */
  readonly cacheBytes: number;
}

export function createCatalogIndex(source: CatalogSource, opts: CatalogIndexOptions = {}): CatalogIndex {
  const maxCacheBytes = opts.maxCacheBytes ?? source.cacheBytes ?? DEFAULT_CACHE_BYTES;
  const currentSearch = opts.search ?? (() => null);
  let built: IndexData | null = null;
  const current = (): IndexData => {
    const snapshot = source.snapshot();
    if (!built || built.version !== snapshot.version) built = buildIndexData(snapshot, maxCacheBytes);
    return built;
  };
  const cards = createCardMaker((key, kind) => source.mediaUrl(key, kind));

  const albumWithKeys: CatalogIndex["albumWithKeys"] = (id) => {
    const { albums } = current().columns;
    const i = albums.indexOf(id);
    return i < 0 ? null : cards.albumWithKeys(albums, i);
  };

  return {
    get version() {
      return current().version;
    },
    get updatedAt() {
      return current().updatedAt;
    },
    cacheBytes: maxCacheBytes,
    mediaUrl: (key, kind) => source.mediaUrl(key, kind),
    albumColumns: () => current().columns,
    cacheUsage() {
      const { cache } = current();
      return { entries: cache.size, bytes: cache.calculatedSize, maxBytes: maxCacheBytes };
    },

    query(state) {
      const b = current();
      const words = searchWords(state.q);
      switch (state.view) {
        case "albums":
          return albumsView(b, cards, state, words, words.length ? currentSearch() : null);
        case "films":
          return filmsView(b, cards, state.page, words);
        case "singles":
          return singlesView(b, cards, state, words);
        case "channels":
          return channelsView(b, cards, state, words);
        case "tracks":
          // The track view's rows come from the track index (app/.server/catalog/tracks/), not
          // from these cards; the page stays as asked, for that index to clamp.
          return { total: 0, page: state.page, pageCount: 0, items: [] };
        default:
          // Compilations are "Coming Soon!" (product-rules §2): no items.
          return { total: 0, page: 1, pageCount: 0, items: [] };
      }
    },

    musicLevels: (genre, subGenres) => genreLevels(genre, subGenres, (path) => derivedLevel(current(), path)),
    album: (id) => albumWithKeys(id)?.album ?? null,
    albumCard(id) {
      const { albums } = current().columns;
      const i = albums.indexOf(id);
      return i < 0 ? null : cards.album(albums, i);
    },
    albumWithKeys,
    single(id) {
      const b = current();
      const i = b.singleById.get(id);
      return i === undefined ? null : b.singles[i];
    },
    singleCard: cards.single,
    film(id) {
      const b = current();
      const i = b.filmById.get(id);
      return i === undefined ? null : cards.film(b.films[i], 960);
    },
    itemPages() {
      const { columns, singles, films } = current();
      const { albums } = columns;
      const a = albums.length;
      const s = a + singles.length;
      return {
        length: s + films.length,
        at(i) {
          if (i < a) return { kind: "albums", id: albums.id(i), name: albums.name(i) };
          if (i < s) return { kind: "singles", id: singles[i - a].id, name: singles[i - a].title };
          const f = films[i - s];
          return { kind: "films", id: f.film_id, name: f.title };
        },
      };
    },
    featuredAlbums(limit = 6) {
      const { albums } = current().columns;
      const out: AlbumCardData[] = [];
      for (let i = 0; i < albums.length && out.length < limit; i++) {
        if (albums.featured(i)) out.push(cards.album(albums, i));
      }
      return out;
    },
    singlesGenres: () => current().genres,
    image: (key, kind, max) => cards.image(key, kind, max),
  };
}
