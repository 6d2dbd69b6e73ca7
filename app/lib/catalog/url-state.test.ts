import { describe, expect, it } from "vitest";
import { EMPTY_FILTERS } from "./types.ts";
import { catalogHref, clearedState, defaultCatalogState, parseCatalogState, serializeCatalogState, withFilters, withType } from "./url-state.ts";

const parse = (q: string) => parseCatalogState(new URLSearchParams(q));

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
    expect(parse("genre=Techno").filters).toEqual(EMPTY_FILTERS);
    expect(parse("genre=jazz").filters.genres).toBe("Jazz");
    expect(parse("type=channels&category=Cooking&country=Mars&country=usa&lang=Klingon&subs=lots").filters).toEqual({
      ...EMPTY_FILTERS,
      countries: ["USA"],
    });
    expect(parse("type=channels&country=USA&country=USA").filters.countries).toEqual(["USA"]);
    expect(parse("sub=Religion").filters.subGenres).toEqual([]);
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
    expect(parse("genre=Children&sub=a&sub=b&sub=c&sub=d").filters.subGenres).toEqual(["a", "b", "c"]);
    expect(parse("genre=Children&sub=a&sub=&sub=c").filters.subGenres).toEqual(["a"]);
    expect(parse("type=singles&genre=Pop&sub=a&sub=b").filters.subGenres).toEqual(["a"]);
  });

  it("drops filters that do not belong to the type", () => {
    expect(parse("type=film&genre=Jazz&category=Music").filters).toEqual(EMPTY_FILTERS);
    expect(parse("genre=Jazz&category=Music&country=USA").filters).toEqual({ ...EMPTY_FILTERS, genres: "Jazz" });
  });

  it("a filter change goes back to page 1 and closes the sheet; a type change resets all", () => {
    const s = parse("genre=Jazz&page=4&item=x&q=blue");
    const next = withFilters(s, { ...s.filters, subGenres: ["Oldies Jazz"] });
    expect(catalogHref(next)).toBe("/catalog?genre=Jazz&sub=Oldies+Jazz&q=blue");
    expect(catalogHref(withType("film"))).toBe("/catalog?type=film");
    expect(catalogHref(clearedState(parse("type=singles&genre=Pop&q=x")))).toBe("/catalog?type=singles");
  });
});
