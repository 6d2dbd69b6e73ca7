import codebookFile from "./passage-codebook.json" with { type: "json" };
import { BANDS, MAX_WINDOWS, WINDOW_BYTES } from "./segments.ts";

/**
 * Passage codes (issue #29, ADR 0129): a coarse code for each 20-second passage window of
 * segments.ts, so a reference file's passages find the catalog tracks that hold a passage like
 * theirs among millions without reading every track's passages (ADR 0122's first stage, the
 * whole-track fingerprint, kept a 20 s excerpt's source among its first 120 for 12 % of real
 * tracks at 2.5 million).
 *
 * The method is the inverted multi-index with residual codes of Babenko and Lempitsky ("The
 * inverted multi-index", CVPR 2012; "Multi-D-ADC"), over product quantisation (Jégou, Douze
 * and Schmid 2011): a window's 48 values, each divided by its spread (the re-rank's scaling,
 * segments.ts windowScales), split in two halves — the 24 band means and the 24 band spreads —
 * each quantised by k-means to one of HALF_CODES centroids: the pair is the window's cell (one
 * of 65,536). What is left (the window minus its cell's centroids) is quantised again, each
 * half to one of RESIDUAL_CODES: the residual code, 10 bits. A query's cells are visited
 * nearest first (the multi-sequence algorithm), and each track found is placed by the
 * asymmetric distance of its residual-coded passage (a table per visited cell).
 *
 * The codebook is fixed (passage-codebook.json), fitted by `npm run fit:passage-codes` on the
 * real corpus's tuning groups only (labs/fit-passage-codes.ts, its provenance in the file):
 * a track's codes do not depend on the rest of the catalog, so they are computed once as its
 * figures are read (figures.ts), never refitted at 2.5 million tracks.
 */

export const HALF = BANDS;
export const HALF_CODES = 256;
export const CELLS = HALF_CODES * HALF_CODES;
/**
 * The residual code (ADR 0130): the window minus its cell's centroids, cut in RESIDUAL_PARTS
 * equal parts, each quantised to one of RESIDUAL_CODES centroids (product quantisation of the
 * residual): RESIDUAL_PARTS × RESIDUAL_BITS = 16 bits (ADR 0129's was two halves of 32: 10 bits).
 */
export const RESIDUAL_PARTS = 2;
export const RESIDUAL_BITS = 8;
export const RESIDUAL_CODES = 1 << RESIDUAL_BITS;
export const RESIDUAL_PART = WINDOW_BYTES / RESIDUAL_PARTS;

export interface PassageCodebook {
  /** 1 / each value's spread over the fit's windows */
  inverseScales: Float64Array;
  /** HALF_CODES × HALF centroids of the means, then of the spreads */
  means: Float64Array;
  spreads: Float64Array;
  /** RESIDUAL_PARTS × RESIDUAL_CODES × RESIDUAL_PART residual centroids, part after part */
  residuals: Float64Array;
}

interface CodebookFile {
  version: number;
  inverseScales: number[];
  means: number[];
  spreads: number[];
  residuals: number[];
}

let loaded: PassageCodebook | undefined;

/** The committed codebook (passage-codebook.json). */
export function passageCodebook(): PassageCodebook {
  if (loaded) return loaded;
  const f = codebookFile as unknown as CodebookFile;
  loaded = {
    inverseScales: Float64Array.from(f.inverseScales),
    means: Float64Array.from(f.means),
    spreads: Float64Array.from(f.spreads),
    residuals: Float64Array.from(f.residuals),
  };
  return loaded;
}

/** A window's scaled values (48) into `out`. */
export function scaled(book: PassageCodebook, windows: Uint8Array, at: number, out: Float64Array): void {
  for (let i = 0; i < WINDOW_BYTES; i++) out[i] = windows[at + i] * book.inverseScales[i];
}

/** The nearest of `count` centroids (each `dims` values from `centroids`, from `base`) to x[from..from+dims). */
export function nearest(centroids: Float64Array, count: number, x: Float64Array, from: number, dims = HALF, base = 0): number {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < count; c++) {
    const at = base + c * dims;
    let d = 0;
    for (let i = 0; i < dims && d < bestD; i++) {
      const v = x[from + i] - centroids[at + i];
      d += v * v;
    }
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** The residual of scaled x (48) to cell (a, b)'s centroids, into `out`. */
export function residualOf(book: PassageCodebook, x: Float64Array, a: number, b: number, out: Float64Array): void {
  for (let i = 0; i < HALF; i++) {
    out[i] = x[i] - book.means[a * HALF + i];
    out[HALF + i] = x[HALF + i] - book.spreads[b * HALF + i];
  }
}

/**
 * A window's code: its cell (means' centroid × HALF_CODES + spreads' centroid, 16 bits) and its
 * residual code (part p's centroid in bits p × RESIDUAL_BITS and up, 16 bits).
 */
export function encodeWindow(book: PassageCodebook, windows: Uint8Array, at: number, scratch = new Float64Array(WINDOW_BYTES)): { cell: number; residual: number } {
  scaled(book, windows, at, scratch);
  const a = nearest(book.means, HALF_CODES, scratch, 0);
  const b = nearest(book.spreads, HALF_CODES, scratch, HALF);
  residualOf(book, scratch, a, b, scratch);
  let residual = 0;
  for (let p = 0; p < RESIDUAL_PARTS; p++) residual |= nearest(book.residuals, RESIDUAL_CODES, scratch, p * RESIDUAL_PART, RESIDUAL_PART, p * RESIDUAL_CODES * RESIDUAL_PART) << (p * RESIDUAL_BITS);
  return { cell: a * HALF_CODES + b, residual };
}

/** A code's window back, in scaled values (48): its cell's centroids plus its residual's (the codes' error is measured by it). */
export function decodeWindow(book: PassageCodebook, cell: number, residual: number, out: Float64Array): Float64Array {
  const a = Math.floor(cell / HALF_CODES);
  const b = cell % HALF_CODES;
  for (let i = 0; i < HALF; i++) {
    out[i] = book.means[a * HALF + i];
    out[HALF + i] = book.spreads[b * HALF + i];
  }
  for (let p = 0; p < RESIDUAL_PARTS; p++) {
    const c = (residual >>> (p * RESIDUAL_BITS)) & (RESIDUAL_CODES - 1);
    for (let i = 0; i < RESIDUAL_PART; i++) out[p * RESIDUAL_PART + i] += book.residuals[(p * RESIDUAL_CODES + c) * RESIDUAL_PART + i];
  }
  return out;
}

/** Squared distances from x[from..from+dims) to each of `count` centroids (from `base`), into out[into..). */
export function distancesTo(centroids: Float64Array, count: number, x: Float64Array, from: number, out: Float64Array, dims = HALF, base = 0, into = 0): Float64Array {
  for (let c = 0; c < count; c++) {
    const at = base + c * dims;
    let d = 0;
    for (let i = 0; i < dims; i++) {
      const v = x[from + i] - centroids[at + i];
      d += v * v;
    }
    out[into + c] = d;
  }
  return out;
}

/**
 * The codebook's identity: FNV-1a over its numbers (as the committed file spells them), so codes
 * stored by an analysis (ADR 0130) are used only with the codebook that made them; a refit
 * (`npm run fit:passage-codes`) makes the index code the anchors again until re-analysis.
 */
const ids = new WeakMap<PassageCodebook, number>();
export function codebookId(book: PassageCodebook = passageCodebook()): number {
  const known = ids.get(book);
  if (known !== undefined) return known;
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    const s = v.toFixed(5);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  };
  for (const a of [book.inverseScales, book.means, book.spreads, book.residuals]) {
    mix(a.length);
    for (const v of a) mix(v);
  }
  ids.set(book, h >>> 0);
  return h >>> 0;
}

/** The stored codes' layout version (the first byte). */
export const STORED_CODES_VERSION = 1;
const STORED_HEADER = 5;

/**
 * Every window's code, stored in the analysis beside its anchors (issue #29, ADR 0130: an index
 * build at 2.5 million tracks no longer codes 42 million windows): base64 of a version byte,
 * the codebook's id (4 bytes, little-endian), then per window its cell and its residual code,
 * two bytes each: **4 bytes a window**, at most MAX_WINDOWS (120) of them (≤ 645 characters).
 * Null for no windows.
 */
export function encodePassageCodes(windows: Uint8Array | null, book: PassageCodebook = passageCodebook()): string | null {
  if (!windows || windows.length < WINDOW_BYTES) return null;
  const count = Math.floor(windows.length / WINDOW_BYTES);
  const bytes = Buffer.alloc(STORED_HEADER + 4 * count);
  bytes[0] = STORED_CODES_VERSION;
  bytes.writeUInt32LE(codebookId(book), 1);
  const scratch = new Float64Array(WINDOW_BYTES);
  for (let w = 0; w < count; w++) {
    const { cell, residual } = encodeWindow(book, windows, w * WINDOW_BYTES, scratch);
    bytes.writeUInt16LE(cell, STORED_HEADER + 4 * w);
    bytes.writeUInt16LE(residual, STORED_HEADER + 4 * w + 2);
  }
  return bytes.toString("base64");
}

/**
 * Whether stored codes are of this layout and were made by this codebook, from their first
 * eight characters only (the header: nothing else is decoded); decodePassageCodes' first check.
 * The index build decides whether to read a track's anchors by the decode itself
 * (passage-index.ts storedTrackCodes, ADR 0134): with this codebook's codes stored, the anchors
 * (~1 KB a track) are never read.
 */
export function storedCodesMatch(stored: string | null | undefined, book: PassageCodebook = passageCodebook()): boolean {
  if (!stored || stored.length < 8 || stored.length > 4 * Math.ceil((STORED_HEADER + 4 * MAX_WINDOWS) / 3)) return false;
  const head = Buffer.from(stored.slice(0, 8), "base64");
  return head.length >= STORED_HEADER && head[0] === STORED_CODES_VERSION && head.readUInt32LE(1) === codebookId(book);
}

/**
 * Stored codes as the index keeps them (cell × 2^16 + residual, one a window, in window order),
 * or null when absent, malformed, of another layout, or made by another codebook (the caller
 * then codes the anchors, as before ADR 0130).
 */
export function decodePassageCodes(stored: string | null | undefined, book: PassageCodebook = passageCodebook()): Uint32Array | null {
  if (!storedCodesMatch(stored, book)) return null;
  const bytes = Buffer.from(stored!, "base64");
  if (bytes.length < STORED_HEADER + 4 || (bytes.length - STORED_HEADER) % 4 !== 0) return null;
  const count = (bytes.length - STORED_HEADER) / 4;
  const out = new Uint32Array(count);
  for (let w = 0; w < count; w++) {
    const cell = bytes.readUInt16LE(STORED_HEADER + 4 * w);
    const residual = bytes.readUInt16LE(STORED_HEADER + 4 * w + 2);
    if (residual >= 2 ** (RESIDUAL_PARTS * RESIDUAL_BITS)) return null;
    out[w] = (cell * 65_536 + residual) >>> 0;
  }
  return out;
}
