import { describe, expect, it } from "vitest";
import { createCatalogIndex, type CatalogSource } from "./index.ts";
import type { CatalogSnapshot } from "./service.ts";
import type { Album, Channel, Film, Single } from "../../lib/catalog/types.ts";
import { defaultCatalogState, parseCatalogState } from "../../lib/catalog/url-state.ts";

const album = (i: number, keywords: string[], over: Partial<Album> = {}): Album => ({
  id: `alb-${i}`,
  name: `Album ${i}`,
  artist: `Artist ${i % 7}`,
  genre: keywords[0] ?? "",
  artwork: `albums/${i}/cover.jpg`,
  keywords,
  featured: i % 10 === 0,
  tracks: [
    { s3Path: `albums/${i}/01.mp3`, Filename: "01 Opening.mp3" },
    { s3Path: `albums/${i}/02.mp3`, Filename: "02 Closing.mp3" },
  ],
  ...over,
});

const single = (i: number, genre: string, subGenre: string): Single => ({
  id: `s-${i}`,
  title: `Song ${i}`,
  artist: `Singer ${i}`,
  genre,
  subGenre,
  artwork: i % 2 ? `singles/${i}.jpg` : "",
  audioUrl: `singles/${i}.mp3`,
  language: "English",
  duration: "",
  releaseDate: "2024-01-05",
  country: "",
  isrc: "",
  upc: "",
  label: "",
  composer: "",
  publisher: "",
  keywords: [""],
});

function snapshot(version = 1): CatalogSnapshot & { albums: Album[] } {
  const albums: Album[] = [];
  for (let i = 0; i < 30; i++) albums.push(album(i, ["Jazz", i % 2 ? "Oldies Jazz" : "French Jazz"]));
  albums.push(album(100, ["Children", "Religion", "Christian Holidays", "Christmas"]));
  albums.push(album(101, ["Children", "Religion", "Christian Holidays", "Easter"]));
  albums.push(album(102, ["African", "Highlife"], { name: "Ghana Nights" }));
  albums.push(album(103, ["African", "Ghana"], { name: "Lagos Live" }));
  albums.push(album(104, ["house", "Afro House"], { artist: "Miles Groove", tracks: [] }));
  const films: Film[] = [
    { film_id: "f1", title: "Night Train", portrait: "p1.jpg", landscape: "l1.jpg", artwork: ["a1.jpg"], format: "Feature", film_status: "completed" },
    { film_id: "f2", title: "Dawn", landscape: "l2.jpg", artwork: ["a2.jpg"], format: "Short", film_status: "completed" },
    { film_id: "f3", title: "Dusk", artwork: ["", "a3.jpg"], film_status: "completed" },
    { film_id: "f4", title: "Blank", film_status: "completed" },
  ];
  const channels: Channel[] = [
    { id: "c1", name: "Beat Lab", description: "Synths", category: "Music", language: "English", country: "USA", keywords: [], thumbnail: "c1.jpg", subscriberCount: 2_500_000, videoCount: 300, lastUpdated: "2024-06-01" },
    { id: "c2", name: "Play On", description: "Games", category: "Gaming", language: "Japanese", country: "Japan", keywords: ["rpg"], thumbnail: "c2.jpg", subscriberCount: 5_000, videoCount: 40, lastUpdated: "2024-05-01" },
  ];
  return {
    albums,
    films,
    singles: [single(1, "Pop", "K-Pop"), single(2, "Pop", "Dance Pop"), single(3, "Rock", ""), single(4, "K-Pop", "")],
    channels,
    genres: ["Pop", "Rock"],
    version,
    updatedAt: "2024-06-02T00:00:00.000Z",
  };
}

function source(snap: () => CatalogSnapshot): CatalogSource {
  return { snapshot: snap, mediaUrl: (key, kind) => `https://cdn.example.com/${kind}/${encodeURIComponent(key)}` };
}

const q = (s: string) => parseCatalogState(new URLSearchParams(s));

describe("catalog index", () => {
  const snap = snapshot();
  const index = createCatalogIndex(source(() => snap));

  it("pages all albums 12 at a time", () => {
    const r = index.query(defaultCatalogState());
    expect(r.total).toBe(35);
    expect(r.pageCount).toBe(3);
    expect(r.items).toHaveLength(12);
    expect(index.query(q("page=3")).items).toHaveLength(11);
    // an out-of-range page is clamped, never an error
    expect(index.query(q("page=99")).page).toBe(3);
  });

  it("maps albums to cards with thumbnail URLs and no raw keys", () => {
    const [card] = index.query(defaultCatalogState()).items;
    expect(card).toMatchObject({ kind: "album", id: "alb-0", name: "Album 0", genre: "Jazz" });
    if (card.kind !== "album") throw new Error("not an album");
    expect(card.image?.src).toBe(`/img?w=320&src=${encodeURIComponent("https://cdn.example.com/music/albums%2F0%2Fcover.jpg")}`);
    expect(card.image?.srcSet).toContain("640w");
    expect(JSON.stringify(card)).not.toContain('"albums/0/cover.jpg"');
  });

  it("applies the music matching rules", () => {
    expect(index.query(q("genre=Jazz")).total).toBe(30);
    expect(index.query(q("genre=Jazz&sub=Oldies+Jazz")).total).toBe(15);
    expect(index.query(q("genre=Children&sub=Religion&sub=Christian+Holidays&sub=Easter")).items.map((i) => i.id)).toEqual(["alb-101"]);
    // african: the sub-genre is looked for in the album name
    expect(index.query(q("genre=African&sub=Ghana")).items.map((i) => i.id)).toEqual(["alb-102"]);
    // keywords are compared lower-cased
    expect(index.query(q("genre=House")).total).toBe(1);
    expect(index.query(q("genre=Teens")).total).toBe(0);
  });

  it("searches title, artist and genre", () => {
    expect(index.query(q("q=miles")).items.map((i) => i.id)).toEqual(["alb-104"]);
    // every word must appear: "album" in the name and "10" in the name
    expect(index.query(q("q=album+10")).items.map((i) => i.id)).toEqual(["alb-10", "alb-100", "alb-101", "alb-104"]);
    // search narrows a genre filter; words match anywhere: "3" in "Artist 3" (i % 7 === 3) or in the name
    expect(index.query(q("genre=Jazz&q=artist+3")).items.map((i) => i.id)).toEqual(["alb-3", "alb-10", "alb-13", "alb-17", "alb-23", "alb-24"]);
    expect(index.query(q("q=afro+house")).items.map((i) => i.id)).toEqual([]);
    expect(index.query(q("q=HOUSE")).items.map((i) => i.id)).toEqual(["alb-104"]);
  });

  it("derives the levels below the static tree from album keywords", () => {
    const levels = index.musicLevels("Children", ["Religion", "Christian Holidays"]);
    expect(levels.map((l) => l.level)).toEqual([0, 1, 2, 3]);
    expect(levels[3].options).toEqual(["Christmas", "Easter"]);
    expect(levels[1].options).toEqual(["Religion", "Christian Songs", "Education", "Occasion"]);
  });

  it("uses the first available film image and does not filter films", () => {
    const items = index.query(q("type=film&genre=Jazz")).items;
    expect(items).toHaveLength(4);
    const srcOf = (i: number) => (items[i].kind === "film" ? items[i].image?.src : undefined);
    expect(srcOf(0)).toContain(encodeURIComponent("film/p1.jpg"));
    expect(srcOf(1)).toContain(encodeURIComponent("film/l2.jpg"));
    expect(srcOf(2)).toContain(encodeURIComponent("film/a3.jpg"));
    expect(srcOf(3)).toBeUndefined();
  });

  it("filters singles by genre and sub-genre equality", () => {
    expect(index.query(q("type=singles&genre=Pop")).items.map((i) => i.id)).toEqual(["s-1", "s-2"]);
    expect(index.query(q("type=singles&genre=pop&sub=k-pop")).items.map((i) => i.id)).toEqual(["s-1"]);
    expect(index.query(q("type=singles&genre=K-Pop")).items.map((i) => i.id)).toEqual(["s-4"]);
    expect(index.singlesGenres()).toEqual(["Pop", "Rock"]);
  });

  it("filters channels", () => {
    expect(index.query(q("type=channels&category=Gaming")).items.map((i) => i.id)).toEqual(["c2"]);
    expect(index.query(q("type=channels&subs=1M-10M")).items.map((i) => i.id)).toEqual(["c1"]);
    expect(index.query(q("type=channels&country=USA&lang=Japanese")).total).toBe(0);
  });

  it("shows nothing for compilations", () => {
    expect(index.query(q("type=compilations"))).toEqual({ total: 0, page: 1, pageCount: 0, items: [] });
  });

  it("gives album details with numbered tracks and public audio URLs", () => {
    const d = index.album("alb-3");
    expect(d?.tracks).toEqual([
      { name: "01 Opening", audioUrl: "https://cdn.example.com/music/albums%2F3%2F01.mp3" },
      { name: "02 Closing", audioUrl: "https://cdn.example.com/music/albums%2F3%2F02.mp3" },
    ]);
    expect(index.album("alb-104")?.tracks).toEqual([]);
    expect(index.album("nope")).toBeNull();
  });

  it("selects up to 6 featured albums", () => {
    expect(index.featuredAlbums().map((a) => a.id)).toEqual(["alb-0", "alb-10", "alb-20", "alb-100"]);
    expect(index.featuredAlbums(2)).toHaveLength(2);
  });

  it("rebuilds when the snapshot version changes", () => {
    let current = snapshot(1);
    const live = createCatalogIndex(source(() => current));
    expect(live.query(q("genre=Jazz")).total).toBe(30);
    current = { ...snapshot(2), albums: snapshot(2).albums.slice(0, 5) };
    expect(live.query(q("genre=Jazz")).total).toBe(5);
    expect(live.version).toBe(2);
  });
});

describe("match cache bound (issue #7)", () => {
  // 4,000 albums whose names hold most letters: nearly every one-letter search matches
  // nearly the whole catalog, as `q=e` does on a real one
  const big = (): CatalogSnapshot => {
    const base = snapshot();
    const albums: Album[] = [];
    for (let i = 0; i < 4000; i++) albums.push(album(i, ["Pop"], { name: `Album ${i} ${"abcdefghijklmnopqrstuvwxyz".slice(i % 5)}` }));
    return { ...base, albums };
  };
  const bigSnap = big();

  it("keeps the cached match lists under the byte budget, however many distinct searches", () => {
    const maxCacheBytes = 64 * 1024;
    const index = createCatalogIndex(source(() => bigSnap), { maxCacheBytes });
    const letters = "abcdefghijklmnopqrstuvwxyz";
    let searches = 0;
    for (let i = 0; i < letters.length; i++) {
      for (let j = i + 1; j < letters.length; j++) {
        const r = index.query(q(`q=${letters[i]}+${letters[j]}`));
        expect(r.total).toBeGreaterThan(0);
        searches++;
        expect(index.cacheUsage().bytes).toBeLessThanOrEqual(maxCacheBytes);
      }
    }
    expect(searches).toBe(325);
    // each list is about 16 KB: a handful fit, the rest were evicted
    expect(index.cacheUsage().entries).toBeLessThan(10);
    expect(index.cacheUsage().entries).toBeGreaterThan(0);
    // an evicted search is computed again, with the same answer
    const again = index.query(q("q=a+b"));
    expect(again.total).toBe(createCatalogIndex(source(() => bigSnap)).query(q("q=a+b")).total);
  });

  it("stores `q=e e e` and `q=e` (and `q=E+e`) as one entry", () => {
    const index = createCatalogIndex(source(() => bigSnap), { maxCacheBytes: 10 * 1024 * 1024 });
    const first = index.query(q("q=e"));
    expect(index.cacheUsage().entries).toBe(1);
    const bytes = index.cacheUsage().bytes;
    for (const variant of ["q=e+e+e", "q=E+e", "q=++e++", "q=e+e+e+e+e+e+e+e+e+e+e+e+e+e+e+e+e+e+e+e"]) {
      expect(index.query(q(variant))).toEqual(first);
    }
    expect(index.cacheUsage()).toMatchObject({ entries: 1, bytes });
    // word order does not matter either
    index.query(q("q=album+e"));
    index.query(q("q=e+album+E"));
    expect(index.cacheUsage().entries).toBe(2);
  });

  it("takes the budget from the catalog service (CATALOG_CACHE_MAX_BYTES)", () => {
    const s = { ...source(() => bigSnap), cacheBytes: 12_345 };
    expect(createCatalogIndex(s).cacheUsage().maxBytes).toBe(12_345);
  });
});
