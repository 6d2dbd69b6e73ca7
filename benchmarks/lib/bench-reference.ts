import { FIELDS, fingerprintBytes } from "../../app/.server/analysis/fingerprint.ts";
import { encodeSegments, referenceAnchors, segmentWindows, WINDOW_BYTES } from "../../app/.server/analysis/segments.ts";
import { catalogScales, createModel, scanDistance, seedTables, type Sounding } from "../../app/.server/analysis/similarity.ts";
import { NO_BPM, NO_KEY } from "../../app/.server/catalog/tracks/figures.ts";
import { ANALYZER_VERSION, type TrackAnalysis } from "../../app/.server/analysis/analyze.ts";
import type { AnalysisFigures, AnalysisLookup } from "../../app/.server/analysis/stage/types.ts";
import { createCatalogIndexes } from "../../app/.server/catalog/indexes.ts";
import type { CatalogSource } from "../../app/.server/catalog/index.ts";
import type { ReferenceSeed, TrackIndex } from "../../app/.server/catalog/tracks/track-index.ts";
import { NO_YIELD } from "../../app/.server/catalog/tracks/yielding.ts";
import { createPrng } from "../../app/.server/catalog/sample/prng.ts";
import type { Album } from "../../app/lib/catalog/types.ts";
import { KEY_NAMES, LIKE_LIMIT, type TrackQuery } from "../../app/lib/catalog/track-query.ts";
import type { RealData } from "./bench-real.ts";

/**
 * bench:similarity's reference retrieval as the site ranks it (issue #29, ADR 0122): a track
 * index (the site's, createCatalogIndexes) over the real corpus, alone or among synthetic
 * distractors; each track's 20 s excerpt (its analysis by the site's engine, real-music.ts)
 * is a reference seed, with its passages (the site after) or without (before: the scan's
 * order), and its like= view is read page by page as a visitor would, until its source.
 */

export const realKey = (i: number) => `real/${i}.ogg`;

/** A distractor's figures: its fingerprint (base64), tempo and key. */
export type DistractorPrint = (key: string) => { fingerprint: string; bpm: number | null; musicalKey: string | null };

/**
 * Distractors "real-mix": each a mixture of two real tracks' fingerprints (a random share of
 * each) plus noise of a quarter of each field's spread over the real corpus, the tempo and key
 * of the first: a catalog as dense around real music as the corpus is, the hard case for the
 * first stage (the benchmark's family-centred prints are far from real music).
 */
export function realMixPrints(data: RealData, seed = 29): DistractorPrint {
  const prints = data.full.map((a) => fingerprintBytes(a.fingerprint)).filter((p): p is Uint8Array => p !== null);
  const d = FIELDS.length;
  const sd = new Float64Array(d);
  const mean = new Float64Array(d);
  for (const p of prints) for (let i = 0; i < d; i++) mean[i] += p[i] / prints.length;
  for (const p of prints) for (let i = 0; i < d; i++) sd[i] += (p[i] - mean[i]) ** 2 / prints.length;
  for (let i = 0; i < d; i++) sd[i] = Math.sqrt(sd[i]);
  const withPrint = data.full.flatMap((a, i) => (fingerprintBytes(a.fingerprint) ? [i] : []));
  return (key) => {
    let h = seed;
    for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
    const r = createPrng(h);
    const a = withPrint[r.int(0, withPrint.length - 1)];
    const b = withPrint[r.int(0, withPrint.length - 1)];
    const pa = fingerprintBytes(data.full[a].fingerprint)!;
    const pb = fingerprintBytes(data.full[b].fingerprint)!;
    const share = r.next();
    const bytes = new Uint8Array(1 + d);
    bytes[0] = 1;
    for (let i = 0; i < d; i++) {
      const gauss = Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
      bytes[i + 1] = Math.round(Math.min(255, Math.max(0, share * pa[i] + (1 - share) * pb[i] + gauss * sd[i] * 0.25)));
    }
    return { fingerprint: Buffer.from(bytes).toString("base64"), bpm: data.full[a].bpm, musicalKey: data.full[a].key };
  };
}

/**
 * Distractors' passages "real-mix" (issue #29, ADR 0129), as realMixPrints makes their
 * fingerprints: each of a distractor's `windows` passages the mixture of two real tracks'
 * passages at the same place (a random share of each, drawn once a track) plus noise of a
 * quarter of each value's spread over the real corpus's passages: a catalog whose passages are
 * as dense around real music's as the corpus's are. Deterministic by key.
 */
export function realMixPassages(data: RealData, opts: { windows?: number; seed?: number; minShare?: number } = {}): (key: string) => string {
  const { windows = 17, seed = 129, minShare = 0 } = opts;
  const sets = data.full.map((a) => segmentWindows(a.segments)).filter((w): w is Uint8Array => w !== null);
  const mean = new Float64Array(WINDOW_BYTES);
  const sd = new Float64Array(WINDOW_BYTES);
  let n = 0;
  for (const w of sets) for (let at = 0; at < w.length; at += WINDOW_BYTES, n++) for (let i = 0; i < WINDOW_BYTES; i++) mean[i] += w[at + i];
  for (let i = 0; i < WINDOW_BYTES; i++) mean[i] /= n;
  for (const w of sets) for (let at = 0; at < w.length; at += WINDOW_BYTES) for (let i = 0; i < WINDOW_BYTES; i++) sd[i] += (w[at + i] - mean[i]) ** 2 / n;
  for (let i = 0; i < WINDOW_BYTES; i++) sd[i] = Math.sqrt(sd[i]) * 0.25;
  const out = new Uint8Array(windows * WINDOW_BYTES);
  return (key) => {
    let h = seed;
    for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
    const r = createPrng(h);
    const a = sets[r.int(0, sets.length - 1)];
    const b = sets[r.int(0, sets.length - 1)];
    const na = a.length / WINDOW_BYTES;
    const nb = b.length / WINDOW_BYTES;
    const share = minShare + (1 - 2 * minShare) * r.next();
    // a random place in each, then in step (a distractor's passages follow one another as a track's do)
    const oa = r.int(0, na - 1);
    const ob = r.int(0, nb - 1);
    for (let w = 0; w < windows; w++) {
      const pa = ((oa + w) % na) * WINDOW_BYTES;
      const pb = ((ob + w) % nb) * WINDOW_BYTES;
      for (let i = 0; i < WINDOW_BYTES; i++) {
        const gauss = Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
        out[w * WINDOW_BYTES + i] = Math.round(Math.min(255, Math.max(0, share * a[pa + i] + (1 - share) * b[pb + i] + gauss * sd[i])));
      }
    }
    return encodeSegments(out);
  };
}

/** The real corpus as albums (its own albums of ≤ 4 tracks), after `distractors`. */
export function realAlbums(data: RealData): Album[] {
  const byAlbum = new Map<string, number[]>();
  data.tracks.forEach((t, i) => byAlbum.set(t.album, [...(byAlbum.get(t.album) ?? []), i]));
  return [...byAlbum].map(([album, tracks], a) => ({
    id: `r${a}`,
    name: album,
    artist: data.tracks[tracks[0]].group,
    genre: "Soundtrack",
    artwork: "",
    keywords: ["soundtrack"],
    featured: false,
    tracks: tracks.map((i) => ({ s3Path: realKey(i), Filename: `${data.tracks[i].id}.ogg` })),
  }));
}

/**
 * A track index (the site's) over `albums`, figures from `figure`, analyses (passages) from
 * `analysis`; `analysisWaitMs` as the site's ANALYSIS_WAIT_MS (0: a view never waits for them).
 */
export function benchIndex(albums: Album[], figure: (key: string) => AnalysisFigures | null, analysis: (key: string) => TrackAnalysis | null = () => null, opts: { analysisWaitMs?: number; likeApproximateFrom?: number } = {}): TrackIndex {
  const snap = { albums, films: [], singles: [], channels: [], genres: [], version: 1, updatedAt: "2026-11-27T00:00:00Z" };
  const source = { snapshot: () => snap, mediaUrl: (key: string) => `/media/${key}` } as unknown as CatalogSource;
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const a of albums) {
    for (const t of a.tracks) {
      if (seen.has(t.s3Path)) continue;
      seen.add(t.s3Path);
      keys.push(t.s3Path);
    }
  }
  const lookup: AnalysisLookup = {
    version: 1,
    lookup: async (wanted) => new Map(wanted.flatMap((k) => {
      const a = analysis(k);
      return a ? [[k, a] as const] : [];
    })),
    async figuresAfter(cursor, limit) {
      const from = cursor ? cursor.seq + 1 : 0;
      const out: AnalysisFigures[] = [];
      for (let i = from; i < keys.length && out.length < limit; i++) {
        const f = figure(keys[i]);
        if (f) out.push(f);
        if (out.length === limit) return { rows: out, next: { seq: i } };
      }
      return { rows: out, next: out.length ? { seq: keys.length } : cursor };
    },
  };
  return createCatalogIndexes(source, lookup, { tracks: { yielder: () => NO_YIELD, analysisWaitMs: opts.analysisWaitMs ?? 5_000, likeApproximateFrom: opts.likeApproximateFrom } }).tracks;
}

const stub = (a: RealData["full"][number]): TrackAnalysis => ({
  durationSeconds: a.seconds,
  bpm: a.bpm,
  bpmConfidence: 1,
  key: a.key,
  keyConfidence: 1,
  loudnessLufs: null,
  previewPeaks: [],
  overviewPeaks: [],
  fingerprint: a.fingerprint,
  segments: a.segments ?? null,
  // the running analyzer's: the corpus was analysed by it (the bench's cache is named by the version)
  analyzerVersion: ANALYZER_VERSION,
});

/** The real tracks' figures and analyses by key (real/N.ogg), for benchIndex. */
export function realFigures(data: RealData): { figure: (key: string) => AnalysisFigures | null; analysis: (key: string) => TrackAnalysis | null } {
  const index = (key: string) => (key.startsWith("real/") ? Number(key.slice(5, -4)) : -1);
  return {
    figure: (key) => {
      const i = index(key);
      if (i < 0) return null;
      const a = data.full[i];
      return { key, seconds: a.seconds, bpm: a.bpm, musicalKey: a.key, ...(a.fingerprint ? { fingerprint: a.fingerprint } : {}), ...(a.segments ? { segments: a.segments } : {}) };
    },
    analysis: (key) => {
      const i = index(key);
      return i < 0 ? null : stub(data.full[i]);
    },
  };
}

/** Track `q`'s excerpt as the upload route stores it (server/sounds-like.ts): a reference seed, with its passages or not. */
export function excerptSeed(data: RealData, q: number, withPassages: boolean): ReferenceSeed {
  const e = data.excerpt[q];
  const fingerprint = fingerprintBytes(e.fingerprint);
  const id = `ref-bench${withPassages ? "p" : "s"}${q}`;
  if (!fingerprint) return { id, status: "unknown" };
  const sounding: Sounding = { fingerprint: new Uint8Array(fingerprint), bpm: e.bpm === null ? null : Math.round(e.bpm), key: e.key ? KEY_NAMES.indexOf(e.key) : null };
  const segments = withPassages ? segmentWindows(referenceAnchors(e.segments)) : null;
  return { id, status: "ready", sounding, label: `excerpt ${q}`, ...(segments ? { segments } : {}) };
}

const Q = (like: string, page = 1): TrackQuery => ({ q: "", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "similarity", page, like });

/** Where the source comes in a reference's like= view (0 first; -1 not listed), read page by page, and how many were listed. */
export async function sourcePlace(index: TrackIndex, seed: ReferenceSeed, sourceId: string, maxPages = Math.ceil(LIKE_LIMIT / 12)): Promise<{ place: number; listed: number }> {
  let place = 0;
  let listed = 0;
  for (let page = 1; page <= maxPages; page++) {
    const r = await index.query(Q(seed.id, page), seed);
    listed = r.total;
    for (const row of r.rows) {
      if (row.id === sourceId) return { place, listed };
      place++;
    }
    if (page >= r.pageCount) break;
  }
  return { place: -1, listed };
}

/** Each real track's id in a realAlbums index. */
export function realTrackIds(data: RealData): string[] {
  const ids: string[] = [];
  for (const album of realAlbums(data)) album.tracks.forEach((t, j) => (ids[Number(t.s3Path.slice(5, -4))] = `${album.id}:${j}`));
  return ids;
}

/**
 * The exact order of a catalog seed's neighbours, by measuring every track (similarity.ts
 * scanDistance, the distance the scan uses, over the same catalog scales), the seed left
 * out: the "exact order" recall@12 is measured against. The album rule is not applied (the
 * sets are compared; the rule only moves a fourth track of one album past the first 12).
 */
export function exactMeasure(vectors: Uint8Array, bpm: Uint16Array, key: Uint8Array, count: number): (seed: number, k: number) => number[] {
  const model = createModel(catalogScales(vectors, count));
  const d = new Float64Array(count);
  return (seed, k) => {
    const own = vectors.subarray(seed * FIELDS.length, (seed + 1) * FIELDS.length);
    const tables = seedTables({ fingerprint: own, bpm: bpm[seed] === NO_BPM ? null : bpm[seed], key: key[seed] === NO_KEY ? null : key[seed] });
    for (let i = 0; i < count; i++) d[i] = i === seed ? Infinity : scanDistance(model, tables, vectors, i * FIELDS.length, Math.min(bpm[i], 511), key[i]);
    // the k smallest by a bounded selection (a sort of 2.5 million numbers per seed is not needed)
    const best: number[] = [];
    let worst = Infinity;
    for (let i = 0; i < count; i++) {
      if (best.length >= k && d[i] >= worst) continue;
      best.push(i);
      if (best.length > k * 4) {
        best.sort((a, b) => d[a] - d[b]);
        best.length = k;
        worst = d[best[k - 1]];
      }
    }
    return best.sort((a, b) => d[a] - d[b]).slice(0, k);
  };
}
