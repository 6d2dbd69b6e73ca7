import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { AddressInfo } from "node:net";
import express from "express";
import { ANALYZER_VERSION, analyzeAudio, type TrackAnalysis } from "../app/.server/analysis/analyze.ts";
import { encodeFingerprint, FIELDS, fingerprintBytes } from "../app/.server/analysis/fingerprint.ts";
import { catalogScales, compare, createModel, keyRelation, tempoTerm, WEIGHTS, type Sounding } from "../app/.server/analysis/similarity.ts";
import { encodeWav, encodeWithFfmpeg } from "./lib/encode-audio.ts";
import type { AnalysisFigures } from "../app/.server/analysis/stage/types.ts";
import { FAMILIES, FAMILY_TEMPI, renderFamilyTrack, type FamilyTrack } from "../app/.server/catalog/sample/families.ts";
import { sampleAlbums } from "../app/.server/catalog/sample/generate.ts";
import { createPrng } from "../app/.server/catalog/sample/prng.ts";
import { readShippedSampleAnalysis } from "../app/.server/catalog/sample/sample-analysis.ts";
import { SAMPLE_TRACKS } from "../app/.server/catalog/sample/tracks.ts";
import { parseConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { createSoundsLike } from "../app/.server/sounds-like/service.ts";
import type { Album } from "../app/lib/catalog/types.ts";
import { KEY_NAMES, type TrackQuery } from "../app/lib/catalog/track-query.ts";
import { requestGuard } from "../server/request-guard.ts";
import { isSoundsLikeUpload, soundsLikeUpload } from "../server/sounds-like.ts";
import {
  ADR_0125_METRIC,
  benchRealRanking,
  benchRealRetrieval,
  combined,
  FEATURE_SETS,
  FINGERPRINT_ADR_0125,
  FINGERPRINT_SITE,
  FINGERPRINT_V3,
  fingerprintRetrieval,
  fingerprintWeighted,
  hubReduced,
  projected,
  projectedRetrieval,
  type FittedProjection,
  type PartKey,
  loadFeatures,
  loadReal,
  melGaussian,
  CEILING,
  PASSAGE_GAUSSIAN,
  PASSAGE_SETS,
  segmentRetrieval,
  summed,
  twoStage,
  wholeRetrieval,
} from "./lib/bench-real.ts";
import { benchIndex, exactMeasure, excerptSeed, realAlbums, realFigures, realMixPassages, realMixPrints, realTrackIds, sourcePlace, type DistractorPrint } from "./lib/bench-reference.ts";
import { trackPassageCodes } from "../app/.server/catalog/tracks/passage-index.ts";
import { codebookId, encodePassageCodes } from "../app/.server/analysis/passage-codes.ts";
import { segmentWindows } from "../app/.server/analysis/segments.ts";
import { cacheDir } from "./lib/real-music.ts";
import { APPROXIMATE_FROM, spreadAlbums } from "../app/.server/catalog/tracks/like.ts";
import { buildCells } from "../app/.server/catalog/tracks/print-cells.ts";
import { NO_YIELD } from "../app/.server/catalog/tracks/yielding.ts";
import type { TrackFigures } from "../app/.server/catalog/tracks/figures.ts";
import { LIKE_LIMIT } from "../app/lib/catalog/track-query.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * `npm run bench:similarity` (issue #19): prints
 * - Retrieval: N synthesised catalog tracks (families.ts, 60 s, MP3), each found again from a
 *   20-second excerpt of its middle re-encoded as a 96 kbps MP3 with a 1.5 dB gain change:
 *   the share whose source comes first and in the first 10 (goals ≥ 90 % and ≥ 99 %);
 * - Families: on the sample catalog (300 albums, its shipped analysis), the share of a
 *   like= view's first 10 from the seed's family, the seed's own album left out (goal ≥ 0.8),
 *   next to what a random order scores;
 * - Speed and memory: like= views (p50, p95; first asks and repeated) on catalogs of the given
 *   sizes (synthetic fingerprints around six family centres), and the memory the fingerprints add;
 * - Upload: a 3-minute MP3 reference from POST to the 303 (the upload route, its worker pool).
 * - Real music (issue #29, ADR 0118): free game soundtracks from Debian packages (benchmarks/lib/
 *   real-music.ts; cached outside the repository, SIMILARITY_BENCH_CACHE): precision at 10 and
 *   MAP over 24 per group and overall, tuning and held-out parts, against a random order; and
 *   reference-file retrieval on them. Without apt-get or ffmpeg it prints one line and skips.
 *   The NCA maps fit:similarity wrote (ADR 0123) are scored beside the site's metric.
 *   ADR 0128: the stored passages (a set distance, a Gaussian) and a full-covariance mel Gaussian
 *   (Mandel & Ellis 2005), alone and summed with the site's distance, and the split's ceiling.
 * Options: --tracks 200 --albums 25000,250000 --views 40 --only real,retrieval,families,speed,upload.
 * Measures; asserts nothing.
 */
const { values: args } = parseArgs({
  options: {
    tracks: { type: "string", default: "200" },
    albums: { type: "string", default: "25000,250000" },
    views: { type: "string", default: "40" },
    only: { type: "string", default: "" },
    /** the speed part's distractor fingerprints: "families" (six family centres) or "real-mix" (mixtures of the real corpus's: bench-reference.ts) */
    prints: { type: "string", default: "families" },
    /** the speed part also puts the real corpus among its tracks and measures whether the scan keeps each excerpt's source (ADR 0122) */
    "with-real": { type: "boolean", default: false },
    /** the speed part's "before": like= views by the exact scan only (ADR 0116), never the approximate stage (ADR 0124) */
    exact: { type: "boolean", default: false },
    /** the distractors' passage codes made once beforehand, as analyser 8 stores them, so the index build reads them instead of coding the anchors (ADR 0130); cached in SIMILARITY_BENCH_CACHE by codebook and size */
    "stored-codes": { type: "boolean", default: false },
    /** the speed part's real tracks: only those already analysed in SIMILARITY_BENCH_CACHE (ADR 0134: the 256 of ADR 0130's runs, whose distractor codes are cached there) */
    "real-cached": { type: "boolean", default: false },
    /** print each view's first ask (ms), to tell a slow seed from a pause */
    "per-view": { type: "boolean", default: false },
    /** seeds whose first page is compared with the exact order (recall@12) */
    "recall-seeds": { type: "string", default: "20" },
  },
});
/** --only real,retrieval,families,speed,upload: the parts to run (all by default). */
const only = new Set(args.only.split(",").filter(Boolean));
const runs = (part: string) => only.size === 0 || only.has(part);
const RATE = 22_050;
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const rows: string[][] = [];
const row = (...cells: (string | number)[]) => {
  rows.push(cells.map(String));
  console.log(cells.join("\t"));
};

// --- Real music ----------------------------------------------------------------------------------
if (only.has("reference")) {
  const data = await loadReal((line) => console.error(line));
  if (typeof data === "string") row("reference", data);
  else await siteRetrieval(data);
}
if (runs("real")) {
  const data = await loadReal((line) => console.error(line));
  if (typeof data === "string") row("real", data);
  else {
    const features = loadFeatures(data, (line) => console.error(line));
    const metricFile = path.join(import.meta.dirname, "lib", "similarity-metric.json");
    const metric = fs.existsSync(metricFile)
      ? (JSON.parse(fs.readFileSync(metricFile, "utf8")) as {
          weights: Record<string, number>;
          fingerprintPartWeights: { weights: Record<PartKey, number> };
          fingerprintPartWeightsTempoKeyFixed: { weights: Record<PartKey, number> };
          projections?: Record<"full" | "parts" | "diag" | "fullTermsHeld", FittedProjection>;
        })
      : null;
    // ADR 0123: the NCA projections fit:similarity wrote, and NICDM hub reduction on top
    const nca = metric?.projections
      ? [
          projected("NCA full map (kept in the fit file; not in the site: ADR 0123)", metric.projections.full),
          projected("NCA map within each part", metric.projections.parts),
          projected("NCA one weight per value", metric.projections.diag),
          projected("NCA full map, tempo and key share held at ADR 0104's", metric.projections.fullTermsHeld),
          projected("NCA full map, its outputs in bytes (44 a track)", metric.projections.full, { bytes: true }),
        ]
      : [];
    const ncaHub = nca.length ? [hubReduced(nca[0], "nicdm"), hubReduced(nca[0], "mp"), hubReduced(nca[2], "nicdm")] : [];
    const learned = metric?.weights;
    const melG = melGaussian(features);
    const siteMelG = summed("the site + mel Gaussian, equal (ADR 0128)", [[1, FINGERPRINT_SITE], [1, melG]]);
    const bestCv = summed("the site + mel Gaussian + passages ×0.25 + fp ×0.25 (ADR 0128's best on tuning)", [[1, FINGERPRINT_SITE], [1, melG], [0.25, PASSAGE_SETS], [0.25, combined("fp", features, { fp: 1 })]]);
    const methods = [
      FINGERPRINT_V3,
      FINGERPRINT_ADR_0125,
      FINGERPRINT_SITE,
      ...(metric ? [fingerprintWeighted("fingerprint v1, fitted part weights (not kept: speed)", metric.fingerprintPartWeights.weights)] : []),
      ...(metric ? [fingerprintWeighted("fingerprint v1, fitted with tempo and key fixed", metric.fingerprintPartWeightsTempoKeyFixed.weights)] : []),
      ...FEATURE_SETS.map((set) => combined(set, features, { [set]: 1 })),
      combined("block-level (sp+dsp+fp)", features, { sp: 1, dsp: 1, fp: 1 }),
      combined("block-level + gauss + fingerprint v1", features, { sp: 1, dsp: 1, fp: 1, gauss: 1, fingerprint: 1 }),
      ...(learned ? [combined("learned weights (fit:similarity)", features, learned)] : []),
      hubReduced(FINGERPRINT_V3, "nicdm"),
      hubReduced(FINGERPRINT_V3, "mp"),
      ...nca,
      ...ncaHub,
      // ADR 0128: richer descriptors for a re-rank, weights chosen on the tuning groups
      PASSAGE_SETS,
      PASSAGE_GAUSSIAN,
      melG,
      summed("the site + passages ×0.25 (ADR 0128)", [[0.75, FINGERPRINT_SITE], [0.25, PASSAGE_SETS]]),
      summed("the site + passage Gaussian ×0.25 (ADR 0128)", [[0.75, FINGERPRINT_SITE], [0.25, PASSAGE_GAUSSIAN]]),
      siteMelG,
      hubReduced(siteMelG, "mp"),
      bestCv,
      hubReduced(bestCv, "mp"),
      CEILING,
    ];
    benchRealRanking(data, methods, row, (m) => m === FINGERPRINT_V3 || m === FINGERPRINT_ADR_0125 || m === FINGERPRINT_SITE || m === nca[0] || m === ncaHub[0] || m === siteMelG || m === CEILING);
    benchRealRetrieval(data, "fingerprint v1, whole track, ADR 0104's weights (the site before ADR 0125)", fingerprintRetrieval(data, WEIGHTS), row);
    benchRealRetrieval(data, "fingerprint v1, whole track, ADR 0125's learned weights (the site before ADR 0131)", fingerprintRetrieval(data, ADR_0125_METRIC), row);
    benchRealRetrieval(data, "fingerprint v1, whole track, the site's learned weights (ADR 0131's refit)", fingerprintRetrieval(data), row);
    if (metric) benchRealRetrieval(data, "fingerprint v1, whole track, fitted part weights (not kept)", fingerprintRetrieval(data, metric.fingerprintPartWeights.weights), row);
    if (metric?.projections) benchRealRetrieval(data, "fingerprint v1, whole track, NCA full map (ADR 0123)", projectedRetrieval(data, metric.projections.full), row);
    benchRealRetrieval(data, "band mean+spread, whole track", wholeRetrieval(features), row);
    benchRealRetrieval(data, "band mean+spread, 20 s segments every 5 s", segmentRetrieval(features), row);
    const stored = segmentRetrieval(features, { every: 2, bytes: true });
    benchRealRetrieval(data, "the same every 10 s, in bytes", stored, row);
    for (const k of [12, 120]) benchRealRetrieval(data, `fingerprint's first ${k}, re-ranked by those segments`, twoStage(fingerprintRetrieval(data), stored, data.tracks.length, k), row);
    await siteRetrieval(data);
  }
}

/**
 * The reference retrieval as the site ranks it (ADR 0122): the site's track index over the
 * real corpus, each excerpt a reference seed as the upload route stores it, its like= view
 * read page by page; before: the scan's order (no passages), after: re-ranked by passages.
 */
async function siteRetrieval(data: Exclude<Awaited<ReturnType<typeof loadReal>>, string>) {
  const { figure, analysis } = realFigures(data);
  // ADR 0122's site: figures without passages (no passage index), so the scan's kept list alone is re-ranked
  const withoutCodes = (key: string) => {
    const f = figure(key);
    if (!f) return null;
    const { segments: _, ...rest } = f;
    return rest;
  };
  const ids = realTrackIds(data);
  const ways = [
    { name: "before: the scan's order (whole-track fingerprint)", passages: false, codes: false },
    { name: "ADR 0122: the scan's kept list re-ranked by passages", passages: true, codes: false },
    { name: "after (ADR 0129): + the first stage over passage codes, re-ranked by passages", passages: true, codes: true },
  ];
  for (const way of ways) {
    const index = benchIndex(realAlbums(data), way.codes ? figure : withoutCodes, analysis);
    await index.ready();
    let top1 = 0;
    let top10 = 0;
    const missed: string[] = [];
    for (let q = 0; q < data.tracks.length; q++) {
      const { place } = await sourcePlace(index, excerptSeed(data, q, way.passages), ids[q]);
      if (place === 0) top1++;
      if (place >= 0 && place < 10) top10++;
      else missed.push(`${data.tracks[q].id}${place < 0 ? " (not listed)" : ` (${place + 1})`}`);
    }
    const n = data.tracks.length;
    row("real retrieval, the site", way.name, `${n} tracks`, `top-1 ${pct(top1 / n)} (goal ≥ 90 %)`, `top-10 ${pct(top10 / n)} (goal ≥ 99 %)`, `outside the first 10: ${missed.join(", ") || "none"}`);
    index.stop();
  }
}

// --- Retrieval -------------------------------------------------------------------------------
if (runs("retrieval")) {
  const n = Number(args.tracks);
  const rng = createPrng(1904);
  const catalog: { sounding: Sounding }[] = [];
  const excerpts: Sounding[] = [];
  const started = Date.now();
  for (let i = 0; i < n; i++) {
    const family = FAMILIES[i % FAMILIES.length];
    const tempi = FAMILY_TEMPI[family];
    const track: FamilyTrack = { family, bpm: tempi ? rng.int(tempi[0], tempi[1]) : null, key: KEY_NAMES[rng.int(0, 23)], seconds: 60, seed: 1000 + i };
    const wav = encodeWav([renderFamilyTrack(track, RATE)], RATE);
    const full = await analyzeAudio(encodeWithFfmpeg(wav, "mp3"));
    const excerpt = await analyzeAudio(ffmpegExcerpt(wav));
    const sounding = (a: typeof full): Sounding => ({ fingerprint: fingerprintBytes(a.fingerprint)!, bpm: a.bpm === null ? null : Math.round(a.bpm), key: a.key ? KEY_NAMES.indexOf(a.key) : null });
    catalog.push({ sounding: sounding(full) });
    excerpts.push(sounding(excerpt));
  }
  const vectors = new Uint8Array(n * FIELDS.length);
  catalog.forEach((t, i) => vectors.set(t.sounding.fingerprint, i * FIELDS.length));
  const model = createModel(catalogScales(vectors, n));
  let top1 = 0;
  let top10 = 0;
  excerpts.forEach((q, i) => {
    const ranked = catalog.map((t, j) => ({ j, d: compare(model, q, t.sounding).distance })).sort((a, b) => a.d - b.d);
    const place = ranked.findIndex((r) => r.j === i);
    if (place === 0) top1++;
    if (place < 10) top10++;
  });
  row("retrieval", `${n} tracks`, `top-1 ${pct(top1 / n)} (goal ≥ 90 %)`, `top-10 ${pct(top10 / n)} (goal ≥ 99 %)`, `${Math.round((Date.now() - started) / 1000)} s`);
}

/** The middle 20 s of a WAV, 1.5 dB quieter, as a 96 kbps MP3 (ffmpeg). */
function ffmpegExcerpt(wav: Uint8Array): Uint8Array {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-similarity-"));
  try {
    const input = path.join(dir, "in.wav");
    const out = path.join(dir, "out.mp3");
    fs.writeFileSync(input, wav);
    const { spawnSync } = process.getBuiltinModule("node:child_process");
    const r = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-ss", "20", "-t", "20", "-i", input, "-af", "volume=-1.5dB", "-c:a", "libmp3lame", "-b:a", "96k", "-y", out]);
    if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr}`);
    return new Uint8Array(fs.readFileSync(out));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// --- Index helpers -----------------------------------------------------------------------------
/** The passage index's bytes (ADR 0129, 0130, 0137): offsets, tracks, residual codes, and the codes by track. */
const passageBytes = (f: Pick<TrackFigures, "passageStarts" | "passageTrackStarts" | "bytes">) =>
  f.passageStarts.byteLength + f.bytes.length("postings") + f.bytes.length("residuals") + f.passageTrackStarts.byteLength + f.bytes.length("trackCodes");

/**
 * The distractors' stored passage codes (ADR 0130) by key, as their analyses would hold them:
 * made once (the analyses' cost, not the build's) and cached by codebook and size, one
 * "key<TAB>codes" line a track.
 */
function distractorCodes(albums: Album[], passages: (key: string) => string, size: number): Map<string, string> {
  const file = path.join(cacheDir(), `passage-codes-${codebookId().toString(16)}-${size}.tsv`);
  const out = new Map<string, string>();
  if (fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const tab = line.indexOf("\t");
      if (tab > 0) out.set(line.slice(0, tab), line.slice(tab + 1));
    }
    // the file is named by codebook and size, not by the real corpus the mixtures come from: a
    // few are made again here, and a cache of another corpus's mixtures is refused (ADR 0134)
    const keys = [...out.keys()];
    for (const key of [keys[0], keys[keys.length >> 1], keys[keys.length - 1]]) {
      if (encodePassageCodes(segmentWindows(passages(key))) !== out.get(key)) throw new Error(`${file} holds codes of another real corpus's mixtures (${key}): move it away, or run with --real-cached over the cache that made it`);
    }
    console.error(`stored codes read from ${file}: ${out.size} tracks`);
    return out;
  }
  const t = performance.now();
  const fd = fs.openSync(`${file}.part`, "w");
  let chunk: string[] = [];
  for (const a of albums) {
    for (const track of a.tracks) {
      if (track.s3Path.startsWith("real/") || out.has(track.s3Path)) continue;
      const codes = encodePassageCodes(segmentWindows(passages(track.s3Path)));
      if (!codes) continue;
      out.set(track.s3Path, codes);
      chunk.push(`${track.s3Path}\t${codes}\n`);
      if (chunk.length >= 10_000) {
        fs.writeSync(fd, chunk.join(""));
        chunk = [];
      }
    }
  }
  fs.writeSync(fd, chunk.join(""));
  fs.closeSync(fd);
  fs.renameSync(`${file}.part`, file);
  console.error(`stored codes made for ${out.size} tracks in ${((performance.now() - t) / 1000).toFixed(0)} s (with their passages' synthesis): ${file}`);
  return out;
}

/** The site's track index over the bench's albums; a view never waits for analyses (ADR 0116's speed part). */
function indexOver(albums: Album[], figure: (key: string) => AnalysisFigures | null, analysis: (key: string) => TrackAnalysis | null = () => null) {
  return benchIndex(albums, figure, analysis, { analysisWaitMs: 0, ...(args.exact ? { likeApproximateFrom: Infinity } : {}) });
}

const Q = (like: string, page = 1): TrackQuery => ({ q: "", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "similarity", page, like });

// --- Families ------------------------------------------------------------------------------------
if (runs("families")) {
  const shipped = readShippedSampleAnalysis()!;
  const albums: Album[] = [...sampleAlbums(300)].map((a, i) => ({ id: `s${i}`, ...a }));
  const index = indexOver(albums, (key) => {
    const a = shipped.pieces[key]?.analysis;
    return a ? { key, seconds: a.durationSeconds, bpm: a.bpm, musicalKey: a.key, ...(a.fingerprint ? { fingerprint: a.fingerprint } : {}) } : null;
  });
  await index.ready();
  const familyOf = (s3Path: string) => SAMPLE_TRACKS[Number(/track-(\d+)/.exec(s3Path)![1]) - 1].family;
  const byFamily = new Map<string, { hits: number; n: number; random: number }>();
  for (const [a, album] of albums.entries()) {
    if (a >= 120) continue; // the first 120 albums' first tracks as seeds (20 albums of each family)
    const seedFamily = familyOf(album.tracks[0].s3Path);
    const r = await index.query(Q(`s${a}:0`));
    const all: string[] = [];
    for (let page = 1; page <= r.pageCount && all.length < 10; page++) {
      const p = page === 1 ? r : await index.query(Q(`s${a}:0`, page));
      for (const x of p.rows) if (x.albumId !== album.id && all.length < 10) all.push(x.id);
    }
    const trackFamily = (id: string) => {
      const [albumId, i] = id.split(":");
      return familyOf(albums[Number(albumId.slice(1))].tracks[Number(i)].s3Path);
    };
    const pool = albums.flatMap((x) => (x.id === album.id ? [] : x.tracks.map((t) => familyOf(t.s3Path))));
    const f = byFamily.get(seedFamily) ?? { hits: 0, n: 0, random: 0 };
    f.hits += all.filter((id) => trackFamily(id) === seedFamily).length / Math.max(1, all.length);
    f.random += pool.filter((x) => x === seedFamily).length / pool.length;
    f.n++;
    byFamily.set(seedFamily, f);
  }
  let hits = 0;
  let random = 0;
  let n = 0;
  for (const [family, f] of byFamily) {
    row("families", family, `${f.n} seeds`, `first 10 from the family ${(f.hits / f.n).toFixed(2)}`, `random ${(f.random / f.n).toFixed(2)}`);
    hits += f.hits;
    random += f.random;
    n += f.n;
  }
  row("families", "all", `${n} seeds`, `first 10 from the family ${(hits / n).toFixed(2)} (goal ≥ 0.8)`, `random ${(random / n).toFixed(2)}`);
  index.stop();
  // ADR 0123: the same seeds ranked directly (no index, no album rule: every other album's
  // tracks by distance), by ADR 0104's metric and by the NCA full map fitted on real music
  const metricFile = path.join(import.meta.dirname, "lib", "similarity-metric.json");
  const fits = fs.existsSync(metricFile) ? (JSON.parse(fs.readFileSync(metricFile, "utf8")) as { projections?: Record<string, FittedProjection> }).projections : undefined;
  const catalog = albums.flatMap((album, a) =>
    album.tracks.flatMap((t) => {
      const x = shipped.pieces[t.s3Path]?.analysis;
      const fingerprint = fingerprintBytes(x?.fingerprint);
      return x && fingerprint ? [{ album: a, family: familyOf(t.s3Path), sounding: { fingerprint, bpm: x.bpm === null ? null : Math.round(x.bpm), key: x.key ? KEY_NAMES.indexOf(x.key) : null } as Sounding }] : [];
    }),
  );
  const vectors = new Uint8Array(catalog.length * FIELDS.length);
  catalog.forEach((t, i) => vectors.set(t.sounding.fingerprint, i * FIELDS.length));
  const sigma = catalogScales(vectors, catalog.length);
  const before = createModel(sigma, WEIGHTS);
  const site = createModel(sigma);
  const adr0125 = createModel(sigma, ADR_0125_METRIC);
  const direct: [string, (a: Sounding, b: Sounding) => number][] = [
    ["ADR 0104's metric (the site before ADR 0125)", (a, b) => compare(before, a, b).distance],
    ["ADR 0125's learned weights (the site before ADR 0131)", (a, b) => compare(adr0125, a, b).distance],
    ["the site's learned weights (ADR 0131's refit)", (a, b) => compare(site, a, b).distance],
  ];
  for (const [name, fit] of fits ? ([["NCA full map", fits.full], ["NCA one weight per value", fits.diag]] as const) : []) {
    const d = FIELDS.length;
    const projectedOf = new Map<Uint8Array, Float64Array>();
    const y = (s: Sounding) => {
      let out = projectedOf.get(s.fingerprint);
      if (!out) {
        out = new Float64Array(d);
        for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) out[r] += (fit.l[r * d + c] * s.fingerprint[c]) / sigma[c];
        projectedOf.set(s.fingerprint, out);
      }
      return out;
    };
    direct.push([
      name,
      (a, b) => {
        const ya = y(a);
        const yb = y(b);
        let sum = fit.w[0] * tempoTerm(a.bpm, b.bpm).term + fit.w[1] * keyRelation(a.key, b.key).term;
        for (let r = 0; r < d; r++) sum += (ya[r] - yb[r]) ** 2;
        return sum;
      },
    ]);
  }
  for (const [name, distance] of direct) {
    let share = 0;
    let seeds = 0;
    for (let a = 0; a < 120; a++) {
      const seed = catalog.find((t) => t.album === a);
      if (!seed) continue;
      const first = catalog
        .filter((t) => t.album !== a)
        .map((t) => ({ t, d: distance(seed.sounding, t.sounding) }))
        .sort((x, y) => x.d - y.d)
        .slice(0, 10);
      share += first.filter((x) => x.t.family === seed.family).length / first.length;
      seeds++;
    }
    row("families, ranked directly (no album rule)", name, `${seeds} seeds`, `first 10 from the family ${(share / seeds).toFixed(2)}`);
  }
}

// --- Speed and memory ----------------------------------------------------------------------------
const atScale = runs("speed") && args["with-real"] ? await loadReal((line) => console.error(line), { cachedOnly: args["real-cached"] }) : null;
if (typeof atScale === "string") row("speed", atScale);
const realAtScale = atScale && typeof atScale !== "string" ? atScale : null;
for (const size of runs("speed") ? args.albums.split(",").map(Number).filter((x) => x > 0) : []) {
  const rng = createPrng(size);
  const centres = FAMILIES.map(() => FIELDS.map(() => 0.2 + rng.next() * 0.6));
  global.gc?.();
  const before = process.memoryUsage();
  const albums: Album[] = [];
  let i = 0;
  for (const a of sampleAlbums(size, undefined, { distinctAudio: true })) albums.push({ id: `b${i++}`, ...a });
  const familyPrint = (key: string): string => {
    const r = createPrng(key.length * 7919 + key.charCodeAt(key.length - 5) * 31 + Number(/(\d+)-(\d+)/.exec(key)?.[1] ?? 0));
    const c = centres[Number(/audio-(\d+)-/.exec(key)?.[1] ?? 0) % centres.length];
    return encodeFingerprint(FIELDS.map((f, d) => f.min + Math.min(1, Math.max(0, c[d] + (r.next() - 0.5) * 0.2)) * (f.max - f.min)));
  };
  const mixed: DistractorPrint | null = args.prints === "real-mix" && realAtScale ? realMixPrints(realAtScale) : null;
  const printOf = (key: string) => (mixed ? mixed(key) : { fingerprint: familyPrint(key), bpm: 90 + (key.length % 60), musicalKey: KEY_NAMES[key.length % 24] });
  // ADR 0129: real-mix distractors have passages too (mixtures of real tracks' passages), so the passage stage and its re-rank meet them
  const mixedPassages = mixed && realAtScale ? realMixPassages(realAtScale) : null;
  const real = realAtScale ? realFigures(realAtScale) : null;
  if (realAtScale) albums.push(...realAlbums(realAtScale));
  const distractorAnalysis = (key: string): TrackAnalysis | null => {
    if (!mixedPassages) return null;
    const p = printOf(key);
    return { durationSeconds: 180, bpm: p.bpm, bpmConfidence: 1, key: p.musicalKey, keyConfidence: 1, loudnessLufs: null, previewPeaks: [], overviewPeaks: [], fingerprint: p.fingerprint, segments: mixedPassages(key), analyzerVersion: ANALYZER_VERSION };
  };
  // ADR 0130: with --stored-codes every track's figures carry the codes its analysis stored (the
  // distractors' made here once, before the timed build, and cached; the real tracks' now)
  const storedCodes = mixedPassages && args["stored-codes"] ? distractorCodes(albums, mixedPassages, size) : null;
  const realCodes = new Map<string, string>();
  if (storedCodes && realAtScale) {
    realAtScale.full.forEach((a, i) => {
      const codes = encodePassageCodes(segmentWindows(a.segments));
      if (codes) realCodes.set(`real/${i}.ogg`, codes);
    });
  }
  const figureOf = (key: string): AnalysisFigures => {
    const r = real?.figure(key);
    if (r) return realCodes.has(key) ? { ...r, passageCodes: realCodes.get(key)! } : r;
    const p = printOf(key);
    const stored = storedCodes?.get(key);
    if (stored) return { key, seconds: 180, bpm: p.bpm, musicalKey: p.musicalKey, fingerprint: p.fingerprint, passageCodes: stored };
    return { key, seconds: 180, bpm: p.bpm, musicalKey: p.musicalKey, fingerprint: p.fingerprint, ...(mixedPassages ? { segments: mixedPassages(key) } : {}) };
  };
  let codesNote = storedCodes ? "; codes read as stored (--stored-codes)" : "";
  if (mixedPassages) {
    // the passage codes' share of the build: 20,000 distractors' passages made and coded (ADR 0129)
    const tc = performance.now();
    for (let k = 0; k < 20_000; k++) trackPassageCodes(mixedPassages(`code-timing-${k}`));
    codesNote = `; passages coded ${((performance.now() - tc) / 20).toFixed(0)} µs a track (with their synthesis)`;
  }
  const t0 = performance.now();
  const index = indexOver(albums, figureOf, (key) => real?.analysis(key) ?? distractorAnalysis(key));
  await index.ready();
  const buildMs = performance.now() - t0;
  global.gc?.();
  const after = process.memoryUsage();
  const stats = index.stats()!;
  const views = Number(args.views);
  const first: number[] = [];
  const repeated: number[] = [];
  // warm-up, uncounted (ADR 0124): five views of other seeds, so the first measured asks do
  // not carry the compiler's first runs of the code (a server that has answered any like= view
  // has them); each measured seed is still never asked before (its list is not cached)
  for (let w = 0; w < 5; w++) await index.query(Q(`b${Math.floor((w * size) / views) + 1}:0`));
  for (let v = 0; v < views; v++) {
    const id = `b${Math.floor((v * size) / views)}:0`;
    let t = performance.now();
    await index.query(Q(id));
    first.push(performance.now() - t);
    t = performance.now();
    await index.query(Q(id));
    repeated.push(performance.now() - t);
  }
  if (args["per-view"]) console.error(`first asks (ms): ${first.map((x) => x.toFixed(1)).join(" ")}`);
  const printsMb = (stats.tracks * (FIELDS.length + 1)) / 1e6;
  // the cells of the approximate stage (ADR 0124), made again here to time them alone
  const figures = index.currentFigures();
  let cellsNote = "no cells";
  let cellBytes = 0;
  if (figures && figures.cellStarts.length > 0) {
    const tc = performance.now();
    await buildCells(figures.bytes.copy("prints"), figures.printStarts, figures.fingerprinted, figures.model, NO_YIELD);
    cellBytes = (figures.cellRows.byteLength + figures.cellGroups.byteLength) / figures.fingerprinted;
    cellsNote = `${figures.cellStarts.length - 1} cells made in ${((performance.now() - tc) / 1000).toFixed(1)} s; like= views ${args.exact ? "exact scan only (--exact)" : "approximate from " + APPROXIMATE_FROM.toLocaleString("en-US") + " candidates"}`;
  }
  // what the like= scan holds per track (ADR 0116's layout): the fingerprint row, the row's track, the track's row, the row's length; and the cells' list (ADR 0124)
  const scanBytes = FIELDS.length + 4 + 4 + 2 + cellBytes;
  row(
    "speed",
    `${size.toLocaleString("en-US")} albums (${stats.tracks.toLocaleString("en-US")} tracks), ${mixed ? "real-mix" : "family"} prints`,
    `first p50 ${quantile(first, 0.5).toFixed(1)} ms p95 ${quantile(first, 0.95).toFixed(1)} ms`,
    `repeated p50 ${quantile(repeated, 0.5).toFixed(2)} ms p95 ${quantile(repeated, 0.95).toFixed(2)} ms`,
    cellsNote,
    `passage index ${figures ? (passageBytes(figures) / 1e6).toFixed(0) : 0} MB (${figures ? (passageBytes(figures) / stats.tracks).toFixed(1) : 0} bytes a track, ${figures ? figures.bytes.length("postings") / 4 : 0} passages${codesNote})`,
    `like= ${scanBytes} bytes a track (the exact scan's ${FIELDS.length + 10}${cellBytes ? `, the cells' ${cellBytes}` : ""}; fingerprints ${printsMb.toFixed(0)} MB); index arrays ${(stats.arrayBytes / 1e6).toFixed(0)} MB (${(stats.arrayBytes / stats.tracks).toFixed(0)} bytes a track, every view's); heap+arrays +${((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1e6).toFixed(0)} MB; build ${(buildMs / 1000).toFixed(1)} s`,
  );

  // recall@12 against the exact order: every track measured (bench-reference.ts exactMeasure), the album rule applied to both
  {
    const trackIds: string[] = [];
    const albumOf: number[] = [];
    const count = albums.reduce((s, a) => s + a.tracks.length, 0);
    const vectors = new Uint8Array(count * FIELDS.length);
    const bpm = new Uint16Array(count);
    const key = new Uint8Array(count).fill(255);
    let t = 0;
    albums.forEach((a, ai) =>
      a.tracks.forEach((track, j) => {
        const f = figureOf(track.s3Path);
        vectors.set(fingerprintBytes(f.fingerprint)!, t * FIELDS.length);
        bpm[t] = f.bpm === null ? 0 : Math.round(f.bpm);
        key[t] = f.musicalKey ? KEY_NAMES.indexOf(f.musicalKey) : 255;
        trackIds[t] = `${a.id}:${j}`;
        albumOf[t++] = ai;
      }),
    );
    const exact = exactMeasure(vectors, bpm, key, count);
    const seeds = Number(args["recall-seeds"]);
    let recall = 0;
    for (let v = 0; v < seeds; v++) {
      const seed = albums.slice(0, Math.floor((v * size) / seeds)).reduce((s, a) => s + a.tracks.length, 0);
      // the view's rules on the exact list too: one album, and one recording (the same bytes), may not fill the first page (like.ts listRules)
      const nearest = Int32Array.from(exact(seed, LIKE_LIMIT));
      const recordings = new Map<string, number>();
      const recording = new Map<number, number>();
      for (const x of nearest) {
        const sound = Buffer.from(vectors.subarray(x * FIELDS.length, (x + 1) * FIELDS.length)).toString("latin1");
        if (!recordings.has(sound)) recordings.set(sound, recordings.size);
        recording.set(x, recordings.get(sound)!);
      }
      const want = spreadAlbums(spreadAlbums(nearest, (x) => albumOf[x]), (x) => recording.get(x)!, 2).subarray(0, 12);
      const got = new Set((await index.query(Q(trackIds[seed]))).rows.map((r) => r.id));
      recall += [...want].filter((x) => got.has(trackIds[x])).length / want.length;
    }
    row("speed", `${stats.tracks.toLocaleString("en-US")} tracks`, `recall@12 against the exact order ${(recall / seeds).toFixed(3)} (${seeds} seeds; goal ≥ 0.95)`);
  }

  // does the first stage keep each real excerpt's source among this many distractors? (ADR 0122)
  if (realAtScale) {
    const sourceIds = realTrackIds(realAtScale);
    let kept = 0;
    let top1 = 0;
    let top10 = 0;
    const times: number[] = [];
    const n = realAtScale.tracks.length;
    for (let q = 0; q < n; q++) {
      const seed = excerptSeed(realAtScale, q, true);
      const tq = performance.now();
      await index.query(Q(seed.id), seed);
      times.push(performance.now() - tq);
      const { place } = await sourcePlace(index, seed, sourceIds[q]);
      if (place >= 0) kept++;
      if (place === 0) top1++;
      if (place >= 0 && place < 10) top10++;
    }
    // with real-mix distractors (ADR 0129) the distractors have passages, so the re-rank's order is measured among them;
    // with family distractors they have none (they follow every real track: the order is not measured)
    row(
      "reference at scale",
      `${stats.tracks.toLocaleString("en-US")} tracks (${n} real among ${mixed ? "real-mix" : "family"} distractors)`,
      `source listed (first ${LIKE_LIMIT} after the first stage and the re-rank) ${pct(kept / n)}`,
      mixedPassages ? `top-1 ${pct(top1 / n)} top-10 ${pct(top10 / n)}` : "order not measured (distractors without passages)",
      `reference view, first ask (first stages, passages read, re-rank, rows) p50 ${quantile(times, 0.5).toFixed(1)} ms p95 ${quantile(times, 0.95).toFixed(1)} ms`,
    );
  }
  index.stop();
  albums.length = 0;
}

// --- A 3-minute MP3 from upload to results ---------------------------------------------------------
if (runs("upload")) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-similarity-data-"));
  const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", REFERENCE_RATE_LIMIT: "100" });
  const logger = createLogger("silent");
  const service = createSoundsLike(config, logger);
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(requestGuard({ bodyLimitBytes: 65536, drainLimitBytes: 1 << 20, urlLimitBytes: 4096, queryParamsLimit: 64 }, { streamed: isSoundsLikeUpload }));
  app.use((req, _res, next) => ((req as unknown as { log: unknown }).log = logger, next()));
  app.use(soundsLikeUpload({ service: () => service }));
  app.get("/catalog/sounds-like", (_req, res) => res.status((res.locals.uploadError as { status: number } | undefined)?.status ?? 200).end());
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mp3 = encodeWithFfmpeg(encodeWav([renderFamilyTrack({ family: "house", bpm: 124, key: "A minor", seconds: 180, seed: 77 }, 44_100)], 44_100), "mp3");
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const form = new FormData();
    form.append("audio", new Blob([Buffer.from(mp3)], { type: "audio/mpeg" }), "reference.mp3");
    const t = performance.now();
    const res = await fetch(`${base}/catalog/sounds-like`, { method: "POST", body: form, redirect: "manual" });
    times.push(performance.now() - t);
    if (res.status !== 303) throw new Error(`upload answered ${res.status}`);
  }
  row("upload", `3:00 MP3, ${(mp3.length / 1e6).toFixed(1)} MB`, `POST to 303: ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(", ")} (goal ≤ 5 s)`, "plus the like= view: see speed");
  server.closeAllConnections();
  server.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\n${rows.map((r) => `| ${r.join(" | ")} |`).join("\n")}`);
