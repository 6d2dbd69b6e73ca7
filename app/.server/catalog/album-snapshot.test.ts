import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Album } from "../../lib/catalog/types.ts";
import { AlbumSnapshotWriter, readAlbumSnapshot } from "./album-snapshot.ts";

/**
 * The albums snapshot read back as written (ADR 0082; the reader scans each album's bytes and
 * parses them alone, ADR 0162 seventh session): every album whole, its tracks read from its
 * byte range, whatever its strings hold and wherever the reader's blocks cut it; a file not laid
 * out as written is refused (the caller then syncs from the source).
 */
describe("readAlbumSnapshot", () => {
  let dir = "";
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "album-snapshot-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // strings a scan must follow: quotes, backslashes (one as a string's last character),
  // brackets and commas inside strings, non-ASCII text; album 5 larger than a small block
  const albums: Album[] = Array.from({ length: 24 }, (_, i) => ({
    id: `al-${i}`,
    name: [`Plain ${i}`, 'He said "hi"', "back\\slash\\", "{[brackets]}, and, commas", "Ɔdɔ — Ɛkɔm 🎧", "Coração"][i % 6],
    artist: i % 3 ? "Artist \\\"Q\\\"" : "Ama Serwaa",
    genre: "Jazz",
    artwork: `cover-${i}.webp`,
    keywords: ["jazz", i % 2 ? "modal" : "bebop"],
    featured: i === 3,
    tracks: Array.from({ length: i === 5 ? 400 : (i % 4) + 1 }, (_, t) => ({ s3Path: `music/${i}/${t}.mp3`, Filename: `Track ${t} "}" \\ ${i}.mp3` })),
  }));

  // an album written with its tracks before another member: read whole, as any JSON
  const { featured, ...tracksFirst } = albums[7];
  albums[7] = { ...tracksFirst, featured } as Album;

  async function write(list: Album[]) {
    const file = path.join(dir, "albums.json");
    const writer = await AlbumSnapshotWriter.create(file, { savedAt: "2026-11-29T00:00:00.000Z", source: "https://upstream.example/merged.json", stamp: 'etag "v1"' });
    for (const album of list) await writer.push(album);
    const { table } = await writer.finish();
    await writer.commit();
    await table.close();
    return file;
  }

  it("gives every album back whole, and its tracks from its bytes, for any block size", async () => {
    const file = await write(albums);
    expect(fs.statSync(file).size).toBeGreaterThan(16_384);
    for (const block of [64, 1000, 4096, 1 << 22]) {
      const read = await readAlbumSnapshot(file, () => true, block);
      expect(read, `blocks of ${block}`).toBeDefined();
      try {
        expect(read!.meta).toMatchObject({ name: "albums", source: "https://upstream.example/merged.json", stamp: 'etag "v1"' });
        expect(read!.meta).not.toHaveProperty("data");
        expect(read!.table.toArray(), `blocks of ${block}`).toEqual(albums);
      } finally {
        await read!.table.close();
      }
    }
  });

  it("reads an empty list, and lets the caller decline the header before any album", async () => {
    const empty = await write([]);
    const read = await readAlbumSnapshot(empty, () => true);
    expect(read?.table.length).toBe(0);
    await read?.table.close();
    const file = await write(albums);
    const seen: unknown[] = [];
    expect(await readAlbumSnapshot(file, (meta) => (seen.push(meta), false))).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it("refuses a file cut short, one with bytes between two albums, and one that is not a snapshot", async () => {
    const file = await write(albums);
    const bytes = fs.readFileSync(file);
    const variant = (name: string, content: Buffer | string) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, content);
      return p;
    };
    // cut inside an album, and just before the list's end
    expect(await readAlbumSnapshot(variant("cut.json", bytes.subarray(0, Math.floor(bytes.length / 2))), () => true, 64)).toBeUndefined();
    expect(await readAlbumSnapshot(variant("no-end.json", bytes.subarray(0, bytes.length - 2)), () => true)).toBeUndefined();
    // a space after an album: not as written
    const text = bytes.toString("utf8");
    const second = text.indexOf(',{"id":"al-1"');
    expect(await readAlbumSnapshot(variant("space.json", `${text.slice(0, second)} ${text.slice(second)}`), () => true)).toBeUndefined();
    // an album without an id
    expect(await readAlbumSnapshot(variant("no-id.json", text.replace('"id":"al-2",', "")), () => true)).toBeUndefined();
    expect(await readAlbumSnapshot(variant("other.json", '{"hello":"world"}'), () => true)).toBeUndefined();
    expect(await readAlbumSnapshot(path.join(dir, "missing.json"), () => true)).toBeUndefined();
  });
});
