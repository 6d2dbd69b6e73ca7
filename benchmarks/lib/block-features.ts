/**
 * Candidate features for issue #29, measured by bench:similarity's real part before any goes
 * into the site's fingerprint (ADR 0118). From mono PCM at ~11 kHz:
 * - a log-band spectrogram (BANDS bands on the mel scale, 1024-sample frames, hop 512), each
 *   track's mean level taken out so a gain change moves nothing;
 * - "gauss": the bands' mean and covariance over the frames (Bergstra, Mandel & Eck 2010's
 *   spectral covariance, in place of MFCC mean and spread);
 * - "sp", "dsp": Seyerlehner, Widmer & Knees 2010's spectral pattern and delta-spectral
 *   pattern: blocks of BLOCK frames, each band's values sorted within the block, the 0.9
 *   percentile over blocks;
 * - "fp": the fluctuation (rhythm) pattern: per band group, the modulation spectrum of the
 *   band's level over blocks of ~6 s, 0.17–5 Hz, the median over blocks (Pampalk; Rauber &
 *   Lidy's rhythm patterns);
 * - "segments": the bands' mean and spread over 20-second windows every 5 s (the anchors a
 *   reference excerpt is matched against), and "whole", the same over the whole track.
 */

export const FEATURES_VERSION = 1;
const FRAME = 1024;
const HOP = 512;
export const BANDS = 24;
const BLOCK = 10;
const FP_BLOCK = 128;
const FP_GROUPS = 8;
const FP_BINS = 30;

let twiddle: { cos: Float64Array; sin: Float64Array; rev: Uint32Array; n: number } | null = null;
function fftPower(input: Float64Array, out: Float64Array): void {
  const n = input.length;
  if (!twiddle || twiddle.n !== n) {
    const bits = Math.log2(n);
    const rev = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      rev[i] = r;
    }
    const cos = new Float64Array(n / 2);
    const sin = new Float64Array(n / 2);
    for (let i = 0; i < n / 2; i++) {
      cos[i] = Math.cos((-2 * Math.PI * i) / n);
      sin[i] = Math.sin((-2 * Math.PI * i) / n);
    }
    twiddle = { cos, sin, rev, n };
  }
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i++) re[twiddle.rev[i]] = input[i];
  for (let size = 2; size <= n; size *= 2) {
    const half = size / 2;
    const step = n / size;
    for (let start = 0; start < n; start += size) {
      for (let k = 0; k < half; k++) {
        const c = twiddle.cos[k * step];
        const s = twiddle.sin[k * step];
        const a = start + k;
        const b = a + half;
        const tr = re[b] * c - im[b] * s;
        const ti = re[b] * s + im[b] * c;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
    }
  }
  for (let i = 0; i < out.length; i++) out[i] = re[i] * re[i] + im[i] * im[i];
}

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const melInv = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** The log-band spectrogram: frames × BANDS (dB), the track's mean level subtracted. */
export function logBands(pcm: Float32Array, rate: number): Float64Array[] {
  const bins = FRAME / 2 + 1;
  const lo = mel(40);
  const hi = mel(Math.min(5000, rate / 2 - 1));
  const edges = Array.from({ length: BANDS + 2 }, (_, i) => (melInv(lo + ((hi - lo) * i) / (BANDS + 1)) * FRAME) / rate);
  const weights: { from: number; w: Float64Array }[] = [];
  for (let b = 0; b < BANDS; b++) {
    const from = Math.floor(edges[b]);
    const to = Math.ceil(edges[b + 2]);
    const w = new Float64Array(to - from + 1);
    for (let k = from; k <= to; k++) {
      const x = k < edges[b + 1] ? (k - edges[b]) / (edges[b + 1] - edges[b]) : (edges[b + 2] - k) / (edges[b + 2] - edges[b + 1]);
      w[k - from] = Math.max(0, x);
    }
    weights.push({ from, w });
  }
  const hann = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));
  const frame = new Float64Array(FRAME);
  const power = new Float64Array(bins);
  const out: Float64Array[] = [];
  for (let at = 0; at + FRAME <= pcm.length; at += HOP) {
    let energy = 0;
    for (let i = 0; i < FRAME; i++) {
      frame[i] = pcm[at + i] * hann[i];
      energy += frame[i] * frame[i];
    }
    if (energy < 1e-7) continue; // digital silence says nothing of the sound
    fftPower(frame, power);
    const row = new Float64Array(BANDS);
    for (let b = 0; b < BANDS; b++) {
      let s = 0;
      const { from, w } = weights[b];
      for (let k = 0; k < w.length && from + k < bins; k++) s += w[k] * power[from + k];
      row[b] = 10 * Math.log10(s + 1e-9);
    }
    out.push(row);
  }
  let mean = 0;
  for (const r of out) for (let b = 0; b < BANDS; b++) mean += r[b];
  mean /= Math.max(1, out.length * BANDS);
  for (const r of out) for (let b = 0; b < BANDS; b++) r[b] -= mean;
  return out;
}

const percentile = (xs: number[], q: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

export interface BlockFeatures {
  gauss: number[];
  sp: number[];
  dsp: number[];
  fp: number[];
  whole: number[];
  segments: number[][];
}

function meanStd(frames: Float64Array[], from: number, to: number): number[] {
  const m = new Float64Array(BANDS);
  const sq = new Float64Array(BANDS);
  const n = Math.max(1, to - from);
  for (let t = from; t < to; t++) for (let b = 0; b < BANDS; b++) {
    m[b] += frames[t][b];
    sq[b] += frames[t][b] ** 2;
  }
  const out: number[] = [];
  let level = 0;
  for (let b = 0; b < BANDS; b++) level += m[b] / n;
  level /= BANDS;
  // each window's own level taken out: a quiet intro and a loud chorus of one track still match in shape
  for (let b = 0; b < BANDS; b++) out.push(m[b] / n - level);
  for (let b = 0; b < BANDS; b++) out.push(Math.sqrt(Math.max(0, sq[b] / n - (m[b] / n) ** 2)));
  return out;
}

export function blockFeatures(pcm: Float32Array, rate: number): BlockFeatures {
  const frames = logBands(pcm, rate);
  const n = frames.length;
  // gauss: mean and covariance (upper triangle)
  const mean = new Float64Array(BANDS);
  for (const r of frames) for (let b = 0; b < BANDS; b++) mean[b] += r[b] / Math.max(1, n);
  const cov: number[] = [];
  for (let i = 0; i < BANDS; i++) for (let j = i; j < BANDS; j++) {
    let s = 0;
    for (const r of frames) s += (r[i] - mean[i]) * (r[j] - mean[j]);
    cov.push(s / Math.max(1, n - 1));
  }
  const gauss = [...mean, ...cov];
  // spectral pattern and delta-spectral pattern
  const spCells: number[][] = Array.from({ length: BANDS * BLOCK }, () => []);
  const dspCells: number[][] = Array.from({ length: BANDS * BLOCK }, () => []);
  for (let at = 0; at + BLOCK + 1 <= n; at += BLOCK / 2) {
    for (let b = 0; b < BANDS; b++) {
      const v: number[] = [];
      const d: number[] = [];
      for (let t = at; t < at + BLOCK; t++) {
        v.push(frames[t][b]);
        d.push(Math.max(0, frames[t + 1][b] - frames[t][b]));
      }
      v.sort((x, y) => x - y);
      d.sort((x, y) => x - y);
      for (let k = 0; k < BLOCK; k++) {
        spCells[b * BLOCK + k].push(v[k]);
        dspCells[b * BLOCK + k].push(d[k]);
      }
    }
  }
  const sp = spCells.map((c) => percentile(c, 0.9));
  const dsp = dspCells.map((c) => percentile(c, 0.9));
  // fluctuation pattern
  const per = BANDS / FP_GROUPS;
  const fpCells: number[][] = Array.from({ length: FP_GROUPS * FP_BINS }, () => []);
  const seq = new Float64Array(FP_BLOCK);
  const spec = new Float64Array(FP_BLOCK / 2 + 1);
  const hann = Float64Array.from({ length: FP_BLOCK }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FP_BLOCK));
  for (let at = 0; at + FP_BLOCK <= n; at += FP_BLOCK / 2) {
    for (let g = 0; g < FP_GROUPS; g++) {
      let m = 0;
      for (let t = 0; t < FP_BLOCK; t++) {
        let s = 0;
        for (let b = g * per; b < (g + 1) * per; b++) s += frames[at + t][b];
        seq[t] = s / per;
        m += seq[t];
      }
      m /= FP_BLOCK;
      for (let t = 0; t < FP_BLOCK; t++) seq[t] = (seq[t] - m) * hann[t];
      fftPower(seq, spec);
      for (let k = 0; k < FP_BINS; k++) fpCells[g * FP_BINS + k].push(Math.sqrt(spec[k + 1]));
    }
  }
  const fp = fpCells.map((c) => percentile(c, 0.5));
  // segments: 20 s windows every 5 s
  const perSecond = rate / HOP;
  const win = Math.round(20 * perSecond);
  const hop = Math.round(5 * perSecond);
  const segments: number[][] = [];
  for (let at = 0; at === 0 || at + win <= n; at += hop) segments.push(meanStd(frames, at, Math.min(n, at + win)));
  return { gauss, sp, dsp, fp, whole: meanStd(frames, 0, n), segments };
}
