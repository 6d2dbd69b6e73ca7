import { HALF, HALF_CODES, passageCodebook, RESIDUAL_CODES, RESIDUAL_PART, scaled, type PassageCodebook } from "../../analysis/passage-codes.ts";
import { WINDOW_BYTES } from "../../analysis/segments.ts";
import type { PassageIndex, PassageSource } from "./passage-index.ts";
import { readWords } from "./figure-bytes.ts";
import { lowestFirst } from "./select-lowest.ts";

// The reference's first stage, placed a second time in memory (ADR 0137): passage-index.ts's
// passageCandidates hands its first REORDER_WORK ÷ windows tracks here, by the codes' order,
// and keeps PASSAGE_CANDIDATES of what comes back.

/**
 * A codebook's Gram tables (ADR 0137): for each half h (0: the band means, 1: the spreads) the
 * dot products of its cell centroids with one another (cc), with the residual part's centroids
 * (cr) and of those with one another (rr), 256 × 256 each: a decoded code's dot product with
 * another's is then eight reads, not 48 products. 3 MB, made at the first reference query.
 */
interface Gram {
  cc: Float64Array[];
  cr: Float64Array[];
  rr: Float64Array[];
}
const grams = new WeakMap<PassageCodebook, Gram>();
function gramOf(book: PassageCodebook): Gram {
  let g = grams.get(book);
  if (g) return g;
  const dot = (a: Float64Array, i: number, b: Float64Array, j: number) => {
    let s = 0;
    for (let k = 0; k < HALF; k++) s += a[i + k] * b[j + k];
    return s;
  };
  g = { cc: [], cr: [], rr: [] };
  for (let h = 0; h < 2; h++) {
    const coarse = h === 0 ? book.means : book.spreads;
    const resBase = h * RESIDUAL_CODES * RESIDUAL_PART;
    const cc = new Float64Array(HALF_CODES * HALF_CODES);
    const cr = new Float64Array(HALF_CODES * RESIDUAL_CODES);
    const rr = new Float64Array(RESIDUAL_CODES * RESIDUAL_CODES);
    for (let i = 0; i < HALF_CODES; i++) {
      for (let j = 0; j < HALF_CODES; j++) cc[i * HALF_CODES + j] = dot(coarse, i * HALF, coarse, j * HALF);
      for (let j = 0; j < RESIDUAL_CODES; j++) cr[i * RESIDUAL_CODES + j] = dot(coarse, i * HALF, book.residuals, resBase + j * RESIDUAL_PART);
    }
    for (let i = 0; i < RESIDUAL_CODES; i++) for (let j = 0; j < RESIDUAL_CODES; j++) rr[i * RESIDUAL_CODES + j] = dot(book.residuals, resBase + i * RESIDUAL_PART, book.residuals, resBase + j * RESIDUAL_PART);
    g.cc.push(cc);
    g.cr.push(cr);
    g.rr.push(rr);
  }
  grams.set(book, g);
  return g;
}

/**
 * Places `tracks` by their codes decoded (a cell's centroids plus its residual's), ADR 0137:
 * each reference window's squared distance, in the codebook's scaled space, to the nearest point
 * of the segments between a track's consecutive codes (window order) — a 20 s excerpt starts
 * anywhere, up to 5 s from a stored window, and lies near the blend of the two it overlaps
 * (ADR 0134) — summed over the reference's windows. Returns the `limit` nearest, nearest first
 * (ties by their place in `tracks`). Work: tracks × windows × a track's codes, each a few table
 * reads (gramOf); no allocation of the catalog's size.
 */
export function reorderBySegments(index: Pick<PassageIndex, "trackStarts" | "codes"> | Pick<PassageSource, "trackStarts" | "bytes">, windows: Uint8Array, tracks: Int32Array, limit: number, book: PassageCodebook = passageCodebook()): Int32Array {
  const count = Math.floor(windows.length / WINDOW_BYTES);
  if (index.trackStarts.length === 0 || count === 0) return tracks.subarray(0, limit);
  const { trackStarts, codes } = codesOf(index, tracks);
  const g = gramOf(book);
  const x = new Float64Array(WINDOW_BYTES);
  // per window: x's dot products with each half's cell and residual centroids, and |x|²
  const xc = Array.from({ length: count }, () => [new Float64Array(HALF_CODES), new Float64Array(HALF_CODES)]);
  const xr = Array.from({ length: count }, () => [new Float64Array(RESIDUAL_CODES), new Float64Array(RESIDUAL_CODES)]);
  const xx = new Float64Array(count);
  for (let w = 0; w < count; w++) {
    scaled(book, windows, w * WINDOW_BYTES, x);
    for (let i = 0; i < WINDOW_BYTES; i++) xx[w] += x[i] * x[i];
    for (let h = 0; h < 2; h++) {
      const coarse = h === 0 ? book.means : book.spreads;
      for (let c = 0; c < HALF_CODES; c++) {
        let s = 0;
        for (let k = 0; k < HALF; k++) s += x[h * HALF + k] * coarse[c * HALF + k];
        xc[w][h][c] = s;
      }
      for (let c = 0; c < RESIDUAL_CODES; c++) {
        let s = 0;
        for (let k = 0; k < RESIDUAL_PART; k++) s += x[h * HALF + k] * book.residuals[(h * RESIDUAL_CODES + c) * RESIDUAL_PART + k];
        xr[w][h][c] = s;
      }
    }
  }
  const [cc0, cc1] = g.cc;
  const [cr0, cr1] = g.cr;
  const [rr0, rr1] = g.rr;
  const N = HALF_CODES;
  // a code's parts: means' cell a, spreads' cell b, residual parts c0 (means) and c1 (spreads)
  const dotCodes = (u: number, v: number) => {
    const a = u >>> 24;
    const b = (u >>> 16) & 255;
    const c0 = u & 255;
    const c1 = (u >>> 8) & 255;
    const a2 = v >>> 24;
    const b2 = (v >>> 16) & 255;
    const d0 = v & 255;
    const d1 = (v >>> 8) & 255;
    return cc0[a * N + a2] + cr0[a * N + d0] + cr0[a2 * N + c0] + rr0[c0 * N + d0] + cc1[b * N + b2] + cr1[b * N + d1] + cr1[b2 * N + c1] + rr1[c1 * N + d1];
  };
  const score = new Float64Array(tracks.length);
  for (let w = 0; w < count; w++) {
    const [xc0, xc1] = xc[w];
    const [xr0, xr1] = xr[w];
    const xw = xx[w];
    for (let i = 0; i < tracks.length; i++) {
      const from = trackStarts[i];
      const to = trackStarts[i + 1];
      if (from === to) continue;
      let best = Infinity;
      let u = codes[from];
      let xu = xc0[u >>> 24] + xr0[u & 255] + xc1[(u >>> 16) & 255] + xr1[(u >>> 8) & 255];
      let uu = dotCodes(u, u);
      for (let k = from; k < to; k++) {
        const own = xw - 2 * xu + uu;
        if (own < best) best = own;
        if (k + 1 === to) break;
        const v = codes[k + 1];
        const xv = xc0[v >>> 24] + xr0[v & 255] + xc1[(v >>> 16) & 255] + xr1[(v >>> 8) & 255];
        const vv = dotCodes(v, v);
        const uv = dotCodes(u, v);
        // the nearest point of the segment u → v: f = (x − u)·(v − u) / |v − u|², within [0, 1]
        const num = xv - xu - uv + uu;
        const den = vv - 2 * uv + uu;
        if (den > 0 && num > 0) {
          const f = Math.min(1, num / den);
          const d = own - 2 * f * num + f * f * den;
          if (d < best) best = d;
        }
        u = v;
        xu = xv;
        uu = vv;
      }
      score[i] += best;
    }
  }
  const at = Int32Array.from({ length: tracks.length }, (_, i) => i);
  return lowestFirst(at, (i) => score[i], limit).map((i) => tracks[i]);
}

/**
 * The codes of `tracks` (the i-th's from trackStarts[i] to trackStarts[i + 1]) gathered once
 * before the windows' passes: read from the figures' bytes a track at a time (ADR 0162: ≤ 20,000
 * small reads from the page cache), or taken from the index's arrays.
 */
function codesOf(index: Pick<PassageIndex, "trackStarts" | "codes"> | Pick<PassageSource, "trackStarts" | "bytes">, tracks: Int32Array): { trackStarts: Int32Array; codes: Uint32Array } {
  const starts = new Int32Array(tracks.length + 1);
  for (let i = 0; i < tracks.length; i++) starts[i + 1] = starts[i] + index.trackStarts[tracks[i] + 1] - index.trackStarts[tracks[i]];
  const codes = new Uint32Array(starts[tracks.length]);
  const scratch = { buffer: new Uint8Array(0) };
  for (let i = 0; i < tracks.length; i++) {
    const from = index.trackStarts[tracks[i]];
    const n = starts[i + 1] - starts[i];
    if (n === 0) continue;
    codes.set("codes" in index ? index.codes.subarray(from, from + n) : readWords(index.bytes, "trackCodes", from, n, scratch), starts[i]);
  }
  return { trackStarts: starts, codes };
}
