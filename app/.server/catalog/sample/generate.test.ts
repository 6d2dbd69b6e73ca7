import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { genreLeafPaths, MUSIC_GENRE_TREE, NAME_MATCHED_GENRES } from "./genre-tree.ts";
import { sampleAlbums, sampleChannels, sampleFilms, sampleMusicApi, SAMPLE_TEST_USER_IDS } from "./generate.ts";
import { writeSampleSources } from "./ensure.ts";
import { familyOfGenre } from "./genre-families.ts";
import { SAMPLE_TRACKS } from "./tracks.ts";

describe("sample catalog generator", () => {
  it("is deterministic: the same seed gives the same output, another seed differs", () => {
    const a = JSON.stringify([...sampleAlbums(50, 7)]);
    expect(JSON.stringify([...sampleAlbums(50, 7)])).toBe(a);
    expect(JSON.stringify([...sampleAlbums(50, 8)])).not.toBe(a);
    expect(JSON.stringify(sampleChannels(20, 7))).toBe(JSON.stringify(sampleChannels(20, 7)));
    expect(JSON.stringify(sampleFilms(20, 7))).toBe(JSON.stringify(sampleFilms(20, 7)));
    expect(JSON.stringify(sampleMusicApi(30, 7))).toBe(JSON.stringify(sampleMusicApi(30, 7)));
  });

  it("writes byte-identical files for the same seed", async () => {
    const dirA = fs.mkdtempSync(path.join(os.tmpdir(), "sample-a-"));
    const dirB = fs.mkdtempSync(path.join(os.tmpdir(), "sample-b-"));
    try {
      await writeSampleSources(dirA, { albums: 120, seed: 3 });
      await writeSampleSources(dirB, { albums: 120, seed: 3 });
      for (const name of ["merged.json", "channels.json", "films.json", "music-api.json"]) {
        expect(fs.readFileSync(path.join(dirA, name), "utf8")).toBe(fs.readFileSync(path.join(dirB, name), "utf8"));
      }
      expect(JSON.parse(fs.readFileSync(path.join(dirA, "merged.json"), "utf8"))).toHaveLength(120);
    } finally {
      fs.rmSync(dirA, { recursive: true, force: true });
      fs.rmSync(dirB, { recursive: true, force: true });
    }
  });

  it("albums follow the product-rules §9 genre tree with lower-case hierarchical keywords", () => {
    const leafPaths = new Set(genreLeafPaths().map((p) => p.map((k) => k.toLowerCase()).join(" > ")));
    const albums = [...sampleAlbums(300)];
    for (const album of albums) {
      expect(leafPaths.has(album.keywords.join(" > "))).toBe(true);
      expect(album.genre.toLowerCase()).toBe(album.keywords[0]);
      expect(album.tracks.length).toBeGreaterThanOrEqual(8);
      for (const t of album.tracks) expect(t.s3Path).not.toContain("/");
    }
    // the default few hundred albums cover every leaf, so every filter choice has matches
    expect(new Set(albums.map((a) => a.keywords.join(" > "))).size).toBe(leafPaths.size);
    expect(new Set(albums.map((a) => a.genre))).toEqual(new Set(MUSIC_GENRE_TREE.map((g) => g.name)));
    const featured = albums.filter((a) => a.featured).length / albums.length;
    expect(featured).toBeGreaterThan(0.08);
    expect(featured).toBeLessThan(0.25);
  });

  it("african, asian and latin albums carry their sub-genre in the name (product-rules §5)", () => {
    const named = [...sampleAlbums(300)].filter((a) => NAME_MATCHED_GENRES.has(a.keywords[0]));
    expect(named.length).toBeGreaterThan(0);
    for (const album of named) expect(album.name.toLowerCase()).toContain(album.keywords[1]);
  });

  it("singles include every case the pipeline handles", () => {
    const music = sampleMusicApi();
    const ids = music.audios.map((a) => a.submission_id);
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(music.audios.some((a) => SAMPLE_TEST_USER_IDS.includes(String(a.user_id)))).toBe(true);
    expect(music.audios.some((a) => a.status !== "DELIVERED")).toBe(true);
    expect(SAMPLE_TEST_USER_IDS).toHaveLength(16);
    for (const id of SAMPLE_TEST_USER_IDS) expect(id).toMatch(/^US\d{6}$/);
  });

  it("films mix statuses and image variants; channels span every subscriber range", () => {
    const films = sampleFilms();
    expect(films.some((f) => f.film_status !== "completed")).toBe(true);
    expect(films.some((f) => !f.portrait && !f.landscape && !f.artwork)).toBe(true);
    const counts = sampleChannels().map((c) => c.subscriberCount);
    for (const [min, max] of [[1e3, 1e4], [1e4, 1e5], [1e5, 1e6], [1e6, 1e7], [1e7, Infinity]]) {
      expect(counts.some((n) => n >= min && n < max)).toBe(true);
    }
  });

  // issue #32: a sample that looks like a real catalog and sounds like its genres
  it("gives every track of the default sample its own title, in many languages and scripts", () => {
    const albums = [...sampleAlbums(300)];
    const titles = albums.flatMap((a) => a.tracks.map((t) => t.Filename.toLowerCase()));
    expect(new Set(titles).size).toBe(titles.length);
    const text = albums.map((a) => `${a.name} ${a.artist} ${a.tracks.map((t) => t.Filename).join(" ")}`).join(" ");
    for (const script of ["Latin", "Arabic", "Hebrew", "Devanagari", "Han", "Hiragana", "Hangul", "Thai", "Khmer", "Tibetan", "Cyrillic"]) {
      expect(new RegExp(`\\p{Script=${script}}`, "u").test(text), script).toBe(true);
    }
    // the forms real titles have
    const originals = albums.flatMap((a) => a.tracks.map((t) => t.Filename));
    for (const form of [/\(feat\. /, / Remix\)$/, /^\d{4}$/, /, Pt\. \d$/, / - (Live|En Vivo|Ao Vivo|En Concert|Dal Vivo)$/]) {
      expect(originals.some((t) => form.test(t)), String(form)).toBe(true);
    }
  });

  it("draws words with a Zipf-like frequency: a few common, a long tail", () => {
    const counts = new Map<string, number>();
    let tokens = 0;
    for (const a of sampleAlbums(300)) {
      for (const w of a.tracks.flatMap((t) => t.Filename.toLowerCase().split(/[^\p{L}\p{M}]+/u)).filter(Boolean)) {
        counts.set(w, (counts.get(w) ?? 0) + 1);
        tokens++;
      }
    }
    const sorted = [...counts.values()].sort((a, b) => b - a);
    expect(sorted.length).toBeGreaterThan(400);
    // the most common word is common but no word is everywhere (the old sample: "Bells" nine times on a page)
    expect(sorted[0] / tokens).toBeGreaterThan(0.02);
    expect(sorted[0] / tokens).toBeLessThan(0.1);
    // rank 1 is several times rank 10, which is several times rank 100
    expect(sorted[0] / sorted[9]).toBeGreaterThan(2);
    expect(sorted[9] / sorted[99]).toBeGreaterThan(2);
    expect(sorted.filter((c) => c === 1).length).toBeGreaterThan(50);
  });

  it("makes every album sound like its genre: its tracks are pieces of its genre's family", () => {
    const beatless = new Set(["ambient", "strings"]);
    const families = new Map<string, Set<string>>();
    for (const album of sampleAlbums(300)) {
      const family = familyOfGenre(album.keywords);
      const pieces = album.tracks.map((t) => SAMPLE_TRACKS[Number(/track-(\d+)/.exec(t.s3Path)![1]) - 1].family);
      // its own family, or now and then a beatless interlude on a quiet album
      for (const piece of pieces) expect(piece === family || (beatless.has(piece) && !["house", "breakbeat"].includes(family))).toBe(true);
      expect(pieces.filter((p) => p === family).length).toBeGreaterThan(pieces.length / 2);
      families.set(album.genre, (families.get(album.genre) ?? new Set()).add(family));
    }
    expect(families.get("House")).toEqual(new Set(["house"]));
    expect([...families.get("Relaxing")!].every((f) => f === "ambient" || f === "ballad")).toBe(true);
    // a family serves several genres
    expect(new Set([...families.values()].flatMap((f) => [...f])).size).toBe(6);
  });

  it("gives a benchmark catalog a vocabulary that grows with it (Heaps' law), from a long word list", () => {
    const distinct = (n: number) => {
      const words = new Set<string>();
      for (const a of sampleAlbums(n, 11)) for (const t of a.tracks) for (const w of t.Filename.toLowerCase().split(/[^\p{L}\p{M}]+/u)) if (w) words.add(w);
      return words.size;
    };
    const small = distinct(2_500);
    const [five, ten] = [distinct(5_000), distinct(10_000)];
    // the sample's hand-written words, then the long list: tens of thousands of words
    expect(small).toBeLessThan(1_500);
    expect(five).toBeGreaterThan(15_000);
    // twice the albums, more words, but fewer than twice as many (Heaps: V ~ N^b, b < 1)
    expect(ten / five).toBeGreaterThan(1.2);
    expect(ten / five).toBeLessThan(1.9);
  });
});

