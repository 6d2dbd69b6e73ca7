import type { CatalogIndex } from "./index.ts";
import { parseTrackShortlistId, type ShortlistEntry } from "../../lib/shortlist/shortlist.ts";

/**
 * A shared shortlist's ids (`/shortlist?items=…`, issue #11) as the entries the page shows,
 * from the current catalog: a track id (`${albumId}:${trackIndex}`) is its album's track, then
 * an album id, then a single id. Ids the catalog no longer has are counted, not shown.
 */
export function resolveShortlist(index: CatalogIndex, ids: readonly string[]): { entries: ShortlistEntry[]; unknown: number } {
  const entries: ShortlistEntry[] = [];
  let unknown = 0;
  for (const id of ids) {
    const entry = resolveOne(index, id);
    if (entry) entries.push(entry);
    else unknown++;
  }
  return { entries, unknown };
}

function resolveOne(index: CatalogIndex, id: string): ShortlistEntry | null {
  const track = parseTrackShortlistId(id);
  if (track) {
    const album = index.album(track.albumId);
    const t = album?.tracks[track.trackIndex];
    if (album && t) {
      return { id, kind: "track", title: t.name, artist: album.artist, album: album.name, ...(album.image ? { image: album.image.src } : {}) };
    }
  }
  const album = index.albumCard(id);
  if (album) return { id, kind: "album", title: album.name, artist: album.artist, album: album.name, ...(album.image ? { image: album.image.src } : {}) };
  const single = index.single(id);
  if (single) {
    const card = index.singleCard(single);
    return { id, kind: "single", title: card.title, artist: card.artist, ...(card.image ? { image: card.image.src } : {}) };
  }
  return null;
}
