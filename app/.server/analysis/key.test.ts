import Meyda from "meyda";
import { describe, expect, it } from "vitest";
import { analyzeAudio } from "./analyze.ts";
import { estimateKey } from "./key.ts";
import { chordsInKey, drumPattern, encodeWav, encodeWithFfmpeg, mix } from "../../../tests/support/synth.ts";

// Issue #9's key bar: sustained chords in a known key, as WAV and MP3 (ADR 0090).

describe("musical key of sustained chords", () => {
  for (const key of ["A minor", "C major", "F# major", "C# minor"]) {
    it(`${key}, as WAV and MP3`, async () => {
      const wav = encodeWav([chordsInKey({ key, seconds: 24 })]);
      for (const bytes of [wav, encodeWithFfmpeg(wav, "mp3")]) {
        const r = await analyzeAudio(bytes);
        expect(r.key).toBe(key);
        expect(r.keyConfidence).toBeGreaterThan(0.7);
      }
    });
  }

  it("under a drum pattern", async () => {
    const r = await analyzeAudio(encodeWav([mix(drumPattern({ bpm: 100, seconds: 24 }), chordsInKey({ key: "G major", seconds: 24 }))]));
    expect(r.key).toBe("G major");
    expect(r.bpm).toBeCloseTo(100, -1);
  });

  it("drums alone name no key", async () => {
    const r = await analyzeAudio(encodeWav([drumPattern({ bpm: 120, seconds: 20 })]));
    expect(r.key).toBeNull();
  });

  it("leaves Meyda's settings as it found them (other features in the thread use Meyda too)", () => {
    const m = Meyda as unknown as { sampleRate: number; bufferSize: number; chromaFilterBank?: unknown };
    m.sampleRate = 44_100;
    m.bufferSize = 512;
    m.chromaFilterBank = undefined;
    const rate = 11_025;
    const chords = chordsInKey({ key: "E minor", seconds: 12, sampleRate: rate });
    expect(estimateKey(chords, rate).key).toBe("E minor");
    expect(estimateKey(chords, rate).key).toBe("E minor");
    expect([m.sampleRate, m.bufferSize, m.chromaFilterBank]).toEqual([44_100, 512, undefined]);
  });
});
