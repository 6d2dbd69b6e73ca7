import { licensingTracksHref } from "../catalog/cards.ts";
import { itemPagePath } from "../catalog/item-url.ts";
import { parseTrackShortlistId, type ShortlistEntry } from "./shortlist.ts";

/**
 * Where a shortlist leads (issue #11): the shared list's URL, each entry's page, and the
 * licensing request for the whole list. Apart from shortlist.ts so the document pages' header
 * counter (app/enhance) bundles the list's parsing alone.
 */
/** The shared list's path: `/shortlist?items=id,id,…` (DESIGN.md §3b), commas kept readable. */
export function shortlistSharePath(ids: readonly string[]): string {
  return ids.length ? `/shortlist?items=${ids.map(encodeURIComponent).join(",")}` : "/shortlist";
}

/** Where an entry's link goes: the album's or single's page; a track's album page, at the track. */
export function shortlistEntryHref(entry: ShortlistEntry): string {
  if (entry.kind === "single") return itemPagePath("singles", entry.id, entry.title);
  if (entry.kind === "album") return itemPagePath("albums", entry.id, entry.title);
  const track = parseTrackShortlistId(entry.id)!;
  return `${itemPagePath("albums", track.albumId, entry.album ?? "")}#track-${track.trackIndex + 1}`;
}

/** The licensing form's "Specific Tracks" line of an entry: "Title — Artist (Album)". */
export function licensingLine(entry: ShortlistEntry): string {
  const who = entry.artist ? `${entry.title} — ${entry.artist}` : entry.title;
  if (entry.kind === "album") return `${who} (full album)`;
  return entry.album ? `${who} (${entry.album})` : who;
}

/**
 * "Request a license for these N items": the licensing tab with Specific Tracks filled in, one
 * line per item. The field holds at most `maxLength` characters (product-rules §5 plus our cap) and the
 * link must stay within the server's URL limit, so whole lines are kept while they fit, and a
 * last line says how many more there are and where the whole list is.
 */
export function shortlistLicensingHref(
  entries: readonly ShortlistEntry[],
  opts: { maxLength: number; maxUrlBytes: number; listUrl?: string },
): string {
  const lines = entries.map(licensingLine);
  const fits = (text: string) => text.length <= opts.maxLength && licensingTracksHref(text).length <= opts.maxUrlBytes;
  const textFor = (n: number, listUrl: string | undefined) => {
    const rest = lines.length - n;
    return rest ? [...lines.slice(0, n), `…and ${rest} more${listUrl ? `: ${listUrl}` : ""}`].join("\n") : lines.join("\n");
  };
  let tracks = `${lines.length} items from the shortlist`;
  search: for (const listUrl of [opts.listUrl, undefined]) {
    for (let kept = lines.length; kept >= 0; kept--) {
      const candidate = textFor(kept, listUrl);
      if (fits(candidate)) {
        tracks = candidate;
        break search;
      }
    }
  }
  return licensingTracksHref(tracks);
}
