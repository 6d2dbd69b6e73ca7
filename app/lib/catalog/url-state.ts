import { EMPTY_FILTERS, type CatalogFilters, type CatalogType } from "./types.ts";
import { canonicalTopGenre, MAX_SUB_LEVELS } from "./genre-tree.ts";
import { canonicalOption, CHANNEL_CATEGORIES, CHANNEL_COUNTRIES, CHANNEL_LANGUAGES, SUBSCRIBER_RANGES } from "./channel-options.ts";

/**
 * DESIGN.md §3 deviation 5: all catalog state lives in the URL, e.g.
 * `/catalog?type=singles&genre=Pop&page=2`. Parsing never throws: unknown types fall back to
 * music, unknown options are dropped, lengths are capped and the page is clamped.
 *
 * Parameters: type, genre, sub (repeated, positional), category, country, lang, subs
 * (repeated), q, page, item.
 */
export interface CatalogState {
  type: CatalogType;
  filters: CatalogFilters;
  /** the search field */
  q: string;
  /** 1-based; the loader clamps it to the page count */
  page: number;
  /** id of the item whose sheet is open, or "" */
  item: string;
}

export const CATALOG_TYPES: readonly CatalogType[] = ["music", "film", "singles", "channels", "compilations"];
export const MAX_TEXT_LENGTH = 100;
export const MAX_ITEM_ID_LENGTH = 200;
export const MAX_PAGE = 1_000_000;

export function defaultCatalogState(type: CatalogType = "music"): CatalogState {
  return { type, filters: emptyFilters(), q: "", page: 1, item: "" };
}

const emptyFilters = (): CatalogFilters => ({ ...EMPTY_FILTERS, subGenres: [], keywords: [], countries: [], regions: [] });

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

export function parseCatalogState(params: URLSearchParams): CatalogState {
  const rawType = (params.get("type") ?? "").trim().toLowerCase();
  const type = (CATALOG_TYPES as readonly string[]).includes(rawType) ? (rawType as CatalogType) : "music";
  const filters = emptyFilters();

  if (type === "music") {
    const genre = canonicalTopGenre(cleanText(params.get("genre")));
    if (genre) {
      filters.genres = genre;
      const subs: string[] = [];
      for (const raw of params.getAll("sub").slice(0, MAX_SUB_LEVELS)) {
        const s = cleanText(raw);
        if (!s) break; // positional: a gap ends the path
        subs.push(s);
      }
      filters.subGenres = subs;
    }
  } else if (type === "singles") {
    const genre = cleanText(params.get("genre"));
    if (genre) {
      filters.genres = genre;
      const sub = cleanText(params.get("sub"));
      if (sub) filters.subGenres = [sub];
    }
  } else if (type === "channels") {
    filters.genres = canonicalOption(CHANNEL_CATEGORIES, cleanText(params.get("category"))) ?? "";
    filters.countries = uniqueOptions(params.getAll("country"), CHANNEL_COUNTRIES);
    filters.keywords = uniqueOptions(params.getAll("lang"), CHANNEL_LANGUAGES);
    filters.regions = uniqueOptions(params.getAll("subs"), SUBSCRIBER_RANGES);
  }

  const q = type === "compilations" ? "" : cleanText(params.get("q"));
  const pageNumber = Number.parseInt(params.get("page") ?? "", 10);
  const page = Number.isFinite(pageNumber) ? Math.min(Math.max(1, pageNumber), MAX_PAGE) : 1;
  const item = type === "compilations" ? "" : cleanText(params.get("item"), MAX_ITEM_ID_LENGTH);
  return { type, filters, q, page, item };
}

/** The URL parameters of a state, defaults omitted, in a stable order. */
export function serializeCatalogState(state: CatalogState): URLSearchParams {
  const p = new URLSearchParams();
  const { type, filters } = state;
  if (type !== "music") p.set("type", type);
  if (type === "music" || type === "singles") {
    if (filters.genres) {
      p.set("genre", filters.genres);
      for (const s of filters.subGenres) if (s) p.append("sub", s);
    }
  } else if (type === "channels") {
    if (filters.genres) p.set("category", filters.genres);
    for (const c of filters.countries) p.append("country", c);
    for (const l of filters.keywords) p.append("lang", l);
    for (const r of filters.regions) p.append("subs", r);
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

/** The state after a filter change: back to page 1, no open sheet. */
export function withFilters(state: CatalogState, filters: CatalogFilters): CatalogState {
  return { ...state, filters, page: 1, item: "" };
}

/** Spec §4: changing the type resets all filters (and the search, page and open sheet). */
export function withType(type: CatalogType): CatalogState {
  return defaultCatalogState(type);
}

export function withPage(state: CatalogState, page: number): CatalogState {
  return { ...state, page, item: "" };
}

export function withItem(state: CatalogState, item: string): CatalogState {
  return { ...state, item };
}

/** Clear Filters / Clear All Filters: the type stays, everything else resets. */
export function clearedState(state: CatalogState): CatalogState {
  return defaultCatalogState(state.type);
}
