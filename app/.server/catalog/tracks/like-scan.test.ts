import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanDistance, seedTables, type Sounding } from "../../analysis/similarity.ts";
import { NO_BPM, NO_KEY, NO_SECONDS, PRINT_BYTES, TrackFigures } from "./figures.ts";
import { FiguresBuilder } from "./figures-builder.ts";
import { APPROXIMATE_FROM, nearestTracks, spreadAlbums } from "./like.ts";
import { CELLS, QUANTISE_FROM } from "./print-cells.ts";
import { soundingOf } from "./track-rows.ts";
import type { TrackTable } from "./table.ts";
import { NO_YIELD } from "./yielding.ts";
import { createPrng } from "../sample/prng.ts";

// Issue #18, ADR 0116: the like= scan visits the fingerprints laid out by tempo and key, nearest
// group first, and stops early. It must still find exactly what a measure of every track finds:
// the nearest LIMIT the filters leave, ties in title order, whatever order the layout visits.

const N = 4000;
const LIMIT = 40;

/**
 * ADR 0162: the figures' rows and passages are read from a file (a server with a DATA_DIR) or
 * from memory (no directory) behind the same reads; every test below runs both ways.
 */
let figuresDir: string | undefined;
const modes = [
  ["in memory", false],
  ["read from the figures' file", true],
] as const;
function inMode(file: boolean) {
  beforeAll(() => {
    figuresDir = file ? fs.mkdtempSync(path.join(os.tmpdir(), "figures-")) : undefined;
  });
  afterAll(() => {
    if (figuresDir) fs.rmSync(figuresDir, { recursive: true, force: true });
    figuresDir = undefined;
  });
}

/**
 * `clusters`: 0 for fingerprints spread at random over their whole range; else each one within
 * ± 2 of one of so many random sounds (a catalog of close families: within a family the tempo
 * and key terms decide, and the scan stops at a group's term).
 */
async function catalog(seed: number, clusters = 0, quantiseFrom?: number) {
  const r = createPrng(seed);
  const centres = Array.from({ length: clusters }, () => Array.from({ length: PRINT_BYTES }, () => r.int(0, 255)));
  // title order unlike track order, so a tie broken by position would show
  const titleOrder = Int32Array.from({ length: N }, (_, i) => i).sort((a, b) => ((a * 7919) % N) - ((b * 7919) % N));
  const titleRank = new Int32Array(N);
  titleOrder.forEach((t, rank) => (titleRank[t] = rank));
  const builder = await FiguresBuilder.create({ count: N, titleOrder, audioSorted: new Uint32Array(2 * N), byAudio: new Int32Array(N) }, null, NO_YIELD);
  const original = new Uint8Array(N * PRINT_BYTES);
  for (let t = 0; t < N; t++) {
    if (r.chance(0.1)) continue; // not analysed
    builder.seconds[t] = r.chance(0.02) ? NO_SECONDS : r.int(20, 600);
    builder.bpm[t] = r.chance(0.15) ? NO_BPM : r.chance(0.02) ? r.int(500, 900) : r.int(60, 180);
    builder.key[t] = r.chance(0.05) ? NO_KEY : r.int(0, 23);
    if (r.chance(0.05)) continue; // analysed, no fingerprint
    builder.printed[t] = 1;
    // recordings shared by several tracks (the same audio on several albums): equal distances
    const from = t > 200 && r.chance(0.3) ? r.int(0, 199) : -1;
    const centre = clusters ? centres[r.int(0, clusters - 1)] : null;
    for (let i = 0; i < PRINT_BYTES; i++) {
      const byte = centre ? Math.min(255, Math.max(0, centre[i] + r.int(-2, 2))) : r.int(0, 255);
      builder.prints[t * PRINT_BYTES + i] = from >= 0 && builder.printed[from] ? builder.prints[from * PRINT_BYTES + i] : byte;
    }
    if (from >= 0 && builder.printed[from]) {
      builder.bpm[t] = builder.bpm[from];
      builder.key[t] = builder.key[from];
    }
  }
  original.set(builder.prints);
  const printed = builder.printed.slice();
  const figures = await TrackFigures.from(builder, NO_YIELD, quantiseFrom, figuresDir);
  if (figuresDir) expect(figures.bytes.file).toMatch(/figures-[0-9a-f]{32}\.bin$/);
  const table = { count: N, titleRank, trackAlbum: Int32Array.from({ length: N }, (_, t) => Math.floor(t / 8)) } as unknown as TrackTable;
  return { figures, table, original, printed, r };
}

/** What a measure of every track gives: distance then title order, the filters applied, then the album and recording rules. */
function measureAll(c: Awaited<ReturnType<typeof catalog>>, seedTrack: number, filters: { bpm: [number, number] | null; seconds: [number, number] | null; wanted: Uint8Array | null; album: number | null }) {
  const { figures, table, original, printed } = c;
  const sounding: Sounding = { fingerprint: original.subarray(seedTrack * PRINT_BYTES, (seedTrack + 1) * PRINT_BYTES), bpm: figures.bpm[seedTrack] || null, key: figures.key[seedTrack] === NO_KEY ? null : figures.key[seedTrack] };
  const tables = seedTables(sounding);
  const scored: [number, number][] = [];
  for (let t = 0; t < N; t++) {
    if (!printed[t] || t === seedTrack) continue;
    const b = figures.bpm[t];
    const s = figures.seconds[t];
    if (filters.bpm && (b === NO_BPM || b < filters.bpm[0] || b > filters.bpm[1])) continue;
    if (filters.seconds && (s === NO_SECONDS || s < filters.seconds[0] || s > filters.seconds[1])) continue;
    if (filters.wanted && !filters.wanted[figures.key[t]]) continue;
    if (filters.album !== null && table.trackAlbum[t] === filters.album) continue;
    scored.push([scanDistance(figures.model, tables, original, t * PRINT_BYTES, Math.min(b, 511), figures.key[t]), t]);
  }
  scored.sort((a, b) => a[0] - b[0] || table.titleRank[a[1]] - table.titleRank[b[1]]);
  const nearest = Int32Array.from(scored.slice(0, LIMIT), ([, t]) => t);
  const recording = new Map<string, number>();
  const groupOf = new Map<number, number>();
  for (const t of nearest) {
    const sound = Buffer.from(original.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)).toString("latin1");
    if (!recording.has(sound)) recording.set(sound, recording.size);
    groupOf.set(t, recording.get(sound)!);
  }
  return [...spreadAlbums(spreadAlbums(nearest, table.trackAlbum), (t) => groupOf.get(t)!, 2)];
}

describe.each(modes)("the like= scan over the layout by tempo and key, %s", (_mode, file) => {
  inMode(file);
  it.each([
    ["fingerprints at random over their whole range", 0],
    ["fingerprints in close families (the scan stops at a group's tempo and key)", 12],
  ])("finds what a measure of every track finds, with every filter, ties in title order: %s", async (_, spread) => {
    const c = await catalog(18, spread);
    const { r, figures, table, printed } = c;
    let compared = 0;
    let withTies = 0;
    for (let v = 0; v < 60; v++) {
      let seedTrack = r.int(0, N - 1);
      while (!printed[seedTrack]) seedTrack = r.int(0, N - 1);
      const lo = r.int(50, 170);
      const filters = {
        bpm: v % 4 === 1 ? ([lo, lo + r.int(2, 60)] as [number, number]) : v % 8 === 3 ? ([600, 800] as [number, number]) : null,
        seconds: v % 3 === 2 ? ([r.int(20, 200), r.int(220, 700)] as [number, number]) : null,
        wanted: v % 5 === 4 ? Uint8Array.from({ length: 24 }, () => (r.chance(0.3) ? 1 : 0)) : null,
        album: v % 7 === 6 ? r.int(0, N / 8 - 1) : null,
      };
      const expected = measureAll(c, seedTrack, filters);
      const sounding = soundingOf(figures, seedTrack);
      const got = nearestTracks({
        table,
        figures,
        seed: { sounding, exclude: new Set([seedTrack]), cacheId: String(seedTrack) },
        keep: filters.album === null ? null : (t) => table.trackAlbum[t] !== filters.album,
        bpm: filters.bpm,
        seconds: filters.seconds,
        wanted: filters.wanted,
        limit: LIMIT,
      });
      expect([...got.tracks], JSON.stringify({ v, seedTrack, ...filters, wanted: filters.wanted && [...filters.wanted] })).toEqual(expected);
      compared += expected.length;
      if (new Set(expected.map((t) => soundingOf(figures, t).fingerprint.join())).size < expected.length) withTies++;
    }
    // the comparison had something to compare, shared recordings (equal distances) among it
    expect(compared).toBeGreaterThan(60 * 20);
    expect(withTies).toBeGreaterThan(0);
  });

  it("keeps every track's fingerprint through the layout and back (a refresh starts from the figures in use)", async () => {
    const c = await catalog(19);
    const { figures, original, printed } = c;
    expect(figures.fingerprinted).toBe(printed.reduce((a, b) => a + b, 0));
    for (let t = 0; t < N; t++) {
      expect(figures.printRow[t] >= 0).toBe(printed[t] === 1);
      if (printed[t]) expect([...soundingOf(figures, t).fingerprint]).toEqual([...original.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)]);
    }
    const again = await FiguresBuilder.create({ count: N, titleOrder: Int32Array.from({ length: N }, (_, i) => i), audioSorted: new Uint32Array(2 * N), byAudio: new Int32Array(N) }, figures, NO_YIELD);
    expect([...again.printed]).toEqual([...printed]);
    for (let t = 0; t < N; t++) if (printed[t]) expect([...again.prints.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)]).toEqual([...original.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)]);
    // the figures in use are untouched by the builder made from them
    for (let t = 0; t < N; t += 97) if (printed[t]) expect([...soundingOf(figures, t).fingerprint]).toEqual([...original.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES)]);
  });
});

/** A seed's view with random filters (v picks which), for the scan and for measureAll. */
function viewFilters(r: ReturnType<typeof createPrng>, v: number) {
  const lo = r.int(50, 170);
  return {
    bpm: v % 4 === 1 ? ([lo, lo + r.int(2, 60)] as [number, number]) : v % 8 === 3 ? ([600, 800] as [number, number]) : null,
    seconds: v % 3 === 2 ? ([r.int(20, 200), r.int(220, 700)] as [number, number]) : null,
    wanted: v % 5 === 4 ? Uint8Array.from({ length: 24 }, () => (r.chance(0.3) ? 1 : 0)) : null,
    album: v % 7 === 6 ? r.int(0, N / 8 - 1) : null,
  };
}

// Issue #29, ADR 0124: at scale the view's first stage is approximate (k-means cells over the
// fingerprints, nearest cells first, the exact distance on what is visited, a visit budget). Its
// filters, ties and rules must be the exact scan's; only what it visits may differ.
describe.each(modes)("the like= view's approximate first stage (cells), %s", (_mode, file) => {
  inMode(file);
  const run = (c: Awaited<ReturnType<typeof catalog>>, seedTrack: number, filters: ReturnType<typeof viewFilters>, opts: { budget?: number; approximateFrom?: number }) =>
    nearestTracks({
      table: c.table,
      figures: c.figures,
      seed: { sounding: soundingOf(c.figures, seedTrack), exclude: new Set([seedTrack]), cacheId: String(seedTrack) },
      keep: filters.album === null ? null : (t) => c.table.trackAlbum[t] !== filters.album,
      bpm: filters.bpm,
      seconds: filters.seconds,
      wanted: filters.wanted,
      limit: LIMIT,
      ...opts,
    });
  const seedOf = (c: Awaited<ReturnType<typeof catalog>>) => {
    let t = c.r.int(0, N - 1);
    while (!c.printed[t]) t = c.r.int(0, N - 1);
    return t;
  };

  it("is not made for a small catalog, nor taken for few candidates: the exact order", async () => {
    expect(N).toBeLessThan(QUANTISE_FROM);
    const small = await catalog(21);
    expect(small.figures.cellStarts.length).toBe(0);
    const seed = seedOf(small);
    const none = { bpm: null, seconds: null, wanted: null, album: null };
    const list = run(small, seed, none, {});
    expect(list.approximate).toBe(false);
    expect([...list.tracks]).toEqual(measureAll(small, seed, none));
    // with cells, a view whose filters leave fewer than APPROXIMATE_FROM candidates is scanned exactly
    const celled = await catalog(21, 0, 0);
    expect(celled.figures.cellStarts.length).toBe(CELLS + 1);
    expect(N).toBeLessThan(APPROXIMATE_FROM);
    expect(run(celled, seed, none, {}).approximate).toBe(false);
  });

  it.each([
    ["fingerprints at random over their whole range", 0],
    ["fingerprints in close families", 12],
  ])("with a budget as large as the catalog, finds exactly what a measure of every track finds, with every filter: %s", async (_, clusters) => {
    const c = await catalog(22, clusters, 0);
    for (let v = 0; v < 40; v++) {
      const seedTrack = seedOf(c);
      const filters = viewFilters(c.r, v);
      const got = run(c, seedTrack, filters, { budget: N, approximateFrom: 0 });
      expect(got.approximate).toBe(true);
      expect([...got.tracks], JSON.stringify({ v, seedTrack, ...filters, wanted: filters.wanted && [...filters.wanted] })).toEqual(measureAll(c, seedTrack, filters));
    }
  });

  it("measures at most its budget of tracks, the nearest cells first: close families are found within a tenth of the catalog", async () => {
    const c = await catalog(23, 12, 0);
    const budget = Math.floor(N / 10);
    let recall = 0;
    const seeds = 40;
    for (let v = 0; v < seeds; v++) {
      const seedTrack = seedOf(c);
      const filters = v % 2 ? { bpm: null, seconds: null, wanted: null, album: null } : viewFilters(c.r, v);
      const got = run(c, seedTrack, filters, { budget, approximateFrom: 0 });
      expect(got.visited).toBeLessThanOrEqual(budget);
      if (!filters.bpm && !filters.seconds && !filters.wanted && filters.album === null) expect(got.visited).toBe(budget);
      const exact = measureAll(c, seedTrack, filters).slice(0, 12);
      const first = new Set(got.tracks.subarray(0, 12));
      recall += exact.filter((t) => first.has(t)).length / Math.max(1, exact.length);
    }
    expect(recall / seeds).toBeGreaterThanOrEqual(0.95);
  });
});
