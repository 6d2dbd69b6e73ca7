// The analyzer's version-2 tempo estimator, unchanged (ADR 0090 and its amendment), kept only
// so `npm run bench:tempo` can print the previous version's figures next to the current ones
// (issue #20, ADR 0105). Nothing in the site imports it.
import MusicTempo from "music-tempo";

/**
 * Tempo from a mono excerpt at a low sample rate (~11 kHz, see analyze.ts), by `music-tempo`:
 * Simon Dixon's BeatRoot (onset detection by spectral flux, clustering of inter-onset
 * intervals, multiple beat-tracking agents). ADR 0090 records why and how accurate it is.
 *
 * BeatRoot always names a tempo, even for a steady tone or a pad, and the periodicity of its
 * onset curve is no test of a beat: that curve is normalised, so the partials of a held chord
 * beating against each other, a chord change every bar or the slow swell of filtered noise
 * repeat as well as a drum does (ADR 0090, amended). Issue #9 asks for no tempo rather than a
 * guess, so whether there is a beat is decided here, from what a beat is made of:
 * - percussive onsets: a level that jumps within 20 ms across the spectrum (at least two of
 *   four bands rise, by STRIKE_SUM_DB together), where a swell, a vibrato or a partial's beating
 *   moves one band slowly;
 * - enough of them: at least MIN_ONSET_RATE per second of sound, half a beat at 60 BPM;
 * - on the beat: the share of BeatRoot's beats (at the tempo named) that fall on one, above
 *   what as many onsets at random times would give.
 * The confidence is the lesser of that share and the onset curve's periodicity at the beat.
 */

export interface TempoEstimate {
  bpm: number | null;
  confidence: number;
}

/** What the beat decision rests on (ADR 0090's tables and the tests print them). */
export interface TempoMeasures extends TempoEstimate {
  /** BeatRoot's tempo after the octave check, whether or not a beat was found; null when it was not run. */
  candidateBpm: number | null;
  /** Percussive onsets per second of sound. */
  onsetRate: number;
  /** Share of the beats at the candidate tempo that fall on a percussive onset, above chance (0..1). */
  onBeat: number;
  /** The onset curve's periodicity at the candidate's beat period (0..1). */
  periodicity: number;
}

/** Below this there is no steady beat to name a tempo for (measured: drum patterns 0.85–0.91, pads, drones and noise 0–0.05). */
export const MIN_TEMPO_CONFIDENCE = 0.4;

// BeatRoot's own defaults (60–200 BPM): a 46 ms FFT window and a 10 ms hop, scaled to the
// excerpt's sample rate instead of its assumed 44.1 kHz.
const WINDOW_SECONDS = 0.046;
const HOP_SECONDS = 0.01;
// BeatRoot's range (its minBeatInterval and maxBeatInterval defaults).
const MIN_BPM = 60;
const MAX_BPM = 200;
/** How much more periodic the half tempo must be than the tempo found to be preferred. */
const OCTAVE_MARGIN = 0.3;

/** Fewer percussive onsets than this per second of sound is no beat: half a beat at 60 BPM (a chord every bar at 2–4 s is 0.25–0.5). */
const MIN_ONSET_RATE = 0.5;
/** A beat falls on an onset this close to it (BeatRoot's beats are placed on its own onsets, a frame or two from ours). */
const ON_BEAT_SECONDS = 0.05;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const { bpm, confidence } = measureTempo(pcm, sampleRate);
  return { bpm, confidence };
}

export function measureTempo(pcm: Float32Array, sampleRate: number): TempoMeasures {
  const hopSize = Math.round(HOP_SECONDS * sampleRate);
  const frameSeconds = hopSize / sampleRate;
  const bufferSize = 2 ** Math.round(Math.log2(WINDOW_SECONDS * sampleRate));
  const { onsets, soundingFrames } = percussiveOnsets(pcm, sampleRate, hopSize);
  const onsetRate = soundingFrames > 0 ? onsets.length / (soundingFrames * frameSeconds) : 0;
  const none: TempoMeasures = { bpm: null, confidence: 0, candidateBpm: null, onsetRate, onBeat: 0, periodicity: 0 };
  // Too few onsets for any beat: BeatRoot is not run at all (pads, drones, tones, silence).
  if (onsetRate < MIN_ONSET_RATE) return none;
  let mt: MusicTempo;
  try {
    mt = new MusicTempo(pcm, { bufferSize, hopSize, timeStep: frameSeconds });
  } catch {
    // It throws (strings, not Errors) when it finds no onsets or no tempo.
    return none;
  }
  const found = Number(mt.tempo);
  if (!Number.isFinite(found) || found <= 0) return none;
  // BeatRoot sometimes locks onto every other beat, or onto eighth notes (a 95 BPM beat with
  // chords over it came out as 190). The flux's periodicity at half and twice the period
  // tells: at the true beat it is high, at the eighth-note level it is near zero.
  const lagAt = (b: number) => 60 / b / frameSeconds;
  const p = (b: number) => periodicity(mt.spectralFlux, lagAt(b));
  let bpm = found;
  if (bpm * 2 <= MAX_BPM && p(bpm * 2) >= p(bpm) - OCTAVE_MARGIN / 2 && p(bpm * 2) >= MIN_TEMPO_CONFIDENCE) {
    bpm *= 2;
  } else if (bpm / 2 >= MIN_BPM && p(bpm / 2) - p(bpm) > OCTAVE_MARGIN) {
    bpm /= 2;
  }
  const candidateBpm = Math.round(bpm * 10) / 10;
  const onBeat = onBeatShare(onsets, onsetRate, beatGrids(mt.beats, found, bpm), frameSeconds);
  const periodic = p(bpm);
  const confidence = Math.min(onBeat, periodic);
  const measures = { candidateBpm, onsetRate, onBeat, periodicity: periodic, confidence };
  return { ...measures, bpm: confidence >= MIN_TEMPO_CONFIDENCE ? candidateBpm : null };
}

/**
 * BeatRoot's beat times (tracked at `found` BPM) as grids at `bpm`: with the midpoints added
 * when the octave check doubled the tempo, each half (even beats, odd beats) when it halved it.
 */
function beatGrids(beats: number[], found: number, bpm: number): number[][] {
  if (bpm > found * 1.5) {
    const out: number[] = [];
    for (let i = 0; i < beats.length; i++) {
      out.push(beats[i]);
      if (i + 1 < beats.length) out.push((beats[i] + beats[i + 1]) / 2);
    }
    return [out];
  }
  if (bpm < found / 1.5) return [beats.filter((_, i) => i % 2 === 0), beats.filter((_, i) => i % 2 === 1)];
  return [beats];
}

/**
 * The share of beats with a percussive onset within ON_BEAT_SECONDS (the best grid's), less
 * the share that onsets at `onsetRate` scattered at random would reach (Poisson), rescaled to
 * 0..1: dense onsets off the beat (rain, crackle) do not make a beat.
 */
function onBeatShare(onsets: number[], onsetRate: number, grids: number[][], frameSeconds: number): number {
  const tol = Math.max(1, Math.round(ON_BEAT_SECONDS / frameSeconds));
  const last = onsets.length > 0 ? onsets[onsets.length - 1] + tol + 1 : 0;
  const near = new Uint8Array(last + 1);
  for (const f of onsets) near.fill(1, Math.max(0, f - tol), f + tol + 1);
  let best = 0;
  for (const beats of grids) {
    let on = 0;
    let counted = 0;
    for (const t of beats) {
      const f = Math.round(t / frameSeconds);
      if (f < 0) continue;
      counted++;
      if (f < near.length) on += near[f];
    }
    if (counted > 0) best = Math.max(best, on / counted);
  }
  const chance = 1 - Math.exp(-onsetRate * (2 * tol + 1) * frameSeconds);
  return chance >= 1 ? 0 : Math.max(0, (best - chance) / (1 - chance));
}

// The percussive-onset test looks at four bands (band-pass centres, Hz, Q 0.9: about 1.5
// octaves each): kick, the body of a snare or a chord, its upper harmonics, hi-hats and cymbals.
const BANDS_HZ = [120, 450, 1400, 3800];
const BAND_Q = 0.9;
/** A band counts as rising when its level is this much (dB) over its mean of 20–80 ms before. */
const RISE_DB = 3;
/** A strike: at least this many bands rising at once ... */
const MIN_RISING_BANDS = 2;
/** ... by at least this much together (dB). Drum hits measure 25–35 dB, under chords too. */
const STRIKE_SUM_DB = 15;
/** Each band's level is floored at this share (-20 dB) of its own mean ... */
const BAND_FLOOR = 0.01;
/**
 * ... and at this share (-30 dB) of the mean of all bands together, so the noise of a nearly
 * empty band (an MP3's, a resampler's) cannot rise; frames quieter than this are no sound.
 */
const SILENT = 1e-3;
/** Frames before (from, to) whose mean level a band's level is compared with. */
const REFERENCE = [8, 2] as const;
/** Strikes closer than this (frames) are one onset, the strongest. */
const PEAK_WINDOW = 5;

/**
 * Percussive onsets (frame indices of `hop` samples): frames where the level jumps across the
 * spectrum. The bands are RBJ band-pass biquads run once over the excerpt — a few ms for a
 * minute of audio, against BeatRoot's ~100 ms — and their energy summed per frame.
 */
function percussiveOnsets(pcm: Float32Array, sampleRate: number, hop: number): { onsets: number[]; soundingFrames: number } {
  const frames = Math.floor(pcm.length / hop);
  const bands = BANDS_HZ.filter((hz) => hz < sampleRate * 0.45);
  const energy = bands.map((hz) => bandEnergy(pcm, sampleRate, hz, hop, frames));
  const total = new Float64Array(frames);
  for (const e of energy) for (let f = 0; f < frames; f++) total[f] += e[f];
  let mean = 0;
  for (const v of total) mean += v / frames;
  let soundingFrames = 0;
  for (const v of total) if (v > mean * SILENT) soundingFrames++;
  if (!(mean > 0)) return { onsets: [], soundingFrames: 0 };
  const level = energy.map((e) => {
    let bandMean = 0;
    for (const v of e) bandMean += v / frames;
    const floor = Math.max(bandMean * BAND_FLOOR, mean * SILENT);
    return Float64Array.from(e, (v) => 10 * Math.log10(v + floor));
  });
  const [from, to] = REFERENCE;
  const strength = new Float64Array(frames);
  for (let f = from; f < frames; f++) {
    let rising = 0;
    let sum = 0;
    for (const l of level) {
      let reference = 0;
      for (let k = f - from; k <= f - to; k++) reference += l[k];
      const rise = l[f] - reference / (from - to + 1);
      if (rise >= RISE_DB) rising++;
      if (rise > 0) sum += rise;
    }
    if (rising >= MIN_RISING_BANDS && sum >= STRIKE_SUM_DB) strength[f] = sum;
  }
  const onsets: number[] = [];
  for (let f = 0; f < frames; f++) {
    if (strength[f] === 0) continue;
    let peak = true;
    for (let k = Math.max(0, f - PEAK_WINDOW); k <= Math.min(frames - 1, f + PEAK_WINDOW) && peak; k++) {
      if (strength[k] > strength[f] || (strength[k] === strength[f] && k < f)) peak = false;
    }
    if (peak) onsets.push(f);
  }
  return { onsets, soundingFrames };
}

/** Energy per frame of `hop` samples in a band around `hz` (RBJ cookbook band-pass, 0 dB peak). */
function bandEnergy(pcm: Float32Array, sampleRate: number, hz: number, hop: number, frames: number): Float64Array {
  const w0 = (2 * Math.PI * hz) / sampleRate;
  const alpha = Math.sin(w0) / (2 * BAND_Q);
  const a0 = 1 + alpha;
  const b0 = alpha / a0;
  const a1 = (-2 * Math.cos(w0)) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  const out = new Float64Array(frames);
  for (let f = 0, i = 0; f < frames; f++) {
    let sum = 0;
    for (const end = i + hop; i < end; i++) {
      const x = pcm[i];
      const y = b0 * (x - x2) - a1 * y1 - a2 * y2;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      sum += y * y;
    }
    out[f] = sum;
  }
  return out;
}

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
