import { describe, expect, it } from "vitest";
import { catalogReturnHref, itemPageHref, itemPagePath, slugify } from "./item-url.ts";

describe("item page URLs (issue #11)", () => {
  it("slugs names: lower case, accents dropped, other scripts kept, runs of anything else one dash", () => {
    expect(slugify("Secret Streets")).toBe("secret-streets");
    expect(slugify("  Café Noir & Friends (Live!) ")).toBe("cafe-noir-friends-live");
    expect(slugify("Quinceañera — Vol. 2")).toBe("quinceanera-vol-2");
    expect(slugify("서울의 밤")).toBe("서울의-밤");
    expect(slugify("がっこう")).toBe("がっこう");
    expect(slugify("Ελληνικά Τραγούδια")).toBe("ελληνικα-τραγουδια");
    expect(slugify("!!!")).toBe("");
    expect(slugify("word ".repeat(40)).length).toBeLessThanOrEqual(80);
    expect(slugify("word ".repeat(40))).not.toMatch(/-$/);
  });

  it("builds the canonical path, encoding the id and the slug, with no slug when it is empty", () => {
    expect(itemPagePath("albums", "cg2NgRnFQG", "Secret Streets")).toBe("/catalog/albums/cg2NgRnFQG/secret-streets");
    expect(itemPagePath("films", "FLM 1/2", "???")).toBe("/catalog/films/FLM%201%2F2");
    expect(itemPagePath("singles", "S1", "서울")).toBe("/catalog/singles/S1/%EC%84%9C%EC%9A%B8");
    expect(itemPageHref("films", "F1", "Dawn", "/catalog?type=film&page=2")).toBe("/catalog/films/F1/dawn?from=%2Fcatalog%3Ftype%3Dfilm%26page%3D2");
  });

  it("goes back only to a same-site catalog view, re-written through the URL state, without an open sheet", () => {
    expect(catalogReturnHref("/catalog?genre=Jazz&page=2&item=abc", "albums")).toBe("/catalog?genre=Jazz&page=2");
    expect(catalogReturnHref("/catalog?type=film&page=3", "films")).toBe("/catalog?type=film&page=3");
    expect(catalogReturnHref("/catalog?type=singles&utm_source=x", "singles")).toBe("/catalog?type=singles");
    // anything else: the item's own view
    expect(catalogReturnHref(null, "singles")).toBe("/catalog?type=singles");
    expect(catalogReturnHref("https://evil.example/catalog", "albums")).toBe("/catalog");
    expect(catalogReturnHref("//evil.example/catalog", "albums")).toBe("/catalog");
    expect(catalogReturnHref("/catalogue?x=1", "films")).toBe("/catalog?type=film");
    expect(catalogReturnHref("/catalog/../contact", "albums")).toBe("/catalog");
    expect(catalogReturnHref("/catalog\\@evil.example", "albums")).toBe("/catalog");
  });
});
