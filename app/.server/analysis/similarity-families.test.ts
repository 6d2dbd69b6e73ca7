import { describe, expect, it } from "vitest";
import { analyzeAudio } from "./analyze.ts";
import { FIELDS, fingerprintBytes } from "./fingerprint.ts";
import { catalogScales, compare, createModel, type Sounding } from "./similarity.ts";
import { encodeWav, encodeWithFfmpeg, type EncodedFormat } from "../../../tests/support/synth.ts";
import { FAMILIES, renderFamilyTrack, type FamilyTrack } from "../catalog/sample/families.ts";
import { KEY_NAMES } from "../../lib/catalog/track-query.ts";

// Issue #19: fingerprints of generated audio — six families, each at two tempi and keys,
// encoded as MP3, FLAC, Opus and M4A — rank their own family first. The audio goes through
// the whole analysis (decoding, tempo, key, fingerprint), as the stored results do.

const RATE = 44_100;
const FORMATS: EncodedFormat[] = ["mp3", "flac", "opus", "m4a"];
const VARIANTS: Record<(typeof FAMILIES)[number], [Omit<FamilyTrack, "family" | "seconds">, Omit<FamilyTrack, "family" | "seconds">]> = {
  ambient: [{ bpm: null, key: "D major", seed: 1 }, { bpm: null, key: "F minor", seed: 2 }],
  acoustic: [{ bpm: 92, key: "G major", seed: 3 }, { bpm: 108, key: "E minor", seed: 4 }],
  house: [{ bpm: 122, key: "A minor", seed: 5 }, { bpm: 127, key: "C# minor", seed: 6 }],
  breakbeat: [{ bpm: 134, key: "F minor", seed: 7 }, { bpm: 144, key: "D minor", seed: 8 }],
  ballad: [{ bpm: 66, key: "A# major", seed: 9 }, { bpm: 74, key: "B minor", seed: 10 }],
  strings: [{ bpm: null, key: "C major", seed: 11 }, { bpm: null, key: "G# minor", seed: 12 }],
};

describe("fingerprints of six families of music, across formats", () => {
  it("put each track's nearest neighbour in its own family (11 of 12 at least), its sibling in the first three", { timeout: 240_000 }, async () => {
    const tracks: { family: string; label: string; sounding: Sounding }[] = [];
    let n = 0;
    for (const family of FAMILIES) {
      for (const variant of VARIANTS[family]) {
        const format = FORMATS[n++ % FORMATS.length];
        const wav = encodeWav([renderFamilyTrack({ family, seconds: 24, ...variant }, RATE)], RATE);
        const r = await analyzeAudio(encodeWithFfmpeg(wav, format));
        const fingerprint = fingerprintBytes(r.fingerprint);
        expect(fingerprint, `${family} ${format}`).not.toBeNull();
        tracks.push({ family, label: `${family} ${variant.key} ${format}`, sounding: { fingerprint: fingerprint!, bpm: r.bpm, key: r.key ? KEY_NAMES.indexOf(r.key) : null } });
      }
    }
    const vectors = new Uint8Array(tracks.length * FIELDS.length);
    tracks.forEach((t, i) => vectors.set(t.sounding.fingerprint, i * FIELDS.length));
    const model = createModel(catalogScales(vectors, tracks.length));
    const ranks = tracks.map((seed, i) => {
      const ranked = tracks.filter((t) => t !== seed).sort((a, b) => compare(model, seed.sounding, a.sounding).distance - compare(model, seed.sounding, b.sounding).distance);
      const sibling = tracks[i % 2 === 0 ? i + 1 : i - 1];
      return { seed: seed.label, nearest: ranked[0].label, siblingRank: ranked.indexOf(sibling) + 1, ownFirst: ranked[0].family === seed.family };
    });
    // the nearest neighbour is of the seed's own family for at least 11 of the 12 (measured
    // after analysis v3: 11, the strings in C major finding the acoustic piece in G major first),
    // and the family's other track is never further than third
    expect(ranks.filter((r) => r.ownFirst).length, JSON.stringify(ranks, null, 1)).toBeGreaterThanOrEqual(11);
    expect(Math.max(...ranks.map((r) => r.siblingRank)), JSON.stringify(ranks, null, 1)).toBeLessThanOrEqual(3);
  });
});
