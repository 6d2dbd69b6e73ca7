/**
 * The catalog's own types (product-rules §3), shared by the server (sources, sync, index) and the
 * browser (cards, sheets). Raw upstream payloads are mapped to these by `reshape*` functions
 * in app/.server/catalog/.
 */

import type { NumberRange, TrackSort } from "./track-query.ts";

export type CatalogType = "music" | "film" | "singles" | "channels" | "compilations";

export interface Track {
  /** object-storage key of the audio */
  s3Path: string;
  Filename: string;
}

/** product-rules §3 "Album". `id` is ours: a stable id derived at sync time, for the URL. */
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

/** product-rules §3 "Film" (only film_status 'completed' are kept). */
export interface Film {
  film_id: string;
  title: string;
  portrait?: string;
  landscape?: string;
  artwork?: string[];
  format?: string;
  film_status: string;
}

/** product-rules §3 "Channel". `id` is ours. */
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
 * product-rules §3 "Single", built from a delivered submission. subGenre and releaseDate come from
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

/** product-rules §3 "Release detail". */
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

/**
 * product-rules §3 "Catalog filter state", one variant per view (issue #10). The spec keeps one record
 * for every view and reuses its fields: `genres` holds the channel category, `keywords` the
 * channel languages and `regions` the subscriber ranges. Each view here has its own honestly
 * named fields; the URL parameters are unchanged (url-state.ts parses and writes them).
 *
 * `view` tells the variants apart; `type` is the content-type switcher's tab (product-rules §2), shared
 * by the music view's two variants (albums and tracks).
 */
interface CatalogViewCommon {
  /** the search field */
  q: string;
  /** 1-based; the loader clamps it to the page count */
  page: number;
  /** id of the item whose sheet is open, or "" */
  item: string;
}

/** The music genre path: the top genre ("" for none) and its positional sub-genre levels. */
export interface GenrePath {
  genre: string;
  subGenres: string[];
}

/** `/catalog` (music, the default): albums by genre. */
export interface AlbumsState extends CatalogViewCommon, GenrePath {
  type: "music";
  view: "albums";
}

/** `/catalog?view=tracks` (issue #10, DESIGN.md §3b): every album track, with tempo, length and key filters. */
export interface TracksState extends CatalogViewCommon, GenrePath {
  type: "music";
  view: "tracks";
  /** `bpm=LO-HI`, whole BPM, inclusive; null: any tempo */
  bpm: NumberRange | null;
  /** `duration=LO-HI`, whole seconds, inclusive; null: any length */
  duration: NumberRange | null;
  /** `key=`, canonical names from KEY_NAMES ("A minor", "C# major"), in KEY_NAMES order */
  keys: string[];
  sort: TrackSort;
  /**
   * `like=`: the tracks that sound like this one (issue #19, DESIGN.md §3c): a track id
   * (`${albumId}:${trackIndex}`, the shortlist's) or a reference file's id (`ref-…`); "" for none
   */
  like: string;
}

/** `?type=singles`: a genre from the genre list and one of its sub-genres. */
export interface SinglesState extends CatalogViewCommon {
  type: "singles";
  view: "singles";
  genre: string;
  subGenre: string;
}

/** `?type=channels`: one category; countries, languages and subscriber ranges toggle. */
export interface ChannelsState extends CatalogViewCommon {
  type: "channels";
  view: "channels";
  category: string;
  countries: string[];
  languages: string[];
  /** labels of SUBSCRIBER_RANGES ("1K-10K", "10M+") */
  subscriberRanges: string[];
}

/** `?type=film`: no filters (product-rules §2), the search still applies. */
export interface FilmsState extends CatalogViewCommon {
  type: "film";
  view: "films";
}

/** `?type=compilations`: "Coming Soon!" (product-rules §2), nothing to filter, search or open. */
export interface CompilationsState extends CatalogViewCommon {
  type: "compilations";
  view: "compilations";
}

export type CatalogState = AlbumsState | TracksState | SinglesState | ChannelsState | FilmsState | CompilationsState;
export type CatalogView = CatalogState["view"];
