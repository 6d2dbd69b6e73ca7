import type { AlbumCardData, AlbumDetailData, SingleCardData, SingleDetailData } from "../catalog/cards.ts";
import type { ShortlistEntry } from "./shortlist.ts";

/** The shortlist entries of an album and a single, as their sheets and pages add them. */
export function albumShortlistEntry(album: AlbumDetailData | AlbumCardData): ShortlistEntry {
  return { id: album.id, kind: "album", title: album.name, artist: album.artist, album: album.name, ...(album.image ? { image: album.image.src } : {}) };
}

export function singleShortlistEntry(single: SingleDetailData | SingleCardData): ShortlistEntry {
  const album = "album" in single ? single.album : "";
  return { id: single.id, kind: "single", title: single.title, artist: single.artist, ...(album ? { album } : {}), ...(single.image ? { image: single.image.src } : {}) };
}
