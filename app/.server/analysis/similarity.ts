import { FIELDS, PARTS, type FingerprintPart } from "./fingerprint.ts";
import LEARNED_MAP from "./similarity-map.json" with { type: "json" };

/**
 * The distance between two tracks' sounds, and why two tracks are close, in words (issue #19,
 * ADR 0104). Pure: the track index scans the catalog with it (seedTables + scanDistance), the
 * reference search and the tests call `compare`.
 *
 * D² = Σ over the fingerprint's fields of LEARNED.fields[field] × ((a − b) / σ_field)²
 *    + LEARNED.tempo × tempoTerm + LEARNED.key × keyTerm
 * (ADR 0125: one weight per value learned on real music; ADR 0104's form, still built by
 * `createModel(σ, WEIGHTS)`, gave each field of a part WEIGHTS[part] / fields in the part)
 * - σ_field is the field's standard deviation across the catalog (catalogScales): each field,
 *   then each part, counts for about the same between two tracks picked at random (a mean of 2,
 *   the variance of a difference of two independent values), whatever its unit;
 * - the tempo term is 0 for the same tempo, 1 for tempi 8 % apart, and half or double the
 *   seed's tempo counts as that distance plus OCTAVE_PENALTY (a half-time feel is close);
 * - the key term follows the circle of fifths: the same key 0, the relative key (A minor for
 *   C major) 0.5, a neighbour (a fifth up or down, same mode) 0.75, the parallel key 1, then
 *   0.75 more per step round the circle.
 * A track without a tempo (a pad, no beat) is at 0 from another without one and at
 * NO_TEMPO_TERM from one with a beat; a key unknown on either side costs UNKNOWN_KEY_TERM.
 */

/**
 * ADR 0104's hand-set weights of the parts. Since ADR 0125 the site ranks by the LEARNED
 * metric below (one weight per value); these stay as the "before" the bench compares with, and
 * `createModel(σ, WEIGHTS)` still builds ADR 0104's distance.
 */
export type Weights = Readonly<Record<FingerprintPart | "tempo" | "key", number>>;
export const WEIGHTS: Weights = {
  timbre: 0.35,
  rhythm: 0.15,
  harmony: 0.1,
  energy: 0.15,
  tempo: 0.15,
  key: 0.1,
};

/** A tempo's relative distance (in log₂) that counts 1: 8 %, ~10 BPM at 120. */
const TEMPO_UNIT = Math.log2(1.08);
/** What half or double the reference's tempo adds to the distance of the tempo it matches. */
const OCTAVE_PENALTY = 0.25;
const MAX_TEMPO_TERM = 4;
/** A beat against none: as far as two random tempi (the term's mean between random tracks is about 2). */
const NO_TEMPO_TERM = 3;
const UNKNOWN_KEY_TERM = 1.5;
/** Below this a part reads "similar" in the explanation: half of what two random tracks score (2). */
const SIMILAR_PART = 1;

/** Each field's part, in FIELDS order. */
export const FIELD_PART: readonly FingerprintPart[] = FIELDS.map((f) => f.part);
const PART_SIZE: Record<FingerprintPart, number> = { timbre: 0, rhythm: 0, harmony: 0, energy: 0 };
for (const f of FIELDS) PART_SIZE[f.part]++;

/** The smallest spread a field is scaled by: two quantisation steps (a field all tracks share says nothing). */
const MIN_SIGMA = 2;

/**
 * Each field's standard deviation (in quantised steps) across `count` fingerprints laid end to
 * end in `vectors` (FIELDS.length bytes each); `present[i]` 0 skips track i (no fingerprint).
 */
export function catalogScales(vectors: Uint8Array, count: number, present?: Uint8Array): Float64Array {
  const d = FIELDS.length;
  const sum = new Float64Array(d);
  const sq = new Float64Array(d);
  let n = 0;
  for (let t = 0; t < count; t++) {
    if (present && !present[t]) continue;
    n++;
    const at = t * d;
    for (let i = 0; i < d; i++) {
      const v = vectors[at + i];
      sum[i] += v;
      sq[i] += v * v;
    }
  }
  const sigma = new Float64Array(d);
  for (let i = 0; i < d; i++) sigma[i] = n > 1 ? Math.max(MIN_SIGMA, Math.sqrt(Math.max(0, sq[i] / n - (sum[i] / n) ** 2))) : 32;
  return sigma;
}

/**
 * The site's metric (ADR 0125): one weight per fingerprint value, for ((a − b) / σ_field)², and
 * the tempo and key terms' weights, fitted by neighbourhood components analysis on the real
 * corpus's tuning groups only (`npm run fit:similarity`, labs/fit-similarity.ts; the file
 * carries its provenance). It has the scan's own form (a weighted squared difference per byte),
 * so the index keeps the stored fingerprint's bytes and applies it when it builds the model
 * from the catalog's σ: no new analysis. On the corpus's held-out groups (never fitted on)
 * precision at 10 went from ADR 0104's 0.33 to 0.35, MAP@24 0.38 to 0.42 (ADR 0125's table).
 * ADR 0131 refitted it on 21 tuning groups (272 tracks) with the setting its cross-validation
 * chose: ADR 0118's six held-out groups unchanged (0.35), three new held-out groups 0.49 → 0.51.
 */
export interface LearnedMetric {
  /** FIELDS.length weights, each for ((a − b) / σ_field)² */
  fields: readonly number[];
  tempo: number;
  key: number;
}
export const LEARNED: LearnedMetric = {
  fields: LEARNED_MAP.fields,
  tempo: LEARNED_MAP.tempo,
  key: LEARNED_MAP.key,
};
if (LEARNED.fields.length !== FIELDS.length) throw new Error(`similarity-map.json holds ${LEARNED.fields.length} weights, the fingerprint ${FIELDS.length} values`);

/**
 * The per-field weights of the scan (the metric's weight / σ²), the same without any weight
 * (1 / (fields in the part × σ²): the explanation's parts, which stay ADR 0104's measure whatever
 * ranks the pair), and the tempo and key terms' weights.
 */
export interface SimilarityModel {
  fieldWeights: Float64Array;
  fieldScales: Float64Array;
  tempo: number;
  key: number;
}

/** The site's model (the LEARNED metric), or ADR 0104's form with the parts' `weights`. */
export function createModel(sigma: Float64Array, weights: Weights | LearnedMetric = LEARNED): SimilarityModel {
  const fieldWeights = new Float64Array(FIELDS.length);
  const fieldScales = new Float64Array(FIELDS.length);
  for (let i = 0; i < FIELDS.length; i++) {
    const part = FIELD_PART[i];
    fieldScales[i] = 1 / (PART_SIZE[part] * sigma[i] * sigma[i]);
    fieldWeights[i] = "fields" in weights ? weights.fields[i] / (sigma[i] * sigma[i]) : weights[part] * fieldScales[i];
  }
  return { fieldWeights, fieldScales, tempo: weights.tempo, key: weights.key };
}

/** What the distance reads of a track: its fingerprint's bytes, its tempo and key (KEY_NAMES position: majors 0–11, minors 12–23). */
export interface Sounding {
  fingerprint: Uint8Array;
  bpm: number | null;
  key: number | null;
}

export type TempoRelation = "same" | "near" | "half" | "double" | "far" | "none";

/** How a tempo compares with the seed's: its term and, for the explanation, the relation. */
export function tempoTerm(seedBpm: number | null, bpm: number | null): { term: number; relation: TempoRelation } {
  if (seedBpm === null || bpm === null || !(seedBpm > 0) || !(bpm > 0)) {
    return { term: seedBpm === null && bpm === null ? 0 : NO_TEMPO_TERM, relation: "none" };
  }
  const options: [number, TempoRelation, number][] = [
    [Math.abs(Math.log2(bpm / seedBpm)), "near", 0],
    [Math.abs(Math.log2(bpm / (seedBpm / 2))), "half", OCTAVE_PENALTY],
    [Math.abs(Math.log2(bpm / (seedBpm * 2))), "double", OCTAVE_PENALTY],
  ];
  let best = { term: Infinity, relation: "far" as TempoRelation };
  for (const [distance, relation, penalty] of options) {
    const term = Math.min(MAX_TEMPO_TERM, (distance / TEMPO_UNIT) ** 2 + penalty);
    if (term < best.term) best = { term, relation };
  }
  if (Math.round(bpm) === Math.round(seedBpm)) best.relation = "same";
  else if (best.term >= 1 + OCTAVE_PENALTY) best.relation = "far";
  return best;
}

export type KeyRelation = "same" | "relative" | "neighbour" | "parallel" | "far" | "unknown";

/** A key's place on the circle of fifths (0–11), its relative major's place for a minor key. */
function fifthsOf(key: number): number {
  const tonic = key % 12;
  const major = key < 12 ? tonic : (tonic + 3) % 12;
  return (major * 7) % 12;
}

export function keyRelation(seed: number | null, key: number | null): { term: number; relation: KeyRelation } {
  if (seed === null || key === null || seed < 0 || key < 0 || seed > 23 || key > 23) return { term: UNKNOWN_KEY_TERM, relation: "unknown" };
  if (seed === key) return { term: 0, relation: "same" };
  const sameMode = seed < 12 === key < 12;
  const around = Math.abs(fifthsOf(seed) - fifthsOf(key));
  const steps = Math.min(around, 12 - around);
  if (!sameMode && steps === 0) return { term: 0.5, relation: "relative" };
  if (sameMode && steps === 1) return { term: 0.75, relation: "neighbour" };
  if (!sameMode && seed % 12 === key % 12) return { term: 1, relation: "parallel" };
  return { term: Math.min(4, 0.75 * steps + (sameMode ? 0 : 0.5)), relation: "far" };
}

/** Each part's mean squared scaled difference, and the tempo and key terms. */
export interface Comparison {
  distance: number;
  parts: Record<FingerprintPart, number>;
  tempo: { term: number; relation: TempoRelation };
  key: { term: number; relation: KeyRelation };
}

export function compare(model: SimilarityModel, seed: Sounding, other: Sounding): Comparison {
  const parts: Record<FingerprintPart, number> = { timbre: 0, rhythm: 0, harmony: 0, energy: 0 };
  let distance = 0;
  for (let i = 0; i < FIELDS.length; i++) {
    const diff = seed.fingerprint[i] - other.fingerprint[i];
    distance += model.fieldWeights[i] * diff * diff;
    parts[FIELD_PART[i]] += model.fieldScales[i] * diff * diff;
  }
  const tempo = tempoTerm(seed.bpm, other.bpm);
  const key = keyRelation(seed.key, other.key);
  distance += model.tempo * tempo.term + model.key * key.term;
  return { distance, parts, tempo, key };
}

/**
 * Why a track is in the list, in words, most telling first (issue #41: "reference", the word a
 * buyer uses, not "seed"): its tempo against the seed's, how
 * its key relates, then each part of the sound that is closer than half the catalog's typical
 * spread ("similar timbre"). Example: "122 BPM (reference 120) · relative key · similar timbre".
 */
export function explain(c: Comparison, seedBpm: number | null, bpm: number | null): string {
  const words: string[] = [];
  const whole = (v: number) => Math.round(v);
  if (bpm !== null && seedBpm !== null) {
    if (c.tempo.relation === "same") words.push(`same tempo, ${whole(bpm)} BPM`);
    else if (c.tempo.relation === "near") words.push(`${whole(bpm)} BPM (reference ${whole(seedBpm)})`);
    else if (c.tempo.relation === "half") words.push(`${whole(bpm)} BPM, half the reference's ${whole(seedBpm)}`);
    else if (c.tempo.relation === "double") words.push(`${whole(bpm)} BPM, double the reference's ${whole(seedBpm)}`);
  } else if (bpm === null && seedBpm === null) {
    words.push("no beat, like the reference");
  }
  const keyWords: Partial<Record<KeyRelation, string>> = { same: "same key", relative: "relative key", neighbour: "neighbouring key", parallel: "parallel key" };
  const keyWord = keyWords[c.key.relation];
  if (keyWord) words.push(keyWord);
  const ranked = PARTS.filter((p) => c.parts[p] < SIMILAR_PART && !(p === "harmony" && keyWord)).sort((a, b) => c.parts[a] - c.parts[b]);
  // at most the two closest parts: a list of every part would read as no reason at all
  for (const p of ranked.slice(0, 2)) words.push(`similar ${p}`);
  return words.length ? words.join(" · ") : "closest of the rest";
}

/**
 * What a scan needs of the seed: its bytes, and its tempo and key terms already weighted for
 * every whole BPM (0–511, 0 = none, the index's packed range) and every key (0–23, 31 = none).
 */
export interface SeedTables {
  fingerprint: Uint8Array;
  tempo: Float64Array;
  key: Float64Array;
}

export function seedTables(seed: Sounding, weights: Pick<Weights, "tempo" | "key"> = LEARNED): SeedTables {
  const tempo = new Float64Array(512);
  for (let b = 0; b < 512; b++) tempo[b] = weights.tempo * tempoTerm(seed.bpm, b === 0 ? null : b).term;
  const key = new Float64Array(32);
  for (let k = 0; k < 32; k++) key[k] = weights.key * keyRelation(seed.key, k < 24 ? k : null).term;
  return { fingerprint: seed.fingerprint, tempo, key };
}

/**
 * The distance of the fingerprint at `vectors[at … at + FIELDS.length)` from the seed, plus
 * the seed's tempo and key terms for `bpm` (0 none, ≤ 511) and `key` (0–23, else none). The
 * scan's inner loop: a weighted squared difference over the 45 bytes.
 */
export function scanDistance(model: SimilarityModel, seed: SeedTables, vectors: Uint8Array, at: number, bpm: number, key: number): number {
  const w = model.fieldWeights;
  const s = seed.fingerprint;
  let d = seed.tempo[bpm > 511 ? 511 : bpm] + seed.key[key > 31 ? 31 : key];
  for (let i = 0; i < w.length; i++) {
    const diff = s[i] - vectors[at + i];
    d += w[i] * diff * diff;
  }
  return d;
}
