import { describe, expect, it } from "vitest";
import { scanDistance, seedTables, type Sounding } from "../../analysis/similarity.ts";
import { FiguresBuilder, NO_BPM, NO_KEY, NO_SECONDS, PRINT_BYTES, TrackFigures } from "./figures.ts";
import { nearestTracks, spreadAlbums } from "./like.ts";
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
 * `clusters`: 0 for fingerprints spread at random over their whole range; else each one within
 * ± 2 of one of so many random sounds (a catalog of close families: within a family the tempo
 * and key terms decide, and the scan stops at a group's term).
 */
async function catalog(seed: number, clusters = 0) {
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
  const figures = await TrackFigures.from(builder, NO_YIELD);
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

describe("the like= scan over the layout by tempo and key", () => {
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
