import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { analyzeAudio, ANALYZER_VERSION } from "../app/.server/analysis/analyze.ts";
import { writeSampleAudio } from "../app/.server/catalog/sample/audio.ts";
import { clipKey } from "../app/.server/catalog/sample/generate.ts";
import { SAMPLE_ANALYSIS_FILE, sha256, type ShippedSampleAnalysis } from "../app/.server/catalog/sample/sample-analysis.ts";
import { SAMPLE_TRACKS } from "../app/.server/catalog/sample/tracks.ts";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * `npm run sample:analysis`: writes app/.server/catalog/sample/sample-analysis.json again —
 * the sample pieces' analysis, shipped so a newcomer sees tempo, key and "More like this" at
 * once (issue #19). Run it after a change to the sample synthesis (families.ts, tracks.ts) or
 * to the analysis (ANALYZER_VERSION); tracks.test.ts fails until it is. The pieces are
 * encoded afresh into a temporary folder (never from the cache, which could be stale) and
 * analysed one after the other, as the analysis stage would.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sample-analysis-"));
process.env.SAMPLE_AUDIO_CACHE = "off";
try {
  const started = Date.now();
  await writeSampleAudio(dir, { force: true });
  const shipped: ShippedSampleAnalysis = { analyzerVersion: ANALYZER_VERSION, pieces: {} };
  for (const [i] of SAMPLE_TRACKS.entries()) {
    const key = clipKey(i + 1);
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, key)));
    shipped.pieces[key] = { sha256: sha256(bytes), bytes: bytes.length, analysis: await analyzeAudio(bytes) };
  }
  const file = path.join(import.meta.dirname, "..", SAMPLE_ANALYSIS_FILE);
  fs.writeFileSync(file, `${JSON.stringify(shipped)}\n`);
  console.log(`${SAMPLE_TRACKS.length} pieces analysed (analyzer version ${ANALYZER_VERSION}) in ${Math.round((Date.now() - started) / 1000)} s: ${SAMPLE_ANALYSIS_FILE}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
