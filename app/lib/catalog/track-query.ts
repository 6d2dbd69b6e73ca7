/**
 * The music track view (issue #10, DESIGN.md §3b): the query the page asks of the server's
 * track index, and the rows it gets back. Browser-safe: the URL state (url-state.ts) builds a
 * TrackQuery, app/.server/catalog/tracks/ answers it, the track view renders TrackRowData.
 */

/** `sort=`: title (default), tempo or length, ascending or descending; relevance when `q` is set. */
export type TrackSort = "title" | "bpm" | "-bpm" | "duration" | "-duration" | "relevance" | "similarity";

/** An inclusive range; either end may be open (null). */
export interface NumberRange {
  min: number | null;
  max: number | null;
}

export interface TrackQuery {
  /** the search text, "" for none (typo-tolerant, prefix-aware; title, album, artist, genre) */
  q: string;
  /** the album's genre path, with the spec's matching rules (as for albums): top genre, or "" */
  genre: string;
  /** positional sub-genre levels under `genre` */
  subGenres: string[];
  /** `bpm=LO-HI`, whole BPM; a track without a tempo never matches a tempo range */
  bpm: NumberRange | null;
  /** `duration=LO-HI`, whole seconds; a track without analysis never matches */
  duration: NumberRange | null;
  /** `key=`, canonical names ("C major", "A# minor"), any of them; a track without analysis never matches */
  keys: string[];
  sort: TrackSort;
  /** 1-based; the answer clamps it to the page count */
  page: number;
  /** `like=`: list the tracks that sound most like this track or reference (issue #19); "" for none */
  like?: string;
}

/** 12 rows per page (issue #10), as the catalog's card grid. */
export const TRACKS_PER_PAGE = 12;

export interface TrackRowData {
  /** stable within a catalog version: `${albumId}:${trackIndex}` */
  id: string;
  title: string;
  artist: string;
  album: string;
  albumId: string;
  /** the album's genre path for display, e.g. "Jazz / Oldies Jazz" */
  genre: string;
  /** public audio URL ("" when none) */
  audioUrl: string;
  /** from the analysis (issue #9), absent until analysed: whole seconds, whole BPM (absent without a beat), key, preview bars 0…100 */
  seconds?: number;
  bpm?: number;
  key?: string;
  peaks?: number[];
  /** in a `like=` view: why the track is listed, in words (issue #19, ADR 0104) */
  why?: string;
}

/**
 * The seed of a `like=` view (issue #19): a catalog track (`row`, shown with its preview) or a
 * reference file; `status` says whether its neighbours could be listed:
 * - "ready": the rows are its neighbours;
 * - "analysing": it has no fingerprint yet ("still being analysed"); no rows;
 * - "expired": a reference past REFERENCE_TTL_DAYS; "unknown": no such track or reference.
 */
export interface LikeSeed {
  id: string;
  status: "ready" | "analysing" | "expired" | "unknown";
  kind: "track" | "reference";
  /** the catalog track, when the seed is one */
  row?: TrackRowData;
  /** a reference's file name as the visitor uploaded it */
  label?: string;
  /** what the site heard in a reference file (issue #41); absent for one stored before it */
  heard?: HeardFile;
}

/** What the site heard in a visitor's reference file (issue #41 "What the site heard"). */
export interface HeardFile {
  /** the file's length */
  fileSeconds: number;
  /** the part compared (the first 3 minutes unless the visitor chose one) */
  fromSeconds: number;
  toSeconds: number;
  /** null: no steady beat */
  bpm: number | null;
  key: string | null;
  /** the compared part's waveform: up to WAVEFORM_BARS bars, 0–100 (waveform.ts) */
  peaks: number[];
}

/** The most neighbours a `like=` view lists (10 pages): its other sort orders reorder these (docs/product-rules.md). */
export const LIKE_LIMIT = 120;
/** At most this many tracks of one album among the first LIKE_SPREAD_WINDOW of a `like=` view (docs/product-rules.md). */
export const LIKE_PER_ALBUM = 3;
export const LIKE_SPREAD_WINDOW = 12;

export interface TrackQueryResult {
  rows: TrackRowData[];
  /** tracks matching every filter */
  total: number;
  /** the page shown, clamped to 1…pageCount */
  page: number;
  pageCount: number;
  /**
   * The key filter's choices: the keys that occur in the results of the query without its
   * own key filter (so choosing one key still lists the others), with their counts, in the
   * order of the 24 keys.
   */
  keyCounts: { key: string; count: number }[];
  /** the seed of a `like=` view */
  like?: LikeSeed;
}

/** The 12 pitch classes as the analysis names them (sharps, app/.server/analysis/key.ts). */
export const PITCH_CLASSES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"] as const;

/** The 24 keys, in the key filter's order: the majors, then the minors. */
export const KEY_NAMES: readonly string[] = [...PITCH_CLASSES.map((p) => `${p} major`), ...PITCH_CLASSES.map((p) => `${p} minor`)];
