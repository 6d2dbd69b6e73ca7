// The onset envelope's periodicity measures that tempo.ts reads (ADR 0105, ADR 0126): the
// autocorrelation over the whole excerpt and in windows (the tempogram), and the peaks in them.
// Pure signal arithmetic, with no tempo rule of its own.

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

/** The autocorrelation's highest value within ±3 % of `lag` (-Infinity past its end). */
export function highestNear(acf: Float64Array, lag: number): number {
  let best = -Infinity;
  for (let l = Math.floor(lag * 0.97); l <= Math.ceil(lag * 1.03) && l < acf.length; l++) best = Math.max(best, acf[l]);
  return best;
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
 * The envelope's periodicity at each tempo of `bpms` by a second method (Peeters 2006): the
 * magnitude of its Fourier transform at the tempo's frequency times its autocorrelation at the
 * tempo's period (linearly interpolated, floored at 0). The spectrum also peaks at a pulse's
 * multiples (its harmonics), the autocorrelation at its sub-multiples; their product keeps the
 * pulse itself. Over the whole excerpt; each frequency by a rotating phasor (no trigonometry per frame).
 */
export function spectrumTimesAutocorrelation(x: Float32Array, frameRate: number, bpms: number[]): Float64Array {
  const n = x.length;
  const out = new Float64Array(bpms.length);
  if (n === 0) return out;
  let mean = 0;
  for (const v of x) mean += v / n;
  const acf = autocorrelation(x, Math.ceil((60 * frameRate) / Math.min(...bpms)) + 1);
  bpms.forEach((bpm, k) => {
    const lag = (60 * frameRate) / bpm;
    const lo = Math.floor(lag);
    if (lo + 1 >= acf.length) return;
    const a = Math.max(0, acf[lo] * (1 - (lag - lo)) + acf[lo + 1] * (lag - lo));
    if (a === 0) return;
    const w = (2 * Math.PI) / lag;
    const cw = Math.cos(w);
    const sw = Math.sin(w);
    let c = 1;
    let s = 0;
    let re = 0;
    let im = 0;
    for (let i = 0; i < n; i++) {
      const v = x[i] - mean;
      re += v * c;
      im += v * s;
      const c2 = c * cw - s * sw;
      s = s * cw + c * sw;
      c = c2;
    }
    out[k] = (Math.hypot(re, im) / n) * a;
  });
  return out;
}
