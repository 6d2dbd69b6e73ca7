import { describe, expect, it } from "vitest";
import { analyzeAudio, ANALYZER_VERSION } from "./analyze.ts";
import { decodeFingerprint, FIELDS, FINGERPRINT_BYTES, fingerprintBytes } from "./fingerprint.ts";
import { drumPattern, encodeWav, padChords, tone } from "../../../tests/support/synth.ts";

// Issue #19: every analysis carries a fingerprint of how the track sounds, at most 512 bytes,
// measured over the whole track from the audio already decoded (ADR 0104).

const field = (values: number[], name: string) => values[FIELDS.findIndex((f) => f.name === name)];

describe("the fingerprint in an analysis", () => {
  it("is stored with the analysis (analyzer version 10), at most 512 bytes, and reads back", async () => {
    const r = await analyzeAudio(encodeWav([drumPattern({ bpm: 120, seconds: 20 })]));
    expect(r.analyzerVersion).toBe(ANALYZER_VERSION);
    expect(ANALYZER_VERSION).toBe(10);
    expect(typeof r.fingerprint).toBe("string");
    expect(Buffer.from(r.fingerprint!, "base64").length).toBe(FINGERPRINT_BYTES);
    expect(FINGERPRINT_BYTES).toBeLessThanOrEqual(512);
    expect(fingerprintBytes(r.fingerprint)).toHaveLength(FIELDS.length);
  });

  it("is null for digital silence", async () => {
    const r = await analyzeAudio(encodeWav([new Float32Array(44_100 * 5)]));
    expect(r.fingerprint).toBeNull();
  });

  it("tells a drum loop from a pad: onsets, beat strength, flatness", async () => {
    const drums = decodeFingerprint((await analyzeAudio(encodeWav([drumPattern({ bpm: 120, seconds: 30 })]))).fingerprint!)!;
    const pad = decodeFingerprint((await analyzeAudio(encodeWav([padChords({ key: "A minor", seconds: 30, chordSeconds: 4, attackSeconds: 1.5 })]))).fingerprint!)!;
    expect(field(drums, "onsetRate")).toBeGreaterThan(field(pad, "onsetRate") + 0.5);
    expect(field(drums, "beatStrength")).toBeGreaterThan(field(pad, "beatStrength") + 0.2);
    expect(field(drums, "flatness")).toBeGreaterThan(field(pad, "flatness"));
  });

  it("measures a tone's harmony as one pitch class, and its brightness by its pitch", async () => {
    const a = decodeFingerprint((await analyzeAudio(encodeWav([tone({ hz: 440, seconds: 10, dbfs: -12 })]))).fingerprint!)!;
    const chord = decodeFingerprint((await analyzeAudio(encodeWav([padChords({ key: "C major", seconds: 10, chordSeconds: 10, attackSeconds: 0.5 })]))).fingerprint!)!;
    // the profile starts at its strongest pitch class: a lone tone puts most of it there, a chord spreads it
    expect(field(a, "chroma0")).toBeGreaterThan(0.5);
    expect(field(chord, "chroma0")).toBeLessThan(field(a, "chroma0"));
    expect(field(a, "centroid")).toBeGreaterThan(300);
    expect(field(a, "centroid")).toBeLessThan(700);
  });

  it("does not follow the level: the same music 6 dB quieter gives the same fingerprint, within a step or two", async () => {
    const music = padChords({ key: "D major", seconds: 20, chordSeconds: 3, attackSeconds: 0.5 });
    const quieter = music.map((v) => v / 2);
    const loud = fingerprintBytes((await analyzeAudio(encodeWav([music]))).fingerprint)!;
    const soft = fingerprintBytes((await analyzeAudio(encodeWav([quieter]))).fingerprint)!;
    const steps = loud.map((v, i) => Math.abs(v - soft[i]));
    expect(Math.max(...steps)).toBeLessThanOrEqual(3);
  });

  it("measures only the section asked (a reference file's start and end, issue #19)", async () => {
    const wav = encodeWav([drumPattern({ bpm: 120, seconds: 30 })]);
    const r = await analyzeAudio(wav, { section: { fromSeconds: 10, toSeconds: 22.5 } });
    expect(r.durationSeconds).toBeCloseTo(12.5, 3);
    expect(r.bpm).toBeCloseTo(120, 0);
    expect(r.fingerprint).toBeTruthy();
  });
});
