/**
 * Bounded top-k selection (issue #29): the like= scan keeps its nearest tracks with
 * `NearestHeap` (like.ts), and the passage index's first stage (passage-index.ts) and its
 * in-memory re-order (passage-reorder.ts) with `lowestFirst`, so none of them sorts anything
 * of the catalog's size. One heap for all three.
 */

/**
 * A bounded max-heap of (distance, track): the `size` nearest seen, a tie going to the track
 * first by `rank` (the like= scan's title order) or, without one, the lower track number, so the
 * tracks kept do not depend on the order they were seen in.
 */
export class NearestHeap {
  readonly d: Float64Array;
  readonly t: Int32Array;
  readonly size: number;
  private readonly rank: Int32Array | undefined;
  length = 0;
  constructor(size: number, rank?: Int32Array) {
    this.size = size;
    this.rank = rank;
    this.d = new Float64Array(size);
    this.t = new Int32Array(size);
  }
  /** the largest distance kept, or Infinity while not full */
  get bound(): number {
    return this.length < this.size ? Infinity : this.d[0];
  }
  /** whether (da, ta) ranks after (db, tb) */
  private after(da: number, ta: number, db: number, tb: number): boolean {
    return da > db || (da === db && (this.rank ? this.rank[ta] > this.rank[tb] : ta > tb));
  }
  push(distance: number, track: number): void {
    const { d, t } = this;
    if (this.length < this.size) {
      let i = this.length++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.after(distance, track, d[p], t[p])) break;
        d[i] = d[p];
        t[i] = t[p];
        i = p;
      }
      d[i] = distance;
      t[i] = track;
      return;
    }
    if (!this.after(d[0], t[0], distance, track)) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.length) break;
      const r = l + 1;
      const c = r < this.length && this.after(d[r], t[r], d[l], t[l]) ? r : l;
      if (!this.after(d[c], t[c], distance, track)) break;
      d[i] = d[c];
      t[i] = t[c];
      i = c;
    }
    d[i] = distance;
    t[i] = track;
  }
  /** the tracks kept, nearest first (ties by rank, or by track) */
  sorted(): Int32Array {
    const { d, t, rank } = this;
    const idx = Array.from({ length: this.length }, (_, i) => i);
    idx.sort((a, b) => d[a] - d[b] || (rank ? rank[t[a]] - rank[t[b]] : t[a] - t[b]));
    return Int32Array.from(idx, (i) => t[i]);
  }
}

/** The `k` items of `items` with the lowest `score`, lowest first (ties by item). */
export function lowestFirst(items: Int32Array, score: (t: number) => number, k: number): Int32Array {
  const heap = new NearestHeap(Math.min(k, items.length));
  for (const t of items) heap.push(score(t), t);
  return heap.sorted();
}
