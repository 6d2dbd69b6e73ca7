import type { ReactNode } from "react";
import { formatDuration, isoDuration } from "~/lib/catalog/format";

/**
 * One fact of a track's row (album sheet and page, track view): a small box, its term for screen
 * readers. The term and its value sit straight in the `dl` (no wrapping div: ADR 0121, a track
 * row's elements); the `dl` carries data-track-facts, whose terms app.css hides but for screen
 * readers and whose values it boxes.
 */
export function TrackFact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/**
 * What the analysis measured of a track (issue #9): the length as m:ss, the tempo as "N BPM"
 * when it has a beat, the key. Nothing of what is absent (a track not analysed yet).
 */
export function AnalysisFacts({ track }: { track: { seconds?: number; bpm?: number; key?: string } }) {
  return (
    <>
      {track.seconds !== undefined ? (
        <TrackFact term="Length">
          <time dateTime={isoDuration(track.seconds)}>{formatDuration(track.seconds)}</time>
        </TrackFact>
      ) : null}
      {track.bpm ? <TrackFact term="Tempo">{`${track.bpm} BPM`}</TrackFact> : null}
      {track.key ? <TrackFact term="Key">{track.key}</TrackFact> : null}
    </>
  );
}
