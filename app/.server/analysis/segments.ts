/**
 * Segment anchors (issue #29, ADR 0122): how each part of a track sounds, so a visitor's
 * reference file — often a 20-second cut of one passage — is compared with the catalog
 * track's passages rather than with the average of the whole track (ADR 0118 measured the
 * whole-track fingerprint putting a 20 s excerpt's source first for 67 % of 134 real tracks;
 * its nearest passage, 100 %).
 *
 * Ported from bench:similarity's candidate features (benchmarks/lib/block-features.ts `logBands`,
 * the windows' mean and spread): the decoded audio averaged down to ~11 kHz mono, 1,024-sample
 * Hann frames every 512 samples, BANDS triangular bands on the mel scale (40 Hz–5 kHz), in dB;
 * for each 20-second window every 10 seconds, each band's mean (the window's own level taken
 * out, so a quiet verse and its loud chorus, or a file at another gain, still match in shape)
 * and its spread. Each value is quantised to a byte over a fixed range: WINDOW_BYTES (48) a
 * window, ~0.9 KB for three minutes, stored base64 with a version byte in the analysis JSON
 * (`segments`), never in the track index's memory (issue #29: ≤ 64 bytes a track there).
 *
 * Streaming and bounded like the fingerprint: the frames are summed into 10-second blocks as
 * the decoder hands the audio over (two blocks make a window), so a 20-minute file holds 120
 * blocks of sums here, never its spectrogram; at most MAX_WINDOWS windows are stored.
 */

export const SEGMENTS_VERSION = 1;
export const BANDS = 24;
/** A window's bytes: BANDS means, then BANDS spreads. */
export const WINDOW_BYTES = 2 * BANDS;
const TARGET_RATE = 11_025;
const FRAME = 1024;
const HOP = 512;
const WINDOW_HOP_SECONDS = 10;
/** The most windows stored for one track (a 20-minute track has 119; longer ones are thinned evenly). */
export const MAX_WINDOWS = 120;
/** The most windows kept of a reference file (its section may run to 20 minutes): bounds the re-ranking's work (ADR 0122). */
export const REFERENCE_WINDOWS = 12;
/** Quantisation ranges (dB), as the bench measured them (ADR 0118): means ±40 around the window's level, spreads 0–30. */
const MEAN_RANGE = 40;
const SPREAD_MAX = 30;
/** A frame with less energy than this (after the window) is digital silence: it says nothing of the sound. */
const SILENT_ENERGY = 1e-7;

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const melInv = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** The mel filter bank for one rate: each band's first FFT bin and its weights. */
function melBank(rate: number): { from: number; w: Float64Array }[] {
  const lo = mel(40);
  const hi = mel(Math.min(5000, rate / 2 - 1));
  const edges = Array.from({ length: BANDS + 2 }, (_, i) => (melInv(lo + ((hi - lo) * i) / (BANDS + 1)) * FRAME) / rate);
  const bank: { from: number; w: Float64Array }[] = [];
  for (let b = 0; b < BANDS; b++) {
    const from = Math.floor(edges[b]);
    const to = Math.min(FRAME / 2, Math.ceil(edges[b + 2]));
    const w = new Float64Array(to - from + 1);
    for (let k = from; k <= to; k++) {
      const x = k < edges[b + 1] ? (k - edges[b]) / (edges[b + 1] - edges[b]) : (edges[b + 2] - k) / (edges[b + 2] - edges[b + 1]);
      w[k - from] = Math.max(0, x);
    }
    bank.push({ from, w });
  }
  return bank;
}

/**
 * A radix-2 FFT's power spectrum of FRAME real samples. Hand-written: meyda's power spectrum
 * (the analysis's feature library) took 115 µs a frame here, which would double the analysis
 * of a track (43 frames a second); this one takes a tenth of it.
 */
export class PowerSpectrum {
  private readonly size: number;
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly rev: Uint32Array;
  /** `size`: a power of two (FRAME here; labs/lib/meter-accents.ts uses 256) */
  constructor(size: number = FRAME) {
    this.size = size;
    this.re = new Float64Array(size);
    this.im = new Float64Array(size);
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    this.rev = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
    for (let i = 0; i < size / 2; i++) {
      this.cos[i] = Math.cos((-2 * Math.PI * i) / size);
      this.sin[i] = Math.sin((-2 * Math.PI * i) / size);
    }
  }
  /** `out[k]` = |X[k]|² for k = 0..size/2 */
  of(input: Float64Array, out: Float64Array): void {
    const { re, im, cos, sin, rev, size: n } = this;
    for (let i = 0; i < n; i++) {
      re[rev[i]] = input[i];
      im[i] = 0;
    }
    for (let size = 2; size <= n; size *= 2) {
      const half = size / 2;
      const step = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const c = cos[k * step];
          const s = sin[k * step];
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
    for (let i = 0; i <= n / 2; i++) out[i] = re[i] * re[i] + im[i] * im[i];
  }
}

/** Sums of one 10-second block's frames: per band Σ dB and Σ dB², and the frame count. */
interface Block {
  sum: Float64Array;
  sq: Float64Array;
  frames: number;
}

const newBlock = (): Block => ({ sum: new Float64Array(BANDS), sq: new Float64Array(BANDS), frames: 0 });

export class SegmentMeter {
  private readonly factor: number;
  private readonly rate: number;
  private readonly bank: { from: number; w: Float64Array }[];
  private readonly hann = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FRAME));
  private readonly fft = new PowerSpectrum();
  /** the last FRAME samples at the analysis rate (a ring), and how many arrived in all */
  private readonly ring = new Float64Array(FRAME);
  private received = 0;
  private sinceFrame = 0;
  private readonly frame = new Float64Array(FRAME);
  private readonly power = new Float64Array(FRAME / 2 + 1);
  private acc = 0;
  private accCount = 0;
  /** frames (not silent) per block: a 20 s window is two blocks of 10 s */
  private readonly blockFrames: number;
  private readonly blocks: Block[] = [newBlock()];

  constructor(sampleRate: number) {
    this.factor = Math.max(1, Math.round(sampleRate / TARGET_RATE));
    this.rate = sampleRate / this.factor;
    this.bank = melBank(this.rate);
    this.blockFrames = Math.round((WINDOW_HOP_SECONDS * this.rate) / HOP);
  }

  /** One block of decoded audio (its channels), in order. */
  push(channelData: Float32Array[]): void {
    const frames = channelData[0]?.length ?? 0;
    const scale = 1 / (channelData.length * this.factor);
    for (let i = 0; i < frames; i++) {
      for (const ch of channelData) this.acc += ch[i];
      if (++this.accCount < this.factor) continue;
      this.ring[this.received++ % FRAME] = this.acc * scale;
      this.acc = 0;
      this.accCount = 0;
      if (this.received >= FRAME && ++this.sinceFrame >= HOP) {
        this.sinceFrame = 0;
        this.frameDone();
      } else if (this.received === FRAME) {
        this.sinceFrame = 0;
        this.frameDone();
      }
    }
  }

  private frameDone(): void {
    const { frame, ring, hann } = this;
    const start = this.received % FRAME; // the oldest sample of the ring
    let energy = 0;
    for (let i = 0; i < FRAME; i++) {
      const v = ring[(start + i) % FRAME] * hann[i];
      frame[i] = v;
      energy += v * v;
    }
    if (energy < SILENT_ENERGY) return;
    this.fft.of(frame, this.power);
    let block = this.blocks[this.blocks.length - 1];
    if (block.frames === this.blockFrames) this.blocks.push((block = newBlock()));
    // the floor is relative to the frame's power (80 dB under it), not a fixed number: a band
    // near silence would otherwise move with the file's gain (a reference is seldom at the
    // catalog's level)
    let total = 0;
    for (let k = 0; k <= FRAME / 2; k++) total += this.power[k];
    const floor = total * 1e-8 + 1e-30;
    for (let b = 0; b < BANDS; b++) {
      const { from, w } = this.bank[b];
      let s = 0;
      for (let k = 0; k < w.length; k++) s += w[k] * this.power[from + k];
      const db = 10 * Math.log10(s + floor);
      block.sum[b] += db;
      block.sq[b] += db * db;
    }
    block.frames++;
  }

  /** The windows, quantised (WINDOW_BYTES each), or null when the audio was silent throughout. */
  windows(): Uint8Array | null {
    const full = this.blocks.filter((b) => b.frames === this.blockFrames);
    const spans: Block[][] = [];
    for (let k = 0; k + 1 < full.length; k++) spans.push([full[k], full[k + 1]]);
    // shorter than a window: one window over all of it (a short reference file)
    if (spans.length === 0) spans.push(this.blocks);
    const picked = thin(spans, MAX_WINDOWS);
    const out = new Uint8Array(picked.length * WINDOW_BYTES);
    let written = 0;
    for (const span of picked) {
      const n = span.reduce((s, b) => s + b.frames, 0);
      if (n === 0) continue;
      const at = written++ * WINDOW_BYTES;
      let level = 0;
      const mean = new Float64Array(BANDS);
      for (let b = 0; b < BANDS; b++) {
        for (const block of span) mean[b] += block.sum[b];
        mean[b] /= n;
        level += mean[b] / BANDS;
      }
      for (let b = 0; b < BANDS; b++) {
        let sq = 0;
        for (const block of span) sq += block.sq[b];
        const spread = Math.sqrt(Math.max(0, sq / n - mean[b] ** 2));
        out[at + b] = toByte((mean[b] - level + MEAN_RANGE) / (2 * MEAN_RANGE));
        out[at + BANDS + b] = toByte(spread / SPREAD_MAX);
      }
    }
    return written === 0 ? null : out.subarray(0, written * WINDOW_BYTES);
  }

  /** The stored form: a version byte and the windows, base64; null for silence. */
  anchors(): string | null {
    const w = this.windows();
    return w ? encodeSegments(w) : null;
  }
}

const toByte = (t: number) => Math.round(Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * 255);

/** At most `max` of `items`, evenly spread over them (the first and the last kept). */
function thin<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))]);
}

export function encodeSegments(windows: Uint8Array): string {
  const bytes = new Uint8Array(1 + windows.length);
  bytes[0] = SEGMENTS_VERSION;
  bytes.set(windows, 1);
  return Buffer.from(bytes).toString("base64");
}

/** The windows of stored anchors (WINDOW_BYTES each), or null when they are absent or of another version or shape. */
export function segmentWindows(stored: string | null | undefined): Uint8Array | null {
  if (!stored || stored.length > 4 * Math.ceil((1 + MAX_WINDOWS * WINDOW_BYTES) / 3)) return null;
  const bytes = Buffer.from(stored, "base64");
  if (bytes.length < 1 + WINDOW_BYTES || (bytes.length - 1) % WINDOW_BYTES !== 0 || bytes[0] !== SEGMENTS_VERSION) return null;
  return new Uint8Array(bytes.buffer, bytes.byteOffset + 1, bytes.length - 1);
}

/** A reference file's anchors as stored with it: at most REFERENCE_WINDOWS windows, evenly spread over its section. */
export function referenceAnchors(stored: string | null | undefined): string | null {
  const w = segmentWindows(stored);
  if (!w) return null;
  const windows = Array.from({ length: w.length / WINDOW_BYTES }, (_, i) => w.subarray(i * WINDOW_BYTES, (i + 1) * WINDOW_BYTES));
  const kept = thin(windows, REFERENCE_WINDOWS);
  const out = new Uint8Array(kept.length * WINDOW_BYTES);
  kept.forEach((x, i) => out.set(x, i * WINDOW_BYTES));
  return encodeSegments(out);
}

/**
 * Each value's scale for the distance: its spread over the windows given (the candidates'
 * own, at query time), at least one step, so each of the 48 values weighs about alike
 * whatever its range (the bench's z-scoring, ADR 0118; ADR 0122 measured it against fixed
 * scales).
 */
export function windowScales(sets: readonly Uint8Array[]): Float64Array {
  const sum = new Float64Array(WINDOW_BYTES);
  const sq = new Float64Array(WINDOW_BYTES);
  let n = 0;
  for (const w of sets) {
    for (let at = 0; at < w.length; at += WINDOW_BYTES) {
      for (let i = 0; i < WINDOW_BYTES; i++) {
        sum[i] += w[at + i];
        sq[i] += w[at + i] * w[at + i];
      }
      n++;
    }
  }
  const inv = new Float64Array(WINDOW_BYTES);
  for (let i = 0; i < WINDOW_BYTES; i++) inv[i] = 1 / Math.max(1, Math.sqrt(Math.max(0, sq[i] / Math.max(1, n) - (sum[i] / Math.max(1, n)) ** 2)));
  return inv;
}

/**
 * How far a reference is from a track by their passages: for each of the reference's windows,
 * the nearest of the track's (a scaled Manhattan distance over the 48 values), averaged over
 * the reference's windows. A 20-second excerpt is one window: its source's own passage is
 * the nearest. Work: reference windows × track windows × 48 (≤ 12 × 120 × 48).
 */
export function segmentDistance(reference: Uint8Array, track: Uint8Array, inverseScales: Float64Array): number {
  let total = 0;
  let count = 0;
  for (let r = 0; r < reference.length; r += WINDOW_BYTES) {
    let best = Infinity;
    for (let t = 0; t < track.length; t += WINDOW_BYTES) {
      let s = 0;
      for (let i = 0; i < WINDOW_BYTES && s < best; i++) s += Math.abs(reference[r + i] - track[t + i]) * inverseScales[i];
      if (s < best) best = s;
    }
    total += best;
    count++;
  }
  return count ? total / count : Infinity;
}

/** Places tried between two consecutive windows (passageDistance): quarters of the way. */
export const BETWEEN_STEPS = 4;

/**
 * How far a reference is from a track by their passages, as segmentDistance, but each of the
 * reference's windows measured against the track's windows **and the points between two
 * consecutive ones** (a quarter, a half, three quarters of the way; ADR 0134): a 20 s excerpt
 * starts anywhere, up to 5 s from the nearest stored window (one every 10 s), and its means
 * and spreads then lie near the blend of the two stored windows it overlaps, not near either.
 * Scaled Manhattan distance over the 48 values, averaged over the reference's windows. Work:
 * reference windows × track windows × BETWEEN_STEPS × 48 (≤ 12 × 120 × 4 × 48).
 */
export function passageDistance(reference: Uint8Array, track: Uint8Array, inverseScales: Float64Array, steps = BETWEEN_STEPS): number {
  const n = Math.floor(track.length / WINDOW_BYTES);
  let total = 0;
  let count = 0;
  for (let r = 0; r < reference.length; r += WINDOW_BYTES) {
    let best = Infinity;
    for (let k = 0; k < n; k++) {
      const a = k * WINDOW_BYTES;
      // the window itself, then (below) the points towards the next one
      let s = 0;
      for (let i = 0; i < WINDOW_BYTES && s < best; i++) s += Math.abs(reference[r + i] - track[a + i]) * inverseScales[i];
      if (s < best) best = s;
      if (k + 1 === n) continue;
      const b = a + WINDOW_BYTES;
      for (let step = 1; step < steps; step++) {
        const f = step / steps;
        s = 0;
        for (let i = 0; i < WINDOW_BYTES && s < best; i++) s += Math.abs(reference[r + i] - (track[a + i] + f * (track[b + i] - track[a + i]))) * inverseScales[i];
        if (s < best) best = s;
      }
    }
    total += best;
    count++;
  }
  return count ? total / count : Infinity;
}
