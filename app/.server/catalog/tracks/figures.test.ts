import { describe, expect, it } from "vitest";
import { countInRanges, NO_BPM, NO_KEY, NO_SECONDS, TrackFigures } from "./figures.ts";
import { FiguresBuilder } from "./figures-builder.ts";
import { NO_YIELD } from "./yielding.ts";

/** Figures of `n` made-up tracks (some without a tempo, a length or a key), as the index lays them out. */
async function randomFigures(n: number, seed: number) {
  let x = seed;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const titleOrder = Int32Array.from({ length: n }, (_, i) => i);
  const builder = await FiguresBuilder.create({ count: n, titleOrder, audioSorted: new Uint32Array(2 * n), byAudio: new Int32Array(n) }, null, NO_YIELD);
  for (let t = 0; t < n; t++) {
    if (rand() < 0.1) continue; // not analysed
    builder.seconds[t] = rand() < 0.02 ? 3000 : Math.floor(rand() * 600);
    builder.bpm[t] = rand() < 0.15 ? NO_BPM : rand() < 0.01 ? 700 : 40 + Math.floor(rand() * 180);
    builder.key[t] = rand() < 0.1 ? NO_KEY : Math.floor(rand() * 24);
  }
  return { figures: await TrackFigures.from(builder, NO_YIELD), rand };
}

/** The counts as a read of every track's packed figures makes them (query.ts before issue #18). */
function countByReading(figures: TrackFigures, bpm: [number, number] | null, seconds: [number, number] | null): number[] {
  const counts = new Array<number>(33).fill(0);
  for (const p of figures.packed.title) {
    const b = p & 511;
    const s = (p >>> 9) & 2047;
    if (bpm && (b === 0 || b < bpm[0] || b > bpm[1])) continue;
    if (seconds && (s === 2047 || s < seconds[0] || s > seconds[1])) continue;
    counts[p >>> 20]++;
    counts[32]++;
  }
  return counts;
}

describe("countInRanges (issue #18)", () => {
  it("counts the tracks of any tempo and length filter per key as reading every track does", async () => {
    const { figures, rand } = await randomFigures(20_000, 7);
    const ranges: [[number, number] | null, [number, number] | null][] = [
      [null, null],
      [[120, 128], null],
      [null, [180, 240]],
      [[-Infinity, 90], [300, Infinity]],
      [[90.5, 100.2], [59.5, 61]],
      [[500, 1000], null], // tempi past 511 are packed as 511
      [null, [2100, 5000]], // lengths past 2046 are packed as 2046
      [[130, 120], null], // an empty range
    ];
    for (let i = 0; i < 200; i++) {
      const b0 = 30 + Math.floor(rand() * 200);
      const s0 = Math.floor(rand() * 700);
      ranges.push([rand() < 0.2 ? null : [b0, b0 + Math.floor(rand() * 40)], rand() < 0.2 ? null : [s0, s0 + Math.floor(rand() * 200)]]);
    }
    for (const [bpm, seconds] of ranges) expect([...countInRanges(figures, bpm, seconds)], JSON.stringify({ bpm, seconds })).toEqual(countByReading(figures, bpm, seconds));
  });

  it("counts nothing in the figures of no analysed track but the tracks themselves without a filter", async () => {
    const builder = await FiguresBuilder.create({ count: 3, titleOrder: Int32Array.of(0, 1, 2), audioSorted: new Uint32Array(6), byAudio: new Int32Array(3) }, null, NO_YIELD);
    const figures = await TrackFigures.from(builder, NO_YIELD);
    expect(figures.seconds[0]).toBe(NO_SECONDS);
    expect(countInRanges(figures, null, null)[32]).toBe(3);
    expect(countInRanges(figures, [0, 1000], null)[32]).toBe(0);
    expect(countInRanges(figures, null, [0, 1000])[32]).toBe(0);
  });
});

describe("the track view's page without a search (query.ts walk, issue #18)", () => {
  it("keeps the page of any order, tempo and length filter and key choice as a read of every track does", async () => {
    const { matchPage } = await import("./query.ts");
    const { createCountsCache, createTrackCache } = await import("./query-context.ts");
    const { KEY_NAMES } = await import("../../../lib/catalog/track-query.ts");
    const n = 5_000;
    const { figures, rand } = await randomFigures(n, 11);
    const titleOrder = Int32Array.from({ length: n }, (_, i) => i); // as randomFigures laid the figures out
    const ctx = {
      table: { count: n, titleOrder } as never,
      figures,
      search: { tracks: () => null, normalize: () => "" },
      cache: createTrackCache(1 << 20),
      counts: createCountsCache(),
      generation: 1,
    };
    const sorts = ["title", "bpm", "-bpm", "duration", "-duration"] as const;
    for (let i = 0; i < 300; i++) {
      const sort = sorts[i % sorts.length];
      const b0 = 40 + Math.floor(rand() * 180);
      const s0 = Math.floor(rand() * 600);
      const bpm = rand() < 0.3 ? null : { min: b0, max: b0 + Math.floor(rand() * 30) };
      const duration = rand() < 0.3 ? null : { min: s0, max: s0 + Math.floor(rand() * 120) };
      const keys = rand() < 0.7 ? [] : [KEY_NAMES[Math.floor(rand() * 24)], KEY_NAMES[Math.floor(rand() * 24)]];
      const start = rand() < 0.5 ? 0 : Math.floor(rand() * 300);
      const query = { q: "", genre: "", subGenres: [], bpm, duration, keys, sort, page: 1 };
      const got = await matchPage(ctx, query, start, 12);

      const order = sort === "title" ? titleOrder : figures.orders[sort];
      const wanted = new Set(keys.map((k) => KEY_NAMES.indexOf(k)));
      const matches = [...order].filter((t) => {
        const p = figures.packed.title[t];
        const b = p & 511;
        const s = (p >>> 9) & 2047;
        if (bpm && (b === 0 || b < bpm.min || b > bpm.max)) return false;
        if (duration && (s === 2047 || s < duration.min || s > duration.max)) return false;
        return !wanted.size || wanted.has(p >>> 20);
      });
      expect({ total: got.total, page: [...got.page] }, JSON.stringify(query) + ` start ${start}`).toEqual({ total: matches.length, page: matches.slice(start, start + 12) });
    }
  });
});
