// A process that stores analysis results on DATABASE_URL as the analysis stage does (reconcile,
// claim, finishDone with its own Date.now()), one per line read on stdin ("<key>"), answering
// "stored <key> <its clock>" once the result is committed. Run under libfaketime by
// tests/integration/analysis-result-order.test.ts (issue #42, ADR 0151): a writer whose clock is
// five minutes behind the readers'.
import readline from "node:readline";
import { ANALYZER_VERSION } from "../../app/.server/analysis/analyze.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";

const store = await openAnalysisStore({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR ?? "/nonexistent" }, { max: 1 });
process.stdout.write(`ready ${Date.now()}\n`);
for await (const line of readline.createInterface({ input: process.stdin })) {
  const key = line.trim();
  if (!key) continue;
  const now = Date.now();
  await store.reconcile([{ key, identity: `${key}-1` }], now);
  const [claim] = await store.claim({ owner: `skewed-${key}`, now, leaseMs: 60_000, limit: 1 });
  if (claim?.key !== key) throw new Error(`claimed ${claim?.key} for ${key}`);
  const analysis = { durationSeconds: 180, bpm: 100 + (Number(key.replace(/\D/g, "")) % 50), bpmConfidence: 0.9, key: "A minor", keyConfidence: 0.8, loudnessLufs: -14, previewPeaks: [0.5], overviewPeaks: [0.5], analyzerVersion: ANALYZER_VERSION };
  await store.finishDone(key, `skewed-${key}`, claim.identity, analysis, now);
  process.stdout.write(`stored ${key} ${now}\n`);
}
await store.close();
