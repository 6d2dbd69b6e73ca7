import { describe, expect, it } from "vitest";
import type { ChannelsState, SinglesState } from "./types.ts";
import {
  albumMatches,
  albumTermsMatch,
  channelHaystack,
  channelMatches,
  channelMatchesAnyTerm,
  matchesSearch,
  MAX_SEARCH_WORD_LENGTH,
  MAX_SEARCH_WORDS,
  musicTerms,
  normalizeTerms,
  searchWords,
  singleMatches,
} from "./matching.ts";

const path = (genre: string, ...subGenres: string[]) => ({ genre, subGenres });
const channelFilters = (over: Partial<Pick<ChannelsState, "category" | "countries" | "languages" | "subscriberRanges">>) => ({
  category: "",
  countries: [],
  languages: [],
  subscriberRanges: [],
  ...over,
});
const singleFilters = (genre = "", subGenre = ""): Pick<SinglesState, "genre" | "subGenre"> => ({ genre, subGenre });
const album = (name: string, ...keywords: string[]) => ({ name, keywords });

describe("music matching (product-rules §5)", () => {
  it("lower-cases and trims terms", () => {
    expect(normalizeTerms(["  House ", "EDM House", " "])).toEqual(["house", "edm house"]);
    expect(musicTerms(path(" Jazz ", "Oldies Jazz"))).toEqual(["jazz", "oldies jazz"]);
    expect(musicTerms(path("", "orphan"))).toEqual([]);
  });

  it("matches everything without terms", () => {
    expect(albumMatches(album("Any", "jazz"), path(""))).toBe(true);
  });

  it("requires the first keyword to equal the first term", () => {
    expect(albumMatches(album("Blue", "Jazz", "Oldies Jazz"), path("jazz"))).toBe(true);
    expect(albumMatches(album("Blue", "House"), path("Jazz"))).toBe(false);
    // equality, not containment
    expect(albumMatches(album("Blue", "Jazz Fusion"), path("Jazz"))).toBe(false);
    expect(albumMatches(album("Blue"), path("Jazz"))).toBe(false);
  });

  it("requires each further term to equal the keyword at the same position", () => {
    const a = album("Lullabies", "Children", "Religion", "Christian Holidays", "Christmas");
    expect(albumMatches(a, path("Children", "Religion"))).toBe(true);
    expect(albumMatches(a, path("Children", "Religion", "Christian Holidays"))).toBe(true);
    expect(albumMatches(a, path("Children", "Religion", "Christian Holidays", "christmas"))).toBe(true);
    expect(albumMatches(a, path("Children", "Religion", "Jewish Holidays"))).toBe(false);
    // position matters: the right word at the wrong level does not match
    expect(albumMatches(a, path("Children", "Christian Holidays"))).toBe(false);
    expect(albumMatches(a, path("Children", "Religion", "Christian Holidays", "Easter"))).toBe(false);
  });

  it.each(["African", "Asian", "Latin"])("for %s, matches the sub-genre inside the album name", (genre) => {
    const inName = album(`Sounds of Ghana Korea Cuba`, genre, "Something Else");
    expect(albumMatches(inName, path(genre, "Ghana"))).toBe(true);
    expect(albumMatches(inName, path(genre, "korea"))).toBe(true);
    expect(albumMatches(inName, path(genre, "Mali"))).toBe(false);
    // the keyword at position 1 is not what decides
    expect(albumMatches(inName, path(genre, "Something Else"))).toBe(false);
  });

  it("keeps the positional rule below the name-matched level", () => {
    const a = album("Ghana Highlife", "African", "Ghana", "Highlife");
    expect(albumTermsMatch("ghana highlife", ["african", "ghana", "highlife"], ["african", "ghana", "highlife"])).toBe(true);
    expect(albumMatches(a, path("African", "Ghana", "Palm Wine"))).toBe(false);
  });

  it("does not apply the name rule to other genres", () => {
    const a = album("Jazz in Paris", "French", "French Chanson & Jazz");
    expect(albumMatches(a, path("French", "Paris"))).toBe(false);
  });
});

describe("channel matching (product-rules §5, deviation 4 for ranges)", () => {
  const channel = {
    name: "Beat Lab",
    description: "Synth tutorials",
    category: "Music",
    language: "English",
    country: "USA",
    keywords: ["synthwave", "production"],
    subscriberCount: 45_000,
  };
  const hay = channelHaystack(channel);

  it("matches when any term is a case-insensitive substring of its fields", () => {
    expect(channelMatchesAnyTerm(hay, ["beat"])).toBe(true);
    expect(channelMatchesAnyTerm(hay, ["TUTORIAL"])).toBe(true);
    expect(channelMatchesAnyTerm(hay, ["Gaming", "synthwave"])).toBe(true);
    expect(channelMatchesAnyTerm(hay, ["usa"])).toBe(true);
    expect(channelMatchesAnyTerm(hay, ["Gaming"])).toBe(false);
    expect(channelMatchesAnyTerm(hay, [])).toBe(false);
  });

  it("combines category, countries and languages, each any-of", () => {
    expect(channelMatches(channel, hay, channelFilters({ category: "Music" }))).toBe(true);
    expect(channelMatches(channel, hay, channelFilters({ category: "Gaming" }))).toBe(false);
    expect(channelMatches(channel, hay, channelFilters({ countries: ["UK", "USA"] }))).toBe(true);
    expect(channelMatches(channel, hay, channelFilters({ countries: ["Japan"] }))).toBe(false);
    expect(channelMatches(channel, hay, channelFilters({ languages: ["English"] }))).toBe(true);
    expect(channelMatches(channel, hay, channelFilters({ category: "Music", languages: ["German"] }))).toBe(false);
  });

  it("filters subscriber ranges by the count", () => {
    expect(channelMatches(channel, hay, channelFilters({ subscriberRanges: ["10K-100K"] }))).toBe(true);
    expect(channelMatches(channel, hay, channelFilters({ subscriberRanges: ["1K-10K", "1M-10M"] }))).toBe(false);
    expect(channelMatches({ subscriberCount: 10_000 }, hay, channelFilters({ subscriberRanges: ["10K-100K"] }))).toBe(true);
    expect(channelMatches({ subscriberCount: 10_000 }, hay, channelFilters({ subscriberRanges: ["1K-10K"] }))).toBe(false);
    expect(channelMatches({ subscriberCount: 50_000_000 }, hay, channelFilters({ subscriberRanges: ["10M+"] }))).toBe(true);
    expect(channelMatches(channel, hay, channelFilters({ subscriberRanges: ["bogus"] }))).toBe(false);
  });
});

describe("singles matching (deviation 4)", () => {
  const single = { genre: "Pop", subGenre: "K-Pop" };
  it("matches the chosen genre by case-insensitive equality", () => {
    expect(singleMatches(single, singleFilters())).toBe(true);
    expect(singleMatches(single, singleFilters("pop"))).toBe(true);
    expect(singleMatches(single, singleFilters("Pop Rock"))).toBe(false);
    expect(singleMatches({ genre: "K-Pop", subGenre: "" }, singleFilters("Pop"))).toBe(false);
  });
  it("matches the chosen sub-genre by equality", () => {
    expect(singleMatches(single, singleFilters("Pop", "k-pop"))).toBe(true);
    expect(singleMatches(single, singleFilters("Pop", "Pop"))).toBe(false);
    expect(singleMatches({ genre: "Pop", subGenre: "" }, singleFilters("Pop", "K-Pop"))).toBe(false);
  });
});

describe("search words", () => {
  it("requires every word somewhere in the fields", () => {
    const words = searchWords("  Miles  BLUE ");
    expect(words).toEqual(["blue", "miles"]);
    expect(matchesSearch("kind of blue\u0000miles davis\u0000jazz", words)).toBe(true);
    expect(matchesSearch("kind of blue\u0000john coltrane", words)).toBe(false);
    expect(matchesSearch("anything", [])).toBe(true);
  });

  it("normalises the words (issue #7): repeats, order, case and implied words give one search", () => {
    expect(searchWords("e")).toEqual(["e"]);
    expect(searchWords("e e e")).toEqual(["e"]);
    expect(searchWords("E  e\te")).toEqual(["e"]);
    expect(searchWords("blue Miles")).toEqual(searchWords("MILES blue blue"));
    // `e` is in `electro`: whatever contains electro contains e
    expect(searchWords("e electro")).toEqual(["electro"]);
    expect(searchWords("  ")).toEqual([]);
  });

  it("matches the same items before and after normalisation", () => {
    const hay = ["kind of blue\u0000miles davis", "electro nights\u0000dj e", "blue electro\u0000miles", "nothing here"];
    for (const q of ["e electro", "blue miles blue", "E", "lue bl", "miles davis kind"]) {
      const raw = q.toLowerCase().split(/\s+/).filter(Boolean);
      expect(hay.filter((h) => matchesSearch(h, searchWords(q)))).toEqual(hay.filter((h) => matchesSearch(h, raw)));
    }
  });

  it("bounds the work a long search can cost: 16 distinct words of at most 64 characters", () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(2, "0")}`).join(" ");
    expect(searchWords(many)).toHaveLength(MAX_SEARCH_WORDS);
    expect(MAX_SEARCH_WORDS).toBe(16);
    const [long] = searchWords("x".repeat(10_000));
    expect(long).toHaveLength(MAX_SEARCH_WORD_LENGTH);
    expect(MAX_SEARCH_WORD_LENGTH).toBe(64);
  });
});
