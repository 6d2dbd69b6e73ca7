import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS, type CatalogFilters } from "./types.ts";
import {
  activeChips,
  changeType,
  chooseAll,
  chooseChannelCategory,
  chooseSinglesGenre,
  chooseSinglesSubGenre,
  chooseSubGenre,
  chooseTopGenre,
  hasActiveFilters,
  removeChip,
  toggleChannelCountry,
  toggleChannelLanguage,
  toggleSubscriberRange,
} from "./filters.ts";

const full: CatalogFilters = {
  genres: "Children",
  subGenres: ["Religion", "Christian Holidays", "Christmas"],
  keywords: ["English"],
  countries: ["USA"],
  regions: ["1K-10K"],
};

describe("content type (spec §4)", () => {
  it("changing the type resets all filters to empty", () => {
    expect(changeType()).toEqual(EMPTY_FILTERS);
  });
});

describe("music genre filter (spec §4)", () => {
  it("choosing a top genre clears all other filters", () => {
    expect(chooseTopGenre(full, "Jazz")).toEqual({ ...EMPTY_FILTERS, genres: "Jazz" });
  });

  it("level 1 sets subGenres to that one value and clears keywords, countries, regions", () => {
    expect(chooseSubGenre(full, 1, "Occasion")).toEqual({
      genres: "Children",
      subGenres: ["Occasion"],
      keywords: [],
      countries: [],
      regions: [],
    });
  });

  it("levels 2 and 3 keep the earlier levels", () => {
    const l1 = chooseSubGenre({ ...EMPTY_FILTERS, genres: "Children" }, 1, "Religion");
    const l2 = chooseSubGenre(l1, 2, "Jewish Holidays");
    expect(l2.subGenres).toEqual(["Religion", "Jewish Holidays"]);
    const l3 = chooseSubGenre(l2, 3, "Hanukkah");
    expect(l3.subGenres).toEqual(["Religion", "Jewish Holidays", "Hanukkah"]);
    // re-choosing level 2 drops level 3
    expect(chooseSubGenre(l3, 2, "Hindu Holidays").subGenres).toEqual(["Religion", "Hindu Holidays"]);
    expect(chooseSubGenre(full, 2, "Jewish Holidays")).toMatchObject({ keywords: [], countries: [], regions: [] });
  });

  it("ignores a level chosen before the levels above it, or out of range", () => {
    const g = { ...EMPTY_FILTERS, genres: "Children" };
    expect(chooseSubGenre(g, 2, "Christian Holidays")).toBe(g);
    expect(chooseSubGenre(g, 4, "x")).toBe(g);
    expect(chooseSubGenre(g, 0, "x")).toBe(g);
  });

  it('"All" at a level clears that level and deeper, and clears countries', () => {
    expect(chooseAll(full, 2)).toEqual({ ...full, subGenres: ["Religion"], countries: [] });
    expect(chooseAll(full, 1)).toEqual({ ...full, subGenres: [], countries: [] });
    expect(chooseAll(full, 3)).toEqual({ ...full, subGenres: ["Religion", "Christian Holidays"], countries: [] });
    expect(chooseAll(full, 0)).toEqual({ ...full, genres: "", subGenres: [], countries: [] });
  });
});

describe("singles filter (spec §4)", () => {
  it("choosing a genre clears the rest; clearing it empties subGenres", () => {
    const g = chooseSinglesGenre(full, "Pop");
    expect(g).toEqual({ ...EMPTY_FILTERS, genres: "Pop" });
    expect(chooseSinglesGenre({ ...g, subGenres: ["K-Pop"] }, "")).toEqual(EMPTY_FILTERS);
  });
  it("choosing a sub-genre sets subGenres to that one value", () => {
    const g = chooseSinglesGenre(EMPTY_FILTERS, "Pop");
    expect(chooseSinglesSubGenre(g, "K-Pop").subGenres).toEqual(["K-Pop"]);
    expect(chooseSinglesSubGenre({ ...g, subGenres: ["K-Pop"] }, "Dance Pop").subGenres).toEqual(["Dance Pop"]);
    expect(chooseSinglesSubGenre({ ...g, subGenres: ["K-Pop"] }, "").subGenres).toEqual([]);
  });
});

describe("channel filters (spec §4)", () => {
  it("countries, languages and ranges toggle on and off", () => {
    let s = toggleChannelCountry(EMPTY_FILTERS, "USA");
    s = toggleChannelCountry(s, "UK");
    expect(s.countries).toEqual(["USA", "UK"]);
    expect(toggleChannelCountry(s, "USA").countries).toEqual(["UK"]);
    expect(toggleChannelLanguage(EMPTY_FILTERS, "French").keywords).toEqual(["French"]);
    expect(toggleChannelLanguage({ ...EMPTY_FILTERS, keywords: ["French"] }, "French").keywords).toEqual([]);
    expect(toggleSubscriberRange(EMPTY_FILTERS, "10M+").regions).toEqual(["10M+"]);
    expect(toggleSubscriberRange({ ...EMPTY_FILTERS, regions: ["10M+"] }, "10M+").regions).toEqual([]);
  });
  it("choosing a category resets the other filters", () => {
    expect(chooseChannelCategory(full, "Gaming")).toEqual({ ...EMPTY_FILTERS, genres: "Gaming" });
  });
});

describe("active filter chips (spec §4)", () => {
  it("lists one chip per music filter", () => {
    expect(activeChips("music", full).map((c) => c.label)).toEqual(["Children", "Religion", "Christian Holidays", "Christmas"]);
    expect(activeChips("music", EMPTY_FILTERS)).toEqual([]);
    expect(activeChips("film", full)).toEqual([]);
  });
  it("lists channel chips", () => {
    const s = { ...EMPTY_FILTERS, genres: "Music", countries: ["USA", "UK"], keywords: ["English"], regions: ["10M+"] };
    expect(activeChips("channels", s).map((c) => c.label)).toEqual(["Music", "USA", "UK", "English", "10M+ subscribers"]);
  });
  it("removing the genre chip clears everything", () => {
    const genreChip = activeChips("music", full)[0];
    expect(removeChip(full, genreChip)).toEqual(EMPTY_FILTERS);
    expect(hasActiveFilters(removeChip(full, genreChip))).toBe(false);
  });
  it("each other chip removes its own filter", () => {
    const [, l1, l2, l3] = activeChips("music", full);
    expect(removeChip(full, l3).subGenres).toEqual(["Religion", "Christian Holidays"]);
    expect(removeChip(full, l2).subGenres).toEqual(["Religion"]);
    expect(removeChip(full, l1).subGenres).toEqual([]);
    const s = { ...EMPTY_FILTERS, genres: "Music", countries: ["USA", "UK"], keywords: ["English"], regions: ["10M+", "1K-10K"] };
    const chips = activeChips("channels", s);
    expect(removeChip(s, chips[0])).toEqual({ ...s, genres: "" });
    expect(removeChip(s, chips[1]).countries).toEqual(["UK"]);
    expect(removeChip(s, chips[3]).keywords).toEqual([]);
    expect(removeChip(s, chips[4]).regions).toEqual(["1K-10K"]);
  });
});
