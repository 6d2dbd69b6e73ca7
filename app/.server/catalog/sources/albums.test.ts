import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogger } from "../../../../tests/fakes/log-capture.ts";
import { albumEntry } from "../../../../tests/support/catalog-fixtures.ts";
import type { AlbumTable } from "../album-table.ts";
import { albumsSource } from "./albums.ts";
import type { Loaded, LoadResult } from "./source.ts";

/** The albums source alone (ADR 0082): a merged.json file read as a stream into a staged snapshot. */
let dir: string;
let log: ReturnType<typeof captureLogger>;
const tables: AlbumTable[] = [];
const merged = () => path.join(dir, "merged.json");
const snapshotFile = () => path.join(dir, "snapshots", "albums.json");
const leftovers = () => (fs.existsSync(path.dirname(snapshotFile())) ? fs.readdirSync(path.dirname(snapshotFile())).filter((f) => f.endsWith(".tmp")) : []);
const FIVE = [1, 2, 3, 4, 5].map(albumEntry);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "albums-source-"));
  log = captureLogger();
  fs.writeFileSync(merged(), JSON.stringify(FIVE));
});
afterEach(async () => {
  await Promise.all(tables.splice(0).map((t) => t.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const source = () => albumsSource({ location: merged(), snapshotFile: snapshotFile(), request: { timeoutMs: 5000, maxBytes: 1024 * 1024 }, log: log.logger });
const loaded = (result: LoadResult<AlbumTable>): Loaded<AlbumTable> => {
  if (result.unchanged) throw new Error("expected data");
  tables.push(result.data);
  return result;
};

describe("the albums source", () => {
  it("stages a snapshot as it reads: committed, it is the snapshot file, fingerprinted as JSON.stringify(list) always was", async () => {
    const result = loaded(await source().load({ current: undefined, stamp: undefined }));
    expect(result.data.toArray().map((a) => a.name)).toEqual(FIVE.map((a) => a.name));
    // nothing replaces the served snapshot before commit
    expect(fs.existsSync(snapshotFile())).toBe(false);
    await result.staged!.commit();
    const saved = JSON.parse(fs.readFileSync(snapshotFile(), "utf8")) as { source: string; stamp: string; fingerprint: string; data: unknown[] };
    expect(saved).toMatchObject({ name: "albums", source: merged(), stamp: result.stamp });
    expect(saved.fingerprint).toBe(result.staged!.fingerprint);
    expect(saved.fingerprint).toBe(crypto.createHash("sha1").update(JSON.stringify(saved.data)).digest("hex"));
    // the table reads each album's tracks from that file
    expect(result.data.get(2).tracks).toEqual([{ s3Path: "track-3.wav", Filename: "Track 3" }]);
    expect(leftovers()).toEqual([]);

    // and reads it back, unless its header is declined
    const read = await source().readSnapshot!(() => true);
    tables.push(read!.data);
    expect(read).toMatchObject({ source: merged(), fingerprint: saved.fingerprint });
    expect(read!.data.toArray()).toEqual(result.data.toArray());
    expect(await source().readSnapshot!((meta) => meta.source !== merged())).toBeUndefined();
  });

  it("a file whose size and time are the ones served is not read again", async () => {
    const first = loaded(await source().load({ current: undefined, stamp: undefined }));
    await first.staged!.discard();
    expect(first.stamp).toMatch(/^\d+:\d+(\.\d+)?$/);
    expect(await source().load({ current: first.data, stamp: first.stamp })).toEqual({ unchanged: true });
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(merged(), later, later);
    const again = loaded(await source().load({ current: first.data, stamp: first.stamp }));
    await again.staged!.discard();
    expect(again.data).toHaveLength(5);
    expect(leftovers()).toEqual([]);
  });

  it("null and invalid entries are dropped and counted; a list with no valid entry is an error and leaves no file", async () => {
    fs.writeFileSync(merged(), JSON.stringify([null, FIVE[0], { artist: "no name" }, FIVE[1]]));
    const result = loaded(await source().load({ current: undefined, stamp: undefined }));
    expect(result.data.toArray().map((a) => a.name)).toEqual(["Album 1", "Album 2"]);
    // dropped: its table is closed with its file
    await result.staged!.discard();
    expect(() => result.data.get(0)).toThrow(/replaced/);
    expect(log.lines().find((l) => l.msg === "dropped invalid catalog entries")).toMatchObject({ source: "albums", invalid: 1 });

    fs.writeFileSync(merged(), JSON.stringify([{ artist: "no name" }, 42]));
    await expect(source().load({ current: undefined, stamp: undefined })).rejects.toThrow(/none of the 2 entries from .* is valid/);
    expect(leftovers()).toEqual([]);
    expect(fs.existsSync(snapshotFile())).toBe(false);
  });

  it("a document that is not a list is refused", async () => {
    fs.writeFileSync(merged(), JSON.stringify({ albums: FIVE }));
    await expect(source().load({ current: undefined, stamp: undefined })).rejects.toThrow(/expected a list/);
    expect(leftovers()).toEqual([]);
  });
});
