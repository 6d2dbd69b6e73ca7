/**
 * The catalog's own types (spec §3), shared by the server (sources, sync, index) and the
 * browser (cards, sheets). Raw upstream payloads are mapped to these by `reshape*` functions
 * in app/.server/catalog/.
 */

export type CatalogType = "music" | "film" | "singles" | "channels" | "compilations";

export interface Track {
  /** object-storage key of the audio */
  s3Path: string;
  Filename: string;
}

/** Spec §3 "Album". `id` is ours: a stable id derived at sync time, for the URL. */
export interface Album {
  id: string;
  name: string;
  artist: string;
  genre: string;
  /** object-storage key of the cover image */
  artwork: string;
  /** hierarchical: position 0 is the top genre, then sub-genre levels */
  keywords: string[];
  featured: boolean;
  tracks: Track[];
}

/** Spec §3 "Film" (only film_status 'completed' are kept). */
export interface Film {
  film_id: string;
  title: string;
  portrait?: string;
  landscape?: string;
  artwork?: string[];
  format?: string;
  film_status: string;
}

/** Spec §3 "Channel". `id` is ours. */
export interface Channel {
  id: string;
  name: string;
  description: string;
  category: string;
  language: string;
  country: string;
  keywords: string[];
  thumbnail: string;
  subscriberCount: number;
  videoCount: number;
  /** ISO date */
  lastUpdated: string;
}

/**
 * Spec §3 "Single", built from a delivered submission. subGenre and releaseDate come from
 * the release detail once it has been fetched (DESIGN.md §3, deviation 4).
 */
export interface Single {
  id: string;
  title: string;
  artist: string;
  genre: string;
  subGenre: string;
  artwork: string;
  audioUrl: string;
  language: string;
  duration: string;
  releaseDate: string;
  country: string;
  isrc: string;
  upc: string;
  label: string;
  composer: string;
  publisher: string;
  keywords: string[];
}

/** Spec §3 "Release detail". */
export interface ReleaseDetail {
  submissionId: string;
  userId: string;
  artistName: string;
  releaseTitle: string;
  album: string;
  genre: string;
  subGenre: string;
  parentalAdvisory: boolean;
  releaseDate: string;
  isrc: string;
  upc: string;
  composer: string;
  label: string;
  artwork: string;
  audioFile: string;
  status: string;
  country: string;
  createdDate: string;
  submittedDate: string;
  whiteLabelDomain: string;
  contactEmail: string;
}

/** Spec §3 "Catalog filter state". */
export interface CatalogFilters {
  genres: string;
  /** positional levels */
  subGenres: string[];
  /** channel languages */
  keywords: string[];
  countries: string[];
  /** channel subscriber ranges */
  regions: string[];
}

export const EMPTY_FILTERS: CatalogFilters = {
  genres: "",
  subGenres: [],
  keywords: [],
  countries: [],
  regions: [],
};
