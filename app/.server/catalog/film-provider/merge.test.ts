import { describe, expect, it } from "vitest";
import { mergeFilmLists } from "./merge.ts";

describe("mergeFilmLists (product-rules §7 Film catalog provider)", () => {
  it("catalog items override matching detail items field by field", () => {
    const details = [{ film_id: "1", title: "Old", format: "Documentary", portrait: "p.webp", film_status: "draft" }];
    const catalog = [{ film_id: "1", title: "New", film_status: "completed" }];
    expect(mergeFilmLists(catalog, details)).toEqual([
      { film_id: "1", title: "New", format: "Documentary", portrait: "p.webp", film_status: "completed" },
    ]);
  });

  it("appends catalog items with no matching detail, keeps unmatched details", () => {
    const details = [{ film_id: "1", title: "A" }, { film_id: "2", title: "B" }];
    const catalog = [{ film_id: "3", title: "C" }, { film_id: "2", title: "B2" }];
    expect(mergeFilmLists(catalog, details).map((f) => `${f.film_id}:${f.title}`)).toEqual(["1:A", "2:B2", "3:C"]);
  });

  it("an absent catalog field does not erase the detail's value", () => {
    const merged = mergeFilmLists([{ film_id: "1", title: undefined as unknown as string }], [{ film_id: "1", title: "Kept" }]);
    expect(merged[0].title).toBe("Kept");
  });

  it("does not append the same catalog film twice", () => {
    expect(mergeFilmLists([{ film_id: "9" }, { film_id: "9" }], [])).toHaveLength(1);
  });
});
