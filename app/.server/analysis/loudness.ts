/**
 * Integrated loudness (EBU R128 / ITU-R BS.1770-4), measured as the decoded audio arrives.
 *
 * ADR 0090 chose `ebur128-wasm` (the Rust `ebur128` crate, a port of libebur128). It took 0.58
 * of the 2.7 CPU seconds a three-minute track cost, and it needs the whole track's first two
 * channels in its memory before it measures (63 MB for three minutes at 44.1 kHz). Issue #42
 * asks for at most 1.5 CPU s a track, so ADR 0154 measures the same thing here, streaming:
 * libebur128's K-weighting (its two biquads, the pre-filter's shelf and the RLB high-pass,
 * from its formulas for any rate, combined into one fourth-order filter per channel as it does),
 * the mean square of each 100 ms, 400 ms gating blocks every 100 ms, the absolute gate at −70
 * LUFS and the relative gate 10 LU below the mean of the blocks above it. What is kept is one
 * number per 100 ms (36,000 for an hour). loudness.test.ts compares it with ebur128-wasm (kept
 * as the oracle in the tests): within 0.001 LU on music, noise, gated quiet passages, mono and
 * 48 kHz.
 */

const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = -10;
/** BS.1770's offset between the K-weighted mean square and LUFS. */
const OFFSET = -0.691;

const energyOf = (lufs: number) => 10 ** ((lufs - OFFSET) / 10);
const lufsOf = (energy: number) => OFFSET + 10 * Math.log10(energy);

/** libebur128's K-weighting for one rate: b and a of the combined fourth-order filter. */
function kWeighting(rate: number): { b: Float64Array; a: Float64Array } {
  // the pre-filter: a high shelf of about +4 dB above 1.5 kHz
  let f0 = 1681.974450955533;
  const G = 3.999843853973347;
  let Q = 0.7071752369554196;
  let K = Math.tan((Math.PI * f0) / rate);
  const Vh = 10 ** (G / 20);
  const Vb = Vh ** 0.4996667741545416;
  const pb = [(Vh + (Vb * K) / Q + K * K) / (1 + K / Q + K * K), (2 * (K * K - Vh)) / (1 + K / Q + K * K), (Vh - (Vb * K) / Q + K * K) / (1 + K / Q + K * K)];
  const pa = [1, (2 * (K * K - 1)) / (1 + K / Q + K * K), (1 - K / Q + K * K) / (1 + K / Q + K * K)];
  // the RLB weighting: a high-pass at about 38 Hz
  f0 = 38.13547087602444;
  Q = 0.5003270373238773;
  K = Math.tan((Math.PI * f0) / rate);
  const rb = [1, -2, 1];
  const ra = [1, (2 * (K * K - 1)) / (1 + K / Q + K * K), (1 - K / Q + K * K) / (1 + K / Q + K * K)];
  const b = new Float64Array(5);
  const a = new Float64Array(5);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      b[i + j] += pb[i] * rb[j];
      a[i + j] += pa[i] * ra[j];
    }
  }
  return { b, a };
}

/** Collects the K-weighted energy of up to two channels per 100 ms, then gates it once. */
export class LoudnessMeter {
  private readonly channels: 1 | 2;
  private readonly b: Float64Array;
  private readonly a: Float64Array;
  /** the filter's state (direct form II), four values per channel */
  private readonly state: Float64Array;
  /** samples in 100 ms, and how many of the current 100 ms are in */
  private readonly hop: number;
  private filled = 0;
  private sum = 0;
  /** the K-weighted sum of squares (over the channels) of each complete 100 ms */
  private hops: number[] = [];

  constructor(sampleRate: number, channels: 1 | 2) {
    this.channels = channels;
    ({ b: this.b, a: this.a } = kWeighting(sampleRate));
    this.state = new Float64Array(4 * channels);
    // libebur128: (rate + 5) / 10 in integers
    this.hop = Math.floor((sampleRate + 5) / 10);
  }

  /** Appends decoded frames; extra channels beyond the first two are not measured. */
  push(channelData: Float32Array[]): void {
    const frames = channelData[0].length;
    let at = 0;
    while (at < frames) {
      const n = Math.min(frames - at, this.hop - this.filled);
      for (let c = 0; c < this.channels; c++) this.sum += this.filter(channelData[Math.min(c, channelData.length - 1)], at, n, c);
      at += n;
      this.filled += n;
      if (this.filled === this.hop) {
        this.hops.push(this.sum);
        this.sum = 0;
        this.filled = 0;
      }
    }
  }

  /** K-weights `n` samples of one channel from `at`, and returns the sum of their squares. */
  private filter(x: Float32Array, at: number, n: number, channel: number): number {
    const { a, b, state } = this;
    const o = channel * 4;
    let v1 = state[o];
    let v2 = state[o + 1];
    let v3 = state[o + 2];
    let v4 = state[o + 3];
    let sum = 0;
    for (let i = at; i < at + n; i++) {
      const v0 = x[i] - a[1] * v1 - a[2] * v2 - a[3] * v3 - a[4] * v4;
      const y = b[0] * v0 + b[1] * v1 + b[2] * v2 + b[3] * v3 + b[4] * v4;
      sum += y * y;
      v4 = v3;
      v3 = v2;
      v2 = v1;
      v1 = v0;
    }
    // libebur128 flushes denormals to zero between buffers
    state[o] = Math.abs(v1) < Number.MIN_VALUE * 2 ** 52 ? 0 : v1;
    state[o + 1] = Math.abs(v2) < Number.MIN_VALUE * 2 ** 52 ? 0 : v2;
    state[o + 2] = Math.abs(v3) < Number.MIN_VALUE * 2 ** 52 ? 0 : v3;
    state[o + 3] = Math.abs(v4) < Number.MIN_VALUE * 2 ** 52 ? 0 : v4;
    return sum;
  }

  /** Integrated loudness in LUFS, or null for silence (below the R128 absolute gate). */
  integrated(): number | null {
    // a gating block: 400 ms (four hops), one every 100 ms; its energy the mean square
    const blockSamples = this.hop * 4;
    const absolute = energyOf(ABSOLUTE_GATE_LUFS);
    const blocks: number[] = [];
    for (let i = 3; i < this.hops.length; i++) {
      const energy = (this.hops[i - 3] + this.hops[i - 2] + this.hops[i - 1] + this.hops[i]) / blockSamples;
      if (energy >= absolute) blocks.push(energy);
    }
    if (blocks.length === 0) return null;
    let total = 0;
    for (const e of blocks) total += e;
    const relative = (total / blocks.length) * 10 ** (RELATIVE_GATE_LU / 10);
    let kept = 0;
    let count = 0;
    for (const e of blocks) {
      if (e >= relative) {
        kept += e;
        count++;
      }
    }
    if (count === 0) return null;
    const lufs = lufsOf(kept / count);
    return Number.isFinite(lufs) ? lufs : null;
  }
}
