import type { TrackAnalysis } from "../analyze.ts";

/**
 * What the rest of the site reads of the analysis stage (issue #9, ADR 0091):
 * finished results by audio key, and a version that moves when new ones land.
 */
export interface AnalysisLookup {
  /** results for these audio keys (a track's s3Path); keys without a finished analysis are absent */
  lookup(keys: readonly string[]): Promise<Map<string, TrackAnalysis>>;
  /** moves when new results are stored (at most about once every 5 s), so page caches can drop pages that showed older ones */
  readonly version: number;
}
