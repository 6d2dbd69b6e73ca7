import Meyda from "meyda";
import { PowerSpectrum } from "./segments.ts";

/**
 * Meyda's frame features (rms, mfcc, chroma, spectralCentroid, spectralFlatness), computed to
 * the same bits from one FFT a frame (issue #42 "analysis cost", ADR 0154). `Meyda.extract`
 * took 0.9 of the 2.7 CPU seconds of a three-minute track: its FFT builds objects for every
 * butterfly, its mel bands multiply every bin by all 26 filters (most weights are zero) and
 * it allocates per frame. This does the same arithmetic in the same order on typed arrays:
 *
 * - the window: Meyda's hanning (0.5 − 0.5 cos(2πi/(N − 1)), as a Float32Array) times the
 *   frame, kept in double as Meyda's `pointwiseBufferMult` keeps it (a plain array);
 * - the FFT: `PowerSpectrum` (segments.ts) is the same radix-2 butterfly in double with the same
 *   twiddles (−2πk/N is exact under the power-of-two scalings between the two), so each bin's
 *   re² + im² is Meyda's; the amplitude is its root rounded to float32 (Meyda's ampSpectrum),
 *   over N/2 bins (Meyda leaves the Nyquist bin out);
 * - mfcc: the power (float32), each filter's products and running sum rounded to float32 as
 *   Meyda's Float32Arrays round them (a zero weight adds an exact zero, so only the non-zero
 *   span of each triangle is walked), log(1 + sum) in float32, then its DCT-II (scale 2, the
 *   `dct` package's cosine table and summation order);
 * - chroma: each pitch class's weights times the amplitudes summed in bin order, divided by the
 *   largest; rms over the windowed frame; centroid and flatness as Meyda's `mu` and
 *   `spectralFlatness`.
 *
 * The filter banks are Meyda's own, built by Meyda once per (rate, size, bands) and read off
 * its module object, so the definitions stay the library's. meyda-frame.test.ts checks every
 * feature against `Meyda.extract` for equality on real and random frames.
 */

export interface MeydaFrameFeatures {
  rms: number;
  mfcc: number[];
  chroma: number[];
  spectralCentroid: number;
  spectralFlatness: number;
}

type MeydaModule = {
  sampleRate: number;
  bufferSize: number;
  windowingFunction: string;
  numberOfMFCCCoefficients: number;
  melBands: number;
  melFilterBank?: number[][];
  chromaFilterBank?: number[][];
  barkScale?: unknown;
};

/** Meyda's banks for these settings, built by Meyda itself; its module settings are put back after. */
function meydaBanks(sampleRate: number, size: number, melBands: number, mfccCount: number): { mel: number[][]; chroma: number[][] } {
  const m = Meyda as unknown as MeydaModule;
  const saved = { ...m };
  try {
    Object.assign(m, { sampleRate, bufferSize: size, windowingFunction: "hanning", numberOfMFCCCoefficients: mfccCount, melBands });
    m.melFilterBank = undefined;
    m.chromaFilterBank = undefined;
    m.barkScale = undefined;
    Meyda.extract(["mfcc", "chroma"], new Float32Array(size));
    return { mel: m.melFilterBank!, chroma: m.chromaFilterBank! };
  } finally {
    m.sampleRate = saved.sampleRate;
    m.bufferSize = saved.bufferSize;
    m.windowingFunction = saved.windowingFunction;
    m.numberOfMFCCCoefficients = saved.numberOfMFCCCoefficients;
    m.melBands = saved.melBands;
    m.melFilterBank = saved.melFilterBank;
    m.chromaFilterBank = saved.chromaFilterBank;
    m.barkScale = saved.barkScale;
  }
}

export class MeydaFrame {
  private readonly size: number;
  private readonly bins: number;
  private readonly window: Float32Array;
  private readonly windowed: Float64Array;
  private readonly power: Float64Array;
  private readonly amp: Float32Array;
  private readonly fft: PowerSpectrum;
  /** each mel filter's non-zero span: first bin and weights */
  private readonly mel: { from: number; w: Float64Array }[];
  private readonly chromaBank: Float64Array[];
  private readonly mfccCount: number;
  /** the `dct` package's table: cos(π/N × (n + 0.5) × k) at [n + k × N] */
  private readonly cosines: Float64Array;
  private readonly logged: Float32Array;

  /**
   * `sampleRate` as Meyda is told it (key.ts tells it four times the true rate), `size` a power
   * of two, `melBands` and `mfccCount` as Meyda's settings of those names.
   */
  constructor(opts: { sampleRate: number; size: number; melBands?: number; mfccCount?: number }) {
    const { sampleRate, size, melBands = 26, mfccCount = 13 } = opts;
    this.size = size;
    this.bins = size / 2;
    this.window = new Float32Array(size);
    for (let i = 0; i < size; i++) this.window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (size - 1));
    this.windowed = new Float64Array(size);
    this.power = new Float64Array(size / 2 + 1);
    this.amp = new Float32Array(size / 2);
    this.fft = new PowerSpectrum(size);
    const banks = meydaBanks(sampleRate, size, melBands, mfccCount);
    this.mel = banks.mel.map((row) => {
      let from = 0;
      while (from < this.bins && row[from] === 0) from++;
      let to = this.bins;
      while (to > from && row[to - 1] === 0) to--;
      return { from, w: Float64Array.from(row.slice(from, to)) };
    });
    this.chromaBank = banks.chroma.map((row) => Float64Array.from(row.slice(0, this.bins)));
    // Meyda's mfcc: at most 40 and at least 1 coefficient, 13 when not set
    this.mfccCount = Math.min(40, Math.max(1, mfccCount || 13));
    const n = this.mel.length;
    this.cosines = new Float64Array(n * n);
    const piN = Math.PI / n;
    for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) this.cosines[j + k * n] = Math.cos(piN * (j + 0.5) * k);
    this.logged = new Float32Array(n);
  }

  /** The features of one frame of `size` samples. */
  of(frame: Float32Array): MeydaFrameFeatures {
    const { size, bins, window, windowed, power, amp } = this;
    let sq = 0;
    for (let i = 0; i < size; i++) {
      const x = frame[i] * window[i];
      windowed[i] = x;
      sq += x * x;
    }
    this.fft.of(windowed, power);
    for (let k = 0; k < bins; k++) amp[k] = Math.sqrt(power[k]);

    // mfcc: float32 power, float32 products and sums, as Meyda's extractMelBands
    const logged = this.logged;
    for (let b = 0; b < this.mel.length; b++) {
      const { from, w } = this.mel[b];
      let sum = 0;
      for (let j = 0; j < w.length; j++) {
        const p = Math.fround(amp[from + j] * amp[from + j]);
        sum = Math.fround(sum + Math.fround(w[j] * p));
      }
      logged[b] = Math.log(sum + 1);
    }
    const n = logged.length;
    const mfcc = new Array<number>(this.mfccCount);
    for (let k = 0; k < this.mfccCount; k++) {
      let s = 0;
      for (let j = 0; j < n; j++) s = s + logged[j] * this.cosines[j + k * n];
      mfcc[k] = 2 * s;
    }

    const chroma = new Array<number>(this.chromaBank.length);
    for (let c = 0; c < this.chromaBank.length; c++) {
      const row = this.chromaBank[c];
      let s = 0;
      for (let k = 0; k < bins; k++) s = s + amp[k] * row[k];
      chroma[c] = s;
    }
    const max = Math.max(...chroma);
    if (max) for (let c = 0; c < chroma.length; c++) chroma[c] = chroma[c] / max;

    let weighted = 0;
    let total = 0;
    let logs = 0;
    for (let k = 0; k < bins; k++) {
      weighted += k * Math.abs(amp[k]);
      total += amp[k];
      logs += Math.log(amp[k]);
    }
    return {
      rms: Math.sqrt(sq / size),
      mfcc,
      chroma,
      spectralCentroid: weighted / total,
      spectralFlatness: (Math.exp(logs / bins) * bins) / total,
    };
  }
}
