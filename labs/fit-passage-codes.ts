import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { loadReal } from "../benchmarks/lib/bench-real.ts";
import { SEGMENTS_VERSION, segmentWindows, WINDOW_BYTES } from "../app/.server/analysis/segments.ts";
import { HALF, HALF_CODES, RESIDUAL_CODES, RESIDUAL_PART, RESIDUAL_PARTS } from "../app/.server/analysis/passage-codes.ts";
import { ANALYZER_VERSION } from "../app/.server/analysis/analyze.ts";
import { createPrng } from "../app/.server/catalog/sample/prng.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * `npm run fit:passage-codes` (issue #29, ADR 0129): the passage codebook of
 * app/.server/analysis/passage-codes.ts, fitted on the passage windows of the real corpus's
 * TUNING groups only (the held-out groups are dropped first): each value's spread, then k-means
 * (k-means++ seeding from a fixed seed, Lloyd's iterations) on each half (band means, band
 * spreads) with HALF_CODES centroids, then on the residuals, in RESIDUAL_PARTS parts, with RESIDUAL_CODES each (ADR 0130). Deterministic:
 * the same corpus gives the same file. Writes app/.server/analysis/passage-codebook.json with
 * its provenance.
 */
const out = path.join(import.meta.dirname, "..", "app", ".server", "analysis", "passage-codebook.json");
const data = await loadReal((line) => console.error(line));
if (typeof data === "string") {
  console.error(data);
  process.exit(1);
}
const rows: Float64Array[] = [];
const groups = new Set<string>();
data.tracks.forEach((t, i) => {
  if (t.part !== "tuning") return;
  const w = segmentWindows(data.full[i].segments);
  if (!w) return;
  groups.add(t.group);
  for (let at = 0; at < w.length; at += WINDOW_BYTES) rows.push(Float64Array.from(w.subarray(at, at + WINDOW_BYTES)));
});
const n = rows.length;
const inverseScales = new Float64Array(WINDOW_BYTES);
for (let i = 0; i < WINDOW_BYTES; i++) {
  let s = 0;
  let q = 0;
  for (const r of rows) {
    s += r[i];
    q += r[i] * r[i];
  }
  inverseScales[i] = 1 / Math.max(1, Math.sqrt(Math.max(0, q / n - (s / n) ** 2)));
}
const x = rows.map((r) => r.map((v, i) => v * inverseScales[i]));

function kmeans(points: Float64Array[], k: number, seed: number, iterations = 30): { centroids: Float64Array; assign: Int32Array } {
  const d = points[0].length;
  const rng = createPrng(seed);
  const centroids = new Float64Array(k * d);
  const dist2 = (p: Float64Array, c: number) => {
    let s = 0;
    for (let i = 0; i < d; i++) s += (p[i] - centroids[c * d + i]) ** 2;
    return s;
  };
  // k-means++ seeding (Arthur and Vassilvitskii 2007)
  centroids.set(points[Math.floor(rng.next() * points.length)], 0);
  const near = new Float64Array(points.length).fill(Infinity);
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let p = 0; p < points.length; p++) total += near[p] = Math.min(near[p], dist2(points[p], c - 1));
    let r = rng.next() * total;
    let pick = points.length - 1;
    for (let p = 0; p < points.length; p++) {
      r -= near[p];
      if (r <= 0) {
        pick = p;
        break;
      }
    }
    centroids.set(points[pick], c * d);
  }
  const assign = new Int32Array(points.length);
  for (let it = 0; it < iterations; it++) {
    for (let p = 0; p < points.length; p++) {
      let best = 0;
      let bd = Infinity;
      for (let c = 0; c < k; c++) {
        const v = dist2(points[p], c);
        if (v < bd) {
          bd = v;
          best = c;
        }
      }
      assign[p] = best;
    }
    const sum = new Float64Array(k * d);
    const count = new Int32Array(k);
    points.forEach((p, i) => {
      count[assign[i]]++;
      for (let j = 0; j < d; j++) sum[assign[i] * d + j] += p[j];
    });
    for (let c = 0; c < k; c++) if (count[c] > 0) for (let j = 0; j < d; j++) centroids[c * d + j] = sum[c * d + j] / count[c];
  }
  return { centroids, assign };
}

const means = x.map((r) => r.subarray(0, HALF));
const spreads = x.map((r) => r.subarray(HALF));
const m = kmeans(means, HALF_CODES, 129);
const s = kmeans(spreads, HALF_CODES, 1290);
// the residual to each window's cell, cut in RESIDUAL_PARTS parts, each fitted alone (ADR 0130)
const residuals = x.map((r, i) => Float64Array.from(r, (v, j) => v - (j < HALF ? m.centroids[m.assign[i] * HALF + j] : s.centroids[s.assign[i] * HALF + j - HALF])));
const parts = Array.from({ length: RESIDUAL_PARTS }, (_, p) => kmeans(residuals.map((r) => r.subarray(p * RESIDUAL_PART, (p + 1) * RESIDUAL_PART)), RESIDUAL_CODES, 13000 + p).centroids);
const residualCentroids = new Float64Array(RESIDUAL_PARTS * RESIDUAL_CODES * RESIDUAL_PART);
parts.forEach((c, p) => residualCentroids.set(c, p * RESIDUAL_CODES * RESIDUAL_PART));
const round = (a: Float64Array) => Array.from(a, (v) => Math.round(v * 1e5) / 1e5);
let commit = "";
try {
  commit = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
} catch {
  // not a git checkout: the provenance has no commit
}
fs.writeFileSync(
  out,
  JSON.stringify({
    version: 1,
    provenance: {
      script: "labs/fit-passage-codes.ts (npm run fit:passage-codes)",
      fittedOn: `passage windows of the real corpus's tuning groups only (${n} windows of ${[...groups].length} groups: ${[...groups].sort().join(", ")}), anchors of segments v${SEGMENTS_VERSION} (bench cache of analyser v${ANALYZER_VERSION})`,
      method: `k-means++ (fixed seeds) + 30 Lloyd iterations, ${HALF_CODES} centroids per half (ADR 0129); the residual in ${RESIDUAL_PARTS} parts of ${RESIDUAL_PART} values, ${RESIDUAL_CODES} centroids each (ADR 0130)`,
      commit,
      date: new Date().toISOString().slice(0, 10),
    },
    inverseScales: round(inverseScales),
    means: round(m.centroids),
    spreads: round(s.centroids),
    residuals: round(residualCentroids),
  }) + "\n",
);
console.error(`wrote ${out}: ${n} windows`);
