import type { CatalogType } from "./types.ts";

/** product-rules §2 "Title by type". */
export function catalogTitle(type: CatalogType): string {
  switch (type) {
    case "music":
      return "Music Catalog";
    case "film":
      return "Film Catalog";
    case "channels":
      return "Channels Catalog";
    default:
      return "Catalog";
  }
}

/** product-rules §2 "List area": the noun of "Showing {count} {noun}" and "No {noun} found". */
export function catalogNoun(type: CatalogType): string {
  switch (type) {
    case "music":
      return "albums";
    case "film":
      return "films";
    case "channels":
      return "channels";
    default:
      return "items";
  }
}

/** The noun of a view: the music view lists albums, or tracks in the track view (issue #10). */
export function viewNoun(state: { type: CatalogType; view: string }): string {
  return state.view === "tracks" ? "tracks" : catalogNoun(state.type);
}

/** product-rules §2 empty state: an emoji by type. */
export function catalogEmoji(type: CatalogType): string {
  switch (type) {
    case "music":
      return "🎵";
    case "film":
      return "🎬";
    case "channels":
      return "📺";
    default:
      return "📁";
  }
}

export interface CatalogTab {
  type: CatalogType;
  label: string;
}

/** product-rules §2 "Content-type switcher", in its order. */
export const CATALOG_TABS: readonly CatalogTab[] = [
  { type: "music", label: "Music" },
  { type: "film", label: "Films" },
  { type: "singles", label: "Singles" },
  { type: "channels", label: "Channels" },
  { type: "compilations", label: "Compilations" },
];

/** Channels and Compilations are disabled with a "Soon!" badge; a flag can enable Channels. */
export function isTabEnabled(type: CatalogType, opts: { channelsEnabled: boolean }): boolean {
  if (type === "compilations") return false;
  if (type === "channels") return opts.channelsEnabled;
  return true;
}
