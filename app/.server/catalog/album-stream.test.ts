import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogger } from "../../../tests/fakes/log-capture.ts";
import { albumEntry } from "../../../tests/support/catalog-fixtures.ts";
import { parseConfig } from "../config.ts";
import { createCatalogIndex } from "./index.ts";
import { jsonEvents, MalformedJsonError } from "./json-stream.ts";
import { startCatalog, type CatalogService } from "./service.ts";

/**
 * The album list read as a stream (ADR 0082), from a file source as an operator configures
 * it (ALBUMS_URL=/path/merged.json): what is served, what is logged, what stays on disk.
 */
let dir: string;
let service: CatalogService | undefined;
const merged = () => path.join(dir, "merged.json");
const snapshotFile = () => path.join(dir, "data", "catalog", "snapshots", "albums.json");
const FIVE = [1, 2, 3, 4, 5].map(albumEntry);

/** Writes merged.json with a new mtime, so the next sync reads it. */
function writeSource(text: string) {
  fs.writeFileSync(merged(), text);
  const later = new Date(Date.now() + Math.random() * 10_000 + 1000);
  fs.utimesSync(merged(), later, later);
}

async function start() {
  const log = captureLogger();
  service = await startCatalog({
    config: parseConfig({ DATA_DIR: path.join(dir, "data"), ALBUMS_URL: merged() }),
    logger: log.logger,
    refresh: false,
  });
  await service.syncNow({ sources: ["albums"] });
  return { service, log };
}

const albumsStatus = (s: CatalogService) => s.status().find((x) => x.name === "albums")!;
const shown = (s: CatalogService) => s.snapshot().albums.toArray().map((a) => a.name);
const leftovers = () => fs.readdirSync(path.dirname(snapshotFile())).filter((f) => f.endsWith(".tmp"));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "album-stream-"));
  writeSource(JSON.stringify(FIVE));
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the album list read as a stream", () => {
  it("serves every valid album, and the sheet's tracks come from the snapshot file", async () => {
    const { service } = await start();
    expect(shown(service)).toEqual(FIVE.map((a) => a.name));
    const id = service.snapshot().albums.id(2);
    expect(createCatalogIndex(service).album(id)?.tracks).toEqual([{ name: "Track 3", audioUrl: "/media/track-3.wav" }]);
    // the snapshot is the JSON it always was: a restarted server (or an older one) reads it
    const stored = JSON.parse(fs.readFileSync(snapshotFile(), "utf8")) as { data: { name: string }[]; fingerprint: string };
    expect(stored.data.map((a) => a.name)).toEqual(FIVE.map((a) => a.name));
    expect(stored.fingerprint).toMatch(/^[0-9a-f]{40}$/);
    await service.close();
    const again = await start();
    expect(shown(again.service)).toEqual(FIVE.map((a) => a.name));
    expect(createCatalogIndex(again.service).album(id)?.tracks).toHaveLength(1);
  });

  it("a truncated file is a logged failure; the last snapshot is served and kept byte for byte", async () => {
    const { service, log } = await start();
    const good = fs.readFileSync(snapshotFile());
    const text = JSON.stringify([...FIVE, ...FIVE.map((a) => ({ ...a, name: `${a.name} again` }))]);
    writeSource(text.slice(0, Math.floor(text.length * 0.8)));
    await service.syncNow({ sources: ["albums"] });
    expect(shown(service)).toEqual(FIVE.map((a) => a.name));
    expect(albumsStatus(service)).toMatchObject({ ok: false, count: 5, error: expect.stringMatching(/Malformed JSON/) });
    expect(fs.readFileSync(snapshotFile()).equals(good)).toBe(true);
    expect(leftovers()).toEqual([]);
    expect(log.messages()).toContain("catalog source failed; serving its last snapshot");
  });

  it("invalid and null entries are dropped and counted; a list with none valid is held back", async () => {
    writeSource(JSON.stringify([albumEntry(1), null, { artist: "no name" }, 42, albumEntry(2)]));
    const { service, log } = await start();
    expect(shown(service)).toEqual(["Album 1", "Album 2"]);
    expect(log.lines().find((l) => l.msg === "dropped invalid catalog entries")).toMatchObject({ source: "albums", invalid: 2 });

    const good = fs.readFileSync(snapshotFile());
    writeSource(JSON.stringify([{ name: "" }, { artist: "x" }]));
    await service.syncNow({ sources: ["albums"] });
    expect(shown(service)).toEqual(["Album 1", "Album 2"]);
    expect(albumsStatus(service)).toMatchObject({ ok: false, error: expect.stringMatching(/none of the 2 entries/) });
    expect(fs.readFileSync(snapshotFile()).equals(good)).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it("an entry over the size bound is skipped and logged, the others served", async () => {
    const huge = { ...albumEntry(9), tracks: Array.from({ length: 20_000 }, (_, i) => ({ s3Path: `t-${i}.wav`, Filename: "x".repeat(50) })) };
    writeSource(JSON.stringify([albumEntry(1), huge, albumEntry(2)]));
    const { service, log } = await start();
    expect(shown(service)).toEqual(["Album 1", "Album 2"]);
    expect(log.lines().find((l) => l.msg === "dropped catalog entries over the size bound")).toMatchObject({ source: "albums", oversized: 1 });
  });

  it("an empty list is held back while a snapshot has albums, with the reason logged", async () => {
    const { service, log } = await start();
    const good = fs.readFileSync(snapshotFile());
    writeSource("[]");
    await service.syncNow({ sources: ["albums"] });
    expect(shown(service)).toEqual(FIVE.map((a) => a.name));
    expect(albumsStatus(service)).toMatchObject({ ok: false, count: 5, error: expect.stringMatching(/empty list; the snapshot has 5/) });
    expect(log.lines().find((l) => l.msg === "catalog source answer held back; serving its last snapshot")).toMatchObject({ source: "albums", count: 0 });
    expect(fs.readFileSync(snapshotFile()).equals(good)).toBe(true);
    expect(leftovers()).toEqual([]);
    // the operator's --force accepts it
    await service.syncNow({ sources: ["albums"], force: true });
    expect(shown(service)).toEqual([]);
  });
});

describe("jsonEvents", () => {
  async function* chunks(...parts: string[]) {
    yield* parts;
  }
  const events = async (...parts: string[]) => {
    const out: unknown[] = [];
    for await (const e of jsonEvents(chunks(...parts), { listKey: "data", maxItemChars: 40 })) out.push(e);
    return out;
  };

  it("streams a list's items across chunk boundaries, and a snapshot's fields around its list", async () => {
    expect(await events('[{"a":', '1},"x",', "null]")).toEqual([
      { kind: "start", type: "array" },
      { kind: "list" },
      { kind: "item", value: { a: 1 } },
      { kind: "item", value: "x" },
      { kind: "item", value: null },
    ]);
    expect(await events('{"name":"albums","data":[1],"fingerprint":"f"}')).toEqual([
      { kind: "start", type: "object" },
      { kind: "field", key: "name", value: "albums" },
      { kind: "list" },
      { kind: "item", value: 1 },
      { kind: "field", key: "fingerprint", value: "f" },
    ]);
  });

  it("skips an item over the bound without assembling it", async () => {
    expect(await events(`[{"big":"${"x".repeat(100)}"},2]`)).toEqual([
      { kind: "start", type: "array" },
      { kind: "list" },
      { kind: "oversized" },
      { kind: "item", value: 2 },
    ]);
  });

  it("text cut short, trailing text and an empty document are malformed", async () => {
    await expect(events('[{"a":1}')).rejects.toBeInstanceOf(MalformedJsonError);
    await expect(events("[1] x")).rejects.toBeInstanceOf(MalformedJsonError);
    await expect(events("")).rejects.toBeInstanceOf(MalformedJsonError);
  });
});
