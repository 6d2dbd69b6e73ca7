import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeAudio, ANALYZER_VERSION, type TrackAnalysis } from "../../analysis/analyze.ts";
import { readShippedSampleAnalysis, sha256 } from "./sample-analysis.ts";
import { sampleAudioCacheDir, sampleAudioReady, writeSampleAudio } from "./audio.ts";
import { CLIP_COUNT, clipKey, sampleAlbums } from "./generate.ts";
import { renderSampleTrack, SAMPLE_AUDIO_RATE, SAMPLE_TRACKS } from "./tracks.ts";

// Issue #9 "Sample data a newcomer can see": the sample pieces vary in tempo, length, key and
// beat, and the analysis measures in them what they were made with.

const beats = SAMPLE_TRACKS.filter((t) => t.bpm !== null);
const ambient = SAMPLE_TRACKS.filter((t) => t.bpm === null);

describe("the sample pieces", () => {
  it("span tempi from 70 to 160 BPM, lengths from 0:30 to 3:00, beatless pieces and keys major and minor", () => {
    const tempi = beats.map((t) => t.bpm!);
    expect(Math.min(...tempi)).toBeGreaterThanOrEqual(70);
    expect(Math.max(...tempi)).toBeLessThanOrEqual(160);
    expect(tempi.some((b) => b < 90) && tempi.some((b) => b > 130)).toBe(true);
    expect(new Set(tempi).size).toBeGreaterThanOrEqual(6);
    const lengths = SAMPLE_TRACKS.map((t) => t.seconds);
    expect(Math.min(...lengths)).toBe(30);
    expect(Math.max(...lengths)).toBe(180);
    expect(ambient.length).toBeGreaterThanOrEqual(3);
    const keys = new Set(SAMPLE_TRACKS.map((t) => t.key));
    expect(keys.size).toBeGreaterThanOrEqual(8);
    expect([...keys].some((k) => k.endsWith("major")) && [...keys].some((k) => k.endsWith("minor"))).toBe(true);
    expect(CLIP_COUNT).toBe(SAMPLE_TRACKS.length);
  });

  it("are exactly as long as stated and never clip", () => {
    for (const index of [4, 2]) {
      const pcm = renderSampleTrack(index);
      expect(pcm.length).toBe(SAMPLE_TRACKS[index].seconds * SAMPLE_AUDIO_RATE);
      expect(pcm.reduce((peak, v) => Math.max(peak, Math.abs(v)), 0)).toBeLessThanOrEqual(0.9);
    }
  });

  it("are what the sample albums point to, every one of them used", () => {
    const used = new Set([...sampleAlbums(300)].flatMap((a) => a.tracks.map((t) => t.s3Path)));
    expect(used).toEqual(new Set(SAMPLE_TRACKS.map((_, i) => clipKey(i + 1))));
  });
});

describe("the sample audio files", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sample-audio-"));
  // an empty cache of our own (audio.ts): the pieces are encoded here, not copied from the
  // project's cache that earlier runs filled
  const cacheBase = fs.mkdtempSync(path.join(os.tmpdir(), "sample-audio-cache-"));
  const savedCache = process.env.SAMPLE_AUDIO_CACHE;
  process.env.SAMPLE_AUDIO_CACHE = cacheBase;
  afterAll(() => {
    if (savedCache === undefined) delete process.env.SAMPLE_AUDIO_CACHE;
    else process.env.SAMPLE_AUDIO_CACHE = savedCache;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(cacheBase, { recursive: true, force: true });
  });
  const results = new Map<number, TrackAnalysis>();
  const files: string[] = [];

  // Each step has its own bound (CI shares a 2-core machine with another test file): encoding
  // the 24 pieces (39 min of audio) takes ~50 s of one core with lamejs on a quiet machine and
  // over 100 s on CI's loaded one, where the encode and the 24 analyses in one 120 s test timed
  // out. The encode gets 6x its quiet time; each piece's analysis (0.3-1.3 s) its own test.
  it("are written by a worker thread as small MP3s, whole, once", { timeout: 300_000 }, async () => {
    const seen: string[] = [];
    const run = writeSampleAudio(dir, { onFile: (key) => seen.push(key) });
    // the same directory is not written twice at once
    expect(writeSampleAudio(dir)).toBe(run);
    await sampleAudioReady(dir);
    expect(await run).toBe(SAMPLE_TRACKS.length);
    // shortest first, so most tracks can play soon after a first start
    expect(seen[0]).toBe(clipKey(SAMPLE_TRACKS.findIndex((t) => t.seconds === 30) + 1));
    files.push(...fs.readdirSync(dir).sort());
    expect(files).toEqual(SAMPLE_TRACKS.map((_, i) => clipKey(i + 1)).sort());
    const bytes = files.reduce((sum, file) => sum + fs.statSync(path.join(dir, file)).size, 0);
    // ~4 KB per second of audio (32 kbit/s mono)
    const seconds = SAMPLE_TRACKS.reduce((sum, t) => sum + t.seconds, 0);
    expect(bytes / seconds).toBeLessThan(4_200);
    console.log(`sample audio: ${SAMPLE_TRACKS.length} files, ${Math.round(seconds / 60)} min, ${(bytes / 1e6).toFixed(1)} MB`);
    // nothing missing: nothing to do
    expect(await writeSampleAudio(dir)).toBe(0);
    // and the next data folder gets the same bytes from the cache
    const cache = sampleAudioCacheDir()!;
    expect(cache.startsWith(cacheBase)).toBe(true);
    for (const file of files) expect(fs.readFileSync(path.join(cache, file)).equals(fs.readFileSync(path.join(dir, file)))).toBe(true);
  });

  // clipKey(i + 1) is SAMPLE_TRACKS[i]'s file: the pieces in file order are the pieces in order
  it.each(SAMPLE_TRACKS.map((track, i) => ({ track, i, name: `${clipKey(i + 1)} (${track.bpm ?? "no"} BPM, ${track.key})` })))(
    "$name measures as made: the length to the second, the tempo within 4 % (none for ambient pieces), the key",
    { timeout: 60_000 },
    async ({ track, i, name }) => {
      expect(files[i], "the files were written (the test above)").toBe(clipKey(i + 1));
      const r = await analyzeAudio(new Uint8Array(fs.readFileSync(path.join(dir, files[i]))));
      results.set(i, r);
      expect(Math.round(r.durationSeconds), name).toBe(track.seconds);
      if (track.bpm === null) expect(r.bpm, name).toBeNull();
      else expect(Math.abs(r.bpm! - track.bpm) / track.bpm, name).toBeLessThanOrEqual(0.04);
      expect(r.key, name).toBe(track.key);
    },
  );

  it("are the bytes and results shipped in sample-analysis.json (else: npm run sample:analysis)", () => {
    const shipped = readShippedSampleAnalysis();
    expect(shipped?.analyzerVersion, "the shipped results are of another analyzer version: npm run sample:analysis").toBe(ANALYZER_VERSION);
    expect(results.size, "every piece was analysed (the tests above)").toBe(SAMPLE_TRACKS.length);
    for (const [i, file] of files.entries()) {
      const bytes = fs.readFileSync(path.join(dir, file));
      const piece = shipped!.pieces[file];
      expect(piece?.sha256, `${file} is not the audio shipped results were made from: npm run sample:analysis`).toBe(sha256(bytes));
      expect(piece.bytes).toBe(bytes.length);
      expect(piece.analysis, `${file}'s shipped analysis is stale: npm run sample:analysis`).toEqual(results.get(i));
    }
    expect(Object.keys(shipped!.pieces).sort()).toEqual(files);
  });
});
