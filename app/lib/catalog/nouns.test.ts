import { describe, expect, it } from "vitest";
import { catalogEmoji, catalogNoun, catalogTitle, CATALOG_TABS, isTabEnabled, viewNoun } from "./nouns.ts";

describe("catalog nouns (product-rules §2)", () => {
  it("titles by type", () => {
    expect(catalogTitle("music")).toBe("Music Catalog");
    expect(catalogTitle("film")).toBe("Film Catalog");
    expect(catalogTitle("channels")).toBe("Channels Catalog");
    expect(catalogTitle("singles")).toBe("Catalog");
    expect(catalogTitle("compilations")).toBe("Catalog");
  });
  it("nouns by type", () => {
    expect(catalogNoun("music")).toBe("albums");
    expect(catalogNoun("film")).toBe("films");
    expect(catalogNoun("channels")).toBe("channels");
    expect(catalogNoun("singles")).toBe("items");
  });
  it("emojis by type", () => {
    expect(catalogEmoji("music")).toBe("🎵");
    expect(catalogEmoji("film")).toBe("🎬");
    expect(catalogEmoji("channels")).toBe("📺");
    expect(catalogEmoji("singles")).toBe("📁");
  });
  it("lists the five tabs in order; Channels only with the flag, Compilations never", () => {
    expect(CATALOG_TABS.map((t) => t.label)).toEqual(["Music", "Films", "Singles", "Channels", "Compilations"]);
    expect(isTabEnabled("channels", { channelsEnabled: false })).toBe(false);
    expect(isTabEnabled("channels", { channelsEnabled: true })).toBe(true);
    expect(isTabEnabled("compilations", { channelsEnabled: true })).toBe(false);
    expect(isTabEnabled("singles", { channelsEnabled: false })).toBe(true);
  });
});

describe("the track view's noun (issue #10)", () => {
  it("says tracks in the track view, albums in the album view", () => {
    expect(viewNoun({ type: "music", view: "tracks" })).toBe("tracks");
    expect(viewNoun({ type: "music", view: "albums" })).toBe("albums");
    expect(viewNoun({ type: "singles", view: "singles" })).toBe("items");
  });
});
