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
  // The row's look is CSS (.track-row and its parts, app.css) and its icons are ::before masks:
  // a row ~2.5 KB and ~25 elements instead of 6 KB and 58 (issue #32, ADR 0121).
  return (
    <li data-track-id={row.id} className="card track-row">
      <div>
        <h2>{row.title}</h2>
        <p className="track-by">
          {row.artist}
          <Link to={albumHref} aria-label={`Album: ${row.album}`}>
            {row.album}
          </Link>
        </p>
        <dl className="track-facts" data-track-facts="">
          <AnalysisFacts track={row} />
          {row.genre ? <TrackFact term="Genre">{row.genre}</TrackFact> : null}
          {row.seconds === undefined ? <TrackFact term="Analysis">Not analysed yet</TrackFact> : null}
        </dl>
        {row.why ? (
          <p data-why="">
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
      <div className="track-actions">
        <Link to={licensingHref(row.title, row.artist, row.album)} aria-label={`License this track: ${row.title}`} className="btn-primary track-license">
          License this track
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
