import SearchableMap from "minisearch/SearchableMap";
import { describe, expect, it } from "vitest";
import type { Album } from "../../../lib/catalog/types.ts";
import { AlbumTable } from "../album-table.ts";
import { buildTrackTable, trackTitle } from "../tracks/table.ts";
import { NO_YIELD } from "../tracks/yielding.ts";
import { createTrackSearch } from "./build.ts";
import { fuzzyWords, MAX_FUZZY_ROWS } from "./osa.ts";
import { orderByScore } from "./ranking.ts";

// Issue #41 point 6 (ADR 0142): a swap of two neighbouring letters is one edit, and "Best match"
// puts the exact title first, then a title starting with the query, then a title holding it,
// then a match in another field, then matches found only with an edit.

const track = (title: string, key: string) => ({ s3Path: key, Filename: `${title}.mp3` });
const album = (id: string, name: string, artist: string, genre: string, tracks: Album["tracks"]): Album => ({
  id,
  name,
  artist,
  genre,
  artwork: "",
  keywords: [genre.toLowerCase()],
  featured: false,
  tracks,
});

const ALBUMS: Album[] = [
  // first in the catalog and in title order: without tiers these came first
  album("a0", "Anthology", "Ana Costa", "Jazz", [track("Into the Night", "k0"), track("Late Night Drive", "k1"), track("Knight Moves", "k2"), track("Knight Drive", "k3")]),
  album("a1", "Night Sessions", "Diego Silva", "Jazz", [track("Blue Hour", "k4"), track("Drive", "k5")]),
  album("a2", "Roads", "Kofi Mensah", "House", [track("Nightfall", "k6"), track("Night Drive Home", "k7"), track("Night Drive", "k8")]),
  album("a3", "Night", "Mira Lane", "Ambient", [track("Night", "k9"), track("Sunrise", "k10")]),
];

async function setup(albums = ALBUMS) {
  const table = AlbumTable.fromAlbums(albums);
  const builder = createTrackSearch();
  const tracks = await buildTrackTable(table, NO_YIELD, builder.sink);
  const search = await builder.finish(tracks, NO_YIELD);
  const titleOf = (t: number) => {
    const a = tracks.trackAlbum[t];
    return trackTitle(albums[a].tracks[t - tracks.albumStart[a]]);
  };
  return {
    search,
    /** the track view's "Best match": best score first, ties in title order (query.ts pageOf) */
    tracks(q: string): string[] {
      const hits = search.tracks(q)!;
      return [...orderByScore(hits.tracks, hits.scores, tracks.count, (t) => tracks.titleRank[t], (r) => tracks.titleOrder[r])].map(titleOf);
    },
    /** the album view's: ties in catalog order */
    albums(q: string): string[] {
      const hits = search.albums(q)!;
      return [...orderByScore(hits.albums, hits.scores, albums.length, (a) => a, (r) => r)].map((a) => albums[a].name);
    },
  };
}

describe("a swap of two neighbouring letters", () => {
  it("is one edit: nihgt finds Night first, nigth too; short words still match as typed", async () => {
    const s = await setup();
    expect(s.tracks("nihgt")[0]).toBe("Night");
    expect(s.tracks("nigth")[0]).toBe("Night");
    // a swap at the start and at the end
    expect(s.tracks("inght")[0]).toBe("Night");
    expect(s.tracks("sunries")).toEqual(["Sunrise"]);
    // with another edit it is two, more than a 5-letter word forgives
    expect(s.tracks("nihgz")).toEqual([]);
    // in several words; under 4 letters no edit is forgiven (product-rules §5)
    expect(s.tracks("nigth drvie")[0]).toBe("Night Drive");
    expect(s.tracks("ngi")).toEqual([]);
  });

  it("is found by the walk at the optimal string alignment distance, as a plain count says", () => {
    // the textbook OSA recurrence over the whole matrix
    const osa = (a: string, b: string) => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      return d[a.length][b.length];
    };
    const words = ["night", "nihgt", "knight", "thing", "nights", "ngiht", "nightfall", "nigh", "ni", "tnigh", "inhgt"];
    const map = new SearchableMap<number>();
    words.forEach((w, i) => map.set(w, i));
    for (const q of ["night", "nihgt", "ngiht", "knihgt", "in"]) {
      for (const edits of [0, 1, 2]) {
        const found = fuzzyWords(map, q, edits).found;
        const expected = words.flatMap((w, id) => (osa(w, q) <= edits ? [[id, osa(w, q)]] : []));
        expect([...found].map(([id, { distance }]) => [id, distance]).sort((x, y) => x[0] - y[0])).toEqual(expected);
      }
    }
    expect(fuzzyWords(map, "nihgt", 1).found.get(0)).toEqual({ distance: 1, length: 5 });
  });
});

describe("Best match", () => {
  it("ranks one word: exact title, title start, title, another field, then with an edit", async () => {
    const s = await setup();
    expect(s.tracks("night")).toEqual([
      "Night", // the title is the word
      "Night Drive", // starts with it (a whole word scores more than a completion)
      "Night Drive Home",
      "Nightfall",
      "Into the Night", // holds it
      "Late Night Drive",
      "Blue Hour", // the album "Night Sessions"
      "Drive",
      "Sunrise", // the album "Night" (after Night Sessions' tracks: title order)
      "Knight Drive", // "knight": one edit
      "Knight Moves",
    ]);
  });

  it("ranks several words the same way, in any order typed for the exact title", async () => {
    const s = await setup();
    expect(s.tracks("night drive")).toEqual([
      "Night Drive", // exact
      "Night Drive Home", // starts with "night", holds "drive"
      "Late Night Drive", // holds both
      "Drive", // "drive" in the title, "night" in its album's name
      "Knight Drive", // "knight": one edit
    ]);
    expect(s.tracks("drive night")[0]).toBe("Night Drive");
    // with an edit, the same order among the matches found so ("knight" is two edits from "nihgt")
    expect(s.tracks("nihgt drive")).toEqual(["Night Drive", "Night Drive Home", "Late Night Drive", "Drive"]);
  });

  it("ranks the album view by the album name the same way", async () => {
    const s = await setup();
    // "Night" is the name; "Night Sessions" starts with it; Roads and Anthology by a track title
    expect(s.albums("night")).toEqual(["Night", "Night Sessions", "Anthology", "Roads"]);
  });
});

describe("bounded work", () => {
  it("walks at most MAX_FUZZY_ROWS letters for one query word, and a pathological query returns", async () => {
    // many words close to each other: every branch of the tree stays within the edits longest
    const map = new SearchableMap<number>();
    let id = 0;
    const letters = "ab";
    const grow = (prefix: string) => {
      if (prefix.length === 14) return void map.set(prefix, id++);
      for (const c of letters) grow(prefix + c);
    };
    grow("");
    const unbounded = fuzzyWords(map, "ab".repeat(32), 2, Infinity);
    expect(unbounded.rows).toBeGreaterThan(1000);
    const bounded = fuzzyWords(map, "ab".repeat(32), 2, 1000);
    expect(bounded.cut).toBe(true);
    expect(bounded.rows).toBeLessThanOrEqual(1001);
    expect(MAX_FUZZY_ROWS).toBeLessThanOrEqual(100_000);

    // 40 words of 80 letters: cut to 16 words of 64 letters (product-rules §5), found nowhere
    const s = await setup();
    const q = Array.from({ length: 40 }, (_, i) => `${i}${"nihgt".repeat(16)}`).join(" ");
    expect(s.search.normalize(q).split(" ")).toHaveLength(16);
    expect(s.tracks(q)).toEqual([]);
  });
});
