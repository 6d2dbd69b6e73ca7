import { EMPTY_FILTERS, type CatalogFilters, type CatalogType } from "./types.ts";
import { MAX_SUB_LEVELS } from "./genre-tree.ts";

/**
 * The filter state transitions of spec §4 ("Catalog content type", "Music genre filter",
 * "Singles filter", "Channel filters", "Active filter chips"). Pure: each returns new state.
 */
const empty = (): CatalogFilters => ({ ...EMPTY_FILTERS, subGenres: [], keywords: [], countries: [], regions: [] });

/** Spec §4 "Catalog content type": changing the type resets all filters to empty. */
export function changeType(): CatalogFilters {
  return empty();
}

/** Music: choosing a top genre clears all other filters. */
export function chooseTopGenre(_filters: CatalogFilters, genre: string): CatalogFilters {
  return { ...empty(), genres: genre };
}

/**
 * Music: choosing a level-1 sub-genre sets subGenres to that one value and clears keywords,
 * countries and regions; levels 2 and 3 work the same way and keep the earlier levels.
 */
export function chooseSubGenre(filters: CatalogFilters, level: number, value: string): CatalogFilters {
  if (level < 1 || level > MAX_SUB_LEVELS) return filters;
  const kept = filters.subGenres.slice(0, level - 1);
  // A deeper level cannot be chosen before the levels above it.
  if (kept.length < level - 1 || kept.some((s) => !s)) return filters;
  return { ...filters, subGenres: [...kept, value], keywords: [], countries: [], regions: [] };
}

/**
 * Music: "All" at a level clears that level and all deeper levels, and clears countries.
 * Level 0 is the top genre, whose "All" clears the genre too.
 */
export function chooseAll(filters: CatalogFilters, level: number): CatalogFilters {
  if (level <= 0) return { ...filters, genres: "", subGenres: [], countries: [] };
  return { ...filters, subGenres: filters.subGenres.slice(0, level - 1), countries: [] };
}

/** Singles: choosing a genre (its sub-genres load next); clearing it empties subGenres. */
export function chooseSinglesGenre(_filters: CatalogFilters, genre: string): CatalogFilters {
  return { ...empty(), genres: genre };
}

/** Singles: choosing a sub-genre sets subGenres to that one value ("" clears it). */
export function chooseSinglesSubGenre(filters: CatalogFilters, subGenre: string): CatalogFilters {
  return { ...filters, subGenres: subGenre ? [subGenre] : [] };
}

/** Channels: choosing a category resets the other filters. */
export function chooseChannelCategory(_filters: CatalogFilters, category: string): CatalogFilters {
  return { ...empty(), genres: category };
}

const toggle = (list: readonly string[], value: string) =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

/** Channels: countries, languages (keywords) and subscriber ranges (regions) toggle. */
export function toggleChannelCountry(filters: CatalogFilters, country: string): CatalogFilters {
  return { ...filters, countries: toggle(filters.countries, country) };
}
export function toggleChannelLanguage(filters: CatalogFilters, language: string): CatalogFilters {
  return { ...filters, keywords: toggle(filters.keywords, language) };
}
export function toggleSubscriberRange(filters: CatalogFilters, range: string): CatalogFilters {
  return { ...filters, regions: toggle(filters.regions, range) };
}

export type ChipKind = "genre" | "subGenre" | "category" | "country" | "language" | "range";

export interface FilterChip {
  kind: ChipKind;
  /** for subGenre chips: the level (1…3) */
  level?: number;
  value: string;
  label: string;
}

/** Spec §4 "Active filter chips": one removable chip per active filter. */
export function activeChips(type: CatalogType, filters: CatalogFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  if (type === "channels") {
    if (filters.genres) chips.push({ kind: "category", value: filters.genres, label: filters.genres });
    for (const c of filters.countries) chips.push({ kind: "country", value: c, label: c });
    for (const l of filters.keywords) chips.push({ kind: "language", value: l, label: l });
    for (const r of filters.regions) chips.push({ kind: "range", value: r, label: `${r} subscribers` });
    return chips;
  }
  if (type !== "music" && type !== "singles") return chips;
  if (filters.genres) chips.push({ kind: "genre", value: filters.genres, label: filters.genres });
  filters.subGenres.forEach((s, i) => {
    if (s) chips.push({ kind: "subGenre", level: i + 1, value: s, label: s });
  });
  return chips;
}

/**
 * Each chip removes its own filter; removing the genre chip clears everything. A sub-genre
 * chip behaves like "All" at its level (deeper levels depend on it).
 */
export function removeChip(filters: CatalogFilters, chip: FilterChip): CatalogFilters {
  switch (chip.kind) {
    case "genre":
      return empty();
    case "subGenre":
      return { ...filters, subGenres: filters.subGenres.slice(0, (chip.level ?? 1) - 1) };
    case "category":
      return { ...filters, genres: "" };
    case "country":
      return { ...filters, countries: filters.countries.filter((v) => v !== chip.value) };
    case "language":
      return { ...filters, keywords: filters.keywords.filter((v) => v !== chip.value) };
    case "range":
      return { ...filters, regions: filters.regions.filter((v) => v !== chip.value) };
  }
}

export function hasActiveFilters(filters: CatalogFilters): boolean {
  return Boolean(
    filters.genres || filters.subGenres.length || filters.keywords.length || filters.countries.length || filters.regions.length,
  );
}
