import type {
  AlbumsState,
  CatalogState,
  CatalogType,
  ChannelsState,
  CompilationsState,
  FilmsState,
  SinglesState,
  TracksState,
} from "./types.ts";
import { canonicalTopGenre, MAX_SUB_LEVELS } from "./genre-tree.ts";
import { canonicalOption, CHANNEL_CATEGORIES, CHANNEL_COUNTRIES, CHANNEL_LANGUAGES, SUBSCRIBER_RANGES } from "./channel-options.ts";
import {
  defaultTrackSort,
  moreLikeThisHref,
  MAX_BPM,
  MAX_DURATION_SECONDS,
  normalizeKeys,
  parseLike,
  parseRangeParam,
  parseTrackSort,
  serializeRange,
} from "./track-params.ts";
import type { TrackQuery } from "./track-query.ts";

export type { CatalogState } from "./types.ts";

/**
 * DESIGN.md §3 deviation 5: all catalog state lives in the URL, e.g.
 * `/catalog?type=singles&genre=Pop&page=2`. Parsing never throws: unknown types fall back to
 * music, unknown options are dropped, lengths are capped and the page is clamped.
 *
 * Parameters: type, view (music: albums or tracks), genre, sub (repeated, positional),
 * category, country, lang, subs (repeated), bpm, duration, key (repeated), sort, q, page,
 * item. Each view reads only its own (types.ts CatalogState). The track view also reads its
 * custom-range form's fields (bpm_min, bpm_max, duration_min, duration_max: a GET form
 * without JavaScript), and writes them as bpm= and duration=.
 */

export const CATALOG_TYPES: readonly CatalogType[] = ["music", "film", "singles", "channels", "compilations"];
export const MAX_TEXT_LENGTH = 100;
export const MAX_ITEM_ID_LENGTH = 200;
export const MAX_PAGE = 1_000_000;

const common = () => ({ q: "", page: 1, item: "" });

export function defaultAlbumsState(): AlbumsState {
  return { type: "music", view: "albums", genre: "", subGenres: [], ...common() };
}

export function defaultTracksState(): TracksState {
  return { type: "music", view: "tracks", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "title", like: "", ...common() };
}

/** The state of a content type with nothing chosen (music: the album view). */
export function defaultCatalogState(type?: "music"): AlbumsState;
export function defaultCatalogState(type: CatalogType): CatalogState;
export function defaultCatalogState(type: CatalogType = "music"): CatalogState {
  switch (type) {
    case "music":
      return defaultAlbumsState();
    case "singles":
      return { type, view: "singles", genre: "", subGenre: "", ...common() } satisfies SinglesState;
    case "channels":
      return { type, view: "channels", category: "", countries: [], languages: [], subscriberRanges: [], ...common() } satisfies ChannelsState;
    case "film":
      return { type, view: "films", ...common() } satisfies FilmsState;
    case "compilations":
      return { type, view: "compilations", ...common() } satisfies CompilationsState;
  }
}

/** Trimmed, without control characters, within the length cap; "" when too long. */
function cleanText(value: string | null, max = MAX_TEXT_LENGTH): string {
  if (!value) return "";
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return text.length > max ? "" : text;
}

function uniqueOptions(values: string[], options: readonly string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    const c = canonicalOption(options, v);
    if (c && !out.includes(c)) out.push(c);
  }
  return out;
}

/** The music genre path: a genre of the static tree, then up to three positional sub-genres. */
function parseGenrePath(params: URLSearchParams): { genre: string; subGenres: string[] } {
  const genre = canonicalTopGenre(cleanText(params.get("genre")));
  if (!genre) return { genre: "", subGenres: [] };
  const subGenres: string[] = [];
  for (const raw of params.getAll("sub").slice(0, MAX_SUB_LEVELS)) {
    const s = cleanText(raw);
    if (!s) break; // positional: a gap ends the path
    subGenres.push(s);
  }
  return { genre, subGenres };
}

export function parseCatalogState(params: URLSearchParams): CatalogState {
  const rawType = (params.get("type") ?? "").trim().toLowerCase();
  const type = (CATALOG_TYPES as readonly string[]).includes(rawType) ? (rawType as CatalogType) : "music";
  if (type === "compilations") return defaultCatalogState(type);

  const pageNumber = Number.parseInt(params.get("page") ?? "", 10);
  const shared = {
    q: cleanText(params.get("q")),
    page: Number.isFinite(pageNumber) ? Math.min(Math.max(1, pageNumber), MAX_PAGE) : 1,
    item: cleanText(params.get("item"), MAX_ITEM_ID_LENGTH),
  };

  switch (type) {
    case "music": {
      const path = parseGenrePath(params);
      if ((params.get("view") ?? "").trim().toLowerCase() !== "tracks") return { type, view: "albums", ...path, ...shared };
      const like = parseLike(params.get("like"));
      return {
        type,
        view: "tracks",
        ...path,
        bpm: parseRangeParam(params, "bpm", MAX_BPM),
        duration: parseRangeParam(params, "duration", MAX_DURATION_SECONDS),
        keys: normalizeKeys(params.getAll("key")),
        sort: parseTrackSort(params.get("sort"), shared.q, like),
        like,
        ...shared,
      };
    }
    case "singles": {
      const genre = cleanText(params.get("genre"));
      return { type, view: "singles", genre, subGenre: genre ? cleanText(params.get("sub")) : "", ...shared };
    }
    case "channels":
      return {
        type,
        view: "channels",
        category: canonicalOption(CHANNEL_CATEGORIES, cleanText(params.get("category"))) ?? "",
        countries: uniqueOptions(params.getAll("country"), CHANNEL_COUNTRIES),
        languages: uniqueOptions(params.getAll("lang"), CHANNEL_LANGUAGES),
        subscriberRanges: uniqueOptions(params.getAll("subs"), SUBSCRIBER_RANGES),
        ...shared,
      };
    case "film":
      return { type, view: "films", ...shared };
  }
}

/** The URL parameters of a state, defaults omitted, in a stable order. */
export function serializeCatalogState(state: CatalogState): URLSearchParams {
  const p = new URLSearchParams();
  if (state.type !== "music") p.set("type", state.type);
  switch (state.view) {
    case "albums":
    case "tracks":
      if (state.view === "tracks") p.set("view", "tracks");
      if (state.genre) {
        p.set("genre", state.genre);
        for (const s of state.subGenres) if (s) p.append("sub", s);
      }
      if (state.view === "tracks") {
        if (state.bpm) p.set("bpm", serializeRange(state.bpm));
        if (state.duration) p.set("duration", serializeRange(state.duration));
        for (const k of state.keys) p.append("key", k);
        if (state.like) p.set("like", state.like);
        if (state.sort !== defaultTrackSort(state.q, state.like)) p.set("sort", state.sort);
      }
      break;
    case "singles":
      if (state.genre) {
        p.set("genre", state.genre);
        if (state.subGenre) p.set("sub", state.subGenre);
      }
      break;
    case "channels":
      if (state.category) p.set("category", state.category);
      for (const c of state.countries) p.append("country", c);
      for (const l of state.languages) p.append("lang", l);
      for (const r of state.subscriberRanges) p.append("subs", r);
      break;
  }
  if (state.q) p.set("q", state.q);
  if (state.page > 1) p.set("page", String(state.page));
  if (state.item) p.set("item", state.item);
  return p;
}

/** A link to a catalog state ("/catalog" or "/catalog?…"). */
export function catalogHref(state: CatalogState): string {
  const query = serializeCatalogState(state).toString();
  return query ? `/catalog?${query}` : "/catalog";
}

/** The state after a filter change (the new state of the same view): back to page 1, no open sheet. */
export function withFilters<S extends CatalogState>(state: S, next: S): S {
  return { ...next, page: 1, item: "" };
}

/** product-rules §4: changing the type resets all filters (and the search, page and open sheet). */
export function withType(type: CatalogType): CatalogState {
  return defaultCatalogState(type);
}

/**
 * Issue #10 "Albums | Tracks": the music view's two lists. The genre path and the search carry
 * over (the same music, listed another way); the track filters start empty.
 */
export function withMusicView(state: AlbumsState | TracksState, view: "albums" | "tracks"): AlbumsState | TracksState {
  if (state.view === view) return { ...state, page: 1, item: "" };
  const base = view === "tracks" ? defaultTracksState() : defaultAlbumsState();
  return { ...base, genre: state.genre, subGenres: state.subGenres, q: state.q, ...(view === "tracks" ? { sort: defaultTrackSort(state.q) } : {}) };
}

/** The same view with another search (page 1, no sheet); a track sort by relevance needs one. */
export function withSearch<S extends CatalogState>(state: S, q: string): S {
  const next = { ...state, q, page: 1, item: "" };
  if (next.view === "tracks" && next.sort === "relevance" && !q) next.sort = next.like ? "similarity" : "title";
  return next;
}

export function withPage<S extends CatalogState>(state: S, page: number): S {
  return { ...state, page, item: "" };
}

export function withItem<S extends CatalogState>(state: S, item: string): S {
  return { ...state, item };
}

/** Clear Filters / Clear All Filters: the view stays, everything else resets. */
export function clearedState(state: CatalogState): CatalogState {
  return state.view === "tracks" ? defaultTracksState() : defaultCatalogState(state.type);
}

/** What the track view asks the server's track index (track-query.ts). */
export function trackQueryOf(state: TracksState): TrackQuery {
  return {
    q: state.q,
    genre: state.genre,
    subGenres: state.subGenres,
    bpm: state.bpm,
    duration: state.duration,
    keys: state.keys,
    sort: state.sort,
    page: state.page,
    like: state.like,
  };
}

/**
 * Issue #41: the filters a "More like this" link carries from the view it is on, so a buyer who
 * narrowed the list (`?view=tracks&genre=House&bpm=121-`) keeps the narrowing among the similar
 * tracks: the genre path, and on the track view tempo, length and key. The search, sort, page
 * and open sheet are not carried: a similar list is ordered by similarity, from its first page.
 */
export function likeViewOf(trackId: string, from?: CatalogState | null): TracksState {
  const next: TracksState = { ...defaultTracksState(), like: trackId, sort: "similarity" };
  if (!from || from.type !== "music") return next;
  const path = { genre: from.genre, subGenres: from.genre ? from.subGenres : [] };
  if (from.view === "albums") return { ...next, ...path };
  return { ...next, ...path, bpm: from.bpm, duration: from.duration, keys: from.keys };
}

/**
 * "More like this" (issue #19, DESIGN.md §3c): `/catalog?type=music&view=tracks&like={trackId}`
 * as the contract writes it, then the filters carried over (likeViewOf), each as the track view
 * writes it. Without a view (an item page opened directly) it is the contract's URL exactly.
 */
export function moreLikeThisHrefFrom(trackId: string, from?: CatalogState | null): string {
  const carried = serializeCatalogState({ ...likeViewOf(trackId, from), like: "", sort: "title" });
  carried.delete("view");
  const rest = carried.toString();
  return `${moreLikeThisHref(trackId)}${rest ? `&${rest}` : ""}`;
}

/** Issue #41: how many filters narrow a `like=` view (the seed itself and the sort are not filters). */
export function likeFilterCount(state: TracksState): number {
  return (state.genre ? 1 + state.subGenres.length : 0) + (state.bpm ? 1 : 0) + (state.duration ? 1 : 0) + state.keys.length + (state.q ? 1 : 0);
}

/** Issue #41 "a one-click way to drop them": the same `like=` view without any filter or search. */
export function withoutLikeFilters(state: TracksState): TracksState {
  return { ...defaultTracksState(), like: state.like, sort: state.like ? "similarity" : "title" };
}
