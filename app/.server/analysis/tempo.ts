import MusicTempo from "music-tempo";

/**
 * Tempo from a mono excerpt at a low sample rate (~11 kHz, see analyze.ts), by `music-tempo`:
 * Simon Dixon's BeatRoot (onset detection by spectral flux, clustering of inter-onset
 * intervals, multiple beat-tracking agents). ADR 0090 records why and how accurate it is.
 *
 * BeatRoot always names a tempo, even for a steady tone. Issue #9 asks for no tempo rather
 * than a guess, so the confidence is measured apart from it: the autocorrelation of
 * BeatRoot's onset curve (spectral flux) at the beat period it chose — near 1 when every beat
 * brings an onset, near 0 when the onsets do not repeat at that period. That curve is
 * normalised, so for a sound whose level never moves, the ripple of a sine's spectrum from
 * frame to frame would pass for a beat: such sounds are recognised by their level first.
 */

export interface TempoEstimate {
  bpm: number | null;
  confidence: number;
}

/** Below this the beat is not steady enough to name a tempo (measured: chords alone 0–0.25, drum patterns 0.85–0.95). */
export const MIN_TEMPO_CONFIDENCE = 0.4;

// BeatRoot's own defaults (60–200 BPM): a 46 ms FFT window and a 10 ms hop, scaled to the
// excerpt's sample rate instead of its assumed 44.1 kHz.
const WINDOW_SECONDS = 0.046;
const HOP_SECONDS = 0.01;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const hopSize = Math.round(HOP_SECONDS * sampleRate);
  const bufferSize = 2 ** Math.round(Math.log2(WINDOW_SECONDS * sampleRate));
  if (isSteady(pcm, hopSize)) return { bpm: null, confidence: 0 };
  let mt: MusicTempo;
  try {
    mt = new MusicTempo(pcm, { bufferSize, hopSize, timeStep: hopSize / sampleRate });
  } catch {
    // It throws (strings, not Errors) when it finds no onsets or no tempo: silence, or a drone.
    return { bpm: null, confidence: 0 };
  }
  let bpm = Number(mt.tempo);
  if (!Number.isFinite(bpm) || bpm <= 0) return { bpm: null, confidence: 0 };
  // BeatRoot sometimes locks onto every other beat, or onto eighth notes (a 95 BPM beat with
  // chords over it came out as 190). The flux's periodicity at half and twice the period
  // tells: at the true beat it is high, at the eighth-note level it is near zero.
  const lagAt = (b: number) => (60 / b) * (sampleRate / hopSize);
  const p = (b: number) => periodicity(mt.spectralFlux, lagAt(b));
  let confidence = p(bpm);
  if (bpm * 2 <= MAX_BPM && p(bpm * 2) >= confidence - OCTAVE_MARGIN / 2 && p(bpm * 2) >= MIN_TEMPO_CONFIDENCE) {
    bpm *= 2;
  } else if (bpm / 2 >= MIN_BPM && p(bpm / 2) - confidence > OCTAVE_MARGIN) {
    bpm /= 2;
  }
  confidence = p(bpm);
  if (confidence < MIN_TEMPO_CONFIDENCE) return { bpm: null, confidence };
  return { bpm: Math.round(bpm * 10) / 10, confidence };
}

// BeatRoot's range (its minBeatInterval and maxBeatInterval defaults).
const MIN_BPM = 60;
const MAX_BPM = 200;
/** How much more periodic the half tempo must be than the tempo found to be preferred. */
const OCTAVE_MARGIN = 0.3;

/**
 * Whether the level (RMS amplitude per frame of `hop` samples) never rises by more than a trace:
 * its mean rise per frame, relative to the mean level, is below MAX_STEADY_RISE. Measured on
 * synthesised audio (ADR 0090): a steady tone 0.005, drum patterns 0.04–0.06, chords 0.1.
 */
function isSteady(pcm: Float32Array, hop: number): boolean {
  let previous = -1;
  let rises = 0;
  let level = 0;
  for (let at = 0; at + hop <= pcm.length; at += hop) {
    let energy = 0;
    for (let i = at; i < at + hop; i++) energy += pcm[i] * pcm[i];
    const rms = Math.sqrt(energy / hop);
    if (previous >= 0 && rms > previous) rises += rms - previous;
    level += rms;
    previous = rms;
  }
  return level === 0 || rises / level < MAX_STEADY_RISE;
}

const MAX_STEADY_RISE = 0.015;

/** Normalised autocorrelation of `x` at a (fractional) lag, the best of the nearest lags. */
function periodicity(x: number[], lag: number): number {
  const n = x.length;
  if (n === 0) return 0;
  let mean = 0;
  for (const v of x) mean += v;
  mean /= n;
  let energy = 0;
  for (const v of x) energy += (v - mean) ** 2;
  if (!(energy > 0) || !(lag >= 1) || lag >= n / 2) return 0;
  let best = 0;
  for (const l of [Math.floor(lag), Math.ceil(lag)]) {
    let sum = 0;
    for (let i = 0; i + l < n; i++) sum += (x[i] - mean) * (x[i + l] - mean);
    best = Math.max(best, (sum / energy) * (n / (n - l)));
  }
  return Math.min(1, Math.max(0, best));
}
