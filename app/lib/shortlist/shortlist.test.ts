import { describe, expect, it } from "vitest";
import {
  addToShortlist,
  parseShortlistIds,
  parseTrackShortlistId,
  readShortlist,
  SHORTLIST_MAX_ITEMS,
  shortlistLinkLabel,
  type ShortlistEntry,
} from "./shortlist.ts";
import { licensingLine, shortlistEntryHref, shortlistLicensingHref, shortlistSharePath } from "./links.ts";

const entry = (i: number, o: Partial<ShortlistEntry> = {}): ShortlistEntry => ({ id: `a${i}`, kind: "album", title: `Album ${i}`, artist: "Ana", ...o });

describe("a shared list's ids (`/shortlist?items=`)", () => {
  it("splits on commas, trims, drops blanks, repeats and malformed ids, and counts what it refused", () => {
    expect(parseShortlistIds(" a1 ,SUB-2,,a1:3, a1")).toEqual({ ids: ["a1", "SUB-2", "a1:3"], dropped: 0, overflow: 0 });
    expect(parseShortlistIds(`ok,${"x".repeat(41)},b c`)).toEqual({ ids: ["ok"], dropped: 2, overflow: 0 });
    expect(parseShortlistIds(null)).toEqual({ ids: [], dropped: 0, overflow: 0 });
    expect(parseShortlistIds("")).toEqual({ ids: [], dropped: 0, overflow: 0 });
  });

  it("keeps at most 100 ids and reads at most 100 ids' worth of text", () => {
    const many = Array.from({ length: 120 }, (_, i) => `id${i}`).join(",");
    const parsed = parseShortlistIds(many);
    expect(parsed.ids).toHaveLength(SHORTLIST_MAX_ITEMS);
    expect(parsed.ids.at(-1)).toBe("id99");
    expect(parsed.overflow).toBe(20);
    expect(parsed.dropped).toBe(0);
    const huge = parseShortlistIds("a,".repeat(100_000));
    expect(huge.ids).toEqual(["a"]);
    expect(huge.overflow).toBe(1);
  });

  it("tells track ids (`${albumId}:${trackIndex}`) from album and single ids", () => {
    expect(parseTrackShortlistId("cg2NgRnFQG:0")).toEqual({ albumId: "cg2NgRnFQG", trackIndex: 0 });
    expect(parseTrackShortlistId("x:y:12")).toEqual({ albumId: "x:y", trackIndex: 12 });
    expect(parseTrackShortlistId("SUB-10028")).toBeNull();
    expect(parseTrackShortlistId(":3")).toBeNull();
  });
});

describe("the list read back from localStorage", () => {
  it("keeps valid entries in order and drops anything else", () => {
    const raw = JSON.stringify([
      entry(1),
      { id: "a1:2", kind: "track", title: "Song", artist: "Ana", album: "Album 1" },
      entry(1), // repeat
      { id: "t", kind: "track", title: "No index", artist: "" }, // a track id needs its index
      { id: "bad id", kind: "album", title: "x", artist: "" },
      { id: "s1", kind: "playlist", title: "x", artist: "" },
      { id: "s2", kind: "single", title: "", artist: "" }, // no title
      { id: "s3", kind: "single", title: "x".repeat(301), artist: "" },
      { id: "s4", kind: "single", title: "Ok", artist: "Bo", image: "https://evil.example/x.png" },
      { id: "s5", kind: "single", title: "Ok 2", artist: "Bo", image: "/img?w=160&src=x" },
      null,
      "a1",
      42,
    ]);
    const list = readShortlist(raw);
    expect(list.map((e) => e.id)).toEqual(["a1", "a1:2", "s4", "s5"]);
    expect(list[2]!.image).toBeUndefined(); // another site's image is not kept
    expect(list[3]!.image).toBe("/img?w=160&src=x");
  });

  it("is empty for missing, broken or non-list storage, and caps the count", () => {
    expect(readShortlist(null)).toEqual([]);
    expect(readShortlist("{not json")).toEqual([]);
    expect(readShortlist('{"id":"a"}')).toEqual([]);
    const many = JSON.stringify(Array.from({ length: 150 }, (_, i) => entry(i)));
    expect(readShortlist(many)).toHaveLength(SHORTLIST_MAX_ITEMS);
  });

  it("adds without repeats up to the cap, and says when some did not fit", () => {
    const full = Array.from({ length: SHORTLIST_MAX_ITEMS - 1 }, (_, i) => entry(i));
    expect(addToShortlist(full, [entry(0)])).toEqual({ list: full, full: false });
    const { list, full: over } = addToShortlist(full, [entry(500), entry(501)]);
    expect(list).toHaveLength(SHORTLIST_MAX_ITEMS);
    expect(list.at(-1)!.id).toBe("a500");
    expect(over).toBe(true);
  });

  it("names the header link with its count", () => {
    expect(shortlistLinkLabel(0)).toBe("Shortlist");
    expect(shortlistLinkLabel(1)).toBe("Shortlist, 1 item");
    expect(shortlistLinkLabel(12)).toBe("Shortlist, 12 items");
  });
});

describe("where a shortlist leads", () => {
  it("shares `/shortlist?items=` with readable commas", () => {
    expect(shortlistSharePath(["a1", "SUB-2", "a1:3"])).toBe("/shortlist?items=a1,SUB-2,a1%3A3");
    expect(new URL(`https://x.example${shortlistSharePath(["a1", "a1:3"])}`).searchParams.get("items")).toBe("a1,a1:3");
  });

  it("links albums and singles to their pages and a track to its row on its album's page", () => {
    expect(shortlistEntryHref(entry(1))).toBe("/catalog/albums/a1/album-1");
    expect(shortlistEntryHref({ id: "SUB-1", kind: "single", title: "Blue Islands", artist: "" })).toBe("/catalog/singles/SUB-1/blue-islands");
    expect(shortlistEntryHref({ id: "a1:2", kind: "track", title: "Song", artist: "", album: "Secret Streets" })).toBe("/catalog/albums/a1/secret-streets#track-3");
  });

  it("writes Specific Tracks lines as 'Title — Artist (Album)'", () => {
    expect(licensingLine({ id: "a1:0", kind: "track", title: "Wild Candles", artist: "Kofi", album: "Secret Streets" })).toBe("Wild Candles — Kofi (Secret Streets)");
    expect(licensingLine(entry(1))).toBe("Album 1 — Ana (full album)");
    expect(licensingLine({ id: "s", kind: "single", title: "Blue", artist: "Felix" })).toBe("Blue — Felix");
  });

  it("fills the licensing form with whole lines that fit the field and the URL limit, then says how many more", () => {
    const tracks = (href: string) => new URL(`https://x.example${href}`).searchParams.get("tracks")!;
    const few = shortlistLicensingHref([entry(1), entry(2)], { maxLength: 1000, maxUrlBytes: 4000 });
    expect(few.startsWith("/contact?tab=licensing&tracks=")).toBe(true);
    expect(tracks(few)).toBe("Album 1 — Ana (full album)\nAlbum 2 — Ana (full album)");

    const many = Array.from({ length: 100 }, (_, i) => entry(i));
    const href = shortlistLicensingHref(many, { maxLength: 1000, maxUrlBytes: 4000, listUrl: "https://x.example/shortlist?items=a0,a1" });
    const text = tracks(href);
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(href.length).toBeLessThanOrEqual(4000);
    const lines = text.split("\n");
    expect(lines.at(-1)).toMatch(/^…and \d+ more: https:\/\/x\.example\/shortlist\?items=a0,a1$/);
    expect(lines.length - 1 + Number(/and (\d+) more/.exec(lines.at(-1)!)![1])).toBe(100);
    // the URL limit binds first for long non-Latin names (each character is 9 bytes encoded)
    const korean = Array.from({ length: 50 }, (_, i) => entry(i, { title: "노래".repeat(10) }));
    const k = shortlistLicensingHref(korean, { maxLength: 1000, maxUrlBytes: 2000 });
    expect(k.length).toBeLessThanOrEqual(2000);
    expect(tracks(k)).toMatch(/…and \d+ more$/);
  });
});
