import type { AnalysisFigures } from "../../analysis/stage/types.ts";
import { KEY_NAMES } from "../../../lib/catalog/track-query.ts";
import { hash64 } from "./columns.ts";
import { countingOrder, tracksOfHash, type TrackTable } from "./table.ts";
import type { Yielder } from "./yielding.ts";

/** No analysis: the track matches no tempo, length or key filter (issue #10). */
export const NO_SECONDS = 0xffff;
/** No tempo (not analysed, or no steady beat: app/.server/analysis/analyze.ts). */
export const NO_BPM = 0;
export const NO_KEY = 255;
/** Whole numbers kept per figure: seconds and BPM up to 65,534 (the analysis stops at 20 minutes). */
const MAX_FIGURE = 0xfffe;

export type FigureSort = "bpm" | "-bpm" | "duration" | "-duration";

/**
 * One word per track: BPM in bits 0–8 (0 = none; at most 511), seconds in bits 9–19 (2047 =
 * none; at most 2046, 34 minutes: the analysis stops at 20), the key in bits 20–24 (31 = none).
 */
export const PACKED_NO_SECONDS = 2047;
export const PACKED_NO_KEY = 31;
export function packFigures(bpm: number, seconds: number, key: number): number {
  const b = Math.min(511, bpm);
  const s = seconds === NO_SECONDS ? PACKED_NO_SECONDS : Math.min(PACKED_NO_SECONDS - 1, seconds);
  const k = key === NO_KEY ? PACKED_NO_KEY : key;
  return (b | (s << 9) | (k << 20)) >>> 0;
}

const KEY_INDEX = new Map(KEY_NAMES.map((k, i) => [k.toLowerCase(), i]));

/** The position of a key name in KEY_NAMES ("a minor" → 21), or -1. */
export function keyIndex(name: string): number {
  return KEY_INDEX.get(name.trim().replace(/\s+/g, " ").toLowerCase()) ?? -1;
}

/**
 * The analysis figures of every track (issue #10, ADR 0100): whole seconds, whole BPM and
 * the key, five bytes a track, and the track orders by tempo and by length that depend on
 * them. An object is never changed once built: a refresh builds the next one (copying the
 * arrays, 12 MB at 2.5 million tracks) while queries read this one, then takes its place.
 */
export class TrackFigures {
  readonly seconds: Uint16Array;
  readonly bpm: Uint16Array;
  readonly key: Uint8Array;
  /** how many tracks have an analysis */
  readonly analysed: number;
  /** the orders of sort=bpm, -bpm, duration, -duration (ties in title order; tracks without the figure last) */
  readonly orders: Readonly<Record<FigureSort, Int32Array>>;
  /**
   * The three figures of every track packed in one word (packFigures), laid out in each order
   * (title and the four above): a query without a search reads them front to back, one cache
   * line after the other, instead of jumping through three arrays per track (ADR 0100).
   */
  readonly packed: Readonly<Record<"title" | FigureSort, Uint32Array>>;

  private constructor(seconds: Uint16Array, bpm: Uint16Array, key: Uint8Array, orders: TrackFigures["orders"], packed: TrackFigures["packed"]) {
    this.seconds = seconds;
    this.bpm = bpm;
    this.key = key;
    this.orders = orders;
    this.packed = packed;
    let analysed = 0;
    for (let t = 0; t < seconds.length; t++) if (seconds[t] !== NO_SECONDS) analysed++;
    this.analysed = analysed;
  }

  /** The figures of `builder`, with the track orders they give. */
  static async from(builder: FiguresBuilder, yielder: Yielder): Promise<TrackFigures> {
    const { table, seconds, bpm, key } = builder;
    const n = table.count;
    // Orders by a figure: a counting sort over the title order, so equal figures stay in
    // title order; the missing figure takes the last key in both directions.
    const order = async (values: Uint16Array, none: number, descending: boolean) => {
      const keyOf = (t: number) => (values[t] === none ? MAX_FIGURE + 1 : descending ? MAX_FIGURE - values[t] : values[t]);
      const out = countingOrder(n, MAX_FIGURE + 2, keyOf, table.titleOrder);
      await yielder.yield();
      return out;
    };
    const orders = {
      bpm: await order(bpm, NO_BPM, false),
      "-bpm": await order(bpm, NO_BPM, true),
      duration: await order(seconds, NO_SECONDS, false),
      "-duration": await order(seconds, NO_SECONDS, true),
    };
    const lay = async (along: Int32Array) => {
      const out = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const t = along[i];
        out[i] = packFigures(bpm[t], seconds[t], key[t]);
      }
      await yielder.yield();
      return out;
    };
    const packed = {
      title: await lay(table.titleOrder),
      bpm: await lay(orders.bpm),
      "-bpm": await lay(orders["-bpm"]),
      duration: await lay(orders.duration),
      "-duration": await lay(orders["-duration"]),
    };
    return new TrackFigures(seconds, bpm, key, orders, packed);
  }
}

/**
 * Applies results to a copy of the previous figures (or to none), page by page as the store
 * returns them, so a full read at 2.5 million results never holds more than one page of rows.
 */
export class FiguresBuilder {
  readonly table: TrackTable;
  readonly seconds: Uint16Array;
  readonly bpm: Uint16Array;
  readonly key: Uint8Array;
  private readonly h = new Uint32Array(2);

  constructor(table: TrackTable, previous: TrackFigures | null) {
    this.table = table;
    const n = table.count;
    this.seconds = previous ? previous.seconds.slice() : new Uint16Array(n).fill(NO_SECONDS);
    this.bpm = previous ? previous.bpm.slice() : new Uint16Array(n);
    this.key = previous ? previous.key.slice() : new Uint8Array(n).fill(NO_KEY);
  }

  /** Sets every track that shares a row's audio key; a row without seconds withdraws the result. */
  apply(rows: Iterable<AnalysisFigures>): void {
    const { table, h } = this;
    for (const row of rows) {
      hash64(row.key, h, 0);
      const [from, to] = tracksOfHash(table, h[0], h[1]);
      if (from === to) continue;
      const has = row.seconds !== null && Number.isFinite(row.seconds);
      const s = has ? Math.min(MAX_FIGURE, Math.max(0, Math.round(row.seconds!))) : NO_SECONDS;
      const b = has && row.bpm !== null && Number.isFinite(row.bpm) ? Math.min(MAX_FIGURE, Math.max(1, Math.round(row.bpm))) : NO_BPM;
      const k = has && row.musicalKey ? keyIndex(row.musicalKey) : -1;
      for (let i = from; i < to; i++) {
        const t = table.byAudio[i];
        this.seconds[t] = s;
        this.bpm[t] = b;
        this.key[t] = k < 0 ? NO_KEY : k;
      }
    }
  }
}
