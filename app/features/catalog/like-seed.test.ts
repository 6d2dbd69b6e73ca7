import { describe, expect, it } from "vitest";
import { likeChipLabel, likeTitle } from "./like-seed";
import type { HeardFile, LikeSeed } from "~/lib/catalog/track-query";

// The heading of a like= view, in one place (issue #41; DESIGN.md §3c for a catalog track).

const heard: HeardFile = { fileSeconds: 151, fromSeconds: 0, toSeconds: 151, bpm: 124, key: "A minor", peaks: [50, 100] };
const reference = (h: Partial<HeardFile> | null, label = "temp track.mp3"): LikeSeed => ({
  id: "ref-x",
  kind: "reference",
  status: "ready",
  label,
  ...(h ? { heard: { ...heard, ...h } } : {}),
});

describe("likeTitle", () => {
  it("names a reference file by what the site heard: length, tempo and key", () => {
    expect(likeTitle(reference({}))).toBe("Tracks like your file (2:31, 124 BPM, A minor)");
    expect(likeTitle(reference({ bpm: null }))).toBe("Tracks like your file (2:31, no steady beat, A minor)");
    expect(likeTitle(reference({ key: null, fileSeconds: 30.04 }))).toBe("Tracks like your file (0:30, 124 BPM, no clear key)");
  });

  it("names a reference stored before issue #41 by its file name", () => {
    expect(likeTitle(reference(null))).toBe("Tracks like your file “temp track.mp3”");
    expect(likeChipLabel(reference(null))).toBe("Like: temp track.mp3");
  });

  it("names a catalog track by title and artist (DESIGN.md §3c)", () => {
    const row = { id: "a:0", title: "Night Drive", artist: "June Pryce", album: "Amor Ocean", albumId: "a", genre: "House", audioUrl: "" };
    expect(likeTitle({ id: "a:0", kind: "track", status: "ready", row })).toBe("Tracks like Night Drive by June Pryce");
    expect(likeTitle({ id: "a:9", kind: "track", status: "unknown" })).toBe("Tracks like this");
  });
});
