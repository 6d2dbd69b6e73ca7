import type { AnalysisFigures, AnalysisLookup, FiguresCursor } from "../../analysis/stage/types.ts";
import { codesFromPassages, PASSAGES_NEEDED, storedTrackCodes } from "./passage-index.ts";
import type { FiguresBuilder } from "./figures-builder.ts";
import type { Yielder } from "./yielding.ts";

/**
 * Reads the stored figures after `cursor` (all of them from null) into `builder`, page by page
 * (AnalysisStore.figuresAfter; ADR 0100), each page applied as it comes. Resolves to the
 * cursor of the last result read (`cursor` when none was) and the number of results read (the
 * index's `resultsRead`: ADR 0162 amended, a process that took a published version reads only
 * the delta). The cursor is the database's result
 * number (ADR 0151): a refresh reads exactly what was stored after it, with no margin for the
 * clocks of the processes that stored it. Used by the index's refreshes and
 * by the build worker's first full read.
 */
export async function readFigures(
  source: Pick<AnalysisLookup, "figuresAfter" | "segmentsOf">,
  builder: FiguresBuilder,
  cursor: FiguresCursor | null,
  pageSize: number,
  yielder: Yielder,
): Promise<{ cursor: FiguresCursor | null; rows: number }> {
  let rows = 0;
  for (;;) {
    const page = await source.figuresAfter(cursor, pageSize);
    rows += page.rows.length;
    builder.apply(page.rows, await rowCodes(source, page.rows, builder));
    if (page.next) cursor = page.next;
    if (page.rows.length < pageSize || !page.next) return { cursor, rows };
    await yielder.yield();
  }
}

/** Keys a keyed read of passages asks at most (~1 KB each: ≤ ~1 MB of JSON a read; ADR 0134). */
export const SEGMENTS_BATCH = 1_000;

/**
 * Each row's passage codes, decided once per row (passage-index.ts storedTrackCodes): its
 * stored codes when this codebook made them; otherwise its passages coded — the row's own, or
 * read by key in batches of SEGMENTS_BATCH for the rows of a track of the table (ADR 0130's
 * fallback: an analysis before version 8, or a refitted codebook). Nothing is read for a row
 * whose codes serve (ADR 0134: at 2.5 million tracks the passages are ~2.5 GB). A result stored
 * again between the two reads comes back in a later page of figuresAfter (its result number is
 * higher), which sets the track again.
 */
export async function rowCodes(source: Pick<AnalysisLookup, "segmentsOf">, rows: readonly AnalysisFigures[], builder: Pick<FiguresBuilder, "holds">): Promise<(Uint32Array | null)[]> {
  const codes: (Uint32Array | null)[] = new Array(rows.length).fill(null);
  const read: number[] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row.seconds === null) continue;
    const stored = storedTrackCodes(row.passageCodes);
    if (stored !== PASSAGES_NEEDED) codes[r] = stored;
    else if (row.segments !== undefined || !source.segmentsOf) codes[r] = codesFromPassages(row.segments);
    else if (row.hasSegments && builder.holds(row.key)) read.push(r);
  }
  if (read.length === 0 || !source.segmentsOf) return codes;
  for (let i = 0; i < read.length; i += SEGMENTS_BATCH) {
    const part = read.slice(i, i + SEGMENTS_BATCH);
    const segments = await source.segmentsOf(part.map((r) => rows[r].key));
    for (const r of part) codes[r] = codesFromPassages(segments.get(rows[r].key));
  }
  return codes;
}
