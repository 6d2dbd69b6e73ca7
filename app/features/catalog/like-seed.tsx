import { Link } from "~/components/ui/link";
import type { HeardFile, LikeSeed } from "~/lib/catalog/track-query";
import { formatDuration } from "~/lib/catalog/format";
import { itemPageHref } from "~/lib/catalog/item-url";
import { WAVEFORM_HEIGHT, waveformPath } from "~/lib/catalog/waveform";
import { AudioPreview } from "./audio-preview";

/** The page that takes a reference file (issue #19 "Search by a reference file"). */
export const SOUNDS_LIKE_PATH = "/catalog/sounds-like";

/** What the site heard, in words (issue #41): "2:31, 124 BPM, A minor"; "no steady beat" without a tempo. */
export function heardSummary(heard: HeardFile): string {
  return [formatDuration(heard.fileSeconds), heard.bpm ? `${heard.bpm} BPM` : "no steady beat", heard.key ?? "no clear key"].join(", ");
}

/**
 * What a `like=` view is of, in words: its heading, the one place it is written (DESIGN.md §3c
 * "Tracks like {title} by {artist}"; issue #41 "Tracks like your file (2:31, 124 BPM, A minor)").
 */
export function likeTitle(like: LikeSeed): string {
  if (like.kind === "track" && like.row) return `Tracks like ${like.row.title} by ${like.row.artist}`;
  if (like.kind === "reference" && like.status === "ready") {
    // a reference stored before issue #41 has no figures: its file name instead
    return like.heard ? `Tracks like your file (${heardSummary(like.heard)})` : `Tracks like your file${like.label ? ` “${like.label}”` : ""}`;
  }
  return "Tracks like this";
}

/** The chip's label (the seed is a removable chip like any filter). */
export function likeChipLabel(like: LikeSeed | undefined): string | undefined {
  if (!like) return undefined;
  if (like.kind === "track" && like.row) return `Like: ${like.row.title}`;
  if (like.kind === "reference") return like.label ? `Like: ${like.label}` : "Like: your file";
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
          {/* issue #41: the album named as such (was "The seed: {album}") */}
          <p className="text-sm text-muted">
            From the album{" "}
            <Link
              to={itemPageHref("albums", row.albumId, row.album, from)}
              className="underline decoration-border underline-offset-4 hover:text-fg hover:decoration-current"
            >
              {row.album}
            </Link>
            {[row.seconds ? formatDuration(row.seconds) : null, row.bpm ? `${row.bpm} BPM` : null, row.key ?? null]
              .filter(Boolean)
              .map((fact) => ` · ${fact}`)
              .join("")}
          </p>
          {row.audioUrl ? <AudioPreview src={row.audioUrl} track={`${row.title} by ${row.artist}`} peaks={row.peaks} /> : null}
        </div>
      ) : null}
      {like.kind === "reference" && like.status === "ready" && like.heard ? <HeardPanel heard={like.heard} label={like.label} /> : null}
      {like.status === "ready" ? <p className="text-sm text-muted">Most similar first. Each track says why it is here.</p> : null}
      {like.status === "analysing" ? (
        <p className="text-sm">
          This track is still being analysed: its sound has not been measured yet, so there is nothing to compare it with. Try again in a few
          minutes.
        </p>
      ) : null}
      {like.status === "expired" ? (
        <p className="text-sm">
          This reference has expired: uploaded files are compared for a limited time, and their audio is never kept.{" "}
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

/**
 * What the site heard in the visitor's file (issue #41): its name, the part compared when it is
 * not the whole file, and that part's waveform, drawn as the catalog's previews are
 * (waveform.ts) from the bars kept with the fingerprint: no audio is kept or sent.
 */
function HeardPanel({ heard, label }: { heard: HeardFile; label?: string }) {
  const part = `${formatDuration(heard.fromSeconds)} to ${formatDuration(heard.toSeconds)}`;
  const whole = heard.fromSeconds < 0.5 && heard.toSeconds >= heard.fileSeconds - 0.5;
  const width = Math.max(1, heard.peaks.length) * 3;
  return (
    <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] sm:items-center" data-heard="">
      <p className="text-sm text-muted">
        What we heard{label ? <> in <span className="break-all text-fg">{label}</span></> : null}: {heardSummary(heard)}.
        {whole ? " We compared all of it." : ` We compared ${part}.`}
      </p>
      <div className="wave h-12" role="img" aria-label={`Waveform of your file${whole ? "" : `, ${part}`}`}>
        <svg viewBox={`0 0 ${width} ${WAVEFORM_HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
          <path d={waveformPath(heard.peaks)} stroke="#ff8a5c" />
        </svg>
      </div>
    </div>
  );
}
