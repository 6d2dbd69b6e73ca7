import Meyda from "meyda";
import { describe, expect, it } from "vitest";
import { drumLoop, pluckedOomPah } from "../../../tests/support/synth.ts";
import { MeydaFrame } from "./meyda-frame.ts";

// ADR 0154: the analysis computes Meyda's frame features itself, from one FFT, to save most of
// their cost. The fingerprints, the key and every stored figure rest on those numbers, so they
// must be Meyda's to the bit, not close to them: each feature is compared with Meyda.extract's
// for equality, on music-like frames, noise, a quiet frame and silence.

type Settings = { sampleRate: number; bufferSize: number; windowingFunction: string; numberOfMFCCCoefficients: number; melBands: number; melFilterBank?: unknown; chromaFilterBank?: unknown; barkScale?: unknown };

function meyda(frame: Float32Array, sampleRate: number, mfccCount: number) {
  const m = Meyda as unknown as Settings;
  Object.assign(m, { sampleRate, bufferSize: frame.length, windowingFunction: "hanning", numberOfMFCCCoefficients: mfccCount, melBands: 26 });
  m.melFilterBank = undefined;
  m.chromaFilterBank = undefined;
  m.barkScale = undefined;
  return Meyda.extract(["rms", "mfcc", "chroma", "spectralCentroid", "spectralFlatness"], frame) as unknown as Record<string, unknown>;
}

function frames(size: number, rate: number): Float32Array[] {
  const drums = drumLoop({ bpm: 97, seconds: 4, kicks: [0, 2], snares: [1, 3], hats: [0, 1, 2, 3], sampleRate: rate });
  const music = Float32Array.from(pluckedOomPah({ bpm: 97, seconds: 4, key: "A minor", sampleRate: rate }), (v, i) => v + 0.5 * (drums[i] ?? 0));
  let seed = 7;
  const noise = Float32Array.from({ length: size }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 8);
  const out = [noise, new Float32Array(size), Float32Array.from(noise, (v) => v * 1e-6)];
  for (let at = 0; at + size <= music.length && out.length < 12; at += size * 2) out.push(music.slice(at, at + size));
  return out;
}

describe("MeydaFrame", () => {
  for (const { size, rate, mfcc } of [
    { size: 1024, rate: 11_025, mfcc: 14 },
    { size: 4096, rate: 4 * 11_025, mfcc: 13 },
  ]) {
    it(`gives Meyda's rms, mfcc, chroma, centroid and flatness to the bit (${size} samples at ${rate} Hz)`, () => {
      const ours = new MeydaFrame({ sampleRate: rate, size, mfccCount: mfcc });
      for (const frame of frames(size, rate / (rate > 20_000 ? 4 : 1))) {
        const theirs = meyda(frame, rate, mfcc);
        const mine = ours.of(frame);
        expect(mine.rms).toBe(theirs.rms);
        expect(mine.mfcc).toEqual(theirs.mfcc);
        expect(mine.chroma).toEqual(theirs.chroma);
        expect(mine.spectralCentroid).toBe(theirs.spectralCentroid);
        expect(mine.spectralFlatness).toBe(theirs.spectralFlatness);
      }
    });
  }
});
