// Version 4 of the analyzer (ADR 0117), kept unchanged for bench:tempo's "before" column (ADR 0117's second round).
import { onsetStrength } from "./onset-v3.ts";

/**
 * Tempo from a mono excerpt at a low sample rate (~11 kHz, see analyze.ts), by the methods of
 * the literature (ADR 0105, which replaces ADR 0090's BeatRoot and percussive-onset rule):
 * 1. an onset-strength envelope (onset.ts: multi-band flux, 10 ms frames);
 * 2. an autocorrelation tempogram: the envelope's normalised autocorrelation in 6 s windows
 *    every 2 s, averaged — a tempo that drifts or breathes still peaks near its mean;
 * 3. the beat period: the tempogram weighted by a log-Gaussian tempo prior (Ellis 2007;
 *    librosa's `tempo`) — no tempo when a level at 2:3, 3:4 or 4:5 of the best peaks nearly as
 *    high (ADR 0117: a wrong tempo is worse than none) — then the metrical level a listener taps
 *    (the faster level when it is nearly as clear, below);
 * 4. the beats: Ellis's dynamic-programming beat tracker at that period; the tempo reported is
 *    the mean rate of the beats it finds (the dominant tempo of a drifting track);
 * 5. the confidence: the pulse clarity (Lartillot et al. 2008), the tempogram's height at the
 *    beat period, times the share of beats that hold an onset. Below MIN_TEMPO_CONFIDENCE
 *    there is no tempo (tones, drones, pads, noise, silence).
 */

export interface TempoEstimate {
  bpm: number | null;
  confidence: number;
}

/** What the decision rests on (the bench and the tests print it). */
export interface TempoMeasures extends TempoEstimate {
  /** The tempo found, whether or not it passed the cut-off; null when there was nothing to measure. */
  candidateBpm: number | null;
  /** Beats the tracker placed. */
  beats: number;
  /** Another level, not an octave of the one found, was nearly as likely: no tempo is named. */
  ambiguous?: boolean;
}

/** Below this pulse clarity no tempo is named: chosen from the evaluation set (ADR 0105). */
export const MIN_TEMPO_CONFIDENCE = 0.12;

/** The tempi reported (BPM): every notated tempo a buyer filters by, a metrical level apart at the ends. */
const MIN_BPM = 50;
const MAX_BPM = 210;
/** The tempo prior: log-Gaussian around PRIOR_BPM, PRIOR_OCTAVES wide (one standard deviation). */
const PRIOR_BPM = 120;
const PRIOR_OCTAVES = 1;
const WINDOW_SECONDS = 6;
/** How far (a share of the period) the beat may sway between windows and still count as the same tempo. */
const TEMPO_SWAY = 0.08;
const WINDOW_HOP_SECONDS = 2;
/** How high the tempogram at twice the tempo must be, against the chosen level's, to take it instead (ADR 0105). */
const FASTER_LEVEL = 0.9;
const FASTER_CLARITY = 0.5;
const SLOW_BPM = 80;
const SLOW_FASTER_LEVEL = 0.45;
const SLOW_FASTER_CLARITY = 0.25;
/**
 * A rival level (2:3, 3:4, 4:5 of the best or their inverses) scoring this share of the best's
 * makes the tempo ambiguous: none is named. From the real tuning part of bench:tempo (ADR 0117:
 * 0.6–0.9 tried; 0.8 the highest with no answer wrong at accuracy 2 there).
 */
const AMBIGUITY = 0.8;
/** How strictly the beat tracker keeps to the period (Ellis 2007's α; librosa's `tightness`). */
const TIGHTNESS = 100;
/** Less sound than this (seconds) has no tempo to find. */
const MIN_SOUND_SECONDS = 4;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const { bpm, confidence } = measureTempo(pcm, sampleRate);
  return { bpm, confidence };
}

export function measureTempo(pcm: Float32Array, sampleRate: number): TempoMeasures {
  const env = onsetStrength(pcm, sampleRate);
  const none: TempoMeasures = { bpm: null, confidence: 0, candidateBpm: null, beats: 0 };
  const fr = env.frameRate;
  if (env.soundingFrames / fr < MIN_SOUND_SECONDS) return none;
  const minLag = Math.floor((60 / MAX_BPM) * fr);
  const maxLag = Math.ceil((60 / MIN_BPM) * fr);
  const tg = tempogram(env.strength, Math.round(WINDOW_SECONDS * fr), Math.round(WINDOW_HOP_SECONDS * fr), maxLag + 1);
  if (!tg) return none;
  const gram = tg.mean;
  // Each local peak of the tempogram (a slope next to a peak is the same period) is a candidate
  // period, scored by its height under the tempo prior.
  const candidates: { lag: number; score: number }[] = [];
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (!(gram[lag] >= gram[lag - 1] && gram[lag] >= gram[lag + 1])) continue;
    candidates.push({ lag, score: gram[lag] * prior((60 * fr) / lag) });
  }
  candidates.sort((a, b) => b.score - a.score);
  if (candidates.length === 0 || !(candidates[0].score > 0)) return none;
  let bestLag = candidates[0].lag;
  // Abstain when the levels are ambiguous (issue #28, ADR 0117: a wrong tempo is worse than
  // none): a candidate at 2:3, 3:4 or 4:5 of the best's period, or their inverses — the levels
  // of a triplet feel, a dotted rhythm, a hemiola — scores nearly as well. Octaves and triples
  // are not rivals: they are the same pulse, and the rule below picks among them.
  const rival = candidates.find((c) => rivalLevel(c.lag, bestLag));
  const ambiguous = rival !== undefined && rival.score >= AMBIGUITY * candidates[0].score;
  // The metrical level. A beat whose two-beat pattern (kick on 1 and 3, snare on 2 and 4; a
  // swing ride's "ding, ding-a") repeats better than the beat itself peaks at half its rate, and
  // the prior does not always pull it back. The level twice as fast is taken when it is clear
  // (FASTER_CLARITY) and nearly as clear as the level chosen (FASTER_LEVEL of it); or, when the
  // level chosen is under SLOW_BPM — a rate people rarely tap when a faster pulse is there to
  // tap (their preferred rate is near 120, Moelants 2002) — when it is fairly clear
  // (SLOW_FASTER_CLARITY) and 0.45 as clear (SLOW_FASTER_LEVEL) as the level chosen.
  const fastLag = peakNear(gram, bestLag / 2);
  const fastBpm = (60 * fr) / fastLag;
  const fastClarity = clarity(tg.rows, fastLag);
  const chosenClarity = clarity(tg.rows, bestLag);
  const faster =
    (fastClarity >= FASTER_CLARITY && fastClarity >= FASTER_LEVEL * chosenClarity) ||
    (fastBpm / 2 < SLOW_BPM && fastClarity >= SLOW_FASTER_CLARITY && fastClarity >= SLOW_FASTER_LEVEL * chosenClarity);
  if (fastBpm <= MAX_BPM && faster) bestLag = fastLag;
  const period = refinePeak(gram, bestLag);
  // A steady beat sounds in (nearly) every beat; onsets bunched in a few places — the partials
  // of two chords beating while one fades into the next — repeat within the bunch only.
  const confidence = Math.max(0, Math.min(1, clarity(tg.rows, period) * coverage(env.strength, env.sounding, period)));
  const beats = trackBeats(env.strength, period);
  // the dominant tempo: the beats' mean rate, when the tracker kept near the period
  let bpm = (60 * fr) / period;
  if (beats.length >= 4) {
    const mean = (beats[beats.length - 1] - beats[0]) / (beats.length - 1);
    if (Math.abs(mean / period - 1) < 0.15) bpm = (60 * fr) / mean;
  }
  const candidateBpm = Math.round(bpm * 10) / 10;
  return { bpm: confidence >= MIN_TEMPO_CONFIDENCE && !ambiguous ? candidateBpm : null, confidence, candidateBpm, beats: beats.length, ambiguous };
}

/** Whether two periods are at a ratio that makes a wrong metrical level (2:3, 3:4, 4:5 or their inverses), within 4 %. */
export function rivalLevel(a: number, b: number): boolean {
  const r = Math.max(a, b) / Math.min(a, b);
  return [3 / 2, 4 / 3, 5 / 4].some((k) => Math.abs(r / k - 1) < 0.04);
}


/** The log-Gaussian tempo prior at `bpm`, 1 at PRIOR_BPM. */
export function prior(bpm: number): number {
  const octaves = Math.log2(bpm / PRIOR_BPM);
  return Math.exp(-0.5 * (octaves / PRIOR_OCTAVES) ** 2);
}

/**
 * The mean over windows of the envelope's normalised autocorrelation (1 at lag 0), for lags
 * 0..lags-1; windows with no onsets are left out. null when no window has any.
 */
export function tempogram(x: Float32Array, win: number, hop: number, lags: number): { mean: Float64Array; rows: Float64Array[] } | null {
  const n = x.length;
  const size = Math.min(win, n);
  if (size <= lags + 1) return null;
  const out = new Float64Array(lags + 1);
  const seg = new Float64Array(size);
  const rows: Float64Array[] = [];
  let used = 0;
  for (let start = 0; start + size <= n; start += hop) {
    let mean = 0;
    for (let i = 0; i < size; i++) mean += x[start + i];
    mean /= size;
    let energy = 0;
    for (let i = 0; i < size; i++) {
      seg[i] = x[start + i] - mean;
      energy += seg[i] * seg[i];
    }
    if (!(energy > 1e-9)) continue;
    used++;
    const row = new Float64Array(lags + 1);
    for (let lag = 1; lag <= lags; lag++) {
      let sum = 0;
      for (let i = 0; i + lag < size; i++) sum += seg[i] * seg[i + lag];
      row[lag] = (sum / energy) * (size / (size - lag));
      out[lag] += row[lag];
    }
    rows.push(row);
    if (start + size === n) break;
  }
  if (used === 0) return null;
  for (let lag = 0; lag <= lags; lag++) out[lag] /= used;
  out[0] = 1;
  return { mean: out, rows };
}

/**
 * The pulse clarity at `period`: in each window the autocorrelation's height at the period,
 * or at the nearest peak within TEMPO_SWAY of it (a tempo that breathes or drifts moves the
 * peak from window to window), averaged over the windows.
 */
export function clarity(rows: Float64Array[], period: number): number {
  let sum = 0;
  for (const row of rows) {
    const lo = Math.max(1, Math.floor(period * (1 - TEMPO_SWAY)));
    const hi = Math.min(row.length - 1, Math.ceil(period * (1 + TEMPO_SWAY)));
    let best = -Infinity;
    for (let lag = lo; lag <= hi; lag++) best = Math.max(best, row[lag]);
    sum += best;
  }
  return sum / rows.length;
}

/** The share of the sounding beat-long stretches of the envelope (`period` frames each) that hold an onset. */
export function coverage(strength: Float32Array, sounding: Uint8Array, period: number): number {
  const slot = Math.max(1, Math.round(period));
  let slots = 0;
  let hit = 0;
  for (let start = 0; start + slot <= strength.length; start += slot) {
    let sound = 0;
    let onset = false;
    for (let f = start; f < start + slot; f++) {
      sound += sounding[f];
      if (strength[f] > 0) onset = true;
    }
    if (sound * 2 < slot) continue;
    slots++;
    if (onset) hit++;
  }
  return slots === 0 ? 0 : hit / slots;
}

/** The lag of the highest value within a frame of `lag`. */
export function peakNear(g: Float64Array, lag: number): number {
  let best = Math.round(lag);
  for (const l of [Math.floor(lag) - 1, Math.floor(lag), Math.ceil(lag), Math.ceil(lag) + 1]) if (l >= 2 && l < g.length - 1 && g[l] > g[best]) best = l;
  return best;
}

/** The peak's lag to a fraction of a frame (parabola through it and its neighbours). */
export function refinePeak(g: Float64Array, lag: number): number {
  const a = g[lag - 1];
  const b = g[lag];
  const c = g[lag + 1];
  const d = a - 2 * b + c;
  return d < 0 ? lag + (0.5 * (a - c)) / d : lag;
}

/**
 * Ellis (2007) dynamic-programming beat tracking: beats on strong onsets, spaced close to
 * `period` frames; the score of a beat at t is its onset strength plus the best predecessor's
 * score less TIGHTNESS × (log of the spacing over the period)². Returns beat frames.
 */
export function trackBeats(env: Float32Array, period: number): number[] {
  const n = env.length;
  let sd = 0;
  let mean = 0;
  for (const v of env) mean += v / n;
  for (const v of env) sd += (v - mean) ** 2 / n;
  const norm = Math.sqrt(sd) || 1;
  const score = new Float64Array(n);
  const from = new Int32Array(n).fill(-1);
  const lo = Math.round(period / 2);
  const hi = Math.round(period * 2);
  for (let t = 0; t < n; t++) {
    const local = env[t] / norm;
    let best = 0;
    let arg = -1;
    for (let tau = t - hi; tau <= t - lo; tau++) {
      if (tau < 0) continue;
      const r = Math.log((t - tau) / period);
      const s = score[tau] - TIGHTNESS * r * r;
      if (arg < 0 || s > best) {
        best = s;
        arg = tau;
      }
    }
    score[t] = local + (arg >= 0 ? Math.max(0, best) : 0);
    from[t] = arg >= 0 && best > 0 ? arg : -1;
  }
  // the last beat: the best score in the final period
  let end = -1;
  for (let t = Math.max(0, n - Math.round(period)); t < n; t++) if (end < 0 || score[t] > score[end]) end = t;
  const beats: number[] = [];
  for (let t = end; t >= 0; t = from[t]) beats.push(t);
  return beats.reverse();
}
