import { MeydaFrame, type MeydaFrameFeatures } from "./meyda-frame.ts";

/**
 * How a track sounds, in 45 bytes (issue #19, ADR 0104): measured over the whole decoded
 * track, block by block as the decoder hands it over (like the loudness meter and the peaks),
 * so a 20-minute file never holds more than one frame of PCM here.
 *
 * Parts, each from an established method:
 * - timbre: the mean and standard deviation of MFCCs 1–13 over the track's frames, a single
 *   Gaussian with a diagonal covariance (the classic MIREX audio-similarity model, Pampalk
 *   2006 and Mandel & Ellis 2005, reduced to its diagonal so the catalog scan stays a plain
 *   weighted distance). MFCC 0 is left out: it is the frame's level, which a gain change moves;
 * - rhythm: percussive onsets per second and the beat strength (the autocorrelation peak of the
 *   onset envelope between 60 and 200 BPM), next to the tempo the analysis already names;
 * - harmony: the 12-bin chroma profile (meyda), its strongest pitch class first (the key is
 *   compared apart);
 * - energy and brightness: the spread of frame levels (dynamics), the spectral centroid's mean
 *   and spread, and the spectral flatness (tone against noise); the loudness is the analysis's.
 * Features come from `meyda` (MFCC, chroma, centroid, flatness); only the onset envelope
 * (a difference of frame levels) and its autocorrelation are computed here.
 *
 * The fingerprint is quantised to one byte per value over fixed ranges (FIELDS), measured on
 * the sample catalog's families and on real-world ranges of each feature, with a version byte
 * first: base64 in the stored analysis JSON (60 characters).
 */

export const FINGERPRINT_VERSION = 1;


/** The analysis rate: decimated by averaging, as analyze.ts's excerpt (enough for timbre up to ~5 kHz). */
const TARGET_RATE = 11_025;
/** ~93 ms frames at ~11 kHz: 10.8 Hz bins (chroma from the second octave up is coarse but stable in sum). */
const FRAME = 1024;
/** Sub-frames for the onset envelope: ~23 ms at ~11 kHz, 43 per second. */
const ENVELOPE_BLOCK = 256;
/** Frames below this RMS are silence: they say nothing of the timbre. */
const SILENT_RMS = 1e-3;
/** Beyond this many seconds every other frame is analysed (the statistics need no more; bounds the CPU of a 20-minute file). */
const FULL_RATE_SECONDS = 240;
const MFCC_COUNT = 14; // 0..13, the 0th dropped
const FRAME_RMS = 10;

/** Each quantised value: its name, its part, and the range mapped onto 0..255. */
export interface FieldSpec {
  name: string;
  part: FingerprintPart;
  min: number;
  max: number;
}

export type FingerprintPart = "timbre" | "rhythm" | "harmony" | "energy";
export const PARTS: readonly FingerprintPart[] = ["timbre", "rhythm", "harmony", "energy"];

const range = (name: string, part: FingerprintPart, min: number, max: number): FieldSpec => ({ name, part, min, max });

/** The fingerprint's layout after its version byte. Ranges: measured (ADR 0104), wide enough for real recordings. */
export const FIELDS: readonly FieldSpec[] = [
  ...Array.from({ length: 13 }, (_, i) => range(`mfcc${i + 1}`, "timbre", i === 0 ? 0 : -100, i === 0 ? 250 : 100)),
  ...Array.from({ length: 13 }, (_, i) => range(`mfccStd${i + 1}`, "timbre", 0, i === 0 ? 100 : 50)),
  range("onsetRate", "rhythm", 0, 8),
  range("beatStrength", "rhythm", 0, 1),
  ...Array.from({ length: 12 }, (_, i) => range(`chroma${i}`, "harmony", 0, i === 0 ? 1 : 0.5)),
  range("dynamics", "energy", 0, 20),
  range("centroid", "energy", 0, 4000),
  range("centroidStd", "energy", 0, 2000),
  range("flatness", "energy", 0, 0.6),
];

export const FINGERPRINT_BYTES = 1 + FIELDS.length;

/** Decoded values of a fingerprint, in FIELDS order (the distance reads the quantised bytes). */
export type FingerprintValues = number[];

export class FingerprintMeter {
  private readonly factor: number;
  private readonly rate: number;
  private readonly frame = new Float32Array(FRAME);
  private filled = 0;
  private acc = 0;
  private accCount = 0;
  private frames = 0;
  private analysed = 0;
  private readonly mfccSum = new Float64Array(MFCC_COUNT);
  private readonly mfccSq = new Float64Array(MFCC_COUNT);
  private readonly chroma = new Float64Array(12);
  private centroidSum = 0;
  private centroidSq = 0;
  private flatnessSum = 0;
  /** dB level per ENVELOPE_BLOCK, over the whole track (43 a second: 52,000 numbers at 20 minutes) */
  private readonly levels: number[] = [];
  private blockEnergy = 0;
  private blockCount = 0;

  constructor(sampleRate: number) {
    this.factor = Math.max(1, Math.round(sampleRate / TARGET_RATE));
    this.rate = sampleRate / this.factor;
  }

  /** One block of decoded audio (its channels), in order. */
  push(channelData: Float32Array[]): void {
    const frames = channelData[0]?.length ?? 0;
    const scale = 1 / (channelData.length * this.factor);
    for (let i = 0; i < frames; i++) {
      for (const ch of channelData) this.acc += ch[i];
      if (++this.accCount < this.factor) continue;
      const v = this.acc * scale;
      this.acc = 0;
      this.accCount = 0;
      this.blockEnergy += v * v;
      if (++this.blockCount === ENVELOPE_BLOCK) {
        this.levels.push(10 * Math.log10(this.blockEnergy / ENVELOPE_BLOCK + 1e-10));
        this.blockEnergy = 0;
        this.blockCount = 0;
      }
      this.frame[this.filled++] = v;
      if (this.filled === FRAME) {
        this.filled = 0;
        this.frameDone();
      }
    }
  }

  private frameDone(): void {
    const index = this.frames++;
    if (index * FRAME > FULL_RATE_SECONDS * this.rate && index % 2 === 1) return;
    let energy = 0;
    for (let i = 0; i < FRAME; i++) energy += this.frame[i] * this.frame[i];
    const rms = Math.sqrt(energy / FRAME);
    if (!(rms >= SILENT_RMS)) return;
    // Each frame goes to meyda at one level (RMS 10): its MFCCs take log(1 + band power), which
    // is only level-free where the power is well above 1; the level itself is measured apart.
    const gain = FRAME_RMS / rms;
    for (let i = 0; i < FRAME; i++) this.frame[i] *= gain;
    const f = extract(this.frame, this.rate);
    this.analysed++;
    for (let k = 0; k < MFCC_COUNT; k++) {
      const c = f.mfcc[k] ?? 0;
      this.mfccSum[k] += c;
      this.mfccSq[k] += c * c;
    }
    let chromaSum = 0;
    for (let k = 0; k < 12; k++) chromaSum += f.chroma[k] ?? 0;
    if (chromaSum > 0) for (let k = 0; k < 12; k++) this.chroma[k] += (f.chroma[k] ?? 0) / chromaSum;
    const centroidHz = finite(f.spectralCentroid) * (this.rate / FRAME);
    this.centroidSum += centroidHz;
    this.centroidSq += centroidHz * centroidHz;
    this.flatnessSum += finite(f.spectralFlatness);
  }

  /** The fingerprint's values (FIELDS order), or null when the track is silence throughout. */
  values(): FingerprintValues | null {
    const n = this.analysed;
    if (n === 0) return null;
    const mean = (sum: number) => sum / n;
    const std = (sum: number, sq: number) => Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2));
    const chromaTotal = this.chroma.reduce((s, v) => s + v, 0) || 1;
    // gates relative to the loudest block, so neither measure moves with the file's gain
    let loudest = -Infinity;
    for (const l of this.levels) if (l > loudest) loudest = l;
    const gate = loudest - GATE_DB;
    const rhythm = onsetMeasures(this.levels, this.rate / ENVELOPE_BLOCK, gate);
    let levelN = 0;
    let levelSum = 0;
    let levelSq = 0;
    for (const l of this.levels) {
      if (l <= gate) continue;
      levelN++;
      levelSum += l;
      levelSq += l * l;
    }
    const dynamics = levelN > 1 ? Math.sqrt(Math.max(0, levelSq / levelN - (levelSum / levelN) ** 2)) : 0;
    return [
      ...Array.from({ length: 13 }, (_, i) => mean(this.mfccSum[i + 1])),
      ...Array.from({ length: 13 }, (_, i) => std(this.mfccSum[i + 1], this.mfccSq[i + 1])),
      rhythm.onsetRate,
      rhythm.beatStrength,
      ...rotatedChroma(this.chroma, chromaTotal),
      dynamics,
      mean(this.centroidSum),
      std(this.centroidSum, this.centroidSq),
      mean(this.flatnessSum),
    ];
  }

  /** The quantised fingerprint, base64 (as stored), or null for silence. */
  fingerprint(): string | null {
    const values = this.values();
    return values ? encodeFingerprint(values) : null;
  }
}

/**
 * The chroma profile, its strongest pitch class first: the shape of the harmony (a bare fifth,
 * a triad, a cluster, a chromatic line) whatever the key; which key it is in is compared apart,
 * on the circle of fifths (similarity.ts), so two pieces in different keys can still sound alike.
 */
function rotatedChroma(chroma: Float64Array, total: number): number[] {
  let top = 0;
  for (let k = 1; k < 12; k++) if (chroma[k] > chroma[top]) top = k;
  return Array.from({ length: 12 }, (_, k) => chroma[(top + k) % 12] / total);
}

const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : 0);

/** Values (FIELDS order) to the stored form: a version byte and one byte per field, base64. */
export function encodeFingerprint(values: FingerprintValues): string {
  const bytes = new Uint8Array(FINGERPRINT_BYTES);
  bytes[0] = FINGERPRINT_VERSION;
  FIELDS.forEach((f, i) => {
    const t = (values[i] - f.min) / (f.max - f.min);
    bytes[i + 1] = Math.round(Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * 255);
  });
  return Buffer.from(bytes).toString("base64");
}

/** The quantised bytes of a stored fingerprint (without the version byte), or null when it is not one of this version. */
export function fingerprintBytes(stored: string | null | undefined): Uint8Array | null {
  if (!stored) return null;
  const bytes = Buffer.from(stored, "base64");
  if (bytes.length !== FINGERPRINT_BYTES || bytes[0] !== FINGERPRINT_VERSION) return null;
  return new Uint8Array(bytes.buffer, bytes.byteOffset + 1, FIELDS.length);
}

/** Back to approximate values (for the ADR's tables and the tests). */
export function decodeFingerprint(stored: string): FingerprintValues | null {
  const bytes = fingerprintBytes(stored);
  if (!bytes) return null;
  return FIELDS.map((f, i) => f.min + (bytes[i] / 255) * (f.max - f.min));
}

/**
 * Onsets from the level envelope (dB per ~23 ms): a rise of ONSET_DB over the previous two
 * blocks that is a local peak counts (blocks under `gate` are left out); the beat strength is the largest normalised
 * autocorrelation of the rises between 60 and 200 BPM (a drum loop ~0.5–0.9, a pad near 0).
 */
const ONSET_DB = 6;
/** Blocks this far below the track's loudest are silence to the rhythm and dynamics measures. */
const GATE_DB = 50;
function onsetMeasures(levels: readonly number[], envelopeRate: number, gate: number): { onsetRate: number; beatStrength: number } {
  const n = levels.length;
  if (n < 8) return { onsetRate: 0, beatStrength: 0 };
  const rise = new Float64Array(n);
  let loudBlocks = 0;
  for (let i = 0; i < n; i++) {
    if (levels[i] > gate) loudBlocks++;
    const before = Math.max(i >= 1 ? levels[i - 1] : -100, i >= 2 ? levels[i - 2] : -100);
    const before2 = Math.min(i >= 1 ? levels[i - 1] : -100, i >= 2 ? levels[i - 2] : -100);
    rise[i] = levels[i] > gate ? Math.max(0, levels[i] - Math.min(before, before2 + 3)) : 0;
  }
  let onsets = 0;
  for (let i = 1; i < n - 1; i++) if (rise[i] >= ONSET_DB && rise[i] >= rise[i - 1] && rise[i] > rise[i + 1]) onsets++;
  const seconds = loudBlocks / envelopeRate;
  const onsetRate = seconds > 0 ? onsets / seconds : 0;
  // autocorrelation of the mean-removed rises, over lags of 60–200 BPM
  let mean = 0;
  for (let i = 0; i < n; i++) mean += rise[i];
  mean /= n;
  let energy = 0;
  for (let i = 0; i < n; i++) energy += (rise[i] - mean) ** 2;
  let beatStrength = 0;
  if (energy > 0) {
    const minLag = Math.max(1, Math.floor((envelopeRate * 60) / 200));
    const maxLag = Math.min(n - 1, Math.ceil((envelopeRate * 60) / 60));
    for (let lag = minLag; lag <= maxLag; lag++) {
      let s = 0;
      for (let i = lag; i < n; i++) s += (rise[i] - mean) * (rise[i - lag] - mean);
      beatStrength = Math.max(beatStrength, s / energy);
    }
  }
  return { onsetRate, beatStrength: Math.max(0, Math.min(1, beatStrength)) };
}

/** Meyda's features for this module's frames, one computer per rate (ADR 0154: meyda-frame.ts). */
let frameFeatures: { rate: number; of: MeydaFrame } | undefined;
function extract(frame: Float32Array, rate: number): MeydaFrameFeatures {
  if (frameFeatures?.rate !== rate) frameFeatures = { rate, of: new MeydaFrame({ sampleRate: rate, size: FRAME, melBands: 26, mfccCount: MFCC_COUNT }) };
  return frameFeatures.of.of(frame);
}
