import { describe, expect, it } from "vitest";
import { sampleAlbums, DEFAULT_SEED } from "../sample/generate.ts";
import { createTitleIndexer } from "../search/postings.ts";
import { buildTrackColumns, listedTracks } from "./table.ts";
import { NO_YIELD } from "./yielding.ts";
import { tableArrays, tableOfArrays, tableSource } from "./table-arrays.ts";

// ADR 0162, seventh session: a published track index version carries the columns and title
// postings for the track lists it was written for, so a joining process parses no album.

const albums = [...sampleAlbums(30, DEFAULT_SEED)].map((a, i) => ({ ...a, id: `al${i}` }));
const ids = albums.map((a) => a.id);
const encoder = new TextEncoder();
const bytesOf = (list: typeof albums) => (a: number) => encoder.encode(JSON.stringify(list[a]));

async function built() {
  const titles = createTitleIndexer();
  const columns = await buildTrackColumns(albums.length, (a) => listedTracks(albums[a].tracks), NO_YIELD, titles.track);
  return { columns, titles: titles.finish() };
}

describe("the table's arrays in a track index version", () => {
  it("give back the same columns and title postings", async () => {
    const { columns, titles } = await built();
    const arrays = tableArrays(columns, titles)!;
    const back = tableOfArrays(arrays, albums.length);
    expect(back.columns).toEqual(columns);
    expect(back.titles).toEqual(titles);
    // the words survive their encoding, letters outside Latin-1 included
    expect(back.titles.words.some((w) => [...w].some((c) => c.charCodeAt(0) > 0xff))).toBe(true);
  });

  it("are refused for another album count, a missing array or parts that do not fit together", async () => {
    const { columns, titles } = await built();
    const arrays = tableArrays(columns, titles)!;
    expect(() => tableOfArrays(arrays, albums.length + 1)).toThrow(/for 30 albums, not 31/);
    const { ["table.byAudio"]: _gone, ...missing } = arrays;
    expect(() => tableOfArrays(missing, albums.length)).toThrow(/no byAudio/);
    expect(() => tableOfArrays({ ...arrays, "table.titleDocs": arrays["table.titleDocs"].subarray(1) }, albums.length)).toThrow(/do not fit/);
    expect(() => tableOfArrays({ ...arrays, "table.titleOrder": new Uint32Array(columns.count) }, albums.length)).toThrow(/no titleOrder/);
  });

  it("are named by the track lists they were made from: any change to a list, or where an album ends, gives another digest", () => {
    const digest = tableSource(ids, bytesOf(albums));
    expect(tableSource(ids, bytesOf(albums))).toBe(digest);
    const renamed = albums.map((a, i) => (i === 7 ? { ...a, tracks: a.tracks.map((t, j) => (j === 0 ? { ...t, Filename: `${t.Filename} (Edit)` } : t)) } : a));
    expect(tableSource(ids, bytesOf(renamed))).not.toBe(digest);
    // the same bytes in all, cut between two albums elsewhere
    const whole = ids.map((_, a) => bytesOf(albums)(a));
    const moved = whole.map((b, a) => (a === 3 ? b.subarray(0, b.length - 1) : a === 4 ? Uint8Array.from([...whole[3].subarray(-1), ...b]) : b));
    expect(tableSource(ids, (a) => moved[a])).not.toBe(digest);
    expect(tableSource([...ids.slice(0, -1), "another"], bytesOf(albums))).not.toBe(digest);
  });
});
