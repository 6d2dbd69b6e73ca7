import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WINDOW_BYTES } from "../../analysis/segments.ts";
import { createPrng } from "../sample/prng.ts";
import { openFigureFile, writeFigureFile, type SectionArrays } from "./figure-bytes.ts";
import { buildPassageIndex, MAX_TRACK_PASSAGES, passageCandidates, passageCodesOf, passageSource } from "./passage-index.ts";
import { FiguresBuilder } from "./figures-builder.ts";
import { PRINT_BYTES, TrackFigures } from "./figures.ts";
import { NO_YIELD } from "./yielding.ts";

// Issue #42, ADR 0162: the track index's fingerprints and passages in one file a machine's
// processes share (its pages once in the page cache), read at offsets. What an operator relies
// on: the same figures are one file however many processes build them, a damaged file is never
// read, old files do not pile up on the disk, and what a visitor is shown is what the figures
// in memory give.

const rng = createPrng(162);
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "figure-bytes-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const sections = (seed: number): SectionArrays => {
  const r = createPrng(seed);
  return {
    prints: Uint8Array.from({ length: 44 * 300 }, () => r.int(0, 255)),
    cellPrints: Uint8Array.from({ length: 44 * 300 }, () => r.int(0, 255)),
    postings: Uint32Array.from({ length: 1001 }, () => r.int(0, 299)),
    residuals: Uint16Array.from({ length: 1001 }, () => r.int(0, 65_535)),
    trackCodes: Uint32Array.from({ length: 1001 }, () => r.int(0, 2 ** 31)),
  };
};
const bins = () => fs.readdirSync(dir).filter((n) => n.endsWith(".bin"));

describe("the figures file (ADR 0162)", () => {
  it("gives back every section's bytes, at any offset, and refuses a read past a section or through a closed file", async () => {
    const s = sections(1);
    const f = await writeFigureFile(dir, s);
    expect(f.file).toBe(path.join(dir, bins()[0]));
    expect(f.memory("prints")).toBeNull();
    const buf = new Uint8Array(4096);
    expect([...f.read("prints", 44 * 7, 44, buf)]).toEqual([...s.prints.subarray(44 * 7, 44 * 8)]);
    expect([...f.copy("residuals")]).toEqual([...new Uint8Array(s.residuals.buffer)]);
    expect(new Uint32Array(f.copy("trackCodes").buffer)).toEqual(s.trackCodes);
    expect(f.length("postings")).toBe(1001 * 4);
    expect(() => f.read("postings", 1000 * 4, 8, buf)).toThrow(RangeError);
    f.close();
    expect(() => f.read("prints", 0, 44, buf)).toThrow(/closed/);
  });

  it("is one file for the same figures, however many processes write them: the second opens the first's", async () => {
    const a = await writeFigureFile(dir, sections(2));
    const inode = fs.statSync(a.file!).ino;
    const b = await writeFigureFile(dir, sections(2));
    expect(b.file).toBe(a.file);
    // opened, not written again: the same file, whose pages the machine already holds
    expect(fs.statSync(b.file!).ino).toBe(inode);
    expect(bins()).toHaveLength(1);
    // no temp file left behind
    expect(fs.readdirSync(dir)).toHaveLength(1);
    const other = await writeFigureFile(dir, sections(3));
    expect(other.file).not.toBe(a.file);
    expect(bins()).toHaveLength(2);
  });

  it("carries a cluster's arrays and table digest when written publishable (ADR 0162 amended), under another name than the same sections without them", async () => {
    const arrays = { seconds: Uint16Array.from([90, 200, 65_535]), scales: Float64Array.from([0.5, 1.25]), "orders.bpm": Int32Array.from([2, 0, 1]) };
    const plain = await writeFigureFile(dir, sections(5));
    const published = await writeFigureFile(dir, sections(5), { table: "digest-1", arrays });
    expect(published.file).not.toBe(plain.file);
    expect([plain.table, plain.arrays()]).toEqual([null, null]);
    const opened = openFigureFile(published.file!);
    expect(opened.table).toBe("digest-1");
    expect(opened.arrays()).toEqual(arrays);
    expect(opened.read("prints", 44, 44, new Uint8Array(44))).toEqual(sections(5).prints.subarray(44, 88));
    // another table's digest is another file: a process never opens one written for another table by its name
    const other = await writeFigureFile(dir, sections(5), { table: "digest-2", arrays });
    expect(other.file).not.toBe(published.file);
    // an array cut off is refused at open, as a section is
    opened.close();
    fs.truncateSync(published.file!, fs.statSync(published.file!).size - 8);
    expect(() => openFigureFile(published.file!)).toThrow(/cut short or damaged/);
  });

  it("refuses a file cut short or that is not a figures file, and is never fooled by one into reading wrong bytes", async () => {
    const f = await writeFigureFile(dir, sections(4));
    f.close();
    const size = fs.statSync(f.file!).size;
    fs.truncateSync(f.file!, size - 100);
    expect(() => openFigureFile(f.file!)).toThrow(/cut short or damaged/);
    // a writer finding that damaged file under its figures' name replaces it with whole ones
    const again = await writeFigureFile(dir, sections(4));
    expect(again.file).toBe(f.file);
    expect(fs.statSync(again.file!).size).toBe(size);
    const junk = path.join(dir, "figures-junk.bin");
    fs.writeFileSync(junk, "not a figures file".padEnd(5000, " "));
    expect(() => openFigureFile(junk)).toThrow(/not a figures file/);
  });

  it("keeps at most four files, the newest, and removes a dead writer's temp file; a process reading a removed one still reads it", async () => {
    const first = await writeFigureFile(dir, sections(10));
    const stale = path.join(dir, ".figures-1-dead.tmp");
    fs.writeFileSync(stale, "half");
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(stale, old, old);
    fs.utimesSync(first.file!, old, old);
    for (let i = 11; i <= 15; i++) await writeFigureFile(dir, sections(i));
    expect(bins()).toHaveLength(4);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(first.file!)).toBe(false);
    // its descriptor keeps the removed file's bytes
    expect([...first.read("prints", 0, 44, new Uint8Array(44))]).toEqual([...sections(10).prints.subarray(0, 44)]);
  });
});

describe("the passage stage read from the figures file (ADR 0162)", () => {
  it("finds the same candidates, reading the same postings, as from memory, with and without its re-order", async () => {
    const count = 2_000;
    const codes = new Uint32Array(count * MAX_TRACK_PASSAGES);
    const used = new Uint8Array(count);
    const centre = Uint8Array.from({ length: WINDOW_BYTES }, () => 40 + rng.int(0, 170));
    const near = () => Uint8Array.from({ length: WINDOW_BYTES }, (_, i) => Math.min(255, Math.max(0, centre[i] + rng.int(-14, 14))));
    const windows = (n: number) => {
      const out = new Uint8Array(n * WINDOW_BYTES);
      for (let w = 0; w < n; w++) out.set(near(), w * WINDOW_BYTES);
      return out;
    };
    for (let t = 0; t < count; t++) {
      const c = passageCodesOf(windows(3 + (t % 18)));
      codes.set(c, t * MAX_TRACK_PASSAGES);
      used[t] = c.length;
    }
    const index = buildPassageIndex(codes, used, count);
    const bytes = await writeFigureFile(dir, { prints: new Uint8Array(0), cellPrints: new Uint8Array(0), postings: index.postings, residuals: index.residuals, trackCodes: index.codes });
    const fromFile = { starts: index.starts, trackStarts: index.trackStarts, bytes };
    let compared = 0;
    for (let q = 0; q < 8; q++) {
      const query = windows(12);
      for (const reorder of [false, true]) {
        const mem = passageCandidates(passageSource(index), query, (t) => t % 3 !== 0, { limit: 100, reorder });
        const file = passageCandidates(fromFile, query, (t) => t % 3 !== 0, { limit: 100, reorder });
        expect([...file.tracks]).toEqual([...mem.tracks]);
        expect(file.postings).toBe(mem.postings);
        compared += mem.tracks.length;
      }
    }
    expect(compared).toBe(8 * 2 * 100);
  });
});

describe("a refresh of figures read from their file", () => {
  it("starts from every track's fingerprint and passage codes as the file holds them", async () => {
    const n = 500;
    const columns = { count: n, titleOrder: Int32Array.from({ length: n }, (_, i) => i), audioSorted: new Uint32Array(2 * n), byAudio: new Int32Array(n) };
    const builder = await FiguresBuilder.create(columns, null, NO_YIELD);
    for (let t = 0; t < n; t++) {
      if (t % 5 === 0) continue;
      builder.seconds[t] = rng.int(30, 400);
      builder.bpm[t] = rng.int(60, 180);
      builder.key[t] = rng.int(0, 23);
      builder.printed[t] = 1;
      for (let i = 0; i < PRINT_BYTES; i++) builder.prints[t * PRINT_BYTES + i] = rng.int(0, 255);
      const c = passageCodesOf(Uint8Array.from({ length: 4 * WINDOW_BYTES }, () => rng.int(0, 255)));
      builder.passageCodes.set(c, t * MAX_TRACK_PASSAGES);
      builder.passageCount[t] = c.length;
    }
    const prints = builder.prints.slice();
    const passageCodes = builder.passageCodes.slice();
    const passageCount = builder.passageCount.slice();
    const figures = await TrackFigures.from(builder, NO_YIELD, undefined, dir);
    expect(figures.bytes.file).not.toBeNull();
    const again = await FiguresBuilder.create(columns, figures, NO_YIELD);
    for (let t = 0; t < n; t++) {
      expect(again.printed[t]).toBe(t % 5 === 0 ? 0 : 1);
      if (t % 5 !== 0) expect([...again.prints.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)]).toEqual([...prints.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)]);
      expect(again.passageCount[t]).toBe(passageCount[t]);
      expect([...again.passageCodes.subarray(t * MAX_TRACK_PASSAGES, t * MAX_TRACK_PASSAGES + passageCount[t])]).toEqual([...passageCodes.subarray(t * MAX_TRACK_PASSAGES, t * MAX_TRACK_PASSAGES + passageCount[t])]);
    }
    // a track's fingerprint as a view would show it
    expect([...figures.printOf(figures.printRow[7])]).toEqual([...prints.subarray(7 * PRINT_BYTES, 8 * PRINT_BYTES)]);
  });
});
