import { describe, expect, it } from "vitest";
import type { AlbumsState, ChannelsState, SinglesState, TracksState } from "./types.ts";
import {
  catalogHref,
  clearedState,
  defaultCatalogState,
  defaultTracksState,
  parseCatalogState,
  serializeCatalogState,
  trackQueryOf,
  withFilters,
  withMusicView,
  withSearch,
  withType,
  likeFilterCount,
  likeViewOf,
  moreLikeThisHrefFrom,
  withoutLikeFilters,
} from "./url-state.ts";

const parse = (q: string) => parseCatalogState(new URLSearchParams(q));
const albums = (q: string) => parse(q) as AlbumsState;
const tracks = (q: string) => parse(`view=tracks&${q}`) as TracksState;
const channels = (q: string) => parse(`type=channels&${q}`) as ChannelsState;

describe("catalog URL state (DESIGN.md §3 deviation 5)", () => {
  it("defaults to page 1 of music", () => {
    expect(parse("")).toEqual(defaultCatalogState());
    expect(catalogHref(defaultCatalogState())).toBe("/catalog");
  });

  it("round-trips every part of the state", () => {
    const cases = [
      "type=singles&genre=Pop&sub=K-Pop&page=2",
      "genre=Children&sub=Religion&sub=Christian+Holidays&sub=Christmas&q=lullaby&page=3&item=alb-12",
      "type=channels&category=Music&country=USA&country=UK&lang=English&subs=10M%2B&page=2",
      "type=film&q=night&item=f-9",
      "type=compilations",
    ];
    for (const q of cases) {
      const state = parse(q);
      expect(serializeCatalogState(state).toString()).toBe(q);
      expect(parse(serializeCatalogState(state).toString())).toEqual(state);
    }
  });

  it("ignores unknown types and values, never throws", () => {
    expect(parse("type=podcasts").type).toBe("music");
    expect(parse("genre=Techno")).toEqual(defaultCatalogState());
    expect(albums("genre=jazz").genre).toBe("Jazz");
    expect(channels("category=Cooking&country=Mars&country=usa&lang=Klingon&subs=lots")).toEqual({
      ...defaultCatalogState("channels"),
      countries: ["USA"],
    });
    expect(channels("country=USA&country=USA").countries).toEqual(["USA"]);
    expect(albums("sub=Religion").subGenres).toEqual([]);
    expect(parse(`q=${"x".repeat(500)}`).q).toBe("");
    expect(parse("q=%00%01hi").q).toBe("hi");
    expect(() => parse("page=%E0%A4%A")).not.toThrow();
  });

  it("clamps the page", () => {
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=-4").page).toBe(1);
    expect(parse("page=abc").page).toBe(1);
    expect(parse("page=99999999999").page).toBe(1_000_000);
    expect(parse("page=2.7").page).toBe(2);
  });

  it("keeps at most three positional sub-genres and stops at a gap", () => {
    expect(albums("genre=Children&sub=a&sub=b&sub=c&sub=d").subGenres).toEqual(["a", "b", "c"]);
    expect(albums("genre=Children&sub=a&sub=&sub=c").subGenres).toEqual(["a"]);
    expect((parse("type=singles&genre=Pop&sub=a&sub=b") as SinglesState).subGenre).toBe("a");
  });

  it("drops filters that do not belong to the type", () => {
    expect(parse("type=film&genre=Jazz&category=Music")).toEqual(defaultCatalogState("film"));
    expect(parse("genre=Jazz&category=Music&country=USA&bpm=90-120&key=Am")).toEqual({ ...defaultCatalogState(), genre: "Jazz" });
    expect(parse("type=singles&bpm=90-120&view=tracks")).toEqual(defaultCatalogState("singles"));
  });

  it("a filter change goes back to page 1 and closes the sheet; a type change resets all", () => {
    const s = albums("genre=Jazz&page=4&item=x&q=blue");
    const next = withFilters(s, { ...s, subGenres: ["Oldies Jazz"] });
    expect(catalogHref(next)).toBe("/catalog?genre=Jazz&sub=Oldies+Jazz&q=blue");
    expect(catalogHref(withType("film"))).toBe("/catalog?type=film");
    expect(catalogHref(clearedState(parse("type=singles&genre=Pop&q=x")))).toBe("/catalog?type=singles");
  });
});

describe("one state per view (issue #10)", () => {
  it("parses each view into its own variant, with its own field names", () => {
    expect(parse("")).toMatchObject({ type: "music", view: "albums", genre: "", subGenres: [] });
    expect(parse("view=albums&genre=Jazz")).toMatchObject({ type: "music", view: "albums", genre: "Jazz" });
    expect(parse("view=tracks")).toEqual(defaultTracksState());
    expect(parse("view=TRACKS&genre=jazz")).toMatchObject({ type: "music", view: "tracks", genre: "Jazz" });
    expect(parse("view=videos")).toMatchObject({ view: "albums" });
    expect(parse("type=singles&genre=Pop&sub=K-Pop")).toMatchObject({ type: "singles", view: "singles", genre: "Pop", subGenre: "K-Pop" });
    expect(parse("type=channels&category=music&lang=French&subs=10m%2B")).toMatchObject({
      type: "channels",
      view: "channels",
      category: "Music",
      languages: ["French"],
      subscriberRanges: ["10M+"],
    });
    expect(parse("type=film&q=x")).toMatchObject({ type: "film", view: "films", q: "x" });
    expect(parse("type=compilations&q=x&item=y&page=3")).toEqual(defaultCatalogState("compilations"));
  });

  it("round-trips the track view's parameters", () => {
    const cases = [
      "view=tracks",
      "view=tracks&genre=Jazz&sub=Oldies+Jazz&bpm=90-120&duration=60-119&key=C+major&key=A+minor&sort=-bpm&q=blue&page=2&item=alb-3",
      "view=tracks&bpm=-89&duration=241-",
      "view=tracks&sort=duration",
      "view=tracks&q=ocean",
      "view=tracks&sort=title&q=ocean",
    ];
    for (const q of cases) {
      const state = parse(q);
      expect(serializeCatalogState(state).toString()).toBe(q);
      expect(parse(serializeCatalogState(state).toString())).toEqual(state);
    }
  });

  it("normalises ranges, keys and the sort so one filter has one URL", () => {
    expect(tracks("bpm=120-90").bpm).toEqual({ min: 90, max: 120 });
    expect(tracks("bpm=-90").bpm).toEqual({ min: null, max: 90 });
    expect(tracks("bpm=120-").bpm).toEqual({ min: 120, max: null });
    expect(tracks("bpm=abc").bpm).toBeNull();
    expect(tracks("bpm=99999999999999999999-").bpm).toEqual({ min: 400, max: null });
    expect(tracks("duration=30-99999999").duration).toEqual({ min: 30, max: null });
    expect(tracks("key=a+minor&key=Am&key=Bb+major&key=A%23m&key=H&key=x").keys).toEqual(["A# major", "A minor", "A# minor"]);
    expect(serializeCatalogState(tracks("bpm=120-90&key=am&sort=BPM")).toString()).toBe("view=tracks&bpm=90-120&key=A+minor&sort=bpm");
    expect(tracks("sort=relevance").sort).toBe("title");
    expect(tracks("sort=relevance&q=x").sort).toBe("relevance");
    expect(tracks("q=x").sort).toBe("relevance");
    expect(tracks("sort=loudness").sort).toBe("title");
    expect(() => parse("view=tracks&bpm=%E0%A4%A&duration=--&key=%00")).not.toThrow();
  });

  it("the Albums | Tracks choice keeps the genre path and the search, not the track filters", () => {
    const t = tracks("genre=Jazz&bpm=90-120&key=Am&q=blue&page=3");
    expect(catalogHref(withMusicView(t, "albums"))).toBe("/catalog?genre=Jazz&q=blue");
    expect(catalogHref(withMusicView(albums("genre=Jazz&page=2"), "tracks"))).toBe("/catalog?view=tracks&genre=Jazz");
    expect(catalogHref(clearedState(t))).toBe("/catalog?view=tracks");
  });

  it("dropping the search drops a relevance sort with it", () => {
    expect(catalogHref(withSearch(tracks("q=blue&sort=-bpm"), ""))).toBe("/catalog?view=tracks&sort=-bpm");
    expect(catalogHref(withSearch(tracks("q=blue"), ""))).toBe("/catalog?view=tracks");
  });

  it("is the track index's query", () => {
    expect(trackQueryOf(tracks("genre=Jazz&bpm=90-&key=Am&page=2"))).toEqual({
      q: "",
      genre: "Jazz",
      subGenres: [],
      bpm: { min: 90, max: null },
      duration: null,
      keys: ["A minor"],
      sort: "title",
      page: 2,
      like: "",
    });
  });
});

describe("like= (issue #19, DESIGN.md §3c)", () => {
  it("keeps a track id or a reference id, orders by similarity by default, and writes both back", () => {
    const t = tracks("like=alb-12%3A3&bpm=100-130");
    expect(t.like).toBe("alb-12:3");
    expect(t.sort).toBe("similarity");
    expect(serializeCatalogState(t).toString()).toBe("view=tracks&bpm=100-130&like=alb-12%3A3");
    const r = tracks("like=ref-AAAAAAAAAAAAAAAAAAAAAA&sort=bpm");
    expect(r.like).toBe("ref-AAAAAAAAAAAAAAAAAAAAAA");
    expect(r.sort).toBe("bpm");
    expect(serializeCatalogState(r).get("sort")).toBe("bpm");
  });

  it("drops what names no track (never an error), and similarity without a seed", () => {
    for (const bad of ["", "nothing", "a:b", "ref-short", "x:12345", `${"a".repeat(300)}:1`, "a b:1"]) expect(tracks(`like=${encodeURIComponent(bad)}`).like, bad).toBe("");
    expect(tracks("sort=similarity").sort).toBe("title");
  });
});

describe("More like this keeps the view's filters (issue #41)", () => {
  it("carries genre, sub-genres, tempo, length and keys from the track view, not the search, sort or page", () => {
    const from = tracks("genre=House&sub=Deep&bpm=121-&duration=60-240&key=A%20minor&q=night&sort=-bpm&page=3&item=x");
    const href = moreLikeThisHrefFrom("alb-1:2", from);
    // the contract's URL first (DESIGN.md §3c), then the filters
    expect(href.startsWith("/catalog?type=music&view=tracks&like=alb-1%3A2&")).toBe(true);
    const landed = parseCatalogState(new URL(href, "http://x").searchParams) as TracksState;
    expect(landed).toMatchObject({ view: "tracks", like: "alb-1:2", genre: "House", subGenres: ["Deep"], bpm: { min: 121, max: null } });
    expect(landed).toMatchObject({ duration: { min: 60, max: 240 }, keys: ["A minor"], q: "", sort: "similarity", page: 1, item: "" });
  });

  it("carries the album view's genre path, and nothing from another content type or without a view", () => {
    const landed = (href: string) => parseCatalogState(new URL(href, "http://x").searchParams) as TracksState;
    expect(landed(moreLikeThisHrefFrom("a:1", albums("genre=Jazz&sub=Swing&q=blue")))).toMatchObject({ genre: "Jazz", subGenres: ["Swing"], q: "", like: "a:1" });
    expect(moreLikeThisHrefFrom("a:1", channels("category=Music"))).toBe("/catalog?type=music&view=tracks&like=a%3A1");
    expect(moreLikeThisHrefFrom("a:1")).toBe("/catalog?type=music&view=tracks&like=a%3A1");
    expect(moreLikeThisHrefFrom("a:1", tracks(""))).toBe("/catalog?type=music&view=tracks&like=a%3A1");
  });

  it("counts a like= view's filters and drops them in one step, keeping the seed", () => {
    const t = tracks("like=alb-1%3A2&genre=House&sub=Deep&bpm=121-&key=A%20minor&key=C%20major&q=x&sort=bpm&page=2");
    expect(likeFilterCount(t)).toBe(6);
    const cleared = withoutLikeFilters(t);
    expect(catalogHref(cleared)).toBe("/catalog?view=tracks&like=alb-1%3A2");
    expect(likeFilterCount(cleared)).toBe(0);
    expect(likeViewOf("alb-1:2", null)).toEqual(cleared);
  });
});

describe("the custom range form without JavaScript (issue #10)", () => {
  it("reads bpm_min/bpm_max and duration_min/duration_max as the ranges, and writes bpm= and duration=", () => {
    const t = tracks("bpm_min=120&bpm_max=90&duration_min=&duration_max=100&key=Am");
    expect(t.bpm).toEqual({ min: 90, max: 120 });
    expect(t.duration).toEqual({ min: null, max: 100 });
    expect(serializeCatalogState(t).toString()).toBe("view=tracks&bpm=90-120&duration=-100&key=A+minor");
    // an emptied form clears the range; the fields win over a stale bpm=
    expect(tracks("bpm=60-70&bpm_min=&bpm_max=").bpm).toBeNull();
    expect(tracks("bpm=60-70&bpm_min=100&bpm_max=").bpm).toEqual({ min: 100, max: null });
    expect(tracks("bpm_min=abc&bpm_max=").bpm).toBeNull();
  });
});
