import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { decodePassageCodes, decodeWindow, encodePassageCodes, passageCodebook, scaled } from "../app/.server/analysis/passage-codes.ts";
import { referenceAnchors, segmentDistance, segmentWindows, windowScales, WINDOW_BYTES } from "../app/.server/analysis/segments.ts";
import { buildPassageIndex, MAX_TRACK_PASSAGES, PASSAGE_CANDIDATES, passageCandidates, passageCodesOf } from "../app/.server/catalog/tracks/passage-index.ts";
import { reorderBySegments } from "../app/.server/catalog/tracks/passage-reorder.ts";
import { realMixPassages } from "../benchmarks/lib/bench-reference.ts";
import type { RealData } from "../benchmarks/lib/bench-real.ts";
import { cacheDir, realCandidates, realCorpus } from "../benchmarks/lib/real-music.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * A lab for the reference first stage at scale (issue #29, ADR 0134), not the site: where an
 * excerpt's source is lost among real-mix distractors, over the distractors' codes that
 * `bench:similarity -- --stored-codes` cached (SIMILARITY_BENCH_CACHE,
 * passage-codes-<codebook>-<albums>.tsv) and the real corpus's analyses cached there. For each
 * of the corpus's excerpts: the source's place by the passage codes (passageCandidates, the
 * site's budget), and after an exact re-rank (segments.ts segmentDistance, the site's second
 * stage, and the variants below) of the first K by the codes. Measures; asserts nothing.
 */
const { values: args } = parseArgs({ options: { albums: { type: "string", default: "25000" }, ks: { type: "string", default: "480,1200,4800" }, variants: { type: "string", default: "site,L2,between" }, stage: { type: "string", default: "0" }, reorder: { type: "string", default: "" } } });
const albums = Number(args.albums);
const ks = args.ks.split(",").map(Number);
const maxK = Math.max(...ks);
/** the first stage's limit (ADR 0137: how many the codes hold further down, and an in-memory re-order of them) */
const stageK = Math.max(maxK, Number(args.stage));
const reorders = args.reorder ? args.reorder.split(",") : [];

// the real corpus as the bench cached it (only the tracks with both analyses: ADR 0130's 256), in the corpus's order
const cache = JSON.parse(fs.readFileSync(path.join(cacheDir(), "analysis-v8-f1-s1.json"), "utf8")) as Record<string, { seconds?: number; full?: RealData["full"][number]; excerpt?: RealData["excerpt"][number] }>;
const candidates = realCandidates(() => undefined);
if (typeof candidates === "string") throw new Error(candidates);
const rel = (file: string) => path.relative(cacheDir(), file);
const corpus = realCorpus(candidates.filter((c) => cache[rel(c.file)]?.seconds).map((c) => ({ ...c, seconds: cache[rel(c.file)].seconds! }))).filter((t) => cache[rel(t.file)]?.full && cache[rel(t.file)]?.excerpt);
const data: RealData = { tracks: corpus, full: corpus.map((t) => cache[rel(t.file)].full!), excerpt: corpus.map((t) => cache[rel(t.file)].excerpt!) };
const passages = realMixPassages(data);

// the distractors' cached codes (made from realMixPassages over this corpus: checked on a few)
const tsv = fs.readFileSync(path.join(cacheDir(), `passage-codes-1888cf89-${albums}.tsv`), "utf8");
const keys: string[] = [];
const stored: string[] = [];
for (const line of tsv.split("\n")) {
  const tab = line.indexOf("\t");
  if (tab <= 0) continue;
  keys.push(line.slice(0, tab));
  stored.push(line.slice(tab + 1));
}
for (const i of [0, 1, keys.length >> 1, keys.length - 1]) {
  if (encodePassageCodes(segmentWindows(passages(keys[i]))) !== stored[i]) throw new Error(`the cached codes of ${keys[i]} are not this corpus's mixtures (${data.full.length} real tracks)`);
}
const distractors = keys.length;
const n = distractors + data.full.length;
const codes = new Uint32Array(n * MAX_TRACK_PASSAGES);
const used = new Uint8Array(n);
const distinct = (all: Uint32Array) => {
  const out = [...new Set(all)];
  return out.length <= MAX_TRACK_PASSAGES ? out : Array.from({ length: MAX_TRACK_PASSAGES }, (_, i) => out[Math.round((i * (out.length - 1)) / (MAX_TRACK_PASSAGES - 1))]);
};
for (let t = 0; t < distractors; t++) {
  const c = distinct(decodePassageCodes(stored[t])!);
  codes.set(c, t * MAX_TRACK_PASSAGES);
  used[t] = c.length;
}
const realWindows = data.full.map((a) => segmentWindows(a.segments));
realWindows.forEach((w, i) => {
  if (!w) return;
  const c = passageCodesOf(w);
  codes.set(c, (distractors + i) * MAX_TRACK_PASSAGES);
  used[distractors + i] = c.length;
});
const index = buildPassageIndex(codes, used, n);
console.error(`${n.toLocaleString("en-US")} tracks (${data.full.length} real), ${index.postings.length.toLocaleString("en-US")} passages`);
const synthesised = new Map<number, Uint8Array | null>();
/** a track's windows (a distractor's made from its key, kept for the current excerpt: the variants ask the same ones) */
const windowsOf = (t: number): Uint8Array | null => {
  if (t >= distractors) return realWindows[t - distractors];
  let w = synthesised.get(t);
  if (w === undefined) synthesised.set(t, (w = segmentWindows(passages(keys[t]))));
  return w;
};

/** Re-rank variants: the distance of a reference (one or more windows) to a track's windows. */
type Variant = { name: string; distance: (ref: Uint8Array, track: Uint8Array, scales: Float64Array) => number };
const l2 = (ref: Uint8Array, track: Uint8Array, scales: Float64Array) => {
  let total = 0;
  let count = 0;
  for (let r = 0; r < ref.length; r += WINDOW_BYTES, count++) {
    let best = Infinity;
    for (let t = 0; t < track.length; t += WINDOW_BYTES) {
      let s = 0;
      for (let i = 0; i < WINDOW_BYTES && s < best; i++) s += ((ref[r + i] - track[t + i]) * scales[i]) ** 2;
      best = Math.min(best, s);
    }
    total += Math.sqrt(best);
  }
  return total / count;
};
/** The nearest point on the segment between consecutive windows (the excerpt lies between two stored windows, 10 s apart), L1, α in steps. */
const between = (steps: number) => (ref: Uint8Array, track: Uint8Array, scales: Float64Array) => {
  let total = 0;
  let count = 0;
  const nw = track.length / WINDOW_BYTES;
  for (let r = 0; r < ref.length; r += WINDOW_BYTES, count++) {
    let best = Infinity;
    for (let k = 0; k < nw; k++) {
      for (let sIx = 0; sIx <= (k + 1 < nw ? steps : 0); sIx++) {
        const a = sIx / steps;
        let s = 0;
        for (let i = 0; i < WINDOW_BYTES && s < best; i++) {
          const v = k + 1 < nw ? (1 - a) * track[k * WINDOW_BYTES + i] + a * track[(k + 1) * WINDOW_BYTES + i] : track[k * WINDOW_BYTES + i];
          s += Math.abs(ref[r + i] - v) * scales[i];
        }
        best = Math.min(best, s);
      }
    }
    total += best;
  }
  return total / count;
};
/**
 * ADR 0137: the blend of two consecutive windows as a mixture of their frames (a 20 s excerpt
 * at a offset a × 10 s past window k holds (1 − a)/2 of block k, block k + 1 and a/2 of block
 * k + 2: the mixture (1 − a) W_k + a W_k+1 exactly). The band means relative to the window's
 * level blend linearly; the spreads by their second moments: var = (1 − a) s_k² + a s_k+1² +
 * a (1 − a) (m_k − m_k+1)² (the levels' difference unknown: the relative means' used).
 * Bytes: means (v / 255 × 80 − 40 dB), spreads (v / 255 × 30 dB).
 */
const moments = (steps: number) => (ref: Uint8Array, track: Uint8Array, scales: Float64Array) => {
  let total = 0;
  let count = 0;
  const nw = track.length / WINDOW_BYTES;
  const B = WINDOW_BYTES / 2;
  for (let r = 0; r < ref.length; r += WINDOW_BYTES, count++) {
    let best = Infinity;
    for (let k = 0; k < nw; k++) {
      for (let sIx = 0; sIx <= (k + 1 < nw ? steps - 1 : 0); sIx++) {
        const a = sIx / steps;
        let s = 0;
        const p = k * WINDOW_BYTES;
        const q = (k + 1) * WINDOW_BYTES;
        for (let i = 0; i < WINDOW_BYTES && s < best; i++) {
          let v: number;
          if (a === 0) v = track[p + i];
          else if (i < B) v = (1 - a) * track[p + i] + a * track[q + i];
          else {
            const sk = (track[p + i] / 255) * 30;
            const sn = (track[q + i] / 255) * 30;
            const dm = ((track[p + i - B] - track[q + i - B]) / 255) * 80;
            v = (Math.sqrt((1 - a) * sk * sk + a * sn * sn + a * (1 - a) * dm * dm) / 30) * 255;
          }
          s += Math.abs(ref[r + i] - v) * scales[i];
        }
        best = Math.min(best, s);
      }
    }
    total += best;
  }
  return total / count;
};
const allVariants: (Variant & { id: string })[] = [
  { id: "site", name: "site before (L1, candidates' scales)", distance: segmentDistance },
  { id: "L2", name: "L2", distance: l2 },
  { id: "between", name: "L1 between windows (α/4)", distance: between(4) },
  { id: "between8", name: "L1 between windows (α/8)", distance: between(8) },
  { id: "moments", name: "L1 between windows by moments (α/4)", distance: moments(4) },
  { id: "moments8", name: "L1 between windows by moments (α/8)", distance: moments(8) },
];
const variants = allVariants.filter((v) => args.variants.split(",").includes(v.id));

/** A track's place by its codes decoded (cell and residual centroids), L1 or L2 in the codebook's scaled space. */
const book = passageCodebook();
const decoded = new Float64Array(WINDOW_BYTES);
const xq = new Float64Array(WINDOW_BYTES);
const decodedDistance = (ref: Uint8Array, t: number, l1: boolean) => {
  scaled(book, ref, 0, xq);
  let best = Infinity;
  for (let i = 0; i < used[t]; i++) {
    const c = codes[t * MAX_TRACK_PASSAGES + i];
    decodeWindow(book, c >>> 16, c & 0xffff, decoded);
    let s = 0;
    for (let j = 0; j < WINDOW_BYTES; j++) s += l1 ? Math.abs(xq[j] - decoded[j]) : (xq[j] - decoded[j]) ** 2;
    best = Math.min(best, s);
  }
  return best;
};
const reordered: Record<string, number[]> = { "decoded L2": [], "decoded L1": [] };
/**
 * ADR 0137: the squared distance of `x` to the nearest of `m` points laid out one after the other
 * in `points` (a track's windows, window order), or, with `segment`, to the nearest point of the
 * segments between consecutive ones (the blend of two windows).
 */
const nearestL2 = (x: Float64Array, points: Float64Array, m: number, segment: boolean) => {
  let best = Infinity;
  for (let i = 0; i < m; i++) {
    const a = i * WINDOW_BYTES;
    let s = 0;
    for (let j = 0; j < WINDOW_BYTES; j++) s += (x[j] - points[a + j]) ** 2;
    best = Math.min(best, s);
    if (!segment || i + 1 === m) continue;
    const b = a + WINDOW_BYTES;
    let num = 0;
    let den = 0;
    for (let j = 0; j < WINDOW_BYTES; j++) {
      const d = points[b + j] - points[a + j];
      num += (x[j] - points[a + j]) * d;
      den += d * d;
    }
    const f = den > 0 ? Math.min(1, Math.max(0, num / den)) : 0;
    s = 0;
    for (let j = 0; j < WINDOW_BYTES; j++) s += (x[j] - points[a + j] - f * (points[b + j] - points[a + j])) ** 2;
    best = Math.min(best, s);
  }
  return best;
};
/** A reference's distance to a track's points: nearestL2 summed over the reference's windows. */
const summedL2 = (ref: Uint8Array, points: Float64Array, m: number, segment: boolean) => {
  let total = 0;
  for (let r = 0; r < ref.length; r += WINDOW_BYTES) {
    scaled(book, ref, r, xq);
    total += nearestL2(xq, points, m, segment);
  }
  return total;
};
/**
 * ADR 0137: a track's place by its codes decoded (to the codes themselves, or the segments
 * between consecutive ones): the first stage's order with the blend of two windows.
 */
const dec = new Float64Array(MAX_TRACK_PASSAGES * WINDOW_BYTES);
const segmentDecoded = (ref: Uint8Array, t: number, segment: boolean) => {
  const m = used[t];
  for (let i = 0; i < m; i++) {
    const c = codes[t * MAX_TRACK_PASSAGES + i];
    decodeWindow(book, c >>> 16, c & 0xffff, decoded);
    dec.set(decoded, i * WINDOW_BYTES);
  }
  return summedL2(ref, dec, m, segment);
};
/** ADR 0137: an exact re-order (the windows themselves, what a code without error would give), L2 to the points or the segments. */
const exactOrder = (ref: Uint8Array, w: Uint8Array | null, segment: boolean) => {
  if (!w) return Infinity;
  const nw = w.length / WINDOW_BYTES;
  const points = new Float64Array(w.length);
  const y = new Float64Array(WINDOW_BYTES);
  for (let i = 0; i < nw; i++) {
    scaled(book, w, i * WINDOW_BYTES, y);
    points.set(y, i * WINDOW_BYTES);
  }
  return summedL2(ref, points, nw, segment);
};
const reorderedStage: Record<string, number[]> = Object.fromEntries(reorders.map((r) => [r, [] as number[]]));
const windowCounts = new Map<number, number>();
const reorderTimes: number[] = [];
const sitePlaces: number[] = [];

const excerpts = data.excerpt.map((e) => segmentWindows(referenceAnchors(e.segments)));
const byCode: number[] = [];
const exact: number[][][] = variants.map(() => ks.map(() => [] as number[]));
const started = performance.now();
const times: number[] = [];
for (let q = 0; q < excerpts.length; q++) {
  const ref = excerpts[q];
  const source = distractors + q;
  if (!ref) {
    byCode.push(-1);
    continue;
  }
  synthesised.clear();
  if (q % 32 === 0) console.error(`excerpt ${q} of ${excerpts.length}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const t0 = performance.now();
  const all = passageCandidates(index, ref, () => true, { limit: stageK, reorder: false });
  times.push(performance.now() - t0);
  windowCounts.set(ref.length / WINDOW_BYTES, (windowCounts.get(ref.length / WINDOW_BYTES) ?? 0) + 1);
  const stagePlace = all.tracks.indexOf(source);
  byCode.push(stagePlace);
  const t1 = performance.now();
  // the site's re-order (ADR 0137: reorderBySegments, the Gram tables) of the stage's list, timed
  const site = reorderBySegments(index, ref, all.tracks, PASSAGE_CANDIDATES);
  reorderTimes.push(performance.now() - t1);
  sitePlaces.push(site.indexOf(source));
  for (const r of reorders) {
    if (stagePlace < 0) {
      reorderedStage[r].push(-1);
      continue;
    }
    const d = [...all.tracks].map((t) => (r === "decoded-seg" ? segmentDecoded(ref, t, true) : r === "decoded-pt" ? segmentDecoded(ref, t, false) : exactOrder(ref, windowsOf(t), r === "exact-seg")));
    let before = 0;
    for (let i = 0; i < d.length; i++) if (d[i] < d[stagePlace] || (d[i] === d[stagePlace] && i < stagePlace)) before++;
    reorderedStage[r].push(before);
  }
  const found = { tracks: all.tracks.subarray(0, maxK) };
  const place = stagePlace < maxK ? stagePlace : -1;
  for (const l1 of [false, true]) {
    if (place < 0) {
      reordered[l1 ? "decoded L1" : "decoded L2"].push(-1);
      continue;
    }
    const d = [...found.tracks].map((t) => decodedDistance(ref, t, l1));
    let before = 0;
    for (let i = 0; i < d.length; i++) if (d[i] < d[place] || (d[i] === d[place] && i < place)) before++;
    reordered[l1 ? "decoded L1" : "decoded L2"].push(before);
  }
  for (const [ki, k] of ks.entries()) {
    const cands = found.tracks.subarray(0, k);
    if (place < 0 || place >= k) {
      variants.forEach((_, vi) => exact[vi][ki].push(-1));
      continue;
    }
    const sets = [...cands].map(windowsOf);
    const scales = windowScales(sets.filter((w): w is Uint8Array => w !== null));
    variants.forEach((v, vi) => {
      const d = sets.map((w) => (w ? v.distance(ref, w, scales) : Infinity));
      const own = d[place];
      let before = 0;
      for (let i = 0; i < d.length; i++) if (d[i] < own || (d[i] === own && i < place)) before++;
      exact[vi][ki].push(before);
    });
  }
}
const m = excerpts.length;
const share = (xs: number[], under: number) => `${xs.filter((x) => x >= 0 && x < under).length}`;
console.log(`${albums} albums: ${n.toLocaleString("en-US")} tracks, ${m} excerpts; ${((performance.now() - started) / 1000).toFixed(0)} s; stage p50 ${times.sort((a, b) => a - b)[times.length >> 1].toFixed(1)} ms`);
console.log(`reference windows an excerpt: ${[...windowCounts].map(([w, c]) => `${w}: ${c}`).join(", ")}`);
const stageKs = [...new Set([...ks, 2400, 4800, 10000, 20000, stageK])].filter((k) => k <= stageK).sort((a, b) => a - b);
console.log(`by the codes: source in the first 1 / 10 / 120 / ${stageKs.join(" / ")}: ${share(byCode, 1)} / ${share(byCode, 10)} / ${share(byCode, 120)} / ${stageKs.map((k) => share(byCode, k)).join(" / ")} of ${m}`);
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))].toFixed(1);
console.log(`the site's re-order (reorderBySegments) of the first ${stageK}: ${pct(reorderTimes, 0.5)} / ${pct(reorderTimes, 0.95)} ms p50 / p95; source in its first 1 / 10 / 120 / 480 / 1200 / 2400: ${[1, 10, 120, 480, 1200, 2400].map((k) => share(sitePlaces, k)).join(" / ")}`);
for (const [name, xs] of Object.entries(reorderedStage)) console.log(`the first ${stageK} by the codes re-ordered by ${name}: source in the first 1 / 10 / 120 / 480 / 1200 / 2400 / 4800: ${[1, 10, 120, 480, 1200, 2400, 4800].map((k) => share(xs, k)).join(" / ")}`);
for (const [name, xs] of Object.entries(reordered)) console.log(`the first ${maxK} by the codes re-ordered by their ${name} distance (every code of the track): source in the first 1 / 10 / 120 / ${ks.join(" / ")}: ${share(xs, 1)} / ${share(xs, 10)} / ${share(xs, 120)} / ${ks.map((k) => share(xs, k)).join(" / ")}`);
for (const [vi, v] of variants.entries()) {
  for (const [ki, k] of ks.entries()) console.log(`exact re-rank of the first ${k} by codes, ${v.name}: first ${share(exact[vi][ki], 1)}, first 10 ${share(exact[vi][ki], 10)}, first 120 ${share(exact[vi][ki], 120)}`);
}
