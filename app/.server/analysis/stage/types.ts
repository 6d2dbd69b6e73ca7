import type { TrackAnalysis } from "../analyze.ts";

/**
 * What the rest of the site reads of the analysis stage (issue #9, ADR 0091):
 * finished results by audio key, and a version that moves when new ones land.
 */
export interface AnalysisLookup {
  /** results for these audio keys (a track's s3Path); keys without a finished analysis are absent */
  lookup(keys: readonly string[]): Promise<Map<string, TrackAnalysis>>;
  /** moves when new results are stored (looked at about every 2 s: lookup.ts), so page caches can drop pages that showed older ones */
  readonly version: number;
  /**
   * The results' marker as last looked at (the last result number, ADR 0151): the same on every
   * machine of a cluster, unlike `version`, which counts this process's sightings of a change.
   * The shared cache's validators name it (server/shared-cache.ts, ADR 0157 amended). Absent in
   * test fakes: `version` stands in.
   */
  readonly marker?: string;
  /**
   * The figures the track view filters on (issue #10), for every result stored or withdrawn
   * after `cursor` (null: from the first), oldest first, at most `limit` rows; `next` is the
   * cursor of the last row (null when there were none). Bulk reads for the track index
   * (app/.server/catalog/tracks/), never per page.
   */
  figuresAfter(cursor: FiguresCursor | null, limit: number): Promise<{ rows: AnalysisFigures[]; next: FiguresCursor | null }>;
  /**
   * The stored passages (segments.ts, base64) of these keys' results; keys without are absent.
   * The index build asks only for the rows of figuresAfter that have passages but no codes of
   * this codebook (an analysis before version 8, or a refit; ADR 0134), at most
   * SEGMENTS_BATCH keys at a time. A lookup without it (a test's) returns the passages inline.
   */
  segmentsOf?(keys: readonly string[]): Promise<Map<string, string>>;
}

/** A track analysis's figures, by audio key; `seconds` null when the result was withdrawn (other audio under the key). */
export interface AnalysisFigures {
  key: string;
  seconds: number | null;
  bpm: number | null;
  musicalKey: string | null;
  /** how it sounds (fingerprint.ts, issue #19): absent before analyzer version 3, or for silence */
  fingerprint?: string;
  /**
   * its passages (segments.ts, base64), for the reference first stage's codes (issue #29, ADR
   * 0129) when a source returns them inline; the analysis store does not (~1 KB a track read
   * for nothing once the codes are stored, ADR 0134): it sets `hasSegments` and answers
   * `segmentsOf` for the rows whose codes cannot be used
   */
  segments?: string;
  /** the result has passages (absent before version 5, or for silence), not returned here (ADR 0134) */
  hasSegments?: boolean;
  /** its passages' codes as the analysis stored them (passage-codes.ts, ADR 0130): absent before version 8 */
  passageCodes?: string;
}

/**
 * Where a bulk read of figures stopped: the last row's result number, assigned by the database
 * when the result was stored (issue #42, ADR 0151; never the writer's clock).
 */
export interface FiguresCursor {
  seq: number;
}
