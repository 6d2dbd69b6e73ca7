import { describe, expect, it } from "vitest";
import type { AlbumsState, ChannelsState, SinglesState, TracksState } from "./types.ts";
import {
  activeChips,
  chooseAll,
  chooseChannelCategory,
  chooseLength,
  chooseSinglesGenre,
  chooseSinglesSubGenre,
  chooseSubGenre,
  chooseTempo,
  chooseTopGenre,
  hasActiveFilters,
  removeChip,
  toggleChannelCountry,
  toggleChannelLanguage,
  toggleKey,
  toggleSubscriberRange,
} from "./filters.ts";
import { defaultAlbumsState, defaultCatalogState, defaultTracksState, withType } from "./url-state.ts";

const albums = (over: Partial<AlbumsState> = {}): AlbumsState => ({ ...defaultAlbumsState(), ...over });
const tracks = (over: Partial<TracksState> = {}): TracksState => ({ ...defaultTracksState(), ...over });
const singles = (over: Partial<SinglesState> = {}): SinglesState => ({ ...(defaultCatalogState("singles") as SinglesState), ...over });
const channels = (over: Partial<ChannelsState> = {}): ChannelsState => ({ ...(defaultCatalogState("channels") as ChannelsState), ...over });

const full = albums({ genre: "Children", subGenres: ["Religion", "Christian Holidays", "Christmas"], q: "lullaby" });

describe("content type (product-rules §4)", () => {
  it("changing the type resets all filters to empty", () => {
    expect(withType("channels")).toEqual(channels());
    expect(hasActiveFilters(withType("music"))).toBe(false);
  });
});

describe("music genre filter (product-rules §4)", () => {
  it("choosing a top genre clears the sub-genres", () => {
    expect(chooseTopGenre(full, "Jazz")).toEqual({ ...full, genre: "Jazz", subGenres: [] });
  });

  it("level 1 sets the sub-genres to that one value", () => {
    expect(chooseSubGenre(full, 1, "Occasion")).toEqual({ ...full, subGenres: ["Occasion"] });
  });

  it("levels 2 and 3 keep the earlier levels", () => {
    const l1 = chooseSubGenre(albums({ genre: "Children" }), 1, "Religion");
    const l2 = chooseSubGenre(l1, 2, "Jewish Holidays");
    expect(l2.subGenres).toEqual(["Religion", "Jewish Holidays"]);
    const l3 = chooseSubGenre(l2, 3, "Hanukkah");
    expect(l3.subGenres).toEqual(["Religion", "Jewish Holidays", "Hanukkah"]);
    // re-choosing level 2 drops level 3
    expect(chooseSubGenre(l3, 2, "Hindu Holidays").subGenres).toEqual(["Religion", "Hindu Holidays"]);
  });

  it("ignores a level chosen before the levels above it, or out of range", () => {
    const g = albums({ genre: "Children" });
    expect(chooseSubGenre(g, 2, "Christian Holidays")).toBe(g);
    expect(chooseSubGenre(g, 4, "x")).toBe(g);
    expect(chooseSubGenre(g, 0, "x")).toBe(g);
  });

  it('"All" at a level clears that level and deeper', () => {
    expect(chooseAll(full, 2)).toEqual({ ...full, subGenres: ["Religion"] });
    expect(chooseAll(full, 1)).toEqual({ ...full, subGenres: [] });
    expect(chooseAll(full, 3)).toEqual({ ...full, subGenres: ["Religion", "Christian Holidays"] });
    expect(chooseAll(full, 0)).toEqual({ ...full, genre: "", subGenres: [] });
  });

  it("in the track view, a genre keeps the tempo, length and keys (they describe the sound)", () => {
    const t = tracks({ genre: "Jazz", bpm: { min: 90, max: 120 }, duration: { min: null, max: 59 }, keys: ["A minor"] });
    expect(chooseTopGenre(t, "House")).toEqual({ ...t, genre: "House" });
    expect(chooseAll(t, 0)).toEqual({ ...t, genre: "" });
  });
});

describe("singles filter (product-rules §4)", () => {
  it("choosing a genre clears the rest; clearing it clears the sub-genre", () => {
    const g = chooseSinglesGenre(singles({ genre: "Rock", subGenre: "Indie" }), "Pop");
    expect(g).toEqual(singles({ genre: "Pop" }));
    expect(chooseSinglesGenre({ ...g, subGenre: "K-Pop" }, "")).toEqual(singles());
  });
  it("choosing a sub-genre sets it", () => {
    const g = singles({ genre: "Pop" });
    expect(chooseSinglesSubGenre(g, "K-Pop").subGenre).toBe("K-Pop");
    expect(chooseSinglesSubGenre({ ...g, subGenre: "K-Pop" }, "Dance Pop").subGenre).toBe("Dance Pop");
    expect(chooseSinglesSubGenre({ ...g, subGenre: "K-Pop" }, "").subGenre).toBe("");
  });
});

describe("channel filters (product-rules §4)", () => {
  it("countries, languages and ranges toggle on and off", () => {
    let s = toggleChannelCountry(channels(), "USA");
    s = toggleChannelCountry(s, "UK");
    expect(s.countries).toEqual(["USA", "UK"]);
    expect(toggleChannelCountry(s, "USA").countries).toEqual(["UK"]);
    expect(toggleChannelLanguage(channels(), "French").languages).toEqual(["French"]);
    expect(toggleChannelLanguage(channels({ languages: ["French"] }), "French").languages).toEqual([]);
    expect(toggleSubscriberRange(channels(), "10M+").subscriberRanges).toEqual(["10M+"]);
    expect(toggleSubscriberRange(channels({ subscriberRanges: ["10M+"] }), "10M+").subscriberRanges).toEqual([]);
  });
  it("choosing a category resets the other filters", () => {
    const s = channels({ category: "Music", countries: ["USA"], languages: ["English"], subscriberRanges: ["1K-10K"] });
    expect(chooseChannelCategory(s, "Gaming")).toEqual(channels({ category: "Gaming" }));
  });
});

describe("track filters (issue #10)", () => {
  it("keys toggle; tempo and length are one range each", () => {
    let t = toggleKey(tracks(), "A minor");
    t = toggleKey(t, "C major");
    expect(t.keys).toEqual(["A minor", "C major"]);
    expect(toggleKey(t, "A minor").keys).toEqual(["C major"]);
    expect(chooseTempo(t, { min: 90, max: 120 }).bpm).toEqual({ min: 90, max: 120 });
    expect(chooseLength(t, null).duration).toBeNull();
  });
});

describe("active filter chips (product-rules §4)", () => {
  it("lists one chip per music filter", () => {
    expect(activeChips(full).map((c) => c.label)).toEqual(["Children", "Religion", "Christian Holidays", "Christmas"]);
    expect(activeChips(albums())).toEqual([]);
    expect(activeChips(defaultCatalogState("film"))).toEqual([]);
  });
  it("lists channel chips", () => {
    const s = channels({ category: "Music", countries: ["USA", "UK"], languages: ["English"], subscriberRanges: ["10M+"] });
    expect(activeChips(s).map((c) => c.label)).toEqual(["Music", "USA", "UK", "English", "10M+ subscribers"]);
  });
  it("lists track chips: genre path, tempo, length and each key", () => {
    const t = tracks({ genre: "Jazz", subGenres: ["Oldies Jazz"], bpm: { min: 90, max: 120 }, duration: { min: 75, max: 100 }, keys: ["C major", "A minor"] });
    expect(activeChips(t).map((c) => c.label)).toEqual(["Jazz", "Oldies Jazz", "Tempo: Medium (90–120)", "Length: 1:15–1:40", "C major", "A minor"]);
    expect(activeChips(tracks({ bpm: { min: 100, max: null }, duration: { min: null, max: 59 } })).map((c) => c.label)).toEqual([
      "Tempo: From 100 BPM",
      "Length: Under 1:00",
    ]);
  });
  it("removing the genre chip clears everything", () => {
    const genreChip = activeChips(full)[0];
    expect(removeChip(full, genreChip)).toEqual({ ...albums(), q: "lullaby" });
    expect(hasActiveFilters(removeChip(full, genreChip))).toBe(false);
    const single = singles({ genre: "Pop", subGenre: "K-Pop" });
    expect(removeChip(single, activeChips(single)[0])).toEqual(singles());
  });
  it("each other chip removes its own filter", () => {
    const [, l1, l2, l3] = activeChips(full);
    expect(removeChip(full, l3).subGenres).toEqual(["Religion", "Christian Holidays"]);
    expect(removeChip(full, l2).subGenres).toEqual(["Religion"]);
    expect(removeChip(full, l1).subGenres).toEqual([]);
    const s = channels({ category: "Music", countries: ["USA", "UK"], languages: ["English"], subscriberRanges: ["10M+", "1K-10K"] });
    const chips = activeChips(s);
    expect(removeChip(s, chips[0])).toEqual({ ...s, category: "" });
    expect(removeChip(s, chips[1]).countries).toEqual(["UK"]);
    expect(removeChip(s, chips[3]).languages).toEqual([]);
    expect(removeChip(s, chips[4]).subscriberRanges).toEqual(["1K-10K"]);
    const t = tracks({ genre: "Jazz", bpm: { min: 90, max: 120 }, duration: { min: 60, max: 119 }, keys: ["C major", "A minor"] });
    const [genre, tempo, length, c, a] = activeChips(t);
    expect(removeChip(t, genre)).toEqual({ ...t, genre: "" });
    expect(removeChip(t, tempo)).toEqual({ ...t, bpm: null });
    expect(removeChip(t, length)).toEqual({ ...t, duration: null });
    expect(removeChip(t, c).keys).toEqual(["A minor"]);
    expect(removeChip(t, a).keys).toEqual(["C major"]);
  });
});
