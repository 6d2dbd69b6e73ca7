import { describe, expect, it } from "vitest";
import { canonicalTopGenre, genreLevels, MAX_SUB_LEVELS, MUSIC_GENRE_TREE, staticChildren, TOP_GENRES } from "./genre-tree.ts";

describe("music genre tree (product-rules §9)", () => {
  it("has the spec's top genres in order", () => {
    expect(TOP_GENRES).toEqual([
      "Children", "Teens", "Occasion", "Gospel", "Asian", "African", "Latin", "French", "Italian",
      "Cuban", "Jazz", "Religion", "House", "Holidays", "Relaxing", "Brazilian",
    ]);
    expect(MUSIC_GENRE_TREE.find((n) => n.name === "Holidays")?.children).toBeUndefined();
    expect(staticChildren(["African"])).toHaveLength(20);
    expect(staticChildren(["Latin"])).toHaveLength(23);
    expect(staticChildren(["Asian"])).toHaveLength(9);
  });

  it("walks the tree case-insensitively", () => {
    expect(staticChildren(["children"])).toEqual(["Religion", "Christian Songs", "Education", "Occasion"]);
    expect(staticChildren(["Children", "occasion"])).toContain("Valentine's Day");
    expect(staticChildren(["Children", "Education"])).toBeNull();
    expect(staticChildren(["Nope"])).toBeNull();
    expect(canonicalTopGenre(" house ")).toBe("House");
    expect(canonicalTopGenre("Techno")).toBeNull();
  });

  it("has up to three sub-levels, deeper ones derived from the data", () => {
    expect(MAX_SUB_LEVELS).toBe(3);
    expect(genreLevels("", [])).toEqual([{ level: 0, options: TOP_GENRES, selected: "" }]);
    const derive = (path: string[]) => (path.length === 3 ? ["Christmas", "Easter"] : []);
    const levels = genreLevels("Children", ["Religion", "Christian Holidays"], derive);
    expect(levels.map((l) => [l.level, l.selected])).toEqual([
      [0, "Children"],
      [1, "Religion"],
      [2, "Christian Holidays"],
      [3, ""],
    ]);
    expect(levels[3].options).toEqual(["Christmas", "Easter"]);
    // nothing below a leaf without data
    expect(genreLevels("Holidays", []).length).toBe(1);
    // a level appears only once the one above is chosen
    expect(genreLevels("Children", []).length).toBe(2);
    // never more than three sub-levels
    expect(genreLevels("Children", ["Religion", "Christian Holidays", "Christmas"], () => ["x"]).length).toBe(4);
  });
});
