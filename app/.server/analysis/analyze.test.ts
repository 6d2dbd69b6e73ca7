import { describe, expect, it } from "vitest";
import { AnalysisError, analyzeAudio } from "./analyze.ts";
import { decodePassageCodes } from "./passage-codes.ts";
import { segmentWindows, WINDOW_BYTES } from "./segments.ts";
import { passageCodesOf, trackPassageCodes } from "../catalog/tracks/passage-index.ts";
import { drumPattern, encodeWav, encodeWithFfmpeg, tone, type EncodedFormat } from "../../../tests/support/synth.ts";

// What the album sheet shows (issue #9): exact durations, R128 loudness, waveform peaks — from
// WAV, MP3 and FLAC, and from OGG/Opus and AAC/M4A; and a file that cannot be analysed is an
// AnalysisError with its reason, never a crash (ADR 0090).

async function failure(promise: Promise<unknown>): Promise<AnalysisError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalysisError);
  return error as AnalysisError;
}

describe("duration", () => {
  const seconds = 37.25;
  const beat = drumPattern({ bpm: 96, seconds });
  const wav = encodeWav([beat, beat]);
  for (const format of ["wav", "mp3", "flac", "opus", "m4a"] as const) {
    it(`is exact for a ${seconds} s ${format.toUpperCase()} file (to a sample)`, async () => {
      const bytes = format === "wav" ? wav : encodeWithFfmpeg(wav, format as EncodedFormat);
      const r = await analyzeAudio(bytes);
      expect(Math.abs(r.durationSeconds - seconds)).toBeLessThanOrEqual(1 / 44_100);
      expect(r.bpm).toBeCloseTo(96, 0);
    });
  }

  it("is exact at 48 kHz too", async () => {
    const r = await analyzeAudio(encodeWav([tone({ hz: 220, seconds: 61.5, dbfs: -6, sampleRate: 48_000 })], 48_000));
    expect(r.durationSeconds).toBe(61.5);
  });
});

describe("passage codes (issue #29, ADR 0130)", () => {
  it("are stored beside the anchors, one a window, the codes the index would make from them", async () => {
    const beat = drumPattern({ bpm: 96, seconds: 45 });
    const r = await analyzeAudio(encodeWav([beat, beat]));
    const windows = segmentWindows(r.segments);
    expect(windows).not.toBeNull();
    const codes = decodePassageCodes(r.passageCodes);
    expect(codes).not.toBeNull();
    expect(codes!.length).toBe(windows!.length / WINDOW_BYTES);
    expect([...trackPassageCodes(null, r.passageCodes)!]).toEqual([...passageCodesOf(windows!)]);
  });
});

describe("loudness (EBU R128)", () => {
  // BS.1770 calibrates a 1 kHz sine at -20 dBFS in one channel to -23.0 LUFS (-3.01 dB).
  const wav = encodeWav([tone({ hz: 1000, seconds: 20, dbfs: -20 })]);
  for (const format of ["wav", "mp3"] as const) {
    it(`a -20 dBFS 1 kHz sine reads -23 LUFS ± 1 (${format.toUpperCase()})`, async () => {
      const r = await analyzeAudio(format === "wav" ? wav : encodeWithFfmpeg(wav, format));
      expect(r.loudnessLufs).not.toBeNull();
      expect(Math.abs(r.loudnessLufs! + 23)).toBeLessThanOrEqual(1);
    });
  }

  it("stereo reads 3 dB louder than the same signal in one channel", async () => {
    const sine = tone({ hz: 1000, seconds: 10, dbfs: -20 });
    const r = await analyzeAudio(encodeWav([sine, sine]));
    expect(r.loudnessLufs).toBeCloseTo(-20, 0);
  });
});

describe("waveform peaks", () => {
  it("100 bars for the 10 s preview and 200 for the track, 0..1, following the level", async () => {
    // 5 s at -20 dBFS, then the rest at -6 dBFS.
    const quiet = tone({ hz: 440, seconds: 5, dbfs: -20 });
    const loud = tone({ hz: 440, seconds: 35, dbfs: -6 });
    const r = await analyzeAudio(encodeWav([Float32Array.from([...quiet, ...loud])]));
    expect(r.previewPeaks).toHaveLength(100);
    expect(r.overviewPeaks).toHaveLength(200);
    for (const bar of [...r.previewPeaks, ...r.overviewPeaks]) {
      expect(bar).toBeGreaterThanOrEqual(0);
      expect(bar).toBeLessThanOrEqual(1);
    }
    expect(r.previewPeaks[10]).toBeCloseTo(0.1, 2);
    expect(r.previewPeaks[90]).toBeCloseTo(0.501, 2);
    expect(r.overviewPeaks[10]).toBeCloseTo(0.1, 2);
    expect(r.overviewPeaks[199]).toBeCloseTo(0.501, 2);
  });

  it("a track shorter than the preview has a bar per 0.1 s", async () => {
    const r = await analyzeAudio(encodeWav([tone({ hz: 440, seconds: 4, dbfs: -6 })]));
    expect(r.previewPeaks).toHaveLength(40);
    expect(r.overviewPeaks.length).toBeGreaterThan(40);
    expect(r.overviewPeaks.length).toBeLessThanOrEqual(200);
  });
});

describe("files that cannot be analysed", () => {
  const beat = drumPattern({ bpm: 120, seconds: 12 });
  const wav = encodeWav([beat]);

  it("bytes that are no audio file: unreadable", async () => {
    expect((await failure(analyzeAudio(new Uint8Array(5000).map((_, i) => (i * 31 + 7) & 255)))).reason).toBe("unreadable");
    expect((await failure(analyzeAudio(new Uint8Array(0)))).reason).toBe("unreadable");
  });

  it("a known format the engine does not decode (AIFF): unsupported", async () => {
    expect((await failure(analyzeAudio(encodeWithFfmpeg(wav, "aiff")))).reason).toBe("unsupported");
  });

  it("a file cut short, or with its audio overwritten: decode-failed", async () => {
    expect((await failure(analyzeAudio(wav.slice(0, 1000)))).reason).toBe("decode-failed");
    expect((await failure(analyzeAudio(encodeWithFfmpeg(wav, "mp3").slice(0, 40_000)))).reason).toBe("decode-failed");
    const flac = encodeWithFfmpeg(wav, "flac");
    for (let i = 8000; i < flac.length; i++) flac[i] = (i * 7919) & 255;
    expect((await failure(analyzeAudio(flac))).reason).toBe("decode-failed");
  });

  it("over the size or length bound: too-large", async () => {
    expect((await failure(analyzeAudio(wav, { maxBytes: 10_000 }))).reason).toBe("too-large");
    expect((await failure(analyzeAudio(wav, { maxSeconds: 10 }))).reason).toBe("too-large");
  });

  it("over its CPU budget: too-slow; within it, the same analysis as without one (ADR 0141)", async () => {
    const mp3 = encodeWithFfmpeg(wav, "mp3");
    const slow = await failure(analyzeAudio(mp3, { cpuBudgetMs: 1 }));
    expect(slow.reason).toBe("too-slow");
    expect(slow.message).toMatch(/ms of CPU, over its 1 ms budget/);
    expect(await analyzeAudio(mp3, { cpuBudgetMs: 60_000 })).toEqual(await analyzeAudio(mp3));
  });
});
