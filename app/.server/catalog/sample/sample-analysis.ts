import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ANALYZER_VERSION, type TrackAnalysis } from "../../analysis/analyze.ts";
import { fileIdentity } from "../../analysis/stage/source.ts";
import type { AnalysisStore, SeededResult } from "../../analysis/stage/store.ts";
import { clipKey } from "./generate.ts";
import { SAMPLE_TRACKS } from "./tracks.ts";
import { sourceWorkerFile } from "../../worker-file.ts";

/**
 * The sample audio's analysis, shipped with the project (issue #19 "A newcomer sees the
 * figures at once"): the sample pieces are the same bytes on every machine (seeded synthesis,
 * fixed encoder settings), so their results — tempo, key, length, loudness, waveform and
 * fingerprint — are committed in sample-analysis.json, keyed by ANALYZER_VERSION and each
 * file's SHA-256 and size. At start the server stores them before the analysis stage walks
 * the catalog, so the track view shows tempo, key and "More like this" from its first pages
 * instead of after a minute and a half of analysis (or again after every new analyzer).
 *
 * A result is stored only when it is of the running ANALYZER_VERSION and the file, when it is
 * there, has the hash it was made from; otherwise the stage analyses the file as any other.
 * A file not written yet gets the identity it will have: its size and SAMPLE_AUDIO_MTIME,
 * which the writer gives every sample piece (audio-worker.ts, audio.ts).
 *
 * `npm run sample:analysis` writes the file again (after a change to the synthesis or to the
 * analysis); tracks.test.ts fails while it is stale.
 */

/**
 * The file, found from this module's folder upwards: app/.server/catalog/sample/ from source,
 * build/server/ in the server bundle (the project's app/ sits beside build/, as for the workers).
 */
export const SAMPLE_ANALYSIS_FILE = path.join("app", ".server", "catalog", "sample", "sample-analysis.json");
const shippedFile = () => sourceWorkerFile(SAMPLE_ANALYSIS_FILE, import.meta.dirname);

/** Every sample piece's modification time (2026-01-01): part of its identity, known before the file is written. */
export const SAMPLE_AUDIO_MTIME = new Date("2026-01-01T00:00:00Z");

export interface ShippedSampleAnalysis {
  analyzerVersion: number;
  /** by clip key: the file's SHA-256 and size, and its analysis */
  pieces: Record<string, { sha256: string; bytes: number; analysis: TrackAnalysis }>;
}

export const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

export function readShippedSampleAnalysis(): ShippedSampleAnalysis | null {
  try {
    return JSON.parse(fs.readFileSync(shippedFile(), "utf8")) as ShippedSampleAnalysis;
  } catch {
    return null;
  }
}

/**
 * The shipped results that apply to `mediaDir` now: of this analyzer version, for files that
 * are absent (with the identity they will have) or whose bytes hash as shipped.
 */
export function applicableSampleResults(mediaDir: string, shipped = readShippedSampleAnalysis()): SeededResult[] {
  if (!shipped || shipped.analyzerVersion !== ANALYZER_VERSION) return [];
  const out: SeededResult[] = [];
  SAMPLE_TRACKS.forEach((_, i) => {
    const key = clipKey(i + 1);
    const piece = shipped.pieces[key];
    if (!piece || piece.analysis.analyzerVersion !== ANALYZER_VERSION) return;
    const file = path.join(mediaDir, key);
    let identity: string;
    try {
      const stat = fs.statSync(file);
      if (stat.size !== piece.bytes || sha256(fs.readFileSync(file)) !== piece.sha256) return;
      identity = fileIdentity(stat);
    } catch {
      identity = fileIdentity({ size: piece.bytes, mtimeMs: SAMPLE_AUDIO_MTIME.getTime() });
    }
    out.push({ key, identity, analysis: piece.analysis });
  });
  return out;
}

/** Stores the shipped results that apply (applicableSampleResults); resolves to how many were stored. */
export async function seedSampleAnalysis(store: AnalysisStore, mediaDir: string, now = Date.now()): Promise<number> {
  const results = applicableSampleResults(mediaDir);
  return results.length ? store.seed(results, now) : 0;
}
