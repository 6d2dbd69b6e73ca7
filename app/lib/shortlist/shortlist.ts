/**
 * The shortlist (issue #11): a buyer collects albums, singles and tracks without an account.
 * The list lives in the browser (localStorage); `/shortlist?items=id,id,…` (DESIGN.md §3b)
 * shows the same list to anyone. Ids are the catalog's: an album's and a single's `?item=`
 * id, and `${albumId}:${trackIndex}` for a track (its 0-based position in the album's list).
 *
 * Everything read back (storage another tab or an old version wrote, a shared URL) is
 * validated and bounded here: at most SHORTLIST_MAX_ITEMS entries, ids and texts capped.
 */
export const SHORTLIST_MAX_ITEMS = 100;
/** Longest id kept: catalog ids are 10–20 characters; 100 of these stay within a 4 KB URL. */
export const SHORTLIST_MAX_ID_LENGTH = 40;
/** Longest title, artist or album name kept from storage. */
export const SHORTLIST_MAX_TEXT = 300;
/** Longest `items=` value read: 100 ids of 40 characters and their commas. */
export const SHORTLIST_MAX_PARAM_LENGTH = SHORTLIST_MAX_ITEMS * (SHORTLIST_MAX_ID_LENGTH + 1);
export const SHORTLIST_STORAGE_KEY = "northbeat:shortlist";

export type ShortlistKind = "album" | "single" | "track";

export interface ShortlistEntry {
  id: string;
  kind: ShortlistKind;
  title: string;
  artist: string;
  /** a track's album (the album's own name for an album, its album for a single, when known) */
  album?: string;
  /** a thumbnail URL (same-site /img) */
  image?: string;
}

/** An id as it may appear in the list and in a shared URL: no comma, space or control character. */
export function isShortlistId(id: string): boolean {
  // eslint-disable-next-line no-control-regex
  return id.length > 0 && id.length <= SHORTLIST_MAX_ID_LENGTH && !/[,\s\u0000-\u001f\u007f]/.test(id);
}

export function trackShortlistId(albumId: string, trackIndex: number): string {
  return `${albumId}:${trackIndex}`;
}

/** `${albumId}:${trackIndex}` split, or null when the id is not a track's. */
export function parseTrackShortlistId(id: string): { albumId: string; trackIndex: number } | null {
  const m = /^(.+):(\d{1,4})$/.exec(id);
  return m ? { albumId: m[1]!, trackIndex: Number(m[2]) } : null;
}

/**
 * The ids of a shared URL's `items=`: split on commas, trimmed, repeats dropped, at most
 * SHORTLIST_MAX_ITEMS. `dropped` counts malformed ids, `overflow` those past the cap (or past
 * the longest value read); the page notes both.
 */
export function parseShortlistIds(param: string | null | undefined): { ids: string[]; dropped: number; overflow: number } {
  if (!param) return { ids: [], dropped: 0, overflow: 0 };
  const parts = param.slice(0, SHORTLIST_MAX_PARAM_LENGTH).split(",");
  const ids: string[] = [];
  let dropped = 0;
  let overflow = param.length > SHORTLIST_MAX_PARAM_LENGTH ? 1 : 0;
  for (const part of parts) {
    const id = part.trim();
    if (!id || ids.includes(id)) continue;
    if (!isShortlistId(id)) dropped++;
    else if (ids.length >= SHORTLIST_MAX_ITEMS) overflow++;
    else ids.push(id);
  }
  return { ids, dropped, overflow };
}

const KINDS: readonly string[] = ["album", "single", "track"];

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= SHORTLIST_MAX_TEXT ? value : undefined;
}

/** One stored entry, checked field by field; null when it is not one. */
export function toShortlistEntry(value: unknown): ShortlistEntry | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const id = typeof v.id === "string" && isShortlistId(v.id) ? v.id : undefined;
  const kind = typeof v.kind === "string" && KINDS.includes(v.kind) ? (v.kind as ShortlistKind) : undefined;
  const title = text(v.title);
  const artist = text(v.artist);
  if (!id || !kind || !title || artist === undefined) return null;
  if (kind === "track" && !parseTrackShortlistId(id)) return null;
  const entry: ShortlistEntry = { id, kind, title, artist };
  const album = text(v.album);
  if (album) entry.album = album;
  // only a same-site path: the list page renders it as an <img src>
  if (typeof v.image === "string" && v.image.length <= 2048 && v.image.startsWith("/") && !v.image.startsWith("//")) entry.image = v.image;
  return entry;
}

/** The list as stored (JSON), validated: bad entries and repeats dropped, at most SHORTLIST_MAX_ITEMS. */
export function readShortlist(raw: string | null | undefined): ShortlistEntry[] {
  if (!raw || raw.length > 1_000_000) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: ShortlistEntry[] = [];
  const seen = new Set<string>();
  for (const value of parsed) {
    if (out.length >= SHORTLIST_MAX_ITEMS) break;
    const entry = toShortlistEntry(value);
    if (entry && !seen.has(entry.id)) {
      seen.add(entry.id);
      out.push(entry);
    }
  }
  return out;
}

/** The list with `entries` added at the end (repeats skipped, up to the cap); `full` when some did not fit. */
export function addToShortlist(list: readonly ShortlistEntry[], entries: readonly ShortlistEntry[]): { list: ShortlistEntry[]; full: boolean } {
  const next = [...list];
  let full = false;
  for (const entry of entries) {
    if (next.some((e) => e.id === entry.id)) continue;
    if (next.length >= SHORTLIST_MAX_ITEMS) full = true;
    else next.push(entry);
  }
  return { list: next, full };
}

/** The header link's accessible name: "Shortlist", or "Shortlist, 3 items". */
export function shortlistLinkLabel(count: number): string {
  return count ? `Shortlist, ${count} ${count === 1 ? "item" : "items"}` : "Shortlist";
}
