import { describe, expect, it } from "vitest";
import { PayloadError } from "./errors.ts";
import { reshapeAlbums, reshapeChannels, isCompletedFilm, reshapeFilm } from "./reshape.ts";
import { albumEntrySchema, genreNames, parseList, rawAlbumSchema, rawChannelSchema, rawFilmSchema } from "./schemas.ts";
import { sampleAlbums } from "./sample/generate.ts";

describe("parseList", () => {
  it("discards null entries (product-rules §3) and drops invalid ones without failing the list", () => {
    const raw = [null, { name: "A", artist: "X", tracks: [{ s3Path: "t.wav", Filename: "One" }] }, undefined, { artist: "no name" }, 42];
    const parsed = parseList(raw, rawAlbumSchema, "test");
    expect(parsed.items.map((a) => a.name)).toEqual(["A"]);
    expect(parsed.nulls).toBe(2);
    expect(parsed.invalid).toBe(2);
  });

  it("rejects a payload that is not a list", () => {
    expect(() => parseList({ albums: [] }, rawAlbumSchema, "test")).toThrow(PayloadError);
  });

  it("normalises album fields leniently", () => {
    const [album] = parseList(
      [{ name: "A", artist: null, keywords: ["jazz", 3, "oldies jazz"], featured: "true", tracks: [{ s3Path: "a.wav" }, { Filename: "no path" }, null] }],
      rawAlbumSchema,
      "t",
    ).items;
    expect(album).toMatchObject({ artist: "", genre: "", keywords: ["jazz", "oldies jazz"], featured: true });
    expect(album.tracks).toEqual([{ s3Path: "a.wav", Filename: "" }]);
  });

  it("channels: null entries discarded, counts coerced", () => {
    const parsed = parseList([null, { name: "C", subscriberCount: "1500", videoCount: null }], rawChannelSchema, "t");
    expect(parsed.items).toHaveLength(1);
    expect(parsed.items[0].subscriberCount).toBe(1500);
    expect(parsed.items[0].videoCount).toBe(0);
  });
});

describe("albumEntrySchema (fast path for well-formed albums)", () => {
  it("gives exactly what the zod schema gives", () => {
    const entries: unknown[] = [
      ...sampleAlbums(50, 11),
      { name: " Padded ", artist: null, tracks: [{ s3Path: "a.wav" }] },
      { name: "Bad track", artist: "X", genre: "", artwork: "", keywords: [], featured: false, tracks: [{ s3Path: 5, Filename: "x" }] },
      { name: "", artist: "X" },
    ];
    expect(parseList(entries, albumEntrySchema, "t")).toEqual(parseList(entries, rawAlbumSchema, "t"));
  });
});

describe("reshape", () => {
  it("album ids are stable, URL-safe and independent of list position", () => {
    const a = parseList([{ name: "One", artist: "X" }, { name: "Two", artist: "Y" }], rawAlbumSchema, "t").items;
    const ids1 = reshapeAlbums(a).map((x) => x.id);
    const ids2 = reshapeAlbums([...a].reverse()).map((x) => x.id).reverse();
    expect(ids1).toEqual(ids2);
    for (const id of ids1) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("repeated name+artist get distinct ids", () => {
    const a = parseList([{ name: "Same", artist: "X" }, { name: "Same", artist: "X" }], rawAlbumSchema, "t").items;
    const ids = reshapeAlbums(a).map((x) => x.id);
    expect(new Set(ids).size).toBe(2);
  });

  it("channel ids are stable", () => {
    const c = parseList([{ name: "Chan", country: "UK" }], rawChannelSchema, "t").items;
    expect(reshapeChannels(c)[0].id).toBe(reshapeChannels(c)[0].id);
  });

  it("films: only 'completed' are kept; artwork may be a string or a list", () => {
    const films = parseList(
      [
        { film_id: 7, title: "A", film_status: "completed", artwork: "x.webp" },
        { film_id: "8", title: "B", film_status: "pending" },
        null,
      ],
      rawFilmSchema,
      "t",
    ).items.map(reshapeFilm);
    expect(films.filter(isCompletedFilm)).toEqual([{ film_id: "7", title: "A", film_status: "completed", artwork: ["x.webp"] }]);
  });
});

describe("genreNames (product-rules §3 Genre / SubGenre)", () => {
  it("reads Name from each entry", () => {
    expect(genreNames([{ Name: "Pop" }, { Name: "Jazz" }, { Other: 1 }, null])).toEqual(["Pop", "Jazz"]);
  });
  it("returns null for anything that is not a list", () => {
    expect(genreNames({ Name: "Pop" })).toBeNull();
    expect(genreNames("Pop")).toBeNull();
    expect(genreNames(null)).toBeNull();
  });
});
