import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { ANALYZER_VERSION } from "../app/.server/analysis/analyze.ts";
import { FEATURES_VERSION } from "./lib/block-features.ts";
import { ADR_0104_WEIGHTS, combined, FEATURE_SETS, fingerprintParts, loadFeatures, loadReal, PART_KEYS, type FeatureSet, type PartKey } from "./lib/bench-real.ts";
import { scoreRanking } from "./lib/real-music.ts";

/**
 * `npm run fit:similarity` (issue #29, ADR 0118): the learned step the company owns. Fits one
 * weight per feature set (the v1 fingerprint's distance and block-features.ts's sets, each
 * normalised as bench:similarity does) on the TUNING groups of the real corpus only — the
 * held-out groups are dropped before anything is computed — by coordinate ascent over a grid,
 * maximising the tuning part's P@10 + MAP@24; and, the same way, the v1 fingerprint's own part
 * weights (free, and with the tempo and key terms fixed); similarity.ts uses neither (ADR 0118). Writes scripts/lib/similarity-metric.json with
 * its provenance (packages, groups, commit, date, score). Rerun it anyone can: same corpus,
 * same rule, same result. Option: --out FILE.
 */
const { values: args } = parseArgs({ options: { out: { type: "string", default: path.join(import.meta.dirname, "lib", "similarity-metric.json") } } });

const data = await loadReal((line) => console.error(line));
if (typeof data === "string") {
  console.log(data);
  process.exit(0);
}
const features = loadFeatures(data, (line) => console.error(line));
const tuning = data.tracks.flatMap((t, i) => (t.part === "tuning" ? [i] : []));
const tracks = tuning.map((i) => data.tracks[i]);
type Key = FeatureSet | "fingerprint";
const KEYS: Key[] = ["fingerprint", ...FEATURE_SETS];
// each set's normalised distance over the tuning pool, once
const parts = new Map<Key, (a: number, b: number) => number>();
for (const k of KEYS) parts.set(k, combined(k, features, { [k]: 1 }).distance(data, tuning));
const score = (w: Record<Key, number>) => {
  const all = scoreRanking(tracks, (a, b) => {
    let s = 0;
    for (const k of KEYS) if (w[k]) s += w[k] * parts.get(k)!(a, b);
    return s;
  }).get("all")!;
  return { value: all.p10 + all.map24, p10: all.p10, map24: all.map24 };
};
const GRID = [0, 0.25, 0.5, 1, 1.5, 2, 3];
const weights = Object.fromEntries(KEYS.map((k) => [k, 1])) as Record<Key, number>;
let best = score(weights);
for (let round = 0; round < 3; round++) {
  let moved = false;
  for (const k of KEYS) {
    for (const g of GRID) {
      if (g === weights[k]) continue;
      const trial = { ...weights, [k]: g };
      if (KEYS.every((x) => !trial[x])) continue;
      const s = score(trial);
      if (s.value > best.value + 1e-9) {
        best = s;
        weights[k] = g;
        moved = true;
      }
    }
  }
  console.error(`round ${round + 1}: ${JSON.stringify(weights)} P@10 ${best.p10.toFixed(3)} MAP@24 ${best.map24.toFixed(3)}`);
  if (!moved) break;
}
/**
 * The v1 fingerprint's own part weights (similarity.ts's WEIGHTS), the same way, from ADR 0104's
 * (so a rerun starts where this one did): free, and with the tempo and key terms fixed at ADR
 * 0104's 0.15 and 0.1 and the four parts sharing the other 0.75 — the like= scan stops early on
 * those terms (ADR 0116), and the free fit's (tempo 0.065, key 0) slowed a first ask at 2.5
 * million tracks from p95 45 ms to 711 ms (ADR 0118).
 */
const PART_GRID = [0, 0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.75];
function fitParts(fixed: Partial<Record<PartKey, number>>) {
  const free = PART_KEYS.filter((k) => fixed[k] === undefined);
  const share = 1 - Object.values(fixed).reduce((a, b) => a + b, 0);
  const normalised = (w: Record<PartKey, number>): Record<PartKey, number> => {
    const sum = free.reduce((s, k) => s + w[k], 0) || 1;
    return Object.fromEntries(PART_KEYS.map((k) => [k, Number((fixed[k] ?? (w[k] / sum) * share).toFixed(4))])) as Record<PartKey, number>;
  };
  const partScore = (raw: Record<PartKey, number>) => {
    const w = normalised(raw);
    const all = scoreRanking(tracks, (a, b) => {
      const r = fp(a, b);
      let s = 0;
      for (const k of PART_KEYS) s += w[k] * r[k];
      return s;
    }).get("all")!;
    return { value: all.p10 + all.map24, p10: all.p10, map24: all.map24 };
  };
  const raw = { ...ADR_0104_WEIGHTS } as Record<PartKey, number>;
  let partBest = partScore(raw);
  for (let round = 0; round < 3; round++) {
    let moved = false;
    for (const k of free) {
      for (const g of PART_GRID) {
        if (g === raw[k]) continue;
        const trial = { ...raw, [k]: g };
        if (free.every((x) => !trial[x])) continue;
        const s = partScore(trial);
        if (s.value > partBest.value + 1e-9) {
          partBest = s;
          raw[k] = g;
          moved = true;
        }
      }
    }
    console.error(`parts round ${round + 1}: ${JSON.stringify(normalised(raw))} P@10 ${partBest.p10.toFixed(3)} MAP@24 ${partBest.map24.toFixed(3)}`);
    if (!moved) break;
  }
  return { grid: PART_GRID, fixed, tuningScore: { p10: Number(partBest.p10.toFixed(3)), map24: Number(partBest.map24.toFixed(3)) }, weights: normalised(raw) };
}
const fp = fingerprintParts(data, tuning);
const freeFit = fitParts({});
const fixedFit = fitParts({ tempo: ADR_0104_WEIGHTS.tempo, key: ADR_0104_WEIGHTS.key });

let commit = "unknown";
try {
  commit = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
} catch {
  // not a git checkout: the provenance says so
}
const out = {
  what: "per-feature-set weights of the real-music similarity (ADR 0118), fitted by scripts/fit-similarity.ts",
  fittedOn: { part: "tuning", groups: [...new Set(tracks.map((t) => t.group))].sort(), tracks: tracks.length, packages: [...new Set(tracks.map((t) => t.file.split("/x/")[1]?.split("/")[0]))].sort() },
  analyzerVersion: ANALYZER_VERSION,
  featuresVersion: FEATURES_VERSION,
  method: "coordinate ascent over the grid " + JSON.stringify(GRID) + ", 3 rounds at most, maximising tuning P@10 + MAP@24",
  commit,
  date: new Date().toISOString().slice(0, 10),
  tuningScore: { p10: Number(best.p10.toFixed(3)), map24: Number(best.map24.toFixed(3)) },
  weights,
  fingerprintPartWeights: freeFit,
  fingerprintPartWeightsTempoKeyFixed: fixedFit,
};
fs.writeFileSync(args.out, JSON.stringify(out, null, 2) + "\n");
console.log(JSON.stringify(out, null, 2));
