// Version 5 of the analyzer (ADR 0117, second round), kept unchanged for bench:tempo's "before" column (ADR 0126).
import { onsetStrength } from "./onset-v3.ts";
// Its helpers that version 5 did not change are version 4's own, imported from its frozen copy.
import { clarity, coverage, peakNear, prior, refinePeak, rivalLevel, tempogram, trackBeats } from "./tempo-v4.ts";

/**
 * Tempo from a mono excerpt at a low sample rate (~11 kHz, see analyze.ts), by the methods of
 * the literature (ADR 0105, which replaces ADR 0090's BeatRoot and percussive-onset rule):
 * 1. an onset-strength envelope (onset.ts: multi-band flux, 10 ms frames);
 * 2. an autocorrelation tempogram: the envelope's normalised autocorrelation in 6 s windows
 *    every 2 s, averaged — a tempo that drifts or breathes still peaks near its mean;
 * 3. the beat period: the tempogram weighted by a log-Gaussian tempo prior (Ellis 2007;
 *    librosa's `tempo`); where a level at 2:3, 3:4 or 4:5 of the best peaks too, the level the
 *    bar holds a whole number of times (a meter check after Klapuri et al. 2006), and no tempo
 *    when the two stay close (ADR 0117: a wrong tempo is worse than none); then the metrical
 *    level a listener taps (the faster level when it is nearly as clear, below);
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
  /** The rival levels weighed (the bench prints them). */
  levels?: { bpm: number; score: number; support: number }[];
}

/** Below this pulse clarity no tempo is named: chosen from the evaluation set (ADR 0105). */
export const MIN_TEMPO_CONFIDENCE = 0.12;

/** The tempi reported (BPM): every notated tempo a buyer filters by, a metrical level apart at the ends. */
const MIN_BPM = 50;
const MAX_BPM = 210;
// The prior (PRIOR_BPM, PRIOR_OCTAVES), TEMPO_SWAY and TIGHTNESS are version 4's, in its helpers.
const WINDOW_SECONDS = 6;
const WINDOW_HOP_SECONDS = 2;
/** How high the tempogram at twice the tempo must be, against the chosen level's, to take it instead (ADR 0105). */
const FASTER_LEVEL = 0.9;
const FASTER_CLARITY = 0.5;
const SLOW_BPM = 80;
const SLOW_FASTER_LEVEL = 0.45;
const SLOW_FASTER_CLARITY = 0.25;
/** Rival levels scoring under this share of the best's (prior-weighted tempogram) are not weighed. */
const RIVAL_FLOOR = 0.5;
/**
 * When the runner-up level's support is at least this share of the winner's, the levels are
 * ambiguous and no tempo is named (ADR 0117: a wrong tempo is worse than none). Version 4's
 * threshold, kept; its second round measured 0.6–0.95 on the real tuning part.
 */
const AMBIGUITY = 0.8;
/** The bar periods, in beats, that the meter check looks for (Klapuri et al. 2006: two to four beats a measure). */
const BEATS_A_BAR = [2, 3, 4];
/** Less sound than this (seconds) has no tempo to find. */
const MIN_SOUND_SECONDS = 4;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const { bpm, confidence } = measureTempo(pcm, sampleRate);
  return { bpm, confidence };
}

export function measureTempo(pcm: Float32Array, sampleRate: number): TempoMeasures {
  return measureEnvelope(onsetStrength(pcm, sampleRate));
}

export function measureEnvelope(env: ReturnType<typeof onsetStrength>): TempoMeasures {
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
  // The rival levels (issue #28, ADR 0117): candidates at 2:3, 3:4 or 4:5 of the best's period,
  // or their inverses — the levels of a triplet feel, a dotted or 3+3+2 rhythm, a hemiola —
  // scoring at least RIVAL_FLOOR of it. Octaves and triples are not rivals: they are the same
  // pulse, and the faster-level rule below picks among them. Each level is weighed by its
  // score times the metre's support for it (meterSupport: a beat the bar holds two, three or
  // four times, after Klapuri, Eronen and Astola's 2006 meter model); the strongest is the
  // beat, and no tempo is named when the runner-up comes within AMBIGUITY of it.
  let ambiguous = false;
  let levels: TempoMeasures["levels"];
  const contenders = [candidates[0], ...candidates.filter((c) => rivalLevel(c.lag, candidates[0].lag) && c.score >= RIVAL_FLOOR * candidates[0].score)];
  if (contenders.length > 1) {
    const acf = autocorrelation(env.strength, Math.ceil(maxLag * (Math.max(...BEATS_A_BAR) + 0.2)));
    const judged = contenders
      .map((c) => ({ lag: c.lag, score: c.score / candidates[0].score, support: meterSupport(acf, refinePeak(gram, c.lag)) }))
      .map((j) => ({ ...j, weight: j.score * j.support }))
      .sort((a, b) => b.weight - a.weight);
    levels = judged.map((j) => ({ bpm: Math.round((600 * fr) / j.lag) / 10, score: j.score, support: j.support }));
    bestLag = judged[0].lag;
    ambiguous = judged[1].weight >= AMBIGUITY * judged[0].weight;
  }
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
  return { bpm: confidence >= MIN_TEMPO_CONFIDENCE && !ambiguous ? candidateBpm : null, confidence, candidateBpm, beats: beats.length, ambiguous, levels };
}

/** The envelope's autocorrelation over the whole excerpt (mean removed; 1 at lag 0), lags 0..lags. */
export function autocorrelation(x: Float32Array, lags: number): Float64Array {
  const n = x.length;
  let mean = 0;
  for (const v of x) mean += v / n;
  const d = Float64Array.from(x, (v) => v - mean);
  const out = new Float64Array(lags + 1);
  let energy = 0;
  for (const v of d) energy += v * v;
  if (!(energy > 0)) return out;
  for (let lag = 0; lag <= lags && lag < n; lag++) {
    let sum = 0;
    for (let i = 0; i + lag < n; i++) sum += d[i] * d[i + lag];
    out[lag] = (sum / energy) * (n / (n - lag));
  }
  return out;
}

/**
 * The metre's support for a beat period (after Klapuri, Eronen and Astola 2006, whose meter
 * model favours a tactus that the measure holds a whole number of times): the whole excerpt's
 * autocorrelation at its highest within ±3 % of 2, 3 or 4 periods, floored at a small value.
 * A 3+3+2 rhythm in 4/4 at 120 makes the tempogram peak at 80 (three eighths); the bar, every
 * 2 s, is four beats at 120 but 2.67 at 80, so the bar's repetition supports 120 only.
 */
export function meterSupport(acf: Float64Array, period: number): number {
  let best = 0;
  for (const m of BEATS_A_BAR) {
    const lo = Math.floor(m * period * 0.97);
    const hi = Math.min(acf.length - 1, Math.ceil(m * period * 1.03));
    for (let lag = lo; lag <= hi; lag++) best = Math.max(best, acf[lag]);
  }
  return Math.max(0.01, best);
}
