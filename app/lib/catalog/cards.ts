/**
 * What the browser receives for a catalog page: small card and sheet records with public
 * media URLs already resolved (thumbnails through /img). Never raw storage keys, upstream
 * URLs or personal data from release details (user ids, contact e-mails).
 */
export interface CardImage {
  /** a thumbnail URL (thumbnailUrl) */
  src: string;
  /** a srcset over the thumbnail widths */
  srcSet: string;
}

export interface AlbumCardData {
  kind: "album";
  id: string;
  name: string;
  artist: string;
  genre: string;
  image: CardImage | null;
}

export interface FilmCardData {
  kind: "film";
  id: string;
  title: string;
  format: string;
  image: CardImage | null;
}

export interface SingleCardData {
  kind: "single";
  id: string;
  title: string;
  artist: string;
  genre: string;
  releaseDate: string;
  image: CardImage | null;
}

export interface ChannelCardData {
  kind: "channel";
  id: string;
  name: string;
  description: string;
  category: string;
  country: string;
  subscriberCount: number;
  videoCount: number;
  lastUpdated: string;
  image: CardImage | null;
}

export type CatalogCardData = AlbumCardData | FilmCardData | SingleCardData | ChannelCardData;

export interface TrackData {
  name: string;
  /** public audio URL */
  audioUrl: string;
  /**
   * What the analysis measured (issue #9), absent until the track is analysed: the length in
   * whole seconds, the tempo in whole BPM (absent when it has no steady beat), the key ("A
   * minor"), and the preview's waveform as whole numbers 0…100 (waveform.ts).
   */
  seconds?: number;
  bpm?: number;
  key?: string;
  peaks?: number[];
}

/** product-rules §2 album sheet: the card plus its tracks. */
export interface AlbumDetailData extends AlbumCardData {
  tracks: TrackData[];
}

/** product-rules §2 "Single card" sheet: the list item plus the release details a visitor sees. */
export interface SingleDetailData extends SingleCardData {
  subGenre: string;
  language: string;
  /** public audio URL, or "" when there is no preview */
  audioUrl: string;
  album: string;
  country: string;
  label: string;
  composer: string;
  isrc: string;
  parentalAdvisory: boolean;
}

export type CatalogDetailData = AlbumDetailData | SingleDetailData;

/** A display name for a track file: the file name without its audio extension. */
export function trackDisplayName(filename: string): string {
  return filename.replace(/\.(mp3|m4a|aac|wav|ogg|oga|opus|flac|webm)$/i, "").trim() || filename;
}

/** product-rules §2 Single sheet: genre shown as "genre / subGenre" (just the genre without one). */
export function genreWithSubGenre(genre: string, subGenre: string): string {
  if (genre && subGenre) return `${genre} / ${subGenre}`;
  return genre || subGenre || "-";
}

/**
 * "License this track" link (issue #3, beyond the spec): the contact page's licensing tab,
 * Specific Tracks filled in as "Title — Artist", and "Title — Artist (Album)" for a track of
 * an album (issue #10, the track view).
 */
export function licensingHref(title: string, artist: string, album = ""): string {
  const line = artist ? `${title} — ${artist}` : title;
  return licensingTracksHref(album ? `${line} (${album})` : line);
}

/**
 * "License this album": the whole album, written as the shortlist writes it
 * (app/lib/shortlist/links.ts `licensingLine`), "Album — Artist (full album)" (issue #41).
 */
export function licensingAlbumHref(name: string, artist: string): string {
  return licensingTracksHref(`${artist ? `${name} — ${artist}` : name} (full album)`);
}

/**
 * The licensing tab with its Specific Tracks field filled in (a catalog item, a shortlist), at
 * the form itself: `#licensing-form` is the form's place on /contact
 * (app/features/contact/lead-forms.tsx), below the page's header and cards, so the visitor
 * lands with the pre-filled form in view (issue #41).
 */
export function licensingTracksHref(tracks: string): string {
  return `/contact?tab=licensing&tracks=${encodeURIComponent(tracks)}#licensing-form`;
}
