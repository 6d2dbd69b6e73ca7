// `npm run analyze -- FILE...` (issue #20, DESIGN §3c): analyses local audio files with the
// site's own engine (app/.server/analysis, ADRs 0090 and 0105) and prints one JSON object per
// line and file, in the order given: `file`, `durationSeconds`, `bpm` (null without a steady
// beat), `bpmConfidence`, `key` ("C major", "A minor", … or null), `keyConfidence`,
// `loudnessLufs` (null for digital silence) — or `file` and `error` (the reason and what went
// wrong). Exit 0 when every file was read and analysed, 1 otherwise, 2 without files. What
// an operator uses to check one file, and what outside tools use to evaluate the analyzer.
// No catalog, no store: ANALYSIS_CONCURRENCY worker threads, the engine's bounds.
import path from "node:path";
import { createFileAnalysis, loadConfig } from "../app/.server/services.ts";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const files = process.argv.slice(2).filter((a) => a !== "--");
if (files.length === 0) {
  console.error("usage: npm run analyze -- FILE...");
  process.exit(2);
}
const config = loadConfig();
const pool = createFileAnalysis(config);
let failed = 0;
// at most ANALYSIS_CONCURRENCY files in flight, printed in the order given
const width = config.ANALYSIS_CONCURRENCY;
for (let at = 0; at < files.length; at += width) {
  const batch = files.slice(at, at + width);
  const results = await Promise.allSettled(batch.map((file) => pool.analyze(path.resolve(file))));
  for (const [i, r] of results.entries()) {
    const file = batch[i];
    if (r.status === "fulfilled") {
      const a = r.value;
      const line = { file, durationSeconds: a.durationSeconds, bpm: a.bpm, bpmConfidence: a.bpmConfidence, key: a.key, keyConfidence: a.keyConfidence, loudnessLufs: a.loudnessLufs };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    } else {
      failed++;
      const e = r.reason as Error & { reason?: string };
      process.stdout.write(`${JSON.stringify({ file, error: e.reason ? `${e.reason}: ${e.message}` : e.message })}\n`);
    }
  }
}
await pool.close();
process.exit(failed === 0 ? 0 : 1);
