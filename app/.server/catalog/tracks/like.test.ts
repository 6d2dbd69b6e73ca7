import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Album } from "../../../lib/catalog/types.ts";
import type { TrackQuery } from "../../../lib/catalog/track-query.ts";
import type { TrackAnalysis } from "../../analysis/analyze.ts";
import type { AnalysisFigures, AnalysisLookup } from "../../analysis/stage/types.ts";
import { encodeFingerprint, FIELDS, fingerprintBytes } from "../../analysis/fingerprint.ts";
import type { CatalogSource } from "../index.ts";
import type { CatalogSnapshot } from "../service.ts";
import { createCatalogIndexes } from "../indexes.ts";
import { spreadAlbums } from "./like.ts";
import { createPrng } from "../sample/prng.ts";
import { NO_YIELD } from "./yielding.ts";

// as a server reads them (ADR 0162): the figures' fingerprints and passages from their file
const figuresDir = fs.mkdtempSync(path.join(os.tmpdir(), "figures-"));
afterAll(() => fs.rmSync(figuresDir, { recursive: true, force: true }));

// The `like=` view's answer (issue #19, docs/product-rules.md "More like this"): the seed's
// nearest neighbours, never the seed or its audio's copies, one album at most 3 times in the
// first 12, with every other filter and sort; a seed without a fingerprint says so.

const rng = createPrng(19);
/** A fingerprint near a family's centre: every field at `centre` (0..1 of its range) ± a little. */
const print = (centre: number) => encodeFingerprint(FIELDS.map((f) => f.min + Math.min(1, Math.max(0, centre + (rng.next() - 0.5) * 0.1)) * (f.max - f.min)));
const analysis = (family: "house" | "pad", bpm: number | null, key: string, fingerprint: string | null): TrackAnalysis => ({
  durationSeconds: 120,
  bpm,
  bpmConfidence: 0.9,
  key,
  keyConfidence: 0.9,
  loudnessLufs: -14,
  previewPeaks: [0.5],
  overviewPeaks: [0.5],
  fingerprint: fingerprint ?? (family === "house" ? print(0.7) : print(0.3)),
  analyzerVersion: 3,
});

const albums: Album[] = [];
const results = new Map<string, TrackAnalysis>();
// four house albums of 6 tracks (123–128 BPM), four pad albums of 6 (no beat)
for (let a = 0; a < 8; a++) {
  const family = a < 4 ? "house" : "pad";
  const tracks = Array.from({ length: 6 }, (_, i) => {
    const key = `${family}-${a}-${i}.mp3`;
    results.set(key, analysis(family, family === "house" ? 123 + ((a + i) % 6) : null, i % 2 ? "A minor" : "C major", null));
    return { s3Path: key, Filename: `${family} ${a} ${i}.mp3` };
  });
  albums.push({ id: `al${a}`, name: `${family} album ${a}`, artist: `Artist ${a}`, genre: family === "house" ? "Electronic" : "Ambient", artwork: "", keywords: [family === "house" ? "electronic" : "ambient"], featured: false, tracks });
}
// the first house track again on a single-like album (the same recording), and a track not analysed yet
albums.push({ id: "copy", name: "Copy", artist: "Artist 0", genre: "Electronic", artwork: "", keywords: ["electronic"], featured: false, tracks: [{ s3Path: "house-0-0.mp3", Filename: "Same Recording.mp3" }, { s3Path: "new.mp3", Filename: "New.mp3" }] });
results.set("new.mp3", { ...analysis("house", 124, "C major", null), fingerprint: undefined });

function lookup(): AnalysisLookup {
  const rows: AnalysisFigures[] = [...results].map(([key, r]) => ({ key, seconds: r.durationSeconds, bpm: r.bpm, musicalKey: r.key, ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}) }));
  return {
    version: 1,
    lookup: async (keys) => new Map(keys.flatMap((k) => (results.has(k) ? [[k, results.get(k)!] as const] : []))),
    figuresAfter: async (cursor) => (cursor ? { rows: [], next: cursor } : { rows, next: { seq: 1 } }),
  };
}

function setup() {
  const snap: CatalogSnapshot = { albums, films: [], singles: [], channels: [], genres: [], version: 1, updatedAt: "2026-11-24T00:00:00Z" };
  const source = { snapshot: () => snap, mediaUrl: (key: string) => `/media/${key}` } as unknown as CatalogSource;
  return createCatalogIndexes(source, lookup(), { tracks: { yielder: () => NO_YIELD, figuresDir } }).tracks;
}

const Q = (over: Partial<TrackQuery> = {}): TrackQuery => ({ q: "", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "similarity", page: 1, like: "al0:0", ...over });

describe("a like= view", () => {
  const index = setup();

  it("lists the seed's family first, never the seed nor its recording elsewhere, each with why", async () => {
    const r = await index.query(Q());
    expect(r.like).toMatchObject({ id: "al0:0", status: "ready", kind: "track", row: { title: "house 0 0", artist: "Artist 0" } });
    // 23 other house tracks, 24 pads (the copy of the seed and the unanalysed track are not listed)
    expect(r.total).toBe(47);
    const all = [];
    for (let page = 1; page <= r.pageCount; page++) all.push(...(await index.query(Q({ page }))).rows);
    expect(all.map((row) => row.id)).not.toContain("al0:0");
    expect(all.map((row) => row.id)).not.toContain("copy:0");
    expect(all.slice(0, 23).every((row) => row.album.startsWith("house"))).toBe(true);
    expect(all.slice(23).every((row) => row.album.startsWith("pad"))).toBe(true);
    expect(r.rows[0].why).toMatch(/BPM/);
    expect(all.at(-1)!.why).not.toMatch(/similar timbre/);
  });

  it("lets no album take more than 3 of the first 12", async () => {
    const r = await index.query(Q());
    const perAlbum = new Map<string, number>();
    for (const row of r.rows) perAlbum.set(row.albumId, (perAlbum.get(row.albumId) ?? 0) + 1);
    expect(Math.max(...perAlbum.values())).toBeLessThanOrEqual(3);
  });

  it("combines with the tempo, key and genre filters and with the other sorts", async () => {
    const ranged = await index.query(Q({ bpm: { min: 126, max: 128 } }));
    expect(ranged.total).toBeGreaterThan(0);
    expect(ranged.rows.every((row) => row.bpm! >= 126 && row.bpm! <= 128)).toBe(true);
    const keyed = await index.query(Q({ keys: ["A minor"] }));
    expect(keyed.rows.every((row) => row.key === "A minor")).toBe(true);
    expect(keyed.keyCounts.map((k) => k.key)).toEqual(["C major", "A minor"]);
    const pads = await index.query(Q({ genre: "Ambient" }));
    expect(pads.total).toBe(24);
    const byTempo = await index.query(Q({ sort: "-bpm", bpm: { min: 120, max: 130 } }));
    const tempi = byTempo.rows.map((row) => row.bpm!);
    expect(tempi).toEqual([...tempi].sort((a, b) => b - a));
  });

  it("sorts one list of neighbours in every order asked, without scanning again", async () => {
    const bySimilarity = await index.query(Q({ bpm: { min: 100, max: 200 } }));
    const entries = index.stats()!.cache.entries;
    const all = async (sort: TrackQuery["sort"]) => {
      const ids: string[] = [];
      const first = await index.query(Q({ sort, bpm: { min: 100, max: 200 } }));
      for (let page = 1; page <= first.pageCount; page++) ids.push(...(await index.query(Q({ sort, page, bpm: { min: 100, max: 200 } }))).rows.map((row) => `${row.id} ${row.bpm}`));
      return ids;
    };
    const similar = await all("similarity");
    const byTempo = await all("-bpm");
    expect(bySimilarity.total).toBeGreaterThan(12);
    expect([...byTempo].sort()).toEqual([...similar].sort());
    const tempi = byTempo.map((id) => Number(id.split(" ")[1]));
    expect(tempi).toEqual([...tempi].sort((a, b) => b - a));
    expect(index.stats()!.cache.entries).toBe(entries);
  });

  it("says a seed without a fingerprint is still being analysed, and an unknown one is unknown, listing nothing", async () => {
    const pending = await index.query(Q({ like: "copy:1" }));
    expect(pending.like).toMatchObject({ status: "analysing", row: { title: "New" } });
    expect(pending.rows).toEqual([]);
    expect((await index.query(Q({ like: "nope:0" }))).like?.status).toBe("unknown");
    expect((await index.query(Q({ like: "al0:99" }))).like?.status).toBe("unknown");
    expect((await index.query(Q({ like: "ref-AAAAAAAAAAAAAAAAAAAAAA" }))).like).toMatchObject({ kind: "reference", status: "unknown" });
  });
});

describe("a like= view of a reference file", () => {
  const index = setup();
  const ref = "ref-AAAAAAAAAAAAAAAAAAAAAA";

  it("lists the reference's neighbours, all of them (no track is the reference)", async () => {
    const sounding = { fingerprint: fingerprintBytes(print(0.7))!, bpm: 125, key: 21 };
    const r = await index.query(Q({ like: ref }), { id: ref, status: "ready", sounding, label: "temp.wav" });
    expect(r.like).toMatchObject({ kind: "reference", status: "ready", label: "temp.wav" });
    expect(r.total).toBe(49);
    expect(r.rows[0].album).toMatch(/^house/);
  });

  it("says an expired reference has expired, listing nothing", async () => {
    const r = await index.query(Q({ like: ref }), { id: ref, status: "expired" });
    expect(r.like).toMatchObject({ kind: "reference", status: "expired" });
    expect(r.rows).toEqual([]);
  });
});

describe("the album rule", () => {
  it("moves a fourth track of one album past the first 12, keeping the order otherwise", () => {
    const trackAlbum = Int32Array.from([0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const out = [...spreadAlbums(Int32Array.from(trackAlbum.keys()), trackAlbum)];
    expect(out.slice(0, 12)).toEqual([0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(out.slice(12)).toEqual([3, 4, 14]);
  });
});
