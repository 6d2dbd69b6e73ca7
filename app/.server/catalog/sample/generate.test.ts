import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { genreLeafPaths, MUSIC_GENRE_TREE, NAME_MATCHED_GENRES } from "./genre-tree.ts";
import { sampleAlbums, sampleChannels, sampleFilms, sampleMusicApi, SAMPLE_TEST_USER_IDS } from "./generate.ts";
import { writeSampleSources } from "./ensure.ts";

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
});
