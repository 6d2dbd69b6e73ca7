// Ellis's beat tracker, used by the tempo (tempo.ts: the beats at the chosen period, and the
// tatums its phase check folds, ADR 0126).

/** How strictly the beat tracker keeps to the period (Ellis 2007's α; librosa's `tightness`). */
const TIGHTNESS = 100;

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
