import type { AlbumsState, CatalogState, ChannelsState, SinglesState, TracksState } from "./types.ts";
import type { NumberRange, TrackSort } from "./track-query.ts";
import { MAX_SUB_LEVELS } from "./genre-tree.ts";
import { lengthLabel, tempoLabel } from "./track-filters.ts";
import { defaultTrackSort } from "./track-params.ts";

/**
 * The filter state transitions of product-rules §4 ("Catalog content type", "Music genre filter",
 * "Singles filter", "Channel filters", "Active filter chips") and of the track view (issue
 * #10). Pure: each returns the next state of the same view; the caller resets the page
 * (url-state.ts withFilters).
 *
 * The spec's music rules also clear `keywords`, `countries` and `regions`: in its one shared
 * filter record those are the channel languages, countries and subscriber ranges, which the
 * music views do not have (types.ts), so there is nothing of theirs to clear.
 */
type MusicState = AlbumsState | TracksState;

/**
 * Music: choosing a top genre clears the sub-genre levels. The track view keeps its tempo,
 * length and key: they describe the sound, not the genre (docs/product-rules.md).
 */
export function chooseTopGenre<S extends MusicState>(state: S, genre: string): S {
  return { ...state, genre, subGenres: [] };
}

/**
 * Music: choosing a level-1 sub-genre sets the sub-genres to that one value; levels 2 and 3
 * work the same way and keep the earlier levels.
 */
export function chooseSubGenre<S extends MusicState>(state: S, level: number, value: string): S {
  if (level < 1 || level > MAX_SUB_LEVELS) return state;
  const kept = state.subGenres.slice(0, level - 1);
  // A deeper level cannot be chosen before the levels above it.
  if (kept.length < level - 1 || kept.some((s) => !s)) return state;
  return { ...state, subGenres: [...kept, value] };
}

/**
 * Music: "All" at a level clears that level and all deeper levels. Level 0 is the top genre,
 * whose "All" clears the genre too.
 */
export function chooseAll<S extends MusicState>(state: S, level: number): S {
  if (level <= 0) return { ...state, genre: "", subGenres: [] };
  return { ...state, subGenres: state.subGenres.slice(0, level - 1) };
}

/** Singles: choosing a genre (its sub-genres load next); clearing it clears the sub-genre. */
export function chooseSinglesGenre(state: SinglesState, genre: string): SinglesState {
  return { ...state, genre, subGenre: "" };
}

/** Singles: choosing a sub-genre sets it ("" clears it). */
export function chooseSinglesSubGenre(state: SinglesState, subGenre: string): SinglesState {
  return { ...state, subGenre };
}

/** Channels: choosing a category resets the other filters. */
export function chooseChannelCategory(state: ChannelsState, category: string): ChannelsState {
  return { ...state, category, countries: [], languages: [], subscriberRanges: [] };
}

const toggle = (list: readonly string[], value: string) =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

/** Channels: countries, languages and subscriber ranges toggle. */
export function toggleChannelCountry(state: ChannelsState, country: string): ChannelsState {
  return { ...state, countries: toggle(state.countries, country) };
}
export function toggleChannelLanguage(state: ChannelsState, language: string): ChannelsState {
  return { ...state, languages: toggle(state.languages, language) };
}
export function toggleSubscriberRange(state: ChannelsState, range: string): ChannelsState {
  return { ...state, subscriberRanges: toggle(state.subscriberRanges, range) };
}

/** Tracks: a tempo range (null: any tempo). */
export function chooseTempo(state: TracksState, bpm: NumberRange | null): TracksState {
  return { ...state, bpm };
}
/** Tracks: a length range (null: any length). */
export function chooseLength(state: TracksState, duration: NumberRange | null): TracksState {
  return { ...state, duration };
}
/** Tracks: keys toggle; several keys match any of them. */
export function toggleKey(state: TracksState, key: string): TracksState {
  return { ...state, keys: toggle(state.keys, key) };
}
export function chooseTrackSort(state: TracksState, sort: TrackSort): TracksState {
  return { ...state, sort };
}

export type ChipKind = "genre" | "subGenre" | "category" | "country" | "language" | "range" | "tempo" | "length" | "key" | "like";

/** The seed chip's label when the page does not know the seed's title (FilterChips names it when it does). */
export const LIKE_CHIP_LABEL = "Sounds like a track";

/** Without `like=`: the similarity order goes with it (issue #19: the seed is a removable chip). */
export function withoutLike(state: TracksState): TracksState {
  return { ...state, like: "", sort: state.sort === "similarity" ? defaultTrackSort(state.q) : state.sort };
}

export interface FilterChip {
  kind: ChipKind;
  /** for subGenre chips: the level (1…3) */
  level?: number;
  value: string;
  label: string;
}

function genreChips(genre: string, subGenres: readonly string[]): FilterChip[] {
  const chips: FilterChip[] = [];
  if (!genre) return chips;
  chips.push({ kind: "genre", value: genre, label: genre });
  subGenres.forEach((s, i) => {
    if (s) chips.push({ kind: "subGenre", level: i + 1, value: s, label: s });
  });
  return chips;
}

/** product-rules §4 "Active filter chips": one removable chip per active filter. */
export function activeChips(state: CatalogState): FilterChip[] {
  switch (state.view) {
    case "albums":
      return genreChips(state.genre, state.subGenres);
    case "tracks": {
      const chips = genreChips(state.genre, state.subGenres);
      if (state.bpm) chips.push({ kind: "tempo", value: "", label: tempoLabel(state.bpm) });
      if (state.duration) chips.push({ kind: "length", value: "", label: lengthLabel(state.duration) });
      for (const k of state.keys) chips.push({ kind: "key", value: k, label: k });
      if (state.like) chips.push({ kind: "like", value: state.like, label: LIKE_CHIP_LABEL });
      return chips;
    }
    case "singles":
      return genreChips(state.genre, state.subGenre ? [state.subGenre] : []);
    case "channels":
      return [
        ...(state.category ? [{ kind: "category" as const, value: state.category, label: state.category }] : []),
        ...state.countries.map((c) => ({ kind: "country" as const, value: c, label: c })),
        ...state.languages.map((l) => ({ kind: "language" as const, value: l, label: l })),
        ...state.subscriberRanges.map((r) => ({ kind: "range" as const, value: r, label: `${r} subscribers` })),
      ];
    default:
      return [];
  }
}

const without = (list: readonly string[], value: string) => list.filter((v) => v !== value);

/**
 * Each chip removes its own filter; removing the genre chip clears everything the genre
 * governs (product-rules §4: in the album and singles views that is every filter; the track view keeps
 * its tempo, length and keys, as choosing a genre does). A sub-genre chip behaves like "All"
 * at its level (deeper levels depend on it).
 */
export function removeChip<S extends CatalogState>(state: S, chip: FilterChip): S;
export function removeChip(state: CatalogState, chip: FilterChip): CatalogState {
  switch (state.view) {
    case "albums":
    case "tracks":
      if (chip.kind === "genre") return chooseAll(state, 0);
      if (chip.kind === "subGenre") return chooseAll(state, chip.level ?? 1);
      if (state.view !== "tracks") return state;
      if (chip.kind === "tempo") return chooseTempo(state, null);
      if (chip.kind === "length") return chooseLength(state, null);
      if (chip.kind === "key") return { ...state, keys: without(state.keys, chip.value) };
      if (chip.kind === "like") return withoutLike(state);
      return state;
    case "singles":
      if (chip.kind === "genre") return chooseSinglesGenre(state, "");
      return chip.kind === "subGenre" ? chooseSinglesSubGenre(state, "") : state;
    case "channels":
      if (chip.kind === "category") return { ...state, category: "" };
      if (chip.kind === "country") return { ...state, countries: without(state.countries, chip.value) };
      if (chip.kind === "language") return { ...state, languages: without(state.languages, chip.value) };
      if (chip.kind === "range") return { ...state, subscriberRanges: without(state.subscriberRanges, chip.value) };
      return state;
    default:
      return state;
  }
}

export function hasActiveFilters(state: CatalogState): boolean {
  return activeChips(state).length > 0;
}
