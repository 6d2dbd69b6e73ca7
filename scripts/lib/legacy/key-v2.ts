// The analyzer's version-2 key estimator, unchanged (ADR 0090 and its amendment), kept only
// so `npm run bench:tempo` can print the previous version's figures next to the current ones
// (issue #20, ADR 0105). Nothing in the site imports it.
import Meyda from "meyda";

/**
 * Musical key from a mono excerpt: a chromagram by `meyda` (12 pitch-class energies per
 * frame, summed over the excerpt), matched against the Krumhansl–Kessler key profiles, the
 * classic key-finding method (Krumhansl 1990): the key whose profile, rotated to its tonic,
 * correlates best with the chroma. ADR 0090 records why this pair and how accurate it is.
 */

export interface KeyEstimate {
  key: string | null;
  confidence: number;
}

const NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
// Krumhansl & Kessler (1982) probe-tone ratings, tonic first.
const MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

/** Below this correlation the chroma fits no key (drums alone, noise): no key is named. */
export const MIN_KEY_CORRELATION = 0.5;

// ~0.37 s frames at ~11 kHz: 2.7 Hz bins, fine enough to part semitones from the second octave up.
const FRAME = 4096;
const SILENT_RMS = 1e-3;

export function estimateKey(pcm: Float32Array, sampleRate: number): KeyEstimate {
  const chroma = new Array<number>(12).fill(0);
  const restore = configureMeyda(sampleRate);
  try {
    for (let at = 0; at + FRAME <= pcm.length; at += FRAME) {
      const frame = pcm.subarray(at, at + FRAME);
      const features = Meyda.extract(["rms", "chroma"], frame) as { rms: number; chroma: number[] } | null;
      if (!features || features.rms < SILENT_RMS) continue;
      for (let k = 0; k < 12; k++) chroma[k] += features.chroma[k];
    }
  } finally {
    restore();
  }
  if (chroma.every((v) => v === 0)) return { key: null, confidence: 0 };
  let best = { key: "", r: -Infinity };
  for (let tonic = 0; tonic < 12; tonic++) {
    for (const [mode, profile] of [["major", MAJOR], ["minor", MINOR]] as const) {
      const r = pearson(chroma, (k) => profile[(k - tonic + 12) % 12]);
      if (r > best.r) best = { key: `${NAMES[tonic]} ${mode}`, r };
    }
  }
  const confidence = Math.max(0, Math.min(1, best.r));
  return { key: confidence >= MIN_KEY_CORRELATION ? best.key : null, confidence };
}

type MeydaSettings = { sampleRate: number; bufferSize: number; windowingFunction: string; chromaFilterBank?: unknown };
/** A chroma filter bank per (rate, frame): Meyda builds one from its settings when it has none. */
const banks = new Map<number, unknown>();

/**
 * Meyda keeps its settings and its chroma filter bank on the module object, shared by every
 * feature in the thread (the similarity fingerprints use it too): they are set for the key
 * here and put back as they were by the function returned.
 */
function configureMeyda(sampleRate: number): () => void {
  const m = Meyda as unknown as MeydaSettings;
  const saved: MeydaSettings = { sampleRate: m.sampleRate, bufferSize: m.bufferSize, windowingFunction: m.windowingFunction, chromaFilterBank: m.chromaFilterBank };
  m.sampleRate = sampleRate;
  m.bufferSize = FRAME;
  m.windowingFunction = "hanning";
  m.chromaFilterBank = banks.get(m.sampleRate);
  return () => {
    if (m.chromaFilterBank !== undefined && banks.size < 8) banks.set(m.sampleRate, m.chromaFilterBank);
    Object.assign(m, saved);
  };
}

function pearson(x: number[], y: (k: number) => number): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let k = 0; k < n; k++) {
    mx += x[k];
    my += y(k);
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let k = 0; k < n; k++) {
    const dx = x[k] - mx;
    const dy = y(k) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}
