import { FileText } from "~/components/ui/icons/file-text";
import { Link } from "~/components/ui/link";
import { licensingHref } from "~/lib/catalog/cards";
import type { TrackRowData } from "~/lib/catalog/track-query";
import type { ShortlistEntry } from "~/lib/shortlist/shortlist";
import { ShortlistButton } from "~/features/shortlist";
import { AudioPreview } from "./audio-preview";
import { MoreLikeThis } from "./more-like-this";
import { AnalysisFacts, TrackFact } from "./track-facts";

/**
 * One track of the track view (issue #10, DESIGN.md §3b): an `li` whose visible text holds the
 * title, artist and album, the length as m:ss, the tempo as "N BPM" when it has one, the key
 * and the genre; the 10-second preview over its waveform; a link to its album; "License this
 * track" with Specific Tracks filled in as "Title — Artist (Album)"; "Add to shortlist". A track not analysed
 * yet is listed without length, tempo and key (it matches no such filter either).
 */
/** A track on the shortlist (issue #11): its id is the row's, `${albumId}:${trackIndex}`. */
const shortlistEntry = (row: TrackRowData): ShortlistEntry => ({ id: row.id, kind: "track", title: row.title, artist: row.artist, album: row.album });

function TrackRow({ row, albumHref }: { row: TrackRowData; albumHref: string }) {
  return (
    <li
      data-track-id={row.id}
      className="card grid gap-3 p-4 sm:p-5 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)_auto] lg:items-center lg:gap-6"
    >
      <div className="flex min-w-0 flex-col gap-1.5">
        <h2 className="text-base font-semibold break-words">{row.title}</h2>
        <p className="flex min-w-0 flex-wrap gap-x-1.5 text-sm text-muted">
          <span className="text-fg">{row.artist}</span>
          <span aria-hidden="true">·</span>
          <Link to={albumHref} className="min-w-0 break-words underline decoration-border underline-offset-4 hover:text-fg hover:decoration-current">
            <span className="sr-only">Album: </span>
            {row.album}
          </Link>
        </p>
        <dl className="flex flex-wrap gap-1.5 text-xs text-muted tabular-nums" data-track-facts="">
          <AnalysisFacts track={row} />
          {row.genre ? <TrackFact term="Genre">{row.genre}</TrackFact> : null}
          {row.seconds === undefined ? <TrackFact term="Analysis">Not analysed yet</TrackFact> : null}
        </dl>
        {row.why ? (
          <p className="text-xs text-muted" data-why="">
            <span className="sr-only">Why it is listed: </span>
            {row.why}
          </p>
        ) : null}
      </div>
      {row.audioUrl ? (
        <AudioPreview src={row.audioUrl} track={`${row.title} by ${row.artist}`} peaks={row.peaks} />
      ) : (
        <p className="text-sm text-muted">Audio preview not available</p>
      )}
      <div className="flex flex-wrap items-center gap-2 lg:justify-end">
        <Link to={licensingHref(row.title, row.artist, row.album)} className="btn-primary min-h-10 px-4 py-0 text-sm">
          <FileText className="size-4" aria-hidden="true" />
          License this track
          <span className="sr-only">: {row.title}</span>
        </Link>
        <ShortlistButton entry={shortlistEntry(row)} compact />
        <MoreLikeThis trackId={row.id} title={row.title} />
      </div>
    </li>
  );
}

/** The track view's rows, 12 a page (TRACKS_PER_PAGE), as the album grid. */
export function TrackList({ rows, albumHref, dimmed }: { rows: TrackRowData[]; albumHref: (row: TrackRowData) => string; dimmed: boolean }) {
  return (
    <ul data-testid="track-list" className={`flex flex-col gap-3 transition-opacity ${dimmed ? "opacity-40" : ""}`}>
      {rows.map((row) => (
        <TrackRow key={row.id} row={row} albumHref={albumHref(row)} />
      ))}
    </ul>
  );
}
