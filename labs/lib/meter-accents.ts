// The signal half of Klapuri, Eronen and Astola's (2006) meter model, for labs/meter-lab.ts
// (issue #28, ADR 0138: measured, not kept in the analyzer): the four registral accent signals
// (the paper's §II) and the comb-filter resonators' periodicity salience over them (§III-B).
import { PowerSpectrum } from "../../app/.server/analysis/segments.ts";

/** The accent signals' frame rate: 11025 Hz / 64, the paper's 172 Hz. */
const HOP = 64;
const FFT = 256;
const BANDS = 36;
const CHANNELS = 4;
const MU = 100;
const LP_HZ = 10;
const OMEGA = 0.9;
/** The HMM's observations: the resonators' salience every this many seconds (§III-C's frames). */
export const HMM_HOP = 1;
/** The resonators' half-time (s) and the longest period (s). */
const HALF_TIME = 3;
export const MAX_PERIOD = 5;
/** The salience is averaged from this far in (s): the resonators' warm-up. */
export const WARM_UP = 4;

/** Second-order Butterworth low-pass (RBJ), applied in place. */
function lowPass(x: Float64Array, fc: number, fs: number): void {
  const w0 = (2 * Math.PI * fc) / fs;
  const alpha = Math.sin(w0) / (2 * Math.SQRT1_2);
  const cw = Math.cos(w0);
  const a0 = 1 + alpha;
  const b0 = (1 - cw) / 2 / a0;
  const b1 = (1 - cw) / a0;
  const a1 = (-2 * cw) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const y = b0 * x[i] + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x[i];
    y2 = y1;
    y1 = y;
    x[i] = y;
  }
}

/** The four registral accent signals (Klapuri et al. 2006, §II). */
export function accents(pcm: Float32Array, rate: number): { v: Float64Array[]; fr: number } {
  const fr = rate / HOP;
  const frames = Math.floor((pcm.length - FFT) / HOP);
  // 36 bands equally spaced on the critical-band (ERB) scale from 50 Hz to 5 kHz, triangular over the bins
  const erb = (f: number) => 21.4 * Math.log10(1 + 0.00437 * f);
  const inv = (e: number) => (10 ** (e / 21.4) - 1) / 0.00437;
  const edges = Array.from({ length: BANDS + 2 }, (_, i) => inv(erb(50) + ((erb(5000) - erb(50)) * i) / (BANDS + 1)));
  const binHz = rate / FFT;
  const weights: { bin: number; w: number }[][] = [];
  for (let b = 0; b < BANDS; b++) {
    const [lo, mid, hi] = [edges[b], edges[b + 1], edges[b + 2]];
    const ws: { bin: number; w: number }[] = [];
    for (let k = 1; k < FFT / 2; k++) {
      const f = k * binHz;
      const w = f <= lo || f >= hi ? 0 : f <= mid ? (f - lo) / (mid - lo) : (hi - f) / (hi - mid);
      if (w > 0) ws.push({ bin: k, w });
    }
    if (ws.length === 0) ws.push({ bin: Math.max(1, Math.round(mid / binHz)), w: 1 });
    weights.push(ws);
  }
  const win = Float64Array.from({ length: FFT }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / FFT));
  const power = Array.from({ length: BANDS }, () => new Float64Array(frames));
  const spectrum = new PowerSpectrum(FFT);
  const frame = new Float64Array(FFT);
  const mag = new Float64Array(FFT / 2 + 1);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < FFT; i++) frame[i] = pcm[f * HOP + i] * win[i];
    spectrum.of(frame, mag);
    for (let b = 0; b < BANDS; b++) {
      let s = 0;
      for (const { bin, w } of weights[b]) s += w * mag[bin];
      power[b][f] = s;
    }
  }
  // μ-law of each band's power over its level (the paper normalises the bands' powers), low-passed
  const v = Array.from({ length: CHANNELS }, () => new Float64Array(frames));
  for (let b = 0; b < BANDS; b++) {
    const x = power[b];
    let mean = 0;
    for (const p of x) mean += p / frames;
    const z = Float64Array.from(x, (p) => (mean > 0 ? Math.log1p((MU * p) / mean) / Math.log1p(MU) : 0));
    for (let k = 0; k < 3; k++) lowPass(z, LP_HZ, fr);
    const c = Math.floor((b * CHANNELS) / BANDS);
    for (let n = 1; n < frames; n++) {
      const rise = Math.max(0, z[n] - z[n - 1]);
      v[c][n] += (1 - OMEGA) * z[n] + OMEGA * (fr / LP_HZ) * rise;
    }
  }
  return { v, fr };
}

/** The comb-filter resonators' mean normalised salience per period (§III-B), per channel. */
export function resonators(v: Float64Array[], fr: number, frames?: Float64Array[]): Float64Array[] {
  const maxTau = Math.ceil(MAX_PERIOD * fr);
  const n = v[0].length;
  const from = Math.round(WARM_UP * fr);
  // `frames`: also the instantaneous salience, summed over the channels, every HMM_HOP seconds (the HMM's observations)
  const hop = Math.round(HMM_HOP * fr);
  const out: Float64Array[] = [];
  const r = new Float64Array(n);
  for (const raw of v) {
    // the level's constant part resonates at every period alike (a comb filter passes it whole): removed
    let mean = 0;
    for (const y of raw) mean += y / n;
    const x = Float64Array.from(raw, (y) => y - mean);
    // the input's energy: a leaky integrator of the same half-time (τ = 1)
    const a1 = 0.5 ** (1 / (HALF_TIME * fr));
    const vhat = new Float64Array(n);
    let e = 0;
    for (let i = 0; i < n; i++) {
      e = a1 * e + (1 - a1) * x[i] * x[i];
      vhat[i] = e;
    }
    const sal = new Float64Array(maxTau + 1);
    for (let tau = 1; tau <= maxTau; tau++) {
      const a = 0.5 ** (tau / (HALF_TIME * fr));
      const gamma = (1 - a) ** 2 / (1 - a * a);
      let run = 0;
      let sum = 0;
      let count = 0;
      for (let i = 0; i < n; i++) {
        r[i] = (i >= tau ? a * r[i - tau] : 0) + (1 - a) * x[i];
        run += r[i] * r[i];
        if (i >= tau) run -= r[i - tau] * r[i - tau];
        if (i >= from && vhat[i] > 0) {
          const sal = ((run / tau) / vhat[i] - gamma) / (1 - gamma);
          sum += sal;
          count++;
          if (frames && (i - from) % hop === 0) frames[(i - from) / hop][tau] += sal;
        }
      }
      sal[tau] = count ? sum / count : 0;
    }
    out.push(sal);
  }
  return out;
}

