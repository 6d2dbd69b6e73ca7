/**
 * An onset-strength envelope (ADR 0105): how much new sound starts in each 10 ms frame, the
 * input of every tempo estimator in the literature (Scheirer 1998, Klapuri 2006, Ellis 2007).
 * Made here as a multi-band flux: the excerpt is split by seven band-pass filters (RBJ
 * biquads, one octave wide, 80 Hz to 5 kHz — kick, bass, the body of chords, their harmonics,
 * hi-hats), each band's energy in a 46 ms window every 10 ms is compressed as μ-law of its
 * share of the whole signal's mean energy (so a band 30 dB under the mix, or an encoder's noise
 * floor, barely moves), and the rises (half-wave rectified first differences) are summed over
 * the bands — in the frames where two bands or more rise together. A drum, a plucked or struck
 * note, a bowed accent rise in several bands at once; a sustained tone rises in none, partials
 * beating against each other in one at a time. Time-domain filters cost a few ms per band per
 * minute of excerpt.
 *
 * Reusable: any feature that needs "where do notes start" (tempo here; similarity features)
 * can take this envelope.
 */

export interface OnsetEnvelope {
  /** Onset strength per frame, ≥ 0. */
  strength: Float32Array;
  /** Frames per second (100: 10 ms hops). */
  frameRate: number;
  /** Frames whose level is above the silence floor (-60 dB of the excerpt's mean). */
  soundingFrames: number;
  /** 1 for each frame above that floor. */
  sounding: Uint8Array;
  /**
   * Each band's energy per frame, lowest band first (80 Hz … 2.6 kHz at the analysis rate): where
   * the kick, the snare and the hats sound at each beat (the backbeat's octave, tempo.ts, ADR 0159).
   */
  bandEnergies: Float64Array[];
}

export const ONSET_FRAME_SECONDS = 0.01;
/** Band centres (Hz): one-octave bands from the kick to the hi-hat. */
const BANDS_HZ = [80, 160, 320, 640, 1280, 2560, 5000];
/** Q of a one-octave band-pass. */
const BAND_Q = 1.41;
/** μ of the μ-law compression, applied to each band's energy over the mix's mean energy. */
const MU = 1000;
/** The same compression, for the tempo's per-band rises (tempo.ts, ADR 0159). */
export const ONSET_MU = MU;
const SILENT = 1e-6;
/** Bands that must rise together in a frame for it to count as an onset. */
const MIN_RISING_BANDS = 2;
/** ... and rise by this much together (μ-law units summed over the bands, a few dB). */
const MIN_STRIKE = 0.6;
/** The energy window: about 4 periods of a 90 Hz bass note (BeatRoot's and many STFT onset detectors' 46 ms). */
const WINDOW_SECONDS = 0.046;
/** Rises smaller than this (μ-law units, ~0.4 dB at a band's usual level) are ripple: a steady tone's, a slow vibrato's. */
const RISE_FLOOR = 0.1;

export function onsetStrength(pcm: Float32Array, sampleRate: number): OnsetEnvelope {
  const hop = Math.max(1, Math.round(ONSET_FRAME_SECONDS * sampleRate));
  const frameRate = sampleRate / hop;
  const frames = Math.floor(pcm.length / hop);
  const strength = new Float32Array(frames);
  const bands = BANDS_HZ.filter((hz) => hz < sampleRate * 0.45);
  // each band's energy in a Hann window of WINDOW_SECONDS around each frame: a window of a
  // few periods of the lowest notes, so a steady periodic waveform measures steady (a 10 ms
  // box holds one period of a 110 Hz note or two, and its energy would ripple with the phase)
  const window = hann(Math.round(WINDOW_SECONDS * sampleRate));
  const energy = bands.map((hz) => bandEnergy(pcm, sampleRate, hz, hop, frames, window));
  let mean = 0;
  for (const e of energy) for (let f = 0; f < frames; f++) mean += e[f];
  mean /= Math.max(1, frames);
  const sounding = new Uint8Array(frames);
  if (!(mean > 0)) return { strength, frameRate, soundingFrames: 0, sounding, bandEnergies: energy };
  let soundingFrames = 0;
  for (let f = 0; f < frames; f++) {
    let total = 0;
    for (const e of energy) total += e[f];
    if (total > mean * SILENT) {
      sounding[f] = 1;
      soundingFrames++;
    }
  }
  const scale = MU / mean;
  const rising = new Uint8Array(frames);
  for (const e of energy) {
    let prev = Math.log1p(scale * e[0]);
    for (let f = 1; f < frames; f++) {
      const l = Math.log1p(scale * e[f]);
      if (l - prev > RISE_FLOOR) {
        strength[f] += l - prev - RISE_FLOOR;
        rising[f]++;
      }
      prev = l;
    }
  }
  // a note or a drum starts in several bands at once; partials beating against each other, a
  // swell or a vibrato move one band at a time (ADR 0090's amendment): those frames count nothing
  for (let f = 0; f < frames; f++) if (rising[f] < MIN_RISING_BANDS || strength[f] < MIN_STRIKE) strength[f] = 0;
  return { strength, frameRate, soundingFrames, sounding, bandEnergies: energy };
}

/** A Hann window of `n` points, summing to 1. */
function hann(n: number): Float32Array {
  const w = Float32Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / n));
  const sum = w.reduce((a, b) => a + b, 0);
  return w.map((v) => v / sum);
}

/**
 * Energy of the band around `hz` (RBJ cookbook band-pass, 0 dB peak) per frame of `hop`
 * samples, weighted by `window` centred on the frame's middle.
 */
export function bandEnergy(pcm: Float32Array, sampleRate: number, hz: number, hop: number, frames: number, window: Float32Array, q = BAND_Q): Float64Array {
  const w0 = (2 * Math.PI * hz) / sampleRate;
  const alpha = Math.sin(w0) / (2 * q);
  const a0 = 1 + alpha;
  const b0 = alpha / a0;
  const a1 = (-2 * Math.cos(w0)) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  const power = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i];
    const y = b0 * (x - x2) - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    power[i] = y * y;
  }
  const out = new Float64Array(frames);
  const half = Math.floor(window.length / 2);
  for (let f = 0; f < frames; f++) {
    const start = f * hop + (hop >> 1) - half;
    const from = Math.max(0, -start);
    const to = Math.min(window.length, pcm.length - start);
    let sum = 0;
    for (let k = from; k < to; k++) sum += window[k] * power[start + k];
    out[f] = sum;
  }
  return out;
}
