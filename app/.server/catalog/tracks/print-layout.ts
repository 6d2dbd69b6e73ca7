import { FIELDS } from "../../analysis/fingerprint.ts";
import type { FiguresArrays, TrackFigures } from "./figures.ts";
import type { Yielder } from "./yielding.ts";

/**
 * The fingerprints laid out for the `like=` scan (issue #18, ADR 0116): TrackFigures.prints
 * holds them grouped by tempo and key, each group's rows in length order, so the scan reads
 * the groups it needs front to back and a length range is a slice of each group. The layout is
 * made by moving the builder's rows (track order) in place, and undone the same way when a
 * refresh starts from the figures in use: never a second copy of the bytes (112 MB at 2.5
 * million tracks) next to the figures in use.
 */

/** Bytes of one track's fingerprint in TrackFigures.prints (fingerprint.ts FIELDS, without the version byte). */
export const PRINT_BYTES = FIELDS.length;

/** Groups of TrackFigures.groupStarts and printStarts: every packed BPM (0–511) × every packed key (0–31). */
export const GROUPS = 512 * 32;

/** A track's group from its figures (TrackFigures.bpm, key): tempi from 511 up in 511, no key (255) in 31. */
export const figureGroup = (bpm: number, key: number) => (bpm > 511 ? 511 : bpm) * 32 + (key > 31 ? 31 : key);

/** What the layout reads of a FiguresBuilder: its figures and its fingerprints, in track order. */
interface TrackOrderPrints {
  table: { count: number };
  bpm: Uint16Array;
  key: Uint8Array;
  seconds: Uint16Array;
  printed: Uint8Array;
  prints: Uint8Array;
}

/** Lays `builder.prints` out for the scan (in place: the array becomes TrackFigures.prints); `byDuration` is the tracks by length. */
export async function layPrints(
  builder: TrackOrderPrints,
  byDuration: Int32Array,
  yielder: Yielder,
): Promise<Pick<FiguresArrays, "printRow" | "printTracks" | "printStarts" | "printSeconds"> & { prints: Uint8Array }> {
  const { bpm, key, seconds, printed, prints } = builder;
  const n = builder.table.count;
  const printStarts = new Int32Array(GROUPS + 1);
  let count = 0;
  for (let t = 0; t < n; t++) {
    if (!printed[t]) continue;
    printStarts[figureGroup(bpm[t], key[t]) + 1]++;
    count++;
  }
  await yielder.yield();
  for (let g = 0; g < GROUPS; g++) printStarts[g + 1] += printStarts[g];
  const next = printStarts.slice(0, GROUPS);
  // row → track: the fingerprinted tracks by group, each group's by length (the order of
  // sort=duration: a length range is then a slice of the group), then the others (rows unused)
  const order = new Int32Array(n);
  const printRow = new Int32Array(n).fill(-1);
  let rest = count;
  for (let i = 0; i < n; i++) {
    const t = byDuration[i];
    if (printed[t]) order[(printRow[t] = next[figureGroup(bpm[t], key[t])]++)] = t;
    else order[rest++] = t;
  }
  await yielder.yield();
  await permuteRows(prints, order, PRINT_BYTES, yielder);
  const printSeconds = new Uint16Array(count);
  for (let p = 0; p < count; p++) printSeconds[p] = seconds[order[p]];
  await yielder.yield();
  return { prints, printRow, printTracks: order.slice(0, count), printStarts, printSeconds };
}

/**
 * A refresh's start (FiguresBuilder.create): `builder.prints`, a copy of the figures' laid-out
 * bytes, moved back to track order, and `builder.printed` set where a track has a row.
 */
export async function restoreTrackOrder(builder: Pick<TrackOrderPrints, "printed" | "prints">, figures: TrackFigures, yielder: Yielder): Promise<void> {
  const n = figures.printRow.length;
  // track t's row now: its row in the layout, or one of the unused rows
  const from = new Int32Array(n);
  let unused = figures.fingerprinted;
  for (let t = 0; t < n; t++) {
    const row = figures.printRow[t];
    builder.printed[t] = row >= 0 ? 1 : 0;
    from[t] = row >= 0 ? row : unused++;
  }
  await yielder.yield();
  await permuteRows(builder.prints, from, PRINT_BYTES, yielder);
}

/**
 * Moves `data`'s rows of `size` bytes in place so that row p then holds what row `from[p]`
 * held (`from` a permutation of the rows), following the permutation's cycles: one row's bytes
 * held aside per cycle, each row moved once.
 */
async function permuteRows(data: Uint8Array, from: Int32Array, size: number, yielder: Yielder): Promise<void> {
  const n = from.length;
  const done = new Uint8Array(n);
  const aside = new Uint8Array(size);
  let moves = 0;
  for (let start = 0; start < n; start++) {
    if (done[start]) continue;
    done[start] = 1;
    if (from[start] === start) continue;
    aside.set(data.subarray(start * size, start * size + size));
    let p = start;
    for (;;) {
      const s = from[p];
      if (s === start) {
        data.set(aside, p * size);
        break;
      }
      data.copyWithin(p * size, s * size, s * size + size);
      done[s] = 1;
      p = s;
      if ((++moves & 63) === 0) await yielder.maybeYield();
    }
  }
}
