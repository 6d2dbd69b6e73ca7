import MusicTempo from "music-tempo";

/**
 * Tempo from a mono excerpt at a low sample rate (~11 kHz, see analyze.ts), by `music-tempo`:
 * Simon Dixon's BeatRoot (onset detection by spectral flux, clustering of inter-onset
 * intervals, multiple beat-tracking agents). ADR 0090 records why and how accurate it is.
 *
 * BeatRoot always names a tempo, even for a steady tone, where its "onsets" are noise. Issue
 * #9 asks for no tempo rather than a guess, so the confidence is measured independently: the
 * autocorrelation of the onset-strength curve at the beat period, which is near 1 when every
 * beat brings an onset and near 0 when the onsets do not repeat at that period.
 */

export interface TempoEstimate {
  bpm: number | null;
  confidence: number;
}

/** Below this, the beat is not steady enough to print a tempo (tones: < 0.1, drum loops: > 0.6). */
export const MIN_TEMPO_CONFIDENCE = 0.3;

// BeatRoot's own defaults (60–200 BPM): a 46 ms FFT window and a 10 ms hop, scaled to the
// excerpt's sample rate instead of its assumed 44.1 kHz.
const WINDOW_SECONDS = 0.046;
const HOP_SECONDS = 0.01;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const hopSize = Math.round(HOP_SECONDS * sampleRate);
  const bufferSize = 2 ** Math.round(Math.log2(WINDOW_SECONDS * sampleRate));
  let mt: MusicTempo;
  try {
    mt = new MusicTempo(pcm, { bufferSize, hopSize, timeStep: hopSize / sampleRate });
  } catch {
    // It throws (strings, not Errors) when it finds no onsets or no tempo: silence, or a drone.
    return { bpm: null, confidence: 0 };
  }
  const bpm = Number(mt.tempo);
  const confidence = periodicity(mt.spectralFlux, (mt.beatInterval * sampleRate) / hopSize);
  if (!Number.isFinite(bpm) || confidence < MIN_TEMPO_CONFIDENCE) return { bpm: null, confidence };
  return { bpm: Math.round(bpm * 10) / 10, confidence };
}

/** Normalised autocorrelation of `x` at a (fractional) lag, the best of the nearest lags. */
function periodicity(x: number[], lag: number): number {
  const n = x.length;
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
