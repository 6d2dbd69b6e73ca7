import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sampleAudioCacheDir, writeSampleAudio } from "./audio.ts";
import { clipKey } from "./generate.ts";
import { SAMPLE_TRACKS } from "./tracks.ts";

let tmp: string;
const saved = process.env.SAMPLE_AUDIO_CACHE;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sample-audio-cache-"));
  process.env.SAMPLE_AUDIO_CACHE = path.join(tmp, "cache");
});
afterEach(() => {
  if (saved === undefined) delete process.env.SAMPLE_AUDIO_CACHE;
  else process.env.SAMPLE_AUDIO_CACHE = saved;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the sample audio cache", () => {
  it("fills a new data folder from the pieces another one encoded, without encoding them again", async () => {
    const cache = sampleAudioCacheDir()!;
    expect(cache.startsWith(path.join(tmp, "cache"))).toBe(true);
    fs.mkdirSync(cache, { recursive: true });
    // stand-ins for the encoded pieces: the copies must be these bytes, not a new encoding
    SAMPLE_TRACKS.forEach((_, i) => fs.writeFileSync(path.join(cache, clipKey(i + 1)), `piece ${i + 1}`));
    const media = path.join(tmp, "data", "media");
    const written: string[] = [];
    expect(await writeSampleAudio(media, { onFile: (key) => written.push(key) })).toBe(SAMPLE_TRACKS.length);
    expect(written.sort()).toEqual(SAMPLE_TRACKS.map((_, i) => clipKey(i + 1)).sort());
    for (const [i] of SAMPLE_TRACKS.entries()) expect(fs.readFileSync(path.join(media, clipKey(i + 1)), "utf8")).toBe(`piece ${i + 1}`);
    // nothing half-copied is left behind
    expect(fs.readdirSync(media).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("is named by what the bytes depend on, and can be turned off", () => {
    expect(path.basename(sampleAudioCacheDir()!)).toMatch(/^[0-9a-f]{12}$/);
    process.env.SAMPLE_AUDIO_CACHE = "off";
    expect(sampleAudioCacheDir()).toBeUndefined();
  });
});
