import type { AnalysisFigures } from "../../analysis/stage/types.ts";
import { hash64 } from "./columns.ts";
import { tracksOfHash, type TrackColumns } from "./table.ts";
import { fingerprintBytes } from "../../analysis/fingerprint.ts";
import { PRINT_BYTES, restoreTrackOrder } from "./print-layout.ts";
import { MAX_TRACK_PASSAGES, restorePassageCodes, trackPassageCodes } from "./passage-index.ts";
import { keyIndex, MAX_FIGURE, NO_BPM, NO_KEY, NO_SECONDS, type TrackFigures } from "./figures.ts";
import type { Yielder } from "./yielding.ts";

/** What the figures read of the table: the per-track columns (the build worker has only these). */
export type FiguresTable = Pick<TrackColumns, "count" | "audioSorted" | "byAudio" | "titleOrder">;

/**
 * Applies results to a copy of the previous figures (or to none), page by page as the store
 * returns them, so a full read at 2.5 million results never holds more than one page of rows.
 */
export class FiguresBuilder {
  readonly table: FiguresTable;
  readonly seconds: Uint16Array;
  readonly bpm: Uint16Array;
  readonly key: Uint8Array;
  readonly prints: Uint8Array;
  readonly printed: Uint8Array;
  /** each track's passage codes (passage-index.ts), MAX_TRACK_PASSAGES slots a track, `passageCount` of them set */
  readonly passageCodes: Uint32Array;
  readonly passageCount: Uint8Array;
  private readonly h = new Uint32Array(2);

  private constructor(table: FiguresTable, previous: TrackFigures | null) {
    this.table = table;
    const n = table.count;
    this.seconds = previous ? previous.seconds.slice() : new Uint16Array(n).fill(NO_SECONDS);
    this.bpm = previous ? previous.bpm.slice() : new Uint16Array(n);
    this.key = previous ? previous.key.slice() : new Uint8Array(n).fill(NO_KEY);
    this.prints = new Uint8Array(n * PRINT_BYTES);
    // the previous figures' rows (in their file or memory: figure-bytes.ts), laid out; moved back to track order in create()
    if (previous) previous.bytes.copyInto("prints", 0, previous.bytes.length("prints"), this.prints);
    this.printed = new Uint8Array(n);
    this.passageCodes = new Uint32Array(n * MAX_TRACK_PASSAGES);
    this.passageCount = new Uint8Array(n);
    if (previous) {
      const codes = previous.bytes.copy("trackCodes");
      restorePassageCodes({ trackStarts: previous.passageTrackStarts, codes: new Uint32Array(codes.buffer, codes.byteOffset, codes.byteLength / 4) }, this.passageCodes, this.passageCount);
    }
  }

  /**
   * A builder over `table`, from nothing or from the previous figures of the same table (a
   * refresh applies what changed since): their fingerprints copied and moved back to track
   * order (TrackFigures.prints is laid out for the scan).
   */
  static async create(table: FiguresTable, previous: TrackFigures | null, yielder: Yielder): Promise<FiguresBuilder> {
    const builder = new FiguresBuilder(table, previous);
    if (previous) await restoreTrackOrder(builder, previous, yielder);
    return builder;
  }

  /** Whether a track of the table has this audio key. */
  holds(key: string): boolean {
    hash64(key, this.h, 0);
    const [from, to] = tracksOfHash(this.table, this.h[0], this.h[1]);
    return from < to;
  }

  /**
   * Sets every track that shares a row's audio key; a row without seconds withdraws the result.
   * A row's passage codes are `codes[i]` for the i-th row (figures-read.ts rowCodes: its stored
   * codes when they serve, else its passages coded, read for such rows only, ADR 0134), or
   * without `codes` the row's own (trackPassageCodes).
   */
  apply(rows: readonly AnalysisFigures[], codes?: readonly (Uint32Array | null)[]): void {
    const { table, h } = this;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      hash64(row.key, h, 0);
      const [from, to] = tracksOfHash(table, h[0], h[1]);
      if (from === to) continue;
      const has = row.seconds !== null && Number.isFinite(row.seconds);
      const s = has ? Math.min(MAX_FIGURE, Math.max(0, Math.round(row.seconds!))) : NO_SECONDS;
      const b = has && row.bpm !== null && Number.isFinite(row.bpm) ? Math.min(MAX_FIGURE, Math.max(1, Math.round(row.bpm))) : NO_BPM;
      const k = has && row.musicalKey ? keyIndex(row.musicalKey) : -1;
      const print = has ? fingerprintBytes(row.fingerprint) : null;
      const passages = !has ? null : codes ? codes[r] : trackPassageCodes(row.segments, row.passageCodes);
      for (let i = from; i < to; i++) {
        const t = table.byAudio[i];
        this.seconds[t] = s;
        this.bpm[t] = b;
        this.key[t] = k < 0 ? NO_KEY : k;
        this.printed[t] = print ? 1 : 0;
        if (print) this.prints.set(print, t * PRINT_BYTES);
        this.passageCount[t] = passages ? passages.length : 0;
        if (passages) this.passageCodes.set(passages, t * MAX_TRACK_PASSAGES);
      }
    }
  }
}
