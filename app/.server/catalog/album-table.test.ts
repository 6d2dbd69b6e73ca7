import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileTracks } from "./album-table.ts";

/**
 * The snapshot's track lists read by byte range: one read an album (the server's thread, pages
 * shown) or cut out of blocks (the build worker's pass in file order, ADR 0162 amended in the
 * sixth session). Both must give every album its own tracks, whatever the order asked.
 */
describe("fileTracks", () => {
  let dir = "";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "album-table-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function snapshot() {
    const albums = Array.from({ length: 40 }, (_, i) => ({
      id: `a${i}`,
      // album 7 is larger than the small blocks below
      tracks: Array.from({ length: i === 7 ? 30 : (i % 4) + 1 }, (_, t) => ({ s3Path: `music/a${i}/${t}.mp3`, Filename: `Track ${i}.${t}` })),
    }));
    const parts: string[] = [];
    const offsets: number[] = [];
    const lengths: number[] = [];
    let at = 0;
    for (const album of albums) {
      // a separator between albums, as in the list's JSON
      const text = JSON.stringify(album);
      offsets.push(at);
      lengths.push(Buffer.byteLength(text));
      parts.push(text, ",\n");
      at += Buffer.byteLength(text) + 2;
    }
    const file = path.join(dir, "merged.json");
    fs.writeFileSync(file, parts.join(""));
    return { albums, file, offsets: Float64Array.from(offsets), lengths: Uint32Array.from(lengths) };
  }

  it("gives each album its tracks read one at a time or cut out of blocks, in file order and out of it", async () => {
    const { albums, file, offsets, lengths } = await snapshot();
    expect(lengths[7]).toBeGreaterThan(256);
    for (const readAhead of [0, 256, 1 << 20]) {
      const handle = await fsp.open(file, "r");
      try {
        const tracks = fileTracks(handle, offsets, lengths, file, readAhead);
        const order = [...albums.keys(), ...[...albums.keys()].reverse(), 3, 30, 7, 8, 1];
        for (const i of order) expect(tracks.read(i, albums[i].id), `album ${i}, blocks of ${readAhead}`).toEqual(albums[i].tracks);
        // unparsed, each album's bytes are its own (the track lists' digest, ADR 0162 seventh session)
        for (const i of order) expect(Buffer.from(tracks.bytes!(i)).toString(), `album ${i}'s bytes, blocks of ${readAhead}`).toBe(JSON.stringify(albums[i]));
      } finally {
        await handle.close();
      }
    }
  });

  it("refuses a byte range that does not hold the album asked for, with blocks as without", async () => {
    const { file, offsets, lengths } = await snapshot();
    for (const readAhead of [0, 256]) {
      const handle = await fsp.open(file, "r");
      try {
        const tracks = fileTracks(handle, offsets, lengths, file, readAhead);
        expect(() => tracks.read(2, "a3")).toThrow(/does not hold album a3/);
        // a range past the file's end
        const past = fileTracks(handle, Float64Array.of(fs.statSync(file).size - 4), Uint32Array.of(40), file, readAhead);
        expect(() => past.read(0, "a0")).toThrow(/does not hold album a0/);
        expect(() => past.bytes!(0)).toThrow(/ends before album 0's bytes/);
      } finally {
        await handle.close();
      }
    }
  });
});
