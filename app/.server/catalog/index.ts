import { LRUCache } from "lru-cache";
import type { CatalogSnapshot } from "./service.ts";
import { AlbumTable } from "./album-table.ts";
import { publishedSearch, rankedAlbums, type CatalogSearch } from "./tracks/search.ts";
import type { Channel, Film, Single } from "../../lib/catalog/types.ts";
import type {
  AlbumCardData,
  AlbumDetailData,
  CardImage,
  CatalogCardData,
  ChannelCardData,
  FilmCardData,
  SingleCardData,
} from "../../lib/catalog/cards.ts";
import type { ItemPageKind } from "../../lib/catalog/item-url.ts";
import { trackDisplayName } from "../../lib/catalog/cards.ts";
import { thumbnailSrcSet, thumbnailUrl } from "../../lib/catalog/media.ts";
import {
  albumTermsMatch,
  channelHaystack,
  channelMatches,
  matchesSearch,
  musicTerms,
  searchWords,
  singleMatches,
} from "../../lib/catalog/matching.ts";
import { clampPage, PAGE_SIZE, pageCountFor } from "../../lib/catalog/pagination.ts";
import { genreLevels, type GenreLevel } from "../../lib/catalog/genre-tree.ts";
import type { CatalogState } from "../../lib/catalog/url-state.ts";

/**
 * The in-process catalog index behind /catalog (DESIGN.md §1). It keeps lower-cased copies
 * of the fields the filters read, buckets albums by their first keyword (the music filter
 * always fixes it), and caches the matching positions per filter key, so a filtered page at
 * 250,000 albums costs a bucket scan once and a slice afterwards. It is rebuilt lazily, on
 * the first query after the snapshot's version changes (ADR 0060).
 *
 * The cached lists are bounded by bytes, not by count (issue #7): one list can hold almost
 * the whole catalog (1 MB at 250,000 albums), so 500 of them were 500 MB. Their keys use the
 * normalised search words (sorted, de-duplicated), so `q=e e e` reuses the entry of `q=e`.
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
}

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
}

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** Most options a derived (data-driven) genre level offers. */
const MAX_DERIVED_OPTIONS = 40;

interface Built {
  version: number;
  updatedAt: string;
  /** the albums' columns; their tracks stay in the snapshot file (ADR 0082) */
  albums: AlbumTable;
  albumName: string[];
  /** lower-cased keyword paths, one shared array per distinct path */
  albumKeywords: (readonly string[])[];
  albumSearch: string[];
  /** album positions by lower-cased first keyword */
  albumBuckets: Map<string, Int32Array>;
  films: Film[];
  filmSearch: string[];
  singles: Single[];
  singleSearch: string[];
  singleById: Map<string, number>;
  filmById: Map<string, number>;
  channels: Channel[];
  channelHay: string[];
  genres: string[];
  /** match positions (Int32Array) and derived option lists (string[]), one byte budget */
  cache: LRUCache<string, Cached>;
}

type Cached = Int32Array | readonly string[];

/** Approximate bytes an entry keeps alive: its data plus its key (UTF-16, 2 bytes a char). */
function cachedBytes(value: Cached, key: string): number {
  if (value instanceof Int32Array) return value.byteLength + key.length * 2 + 64;
  let bytes = key.length * 2 + 64;
  for (const s of value) bytes += s.length * 2 + 16;
  return bytes;
}

function build(snapshot: CatalogSnapshot, maxCacheBytes: number): Built {
  const { films, singles, channels } = snapshot;
  const albums = AlbumTable.of(snapshot.albums);
  const n = albums.length;
  const albumName = new Array<string>(n);
  const albumKeywords = new Array<readonly string[]>(n);
  const albumSearch = new Array<string>(n);
  // the table shares one array per distinct keyword path; so does the lower-cased copy
  const lowerPaths = new Map<readonly string[], readonly string[]>();
  const lower = new Map<string, string>();
  const lowerOf = (s: string) => {
    let l = lower.get(s);
    if (l === undefined) lower.set(s, (l = s.toLowerCase()));
    return l;
  };
  const bucketLists = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    albumName[i] = albums.name(i).toLowerCase();
    const path = albums.keywords(i);
    let kw = lowerPaths.get(path);
    if (!kw) lowerPaths.set(path, (kw = path.map((k) => String(k).trim().toLowerCase())));
    albumKeywords[i] = kw;
    albumSearch[i] = `${albumName[i]}\u0000${lowerOf(albums.artist(i))}\u0000${lowerOf(albums.genre(i))}`;
    const first = kw[0] ?? "";
    let list = bucketLists.get(first);
    if (!list) bucketLists.set(first, (list = []));
    list.push(i);
  }
  const albumBuckets = new Map<string, Int32Array>();
  for (const [k, list] of bucketLists) albumBuckets.set(k, Int32Array.from(list));

  const singleById = new Map<string, number>();
  singles.forEach((s, i) => singleById.set(s.id, i));
  const filmById = new Map<string, number>();
  films.forEach((f, i) => filmById.set(f.film_id, i));
  return {
    version: snapshot.version,
    updatedAt: snapshot.updatedAt,
    albums,
    albumName,
    albumKeywords,
    albumSearch,
    albumBuckets,
    films,
    filmSearch: films.map((f) => `${f.title}\u0000${f.format ?? ""}`.toLowerCase()),
    singles,
    singleSearch: singles.map((s) => [s.title, s.artist, s.genre, s.subGenre].join("\u0000").toLowerCase()),
    singleById,
    filmById,
    channels,
    channelHay: channels.map(channelHaystack),
    genres: snapshot.genres,
    cache: new LRUCache<string, Cached>({ maxSize: maxCacheBytes, sizeCalculation: cachedBytes }),
  };
}

/** A cached value, or computed and cached (least recently used entries go over the budget). */
function remember<V extends Cached>(cache: LRUCache<string, Cached>, key: string, compute: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined) return hit as V;
  const value = compute();
  // an entry larger than the whole budget is simply not kept
  cache.set(key, value);
  return value;
}

/** Positions i in `candidates` (or 0…count-1) for which `keep(i)` holds. */
function collect(count: number, candidates: Int32Array | null, keep: (i: number) => boolean): Int32Array {
  const out: number[] = [];
  if (candidates) {
    for (let j = 0; j < candidates.length; j++) if (keep(candidates[j])) out.push(candidates[j]);
  } else {
    for (let i = 0; i < count; i++) if (keep(i)) out.push(i);
  }
  return Int32Array.from(out);
}

const EMPTY = new Int32Array(0);

export function createCatalogIndex(source: CatalogSource, opts: CatalogIndexOptions = {}): CatalogIndex {
  const maxCacheBytes = opts.maxCacheBytes ?? source.cacheBytes ?? DEFAULT_CACHE_BYTES;
  let built: Built | null = null;
  const current = (): Built => {
    const snapshot = source.snapshot();
    if (!built || built.version !== snapshot.version) built = build(snapshot, maxCacheBytes);
    return built;
  };

  const image = (key: string | undefined, kind: "music" | "film", max: 320 | 640 | 960 = 640): CardImage | null => {
    if (!key) return null;
    const src = source.mediaUrl(key, kind);
    return { src: thumbnailUrl(src, max === 960 ? 640 : 320), srcSet: thumbnailSrcSet(src, max) };
  };

  const albumCard = (albums: AlbumTable, i: number): AlbumCardData => ({
    kind: "album",
    id: albums.id(i),
    name: albums.name(i),
    artist: albums.artist(i),
    genre: albums.genre(i),
    image: image(albums.artwork(i), "music"),
  });
  const filmCard = (f: Film, max?: 640 | 960): FilmCardData => ({
    kind: "film",
    id: f.film_id,
    title: f.title,
    format: f.format ?? "",
    // product-rules §2 Film card: the first available of portrait, landscape or artwork
    image: image(f.portrait || f.landscape || f.artwork?.find(Boolean), "film", max),
  });
  const singleCard = (s: Single): SingleCardData => ({
    kind: "single",
    id: s.id,
    title: s.title,
    artist: s.artist,
    genre: s.genre,
    releaseDate: s.releaseDate,
    image: image(s.artwork, "music"),
  });
  const channelCard = (c: Channel): ChannelCardData => ({
    kind: "channel",
    id: c.id,
    name: c.name,
    description: c.description,
    category: c.category,
    country: c.country,
    subscriberCount: c.subscriberCount,
    videoCount: c.videoCount,
    lastUpdated: c.lastUpdated,
    image: image(c.thumbnail, "music"),
  });

  /**
   * Matching positions of the music filter + search, cached per key. null = every album. A
   * search is the catalog search's (issue #10, ADR 0099: typo-tolerant, prefix-aware, best
   * first) when `ranked` is given, i.e. once the track index has built it for these albums;
   * until then, the substring rule.
   */
  const musicMatches = (b: Built, terms: string[], words: string[], ranked: CatalogSearch | null): Int32Array | null => {
    if (!terms.length && !words.length) return null;
    return remember(b.cache, `m|${terms.join("\u0001")}|${words.join(" ")}|${ranked?.id ?? ""}`, () => {
      if (ranked) return rankedAlbums(ranked, words.join(" "), (i) => albumTermsMatch(b.albumName[i], b.albumKeywords[i], terms));
      const candidates = terms.length ? (b.albumBuckets.get(terms[0]) ?? EMPTY) : null;
      return collect(b.albums.length, candidates, (i) =>
        albumTermsMatch(b.albumName[i], b.albumKeywords[i], terms) && matchesSearch(b.albumSearch[i], words),
      );
    });
  };

  const page = (count: number, positions: Int32Array | null, requested: number, cardAt: (i: number) => CatalogCardData): CatalogQueryResult => {
    const total = positions ? positions.length : count;
    const pageCount = pageCountFor(total);
    const p = clampPage(requested, pageCount);
    const start = (p - 1) * PAGE_SIZE;
    const end = Math.min(total, start + PAGE_SIZE);
    const items: CatalogCardData[] = [];
    for (let k = start; k < end; k++) items.push(cardAt(positions ? positions[k] : k));
    return { total, page: p, pageCount, items };
  };

  const albumWithKeys: CatalogIndex["albumWithKeys"] = (id) => {
    const { albums } = current();
    const i = albums.indexOf(id);
    if (i < 0) return null;
    // read from the snapshot file: only the sheet needs them (ADR 0082)
    const tracks = albums.tracks(i).filter((t) => t && t.s3Path);
    return {
      album: {
        kind: "album",
        id: albums.id(i),
        name: albums.name(i),
        artist: albums.artist(i),
        genre: albums.genre(i),
        image: image(albums.artwork(i), "music", 960),
        tracks: tracks.map((t) => ({ name: trackDisplayName(t.Filename || t.s3Path.split("/").pop() || ""), audioUrl: source.mediaUrl(t.s3Path, "music") })),
      },
      keys: tracks.map((t) => t.s3Path),
    };
  };

  return {
    get version() {
      return current().version;
    },
    get updatedAt() {
      return current().updatedAt;
    },
    cacheUsage() {
      const { cache } = current();
      return { entries: cache.size, bytes: cache.calculatedSize, maxBytes: maxCacheBytes };
    },

    query(state) {
      const b = current();
      const words = searchWords(state.q);
      switch (state.view) {
        case "albums": {
          // read once: the search answered with and the provisional flag must agree
          const search = words.length ? publishedSearch(source) : null;
          const ranked = search?.albumTable === b.albums ? search : null;
          const result = page(b.albums.length, musicMatches(b, musicTerms(state), words, ranked), state.page, (i) => albumCard(b.albums, i));
          return words.length && !ranked ? { ...result, provisional: true } : result;
        }
        case "films": {
          // product-rules §5: films are not filtered (the search field still applies)
          const positions = words.length
            ? remember(b.cache, `f|${words.join(" ")}`, () => collect(b.films.length, null, (i) => matchesSearch(b.filmSearch[i], words)))
            : null;
          return page(b.films.length, positions, state.page, (i) => filmCard(b.films[i]));
        }
        case "singles": {
          const active = Boolean(state.genre || state.subGenre || words.length);
          const positions = active
            ? remember(b.cache, `s|${state.genre}|${state.subGenre}|${words.join(" ")}`.toLowerCase(), () =>
                collect(b.singles.length, null, (i) => singleMatches(b.singles[i], state) && matchesSearch(b.singleSearch[i], words)),
              )
            : null;
          return page(b.singles.length, positions, state.page, (i) => singleCard(b.singles[i]));
        }
        case "channels": {
          const key = `c|${state.category}|${state.countries.join(",")}|${state.languages.join(",")}|${state.subscriberRanges.join(",")}|${words.join(" ")}`;
          const positions = remember(b.cache, key, () =>
            collect(b.channels.length, null, (i) => channelMatches(b.channels[i], b.channelHay[i], state) && matchesSearch(b.channelHay[i], words)),
          );
          return page(b.channels.length, positions, state.page, (i) => channelCard(b.channels[i]));
        }
        case "tracks":
          // The track view's rows come from the track index (app/.server/catalog/tracks/), not
          // from these cards; the page stays as asked, for that index to clamp.
          return { total: 0, page: state.page, pageCount: 0, items: [] };
        default:
          // Compilations are "Coming Soon!" (product-rules §2): no items.
          return { total: 0, page: 1, pageCount: 0, items: [] };
      }
    },

    musicLevels(genre, subGenres) {
      const b = current();
      // Levels the static tree does not define list the album keywords found at that
      // position among the albums matching the path so far.
      const derive = (path: string[]) =>
        remember(b.cache, `d|${path.join("\u0001").toLowerCase()}`, () => {
          const terms = path.map((p) => p.trim().toLowerCase());
          const positions = musicMatches(b, terms, [], null) ?? EMPTY;
          const depth = path.length;
          const seen = new Map<string, string>();
          for (let k = 0; k < positions.length && seen.size < MAX_DERIVED_OPTIONS * 4; k++) {
            const i = positions[k];
            const lower = b.albumKeywords[i][depth];
            if (lower && !seen.has(lower)) seen.set(lower, String(b.albums.keywords(i)[depth]).trim());
          }
          return [...seen.values()].sort((x, y) => x.localeCompare(y)).slice(0, MAX_DERIVED_OPTIONS);
        });
      return genreLevels(genre, subGenres, derive);
    },

    album: (id) => albumWithKeys(id)?.album ?? null,

    albumCard(id) {
      const { albums } = current();
      const i = albums.indexOf(id);
      return i < 0 ? null : albumCard(albums, i);
    },

    albumWithKeys,

    single(id) {
      const b = current();
      const i = b.singleById.get(id);
      return i === undefined ? null : b.singles[i];
    },

    singleCard,

    film(id) {
      const b = current();
      const i = b.filmById.get(id);
      return i === undefined ? null : filmCard(b.films[i], 960);
    },

    itemPages() {
      const { albums, singles, films } = current();
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
      const b = current();
      const out: AlbumCardData[] = [];
      for (let i = 0; i < b.albums.length && out.length < limit; i++) {
        if (b.albums.featured(i)) out.push(albumCard(b.albums, i));
      }
      return out;
    },

    singlesGenres() {
      return current().genres;
    },

    image: (key, kind, max) => image(key, kind, max),
  };
}

const indexes = new WeakMap<object, CatalogIndex>();

/** The one index of a catalog service, shared by every loader (its cache budget: service.cacheBytes). */
export function catalogIndexFor(service: CatalogSource): CatalogIndex {
  let index = indexes.get(service);
  if (!index) indexes.set(service, (index = createCatalogIndex(service)));
  return index;
}
