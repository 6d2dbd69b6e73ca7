import { Link } from "~/components/ui/link";
import type { LikeSeed } from "~/lib/catalog/track-query";
import { itemPageHref } from "~/lib/catalog/item-url";
import { AudioPreview } from "./audio-preview";

/** The page that takes a reference file (issue #19 "Search by a reference file"). */
export const SOUNDS_LIKE_PATH = "/catalog/sounds-like";

/** What a `like=` view is of, in words: the heading, the chip's label. */
export function likeTitle(like: LikeSeed): string {
  if (like.kind === "track" && like.row) return `Tracks like ${like.row.title} by ${like.row.artist}`;
  if (like.kind === "reference" && like.status === "ready") return `Tracks like ${like.label ? `“${like.label}”` : "your reference file"}`;
  return "Tracks like this";
}

/** The chip's label (the seed is a removable chip like any filter). */
export function likeChipLabel(like: LikeSeed | undefined): string | undefined {
  if (!like) return undefined;
  if (like.kind === "track" && like.row) return `Like: ${like.row.title}`;
  if (like.kind === "reference") return like.label ? `Like: ${like.label}` : "Like: your reference";
  return undefined;
}

/**
 * The head of a `like=` view (issue #19, DESIGN.md §3c): "Tracks like {title} by {artist}" and
 * the seed with its preview; or why there is no list: the seed is still being analysed, the
 * reference has expired (with the way to upload it again), or no such track exists.
 */
export function LikeSeedHeader({ like, from, autoFocus = false }: { like: LikeSeed; from: string; autoFocus?: boolean }) {
  const row = like.row;
  return (
    <section aria-labelledby="like-title" className="card mb-5 flex flex-col gap-3 p-4 sm:p-5" data-like-status={like.status}>
      {/* issue #41: the results' heading takes focus (tabIndex -1): the browser's autofocus on a
          full load, catalog-page.tsx after a client navigation to another seed */}
      <h2 id="like-title" tabIndex={-1} autoFocus={autoFocus} className="text-lg font-semibold break-words">
        {likeTitle(like)}
      </h2>
      {row ? (
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] sm:items-center">
          <p className="text-sm text-muted">
            The seed:{" "}
            <Link
              to={itemPageHref("albums", row.albumId, row.album, from)}
              className="underline decoration-border underline-offset-4 hover:text-fg hover:decoration-current"
            >
              {row.album}
            </Link>
            {row.bpm ? ` · ${row.bpm} BPM` : ""}
            {row.key ? ` · ${row.key}` : ""}
          </p>
          {row.audioUrl ? <AudioPreview src={row.audioUrl} track={`${row.title} by ${row.artist}`} peaks={row.peaks} /> : null}
        </div>
      ) : null}
      {like.status === "ready" ? <p className="text-sm text-muted">Most similar first. Each track says why it is here.</p> : null}
      {like.status === "analysing" ? (
        <p className="text-sm">
          This track is still being analysed: its sound has not been measured yet, so there is nothing to compare it with. Try again in a few
          minutes.
        </p>
      ) : null}
      {like.status === "expired" ? (
        <p className="text-sm">
          This reference has expired: uploaded files are compared for a limited time, and only their fingerprint is kept.{" "}
          <Link to={SOUNDS_LIKE_PATH} className="font-semibold underline underline-offset-4">
            Upload a reference file again
          </Link>
        </p>
      ) : null}
      {like.status === "unknown" ? (
        <p className="text-sm">
          {like.kind === "reference" ? "There is no reference file under this address." : "There is no track under this address in the catalog."}{" "}
          <Link to={SOUNDS_LIKE_PATH} className="font-semibold underline underline-offset-4">
            Search by a reference file
          </Link>
        </p>
      ) : null}
    </section>
  );
}
