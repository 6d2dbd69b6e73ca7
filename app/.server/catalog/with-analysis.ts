import type { TrackAnalysis } from "../analysis/analyze.ts";
import type { TrackData } from "../../lib/catalog/cards.ts";
import { quantizePeaks } from "../../lib/catalog/waveform.ts";

/**
 * How long an album sheet or a page of track rows waits for its tracks' analysis results (a read
 * from SQLite or PostgreSQL); past it the page is sent without them and not cached (issue #9: a
 * page never waits on the analysis).
 */
export const ANALYSIS_WAIT_MS = 500;

/** What a track row shows of its analysis (cards.ts TrackData): whole seconds and BPM, the key, the preview's bars. */
export function withAnalysis(track: TrackData, result: TrackAnalysis | undefined): TrackData {
  if (!result) return track;
  return {
    ...track,
    seconds: Math.round(result.durationSeconds),
    ...(result.bpm !== null ? { bpm: Math.round(result.bpm) } : {}),
    ...(result.key ? { key: result.key } : {}),
    ...(result.previewPeaks.length ? { peaks: quantizePeaks(result.previewPeaks) } : {}),
  };
}
