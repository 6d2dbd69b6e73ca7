import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { analyzeAudio, ANALYZER_VERSION } from "../../app/.server/analysis/analyze.ts";
import { FIELDS, FINGERPRINT_VERSION, fingerprintBytes } from "../../app/.server/analysis/fingerprint.ts";
import { SEGMENTS_VERSION, segmentWindows, WINDOW_BYTES, windowScales } from "../../app/.server/analysis/segments.ts";
import { catalogScales, compare, createModel, keyRelation, LEARNED, tempoTerm, WEIGHTS, type LearnedMetric, type Sounding, type Weights } from "../../app/.server/analysis/similarity.ts";
import { KEY_NAMES } from "../../app/lib/catalog/track-query.ts";
import { blockFeatures, FEATURES_VERSION, type BlockFeatures } from "./block-features.ts";
import ADR_0125_MAP from "../recorded/similarity-map-adr0125.json" with { type: "json" };
import { meanSpread, ncaDistances, type NcaModel, type NcaProblem, type Shape } from "./metric-learning.ts";
import { cacheDir, ffmpegWav, macroMean, realCandidates, realCorpus, referenceExcerpt, scoreRanking, type RealTrack } from "./real-music.ts";

/**
 * bench:similarity's real part (issue #29, ADR 0118): the corpus of real-music.ts, each track
 * analysed whole by the site's own engine (decoded by ffmpeg to 22.05 kHz WAV first: the JS
 * Vorbis decoder is slower, and the analysis is the same) and a reference excerpt of its
 * middle; results cached in the cache directory by analyzer and fingerprint version.
 */

interface Analysed {
  seconds: number;
  bpm: number | null;
  key: string | null;
  fingerprint: string | null;
  /** segment anchors (segments.ts, ADR 0122) */
  segments?: string | null;
}

interface Cache {
  [file: string]: { full?: Analysed; excerpt?: Analysed; seconds?: number };
}

export interface RealData {
  tracks: RealTrack[];
  full: Analysed[];
  excerpt: Analysed[];
}

const sounding = (a: Analysed): Sounding => ({
  fingerprint: fingerprintBytes(a.fingerprint) ?? new Uint8Array(FIELDS.length),
  bpm: a.bpm === null ? null : Math.round(a.bpm),
  key: a.key ? KEY_NAMES.indexOf(a.key) : null,
});

const probeSeconds = (file: string): number => {
  const r = spawnSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], { encoding: "utf8" });
  return Number(r.stdout.trim());
};

/** The corpus's tracks (lengths probed, cached), without analysing them. */
export function realTracks(log: (line: string) => void): RealTrack[] | string {
  if (spawnSync("ffmpeg", ["-version"]).status !== 0) return "ffmpeg is not available: the real part is skipped";
  const candidates = realCandidates(log);
  if (typeof candidates === "string") return candidates;
  const cachePath = path.join(cacheDir(), "seconds.json");
  const cache: Record<string, number> = fs.existsSync(cachePath) ? JSON.parse(fs.readFileSync(cachePath, "utf8")) : {};
  const rel = (file: string) => path.relative(cacheDir(), file);
  for (const c of candidates) cache[rel(c.file)] ??= probeSeconds(c.file);
  fs.writeFileSync(cachePath, JSON.stringify(cache));
  return realCorpus(candidates.map((c) => ({ ...c, seconds: cache[rel(c.file)] })));
}

export async function loadReal(log: (line: string) => void, opts: { cachedOnly?: boolean } = {}): Promise<RealData | string> {
  if (spawnSync("ffmpeg", ["-version"]).status !== 0) return "ffmpeg is not available: the real part is skipped";
  const candidates = realCandidates(log);
  if (typeof candidates === "string") return candidates;
  const cachePath = path.join(cacheDir(), `analysis-v${ANALYZER_VERSION}-f${FINGERPRINT_VERSION}-s${SEGMENTS_VERSION}.json`);
  const read = (): Cache => (fs.existsSync(cachePath) ? JSON.parse(fs.readFileSync(cachePath, "utf8")) : {});
  const cache: Cache = read();
  // the cache is shared by the engineers' worktrees (BRIEF: one bench cache directory): merge
  // what another run saved meanwhile before writing, and write whole (rename), so that two runs
  // analysing different tracks at once keep both's results
  const save = () => {
    for (const [file, entry] of Object.entries(read())) {
      const mine = (cache[file] ??= {});
      mine.full ??= entry.full;
      mine.excerpt ??= entry.excerpt;
      mine.seconds ??= entry.seconds;
    }
    const tmp = `${cachePath}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(cache));
    fs.renameSync(tmp, cachePath);
  };
  const rel = (file: string) => path.relative(cacheDir(), file);
  for (const c of candidates) {
    const entry = (cache[rel(c.file)] ??= {});
    entry.seconds ??= probeSeconds(c.file);
  }
  save();
  // cachedOnly: the corpus's tracks already analysed in this cache, none analysed now (a scale
  // run over distractor codes cached for an earlier, smaller corpus: ADR 0134)
  const tracks = realCorpus(candidates.map((c) => ({ ...c, seconds: cache[rel(c.file)].seconds! }))).filter((t) => !opts.cachedOnly || (cache[rel(t.file)].full && cache[rel(t.file)].excerpt));
  const started = Date.now();
  let done = 0;
  for (const t of tracks) {
    const entry = cache[rel(t.file)];
    if (!entry.full) {
      const a = await analyzeAudio(ffmpegWav(t.file, 22_050, { seconds: 1200 }));
      entry.full = { seconds: a.durationSeconds, bpm: a.bpm, key: a.key, fingerprint: a.fingerprint ?? null, segments: a.segments ?? null };
    }
    if (!entry.excerpt) {
      const a = await analyzeAudio(referenceExcerpt(t.file, entry.seconds!));
      entry.excerpt = { seconds: a.durationSeconds, bpm: a.bpm, key: a.key, fingerprint: a.fingerprint ?? null, segments: a.segments ?? null };
      if (++done % 20 === 0) {
        save();
        log(`analysed ${done} tracks (${Math.round((Date.now() - started) / 1000)} s)`);
      }
    }
  }
  save();
  return { tracks, full: tracks.map((t) => cache[rel(t.file)].full!), excerpt: tracks.map((t) => cache[rel(t.file)].excerpt!) };
}

/** A method: from the pool's indices to a distance between two of them (catalog normalisation over the pool). */
export type Method = { name: string; distance: (data: RealData, pool: number[]) => (a: number, b: number) => number };

/** The fingerprint's distance with a metric of similarity.ts (createModel's), σ over the pool. */
const fingerprintMethod = (name: string, metric: Weights | LearnedMetric): Method => ({
  name,
  distance: (data, pool) => {
    const s = pool.map((i) => sounding(data.full[i]));
    const vectors = new Uint8Array(s.length * FIELDS.length);
    s.forEach((x, i) => vectors.set(x.fingerprint, i * FIELDS.length));
    const model = createModel(catalogScales(vectors, s.length), metric);
    return (a, b) => compare(model, s[a], s[b]).distance;
  },
});
/** ADR 0104's metric: the site's before ADR 0125. */
export const FINGERPRINT_V3 = fingerprintMethod("fingerprint v1, ADR 0104's weights (the site before ADR 0125)", WEIGHTS);
/** The site's metric since ADR 0125 (similarity-map.json: NCA, one weight per value), refitted by ADR 0131. */
export const FINGERPRINT_SITE = fingerprintMethod("fingerprint v1, the site's learned weights (ADR 0131's refit)", LEARNED);
/** The site's metric before ADR 0131's refit: ADR 0125's file (13 tuning groups, λ 0.3), kept as the bench's "before". */
export const ADR_0125_METRIC: LearnedMetric = { fields: ADR_0125_MAP.fields, tempo: ADR_0125_MAP.tempo, key: ADR_0125_MAP.key };
export const FINGERPRINT_ADR_0125 = fingerprintMethod("fingerprint v1, ADR 0125's learned weights (the site before ADR 0131)", ADR_0125_METRIC);

/**
 * The parts the real ranking is scored on, each its own pool: the tuning groups; ADR 0118's six
 * held-out groups alone (the pool every earlier figure was read on); ADR 0131's new held-out
 * groups alone; and old + new in one pool (more distractors for each seed).
 */
const RANKING_PARTS: { label: string; parts: RealTrack["part"][]; perGroup: boolean }[] = [
  { label: "tuning", parts: ["tuning"], perGroup: true },
  { label: "held-out", parts: ["held-out"], perGroup: true },
  { label: "held-out new (ADR 0131)", parts: ["held-out-new"], perGroup: true },
  { label: "held-out old+new", parts: ["held-out", "held-out-new"], perGroup: false },
];

export function benchRealRanking(data: RealData, methods: Method[], row: (...cells: (string | number)[]) => void, perGroup: (m: Method) => boolean = () => true) {
  for (const part of RANKING_PARTS) {
    const pool = data.tracks.flatMap((t, i) => (part.parts.includes(t.part) ? [i] : []));
    if (pool.length === 0) continue;
    const tracks = pool.map((i) => data.tracks[i]);
    for (const method of methods) {
      const scores = scoreRanking(tracks, method.distance(data, pool));
      const all = scores.get("all")!;
      const groups = [...scores.keys()].filter((k) => k !== "all").sort();
      if (perGroup(method) && part.perGroup) {
        for (const g of groups) {
          const s = scores.get(g)!;
          row(`real ${part.label}`, method.name, g, `${s.seeds} seeds`, `P@10 ${s.p10.toFixed(2)}`, `MAP@24 ${s.map24.toFixed(2)}`, `random ${s.random.toFixed(2)}`);
        }
      }
      // the groups' mean beside the seeds' (ADR 0131: a few large groups weigh most in the seeds' mean)
      const macro = macroMean(scores);
      row(`real ${part.label}`, method.name, `all (${groups.length} groups)`, `${all.seeds} seeds`, `P@10 ${all.p10.toFixed(2)}`, `MAP@24 ${all.map24.toFixed(2)}`, `random ${all.random.toFixed(2)}`, `groups' mean P@10 ${macro.p10.toFixed(2)} MAP@24 ${macro.map24.toFixed(2)}`);
    }
  }
}

/** Each track's reference excerpt against every track of the corpus: the share whose source comes first, and in the first 10. */
export function benchRealRetrieval(data: RealData, name: string, distance: (excerpt: number, track: number) => number, row: (...cells: (string | number)[]) => void) {
  const n = data.tracks.length;
  let top1 = 0;
  let top10 = 0;
  for (let q = 0; q < n; q++) {
    const d = Array.from({ length: n }, (_, j) => distance(q, j));
    const own = d[q];
    const better = d.filter((x, j) => j !== q && x < own).length;
    if (better === 0) top1++;
    if (better < 10) top10++;
  }
  row("real retrieval", name, `${n} tracks`, `top-1 ${((top1 / n) * 100).toFixed(1)} % (goal ≥ 90 %)`, `top-10 ${((top10 / n) * 100).toFixed(1)} % (goal ≥ 99 %)`);
}

export function fingerprintRetrieval(data: RealData, weights: Weights | LearnedMetric = LEARNED): (excerpt: number, track: number) => number {
  const s = data.full.map(sounding);
  const e = data.excerpt.map(sounding);
  const vectors = new Uint8Array(s.length * FIELDS.length);
  s.forEach((x, i) => vectors.set(x.fingerprint, i * FIELDS.length));
  const model = createModel(catalogScales(vectors, s.length), weights);
  return (q, j) => compare(model, e[q], s[j]).distance;
}

// --- Candidate features (block-features.ts), measured before any goes into the fingerprint ---------

export interface FeatureData {
  full: BlockFeatures[];
  excerpt: BlockFeatures[];
}

const FEATURE_RATE = 11_025;
const pcmOf = (bytes: Uint8Array) => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.byteLength & ~3)));

function ffmpegPcm(input: string | Uint8Array, seconds = 1200): Float32Array {
  const file = typeof input === "string" ? input : "pipe:0";
  const r = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-t", String(seconds), "-i", file, "-ac", "1", "-ar", String(FEATURE_RATE), "-f", "f32le", "-"], {
    maxBuffer: 1 << 30,
    ...(typeof input === "string" ? {} : { input }),
  });
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr}`);
  return pcmOf(new Uint8Array(r.stdout));
}

export function loadFeatures(data: Pick<RealData, "tracks">, log: (line: string) => void): FeatureData {
  const cachePath = path.join(cacheDir(), `features-v${FEATURES_VERSION}.json`);
  const cache: Record<string, { full: BlockFeatures; excerpt: BlockFeatures }> = fs.existsSync(cachePath) ? JSON.parse(fs.readFileSync(cachePath, "utf8")) : {};
  const rel = (file: string) => path.relative(cacheDir(), file);
  let done = 0;
  for (const t of data.tracks) {
    if (cache[rel(t.file)]) continue;
    const seconds = probeSeconds(t.file);
    cache[rel(t.file)] = {
      full: blockFeatures(ffmpegPcm(t.file), FEATURE_RATE),
      excerpt: blockFeatures(ffmpegPcm(referenceExcerpt(t.file, seconds)), FEATURE_RATE),
    };
    if (++done % 20 === 0) {
      fs.writeFileSync(cachePath, JSON.stringify(cache));
      log(`features of ${done} tracks`);
    }
  }
  fs.writeFileSync(cachePath, JSON.stringify(cache));
  return { full: data.tracks.map((t) => cache[rel(t.file)].full), excerpt: data.tracks.map((t) => cache[rel(t.file)].excerpt) };
}

export type FeatureSet = "gauss" | "sp" | "dsp" | "fp" | "whole";
export const FEATURE_SETS: FeatureSet[] = ["gauss", "sp", "dsp", "fp", "whole"];

/**
 * A feature set's distance over a pool: each value z-scored across the pool (the catalog
 * normalisation), the mean absolute difference (Seyerlehner's Manhattan distance), divided by
 * its median over the pool's pairs so that sets can be added (distance space normalisation).
 */
export function setDistance(vectors: number[][]): (a: number, b: number) => number {
  const n = vectors.length;
  const d = vectors[0].length;
  const mean = new Float64Array(d);
  const sd = new Float64Array(d);
  for (const v of vectors) for (let i = 0; i < d; i++) mean[i] += v[i] / n;
  for (const v of vectors) for (let i = 0; i < d; i++) sd[i] += (v[i] - mean[i]) ** 2 / n;
  for (let i = 0; i < d; i++) sd[i] = Math.sqrt(sd[i]) || 1;
  const z = vectors.map((v) => Float64Array.from(v, (x, i) => (x - mean[i]) / sd[i]));
  const raw = (a: number, b: number) => {
    let s = 0;
    for (let i = 0; i < d; i++) s += Math.abs(z[a][i] - z[b][i]);
    return s / d;
  };
  const sample: number[] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b += 3) sample.push(raw(a, b));
  const median = sample.sort((x, y) => x - y)[sample.length >> 1] || 1;
  const matrix = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) matrix[a * n + b] = matrix[b * n + a] = raw(a, b) / median;
  return (a, b) => matrix[a * n + b];
}

/** A weighted sum of feature sets (and of the v1 fingerprint's distance, normalised likewise, as "fingerprint"). */
export function combined(name: string, features: FeatureData, weights: Partial<Record<FeatureSet | "fingerprint", number>>): Method {
  return {
    name,
    distance: (data, pool) => {
      const parts: [number, (a: number, b: number) => number][] = [];
      for (const [set, w] of Object.entries(weights) as [FeatureSet | "fingerprint", number][]) {
        if (!w) continue;
        if (set === "fingerprint") {
          const f = FINGERPRINT_V3.distance(data, pool);
          const sample: number[] = [];
          for (let a = 0; a < pool.length; a++) for (let b = a + 1; b < pool.length; b += 3) sample.push(f(a, b));
          const median = sample.sort((x, y) => x - y)[sample.length >> 1] || 1;
          parts.push([w, (a, b) => f(a, b) / median]);
        } else parts.push([w, setDistance(pool.map((i) => features.full[i][set]))]);
      }
      return (a, b) => {
        let s = 0;
        for (const [w, f] of parts) s += w * f(a, b);
        return s;
      };
    },
  };
}

/** Reference retrieval by segments: the excerpt's band mean and spread against each 20 s window of each track, the nearest window. */
export function segmentRetrieval(features: FeatureData, opts: { every?: number; bytes?: boolean } = {}): (excerpt: number, track: number) => number {
  const every = opts.every ?? 1;
  // byte-quantised as a store would hold them: means over ±40 dB, spreads over 0–30 dB
  const q = (v: number[]) => (opts.bytes ? v.map((x, i) => (i < v.length / 2 ? Math.round(Math.min(255, Math.max(0, ((x + 40) / 80) * 255))) : Math.round(Math.min(255, Math.max(0, (x / 30) * 255))))) : v);
  features = {
    full: features.full.map((f) => ({ ...f, segments: f.segments.filter((_, i) => i % every === 0).map(q) })),
    excerpt: features.excerpt.map((f) => ({ ...f, whole: q(f.whole) })),
  };
  const all = features.full.flatMap((f) => f.segments);
  const d = all[0].length;
  const sd = new Float64Array(d);
  const mean = new Float64Array(d);
  for (const v of all) for (let i = 0; i < d; i++) mean[i] += v[i] / all.length;
  for (const v of all) for (let i = 0; i < d; i++) sd[i] += (v[i] - mean[i]) ** 2 / all.length;
  for (let i = 0; i < d; i++) sd[i] = Math.sqrt(sd[i]) || 1;
  return (q, j) => {
    const e = features.excerpt[q].whole;
    let best = Infinity;
    for (const s of features.full[j].segments) {
      let sum = 0;
      for (let i = 0; i < d; i++) sum += Math.abs(e[i] - s[i]) / sd[i];
      if (sum < best) best = sum;
    }
    return best;
  };
}

/** The same excerpt against each track's whole-track band mean and spread (the average the segments replace). */
export function wholeRetrieval(features: FeatureData): (excerpt: number, track: number) => number {
  const all = features.full.map((f) => f.whole);
  const d = all[0].length;
  const sd = new Float64Array(d);
  const mean = new Float64Array(d);
  for (const v of all) for (let i = 0; i < d; i++) mean[i] += v[i] / all.length;
  for (const v of all) for (let i = 0; i < d; i++) sd[i] += (v[i] - mean[i]) ** 2 / all.length;
  for (let i = 0; i < d; i++) sd[i] = Math.sqrt(sd[i]) || 1;
  return (q, j) => {
    const e = features.excerpt[q].whole;
    let sum = 0;
    for (let i = 0; i < d; i++) sum += Math.abs(e[i] - all[j][i]) / sd[i];
    return sum;
  };
}

export const PART_KEYS = ["timbre", "rhythm", "harmony", "energy", "tempo", "key"] as const;
/** ADR 0104's hand-set weights, before issue #29's fitted ones. */
export const ADR_0104_WEIGHTS = { timbre: 0.35, rhythm: 0.15, harmony: 0.1, energy: 0.15, tempo: 0.15, key: 0.1 };
export type PartKey = (typeof PART_KEYS)[number];

/** The v1 fingerprint's distance with other weights for its parts and its tempo and key terms (similarity.ts's WEIGHTS). */
export function fingerprintParts(data: RealData, pool: number[]): (a: number, b: number) => Record<PartKey, number> {
  const s = pool.map((i) => sounding(data.full[i]));
  const vectors = new Uint8Array(s.length * FIELDS.length);
  s.forEach((x, i) => vectors.set(x.fingerprint, i * FIELDS.length));
  const model = createModel(catalogScales(vectors, s.length));
  const n = pool.length;
  const memo = new Map<number, Record<PartKey, number>>();
  return (a, b) => {
    const k = a * n + b;
    let r = memo.get(k);
    if (!r) {
      const c = compare(model, s[a], s[b]);
      r = { ...c.parts, tempo: c.tempo.term, key: c.key.term };
      memo.set(k, r);
    }
    return r;
  };
}

export function fingerprintWeighted(name: string, weights: Record<PartKey, number>): Method {
  return {
    name,
    distance: (data, pool) => {
      const p = fingerprintParts(data, pool);
      return (a, b) => {
        const r = p(a, b);
        let s = 0;
        for (const k of PART_KEYS) s += weights[k] * r[k];
        return s;
      };
    },
  };
}

/**
 * Hub reduction (the issue's "dense groups are the nearest neighbours of almost everything"):
 * NICDM, Jégou et al. 2007 — each distance divided by the geometric mean of the two tracks'
 * mean distance to their K nearest neighbours — and Mutual Proximity (Schnitzer et al. 2012,
 * the Gaussian form): how unlikely the distance is from either track's point of view.
 */
export function hubReduced(base: Method, kind: "nicdm" | "mp", k = 10): Method {
  return {
    name: `${base.name}, ${kind === "nicdm" ? `NICDM (k=${k})` : "mutual proximity"}`,
    distance: (data, pool) => {
      const d = base.distance(data, pool);
      const n = pool.length;
      const m = new Float64Array(n * n);
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) m[a * n + b] = a === b ? 0 : d(a, b);
      const mu = new Float64Array(n);
      const sd = new Float64Array(n);
      for (let a = 0; a < n; a++) {
        const row = Array.from(m.subarray(a * n, a * n + n)).filter((_, b) => b !== a);
        if (kind === "nicdm") {
          row.sort((x, y) => x - y);
          mu[a] = row.slice(0, k).reduce((s, x) => s + x, 0) / k || 1;
        } else {
          mu[a] = row.reduce((s, x) => s + x, 0) / row.length;
          sd[a] = Math.sqrt(row.reduce((s, x) => s + (x - mu[a]) ** 2, 0) / row.length) || 1;
        }
      }
      // P(X > x) of a normal distribution, by the complementary error function's approximation (Abramowitz & Stegun 7.1.26)
      const above = (x: number, mean: number, s: number) => {
        const z = (x - mean) / (s * Math.SQRT2);
        const t = 1 / (1 + 0.3275911 * Math.abs(z));
        const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-z * z);
        return z >= 0 ? erfc / 2 : 1 - erfc / 2;
      };
      return (a, b) => {
        const x = m[a * n + b];
        return kind === "nicdm" ? x / Math.sqrt(mu[a] * mu[b]) : 1 - above(x, mu[a], sd[a]) * above(x, mu[b], sd[b]);
      };
    },
  };
}

/** Two stages, as the site would run them: the first `k` by the fingerprint's distance, re-ranked by `second`; the rest after them. */
export function twoStage(first: (q: number, j: number) => number, second: (q: number, j: number) => number, n: number, k: number): (q: number, j: number) => number {
  const kept = new Map<number, Set<number>>();
  return (q, j) => {
    let set = kept.get(q);
    if (!set) {
      const order = Array.from({ length: n }, (_, x) => x).sort((a, b) => first(q, a) - first(q, b));
      set = new Set(order.slice(0, k));
      kept.set(q, set);
    }
    return set.has(j) ? second(q, j) : 1e9 + first(q, j);
  };
}

// --- The learned projection (issue #29's learned step, ADR 0123) ---------------------------------

/** A fitted projection as similarity-metric.json holds it: L (d × d, row-major, over the values divided by the pool's σ) and the tempo and key terms' weights. */
export interface FittedProjection {
  shape: Shape;
  l: number[];
  w: [number, number];
}

const PART_INDEX = Int32Array.from(FIELDS, (f) => ["timbre", "rhythm", "harmony", "energy"].indexOf(f.part));

/**
 * The NCA problem of a pool (metric-learning.ts): each fingerprint's values divided by the
 * pool's σ (catalogScales: the site's catalog normalisation), the tempo and key terms
 * (similarity.ts) between every pair, the groups and albums.
 */
export function ncaProblem(data: RealData, pool: number[]): NcaProblem {
  const s = pool.map((i) => sounding(data.full[i]));
  const d = FIELDS.length;
  const vectors = new Uint8Array(s.length * d);
  s.forEach((x, i) => vectors.set(x.fingerprint, i * d));
  const sigma = catalogScales(vectors, s.length);
  const n = pool.length;
  const tempo = new Float64Array(n * n);
  const key = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      tempo[a * n + b] = tempoTerm(s[a].bpm, s[b].bpm).term;
      key[a * n + b] = keyRelation(s[a].key, s[b].key).term;
    }
  }
  const groups = [...new Set(pool.map((i) => data.tracks[i].group))];
  const albums = [...new Set(pool.map((i) => data.tracks[i].album))];
  return {
    x: s.map((x) => Float64Array.from(x.fingerprint, (v, k) => v / sigma[k])),
    terms: [tempo, key],
    group: Int32Array.from(pool, (i) => groups.indexOf(data.tracks[i].group)),
    album: Int32Array.from(pool, (i) => albums.indexOf(data.tracks[i].album)),
  };
}

/**
 * ADR 0104's distance as a starting metric: L = s × diag(√(WEIGHTS[part] / fields in the part)),
 * the terms' weights s² × WEIGHTS.tempo and WEIGHTS.key. `s` sets the softmax's sharpness
 * (s = 2: a random pair scores ~8, a near one ~2).
 */
export function adr0104Start(s = 2): { l0: Float64Array; w0: Float64Array; partOf: Int32Array } {
  const d = FIELDS.length;
  const size = [0, 0, 0, 0];
  for (const p of PART_INDEX) size[p]++;
  const l0 = new Float64Array(d * d);
  for (let k = 0; k < d; k++) l0[k * d + k] = s * Math.sqrt(WEIGHTS[FIELDS[k].part] / size[PART_INDEX[k]]);
  return { l0, w0: Float64Array.of(WEIGHTS.tempo * s * s, WEIGHTS.key * s * s), partOf: PART_INDEX };
}

/** The share of the tempo and key terms in the mean distance between two tracks of the pool (ADR 0104's: 0.28 on the tuning groups). */
export function termShare(problem: NcaProblem, model: NcaModel): number {
  const n = problem.x.length;
  let terms = 0;
  for (let e = 0; e < problem.terms.length; e++) {
    let sum = 0;
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b) sum += problem.terms[e][a * n + b];
    terms += (model.w[e] * sum) / (n * (n - 1));
  }
  return terms / (terms + meanSpread(problem, model));
}

/**
 * A fitted projection as a bench method: the pool's σ, then |L Δ|² plus the weighted tempo and
 * key terms. `bytes`: each of the map's outputs quantised to a byte over its pool mean ± 4 σ,
 * as an index would hold them (44 bytes a track), the distance read from the bytes.
 */
export function projected(name: string, fit: FittedProjection, opts: { bytes?: boolean } = {}): Method {
  const d = FIELDS.length;
  const model: NcaModel = { l: Float64Array.from(fit.l), w: Float64Array.from(fit.w), d };
  return {
    name,
    distance: (data, pool) => {
      const problem = ncaProblem(data, pool);
      const n = pool.length;
      if (!opts.bytes) {
        const D = ncaDistances(problem, model);
        return (a, b) => D[a * n + b];
      }
      const y = problem.x.map((v) => Float64Array.from({ length: d }, (_, r) => {
        let s = 0;
        for (let c = 0; c < d; c++) s += model.l[r * d + c] * v[c];
        return s;
      }));
      const step = new Float64Array(d);
      const q = y.map(() => new Uint8Array(d));
      for (let r = 0; r < d; r++) {
        let mean = 0;
        let sq = 0;
        for (const v of y) {
          mean += v[r] / n;
          sq += (v[r] * v[r]) / n;
        }
        const sd = Math.sqrt(Math.max(1e-12, sq - mean * mean));
        step[r] = (8 * sd) / 255;
        y.forEach((v, i) => (q[i][r] = Math.round(Math.min(1, Math.max(0, (v[r] - mean) / (8 * sd) + 0.5)) * 255)));
      }
      return (a, b) => {
        let s = model.w[0] * problem.terms[0][a * n + b] + model.w[1] * problem.terms[1][a * n + b];
        for (let r = 0; r < d; r++) s += ((q[a][r] - q[b][r]) * step[r]) ** 2;
        return s;
      };
    },
  };
}

/** A reference excerpt against every track by a fitted projection (σ over the catalog's tracks, as the site would). */
export function projectedRetrieval(data: RealData, fit: FittedProjection): (excerpt: number, track: number) => number {
  const s = data.full.map(sounding);
  const e = data.excerpt.map(sounding);
  const d = FIELDS.length;
  const vectors = new Uint8Array(s.length * d);
  s.forEach((x, i) => vectors.set(x.fingerprint, i * d));
  const sigma = catalogScales(vectors, s.length);
  const project = (x: Sounding) => {
    const out = new Float64Array(d);
    for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) out[r] += (fit.l[r * d + c] * x.fingerprint[c]) / sigma[c];
    return out;
  };
  const ys = s.map(project);
  const ye = e.map(project);
  return (q, j) => {
    let sum = fit.w[0] * tempoTerm(e[q].bpm, s[j].bpm).term + fit.w[1] * keyRelation(e[q].key, s[j].key).term;
    for (let r = 0; r < d; r++) sum += (ye[q][r] - ys[j][r]) ** 2;
    return sum;
  };
}

// --- Richer descriptors for a re-rank (issue #29, ADR 0128) --------------------------------------

/** A distance over a pool as a full matrix, divided by its median over the pool's pairs (distance space normalisation, as setDistance). */
function medianNormalised(n: number, raw: (a: number, b: number) => number): (a: number, b: number) => number {
  const m = new Float64Array(n * n);
  // both ways: the fingerprint's distance is the seed's (its tempo term compares with the seed's half and double)
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b) m[a * n + b] = raw(a, b);
  const sample: number[] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) sample.push(m[a * n + b]);
  const median = sample.sort((x, y) => x - y)[sample.length >> 1] || 1;
  return (a, b) => m[a * n + b] / median;
}

/** The pool's stored passages (segments.ts: 24 bands' mean and spread per 20 s window every 10 s), each value divided by its spread over the pool's windows. */
function scaledWindows(data: RealData, pool: number[]): Float64Array[][] {
  const sets = pool.map((i) => segmentWindows(data.full[i].segments) ?? new Uint8Array(WINDOW_BYTES));
  const inv = windowScales(sets);
  return sets.map((w) => Array.from({ length: w.length / WINDOW_BYTES }, (_, k) => Float64Array.from(w.subarray(k * WINDOW_BYTES, (k + 1) * WINDOW_BYTES), (x, i) => x * inv[i])));
}

/**
 * Two tracks' passage sets (the anchors the analysis store already holds, ADR 0122): each
 * passage's nearest passage in the other track (scaled Manhattan), averaged, both ways and
 * symmetrised — the set distance of the segment-based systems.
 */
const passageMemo = new WeakMap<number[], (a: number, b: number) => number>();
export const PASSAGE_SETS: Method = {
  name: "passages: mean nearest passage, symmetrised (stored anchors)",
  // memoised by pool: the bench sums it into several methods, and it is the slowest to make (tracks² × windows² × 48)
  distance: (data, pool) => {
    const known = passageMemo.get(pool);
    if (known) return known;
    const w = scaledWindows(data, pool);
    const directed = (a: number, b: number) => {
      let total = 0;
      for (const x of w[a]) {
        let best = Infinity;
        for (const y of w[b]) {
          let s = 0;
          for (let i = 0; i < WINDOW_BYTES && s < best; i++) s += Math.abs(x[i] - y[i]);
          if (s < best) best = s;
        }
        total += best;
      }
      return total / w[a].length;
    };
    const d = medianNormalised(pool.length, (a, b) => (directed(a, b) + directed(b, a)) / 2);
    passageMemo.set(pool, d);
    return d;
  },
};

/** The same passages as one Gaussian a track (each value's mean and variance over its windows), symmetrised KL divergence (Mandel & Ellis 2005's form, diagonal). */
export const PASSAGE_GAUSSIAN: Method = {
  name: "passages: diagonal Gaussian over the windows, symmetrised KL (stored anchors)",
  distance: (data, pool) => {
    const g = scaledWindows(data, pool).map((ws) => {
      const mu = new Float64Array(WINDOW_BYTES);
      const va = new Float64Array(WINDOW_BYTES);
      for (const x of ws) for (let i = 0; i < WINDOW_BYTES; i++) mu[i] += x[i] / ws.length;
      for (const x of ws) for (let i = 0; i < WINDOW_BYTES; i++) va[i] += (x[i] - mu[i]) ** 2 / ws.length;
      // a floor: a track of one window has no spread
      return { mu, va: va.map((v) => v + 0.05) };
    });
    return medianNormalised(pool.length, (a, b) => {
      let s = 0;
      for (let i = 0; i < WINDOW_BYTES; i++) s += g[a].va[i] / g[b].va[i] + g[b].va[i] / g[a].va[i] + (g[a].mu[i] - g[b].mu[i]) ** 2 * (1 / g[a].va[i] + 1 / g[b].va[i]) - 2;
      return s / 4;
    });
  },
};

/** A symmetric matrix's inverse and log-determinant by Gauss–Jordan elimination with partial pivoting (24 × 24 here). */
function inverse(a: Float64Array, d: number): Float64Array {
  const m = Float64Array.from(a);
  const r = new Float64Array(d * d);
  for (let i = 0; i < d; i++) r[i * d + i] = 1;
  for (let c = 0; c < d; c++) {
    let p = c;
    for (let i = c + 1; i < d; i++) if (Math.abs(m[i * d + c]) > Math.abs(m[p * d + c])) p = i;
    if (p !== c) {
      for (let j = 0; j < d; j++) {
        [m[c * d + j], m[p * d + j]] = [m[p * d + j], m[c * d + j]];
        [r[c * d + j], r[p * d + j]] = [r[p * d + j], r[c * d + j]];
      }
    }
    const pivot = m[c * d + c];
    for (let j = 0; j < d; j++) {
      m[c * d + j] /= pivot;
      r[c * d + j] /= pivot;
    }
    for (let i = 0; i < d; i++) {
      if (i === c) continue;
      const f = m[i * d + c];
      if (!f) continue;
      for (let j = 0; j < d; j++) {
        m[i * d + j] -= f * m[c * d + j];
        r[i * d + j] -= f * r[c * d + j];
      }
    }
  }
  return r;
}

/**
 * Mandel & Ellis 2005 / Pampalk's G1 with a full covariance: one Gaussian a track over its
 * 24 mel bands' log levels (block-features.ts's `gauss`: the mean and covariance of every
 * 46 ms frame), the symmetrised KL divergence between two tracks' Gaussians. Needs the audio
 * (measured here from the bench's own features; the analysis store does not hold it).
 */
export function melGaussian(features: FeatureData): Method {
  const B = 24;
  return {
    name: "mel Gaussian, full covariance, symmetrised KL (Mandel & Ellis 2005)",
    distance: (_data, pool) => {
      const g = pool.map((i) => {
        const v = features.full[i].gauss;
        const mu = Float64Array.from(v.slice(0, B));
        const cov = new Float64Array(B * B);
        let k = B;
        for (let r = 0; r < B; r++) for (let c = r; c < B; c++) cov[r * B + c] = cov[c * B + r] = v[k++];
        // a floor of 0.5 dB² on the diagonal: a silent band's variance is ~0
        for (let r = 0; r < B; r++) cov[r * B + r] += 0.5;
        return { mu, cov, inv: inverse(cov, B) };
      });
      return medianNormalised(pool.length, (a, b) => {
        const x = g[a];
        const y = g[b];
        let trace = 0;
        for (let i = 0; i < B * B; i++) trace += x.cov[i] * y.inv[i] + y.cov[i] * x.inv[i];
        let q = 0;
        for (let i = 0; i < B; i++) for (let j = 0; j < B; j++) q += (x.mu[i] - y.mu[i]) * (x.inv[i * B + j] + y.inv[i * B + j]) * (x.mu[j] - y.mu[j]);
        return (trace + q - 2 * B) / 4;
      });
    },
  };
}

/**
 * Not a method: the seed's group first, whatever the sound. Its precision at 10 is the most the
 * split allows (a group of 5 leaves one relevant track a seed: P@10 ≤ 0.1), the scale the other
 * rows are read on (ADR 0128).
 */
export const CEILING: Method = {
  name: "ceiling: every track of the seed's group first (not a method)",
  distance: (data, pool) => (a, b) => (data.tracks[pool[a]].group === data.tracks[pool[b]].group ? 0 : 1),
};

/** A weighted sum of methods, each divided by its median over the pool's pairs first. */
export function summed(name: string, parts: [number, Method][]): Method {
  return {
    name,
    distance: (data, pool) => {
      const terms = parts.map(([w, m]) => [w, medianNormalised(pool.length, m.distance(data, pool))] as const);
      return (a, b) => {
        let s = 0;
        for (const [w, f] of terms) s += w * f(a, b);
        return s;
      };
    },
  };
}
