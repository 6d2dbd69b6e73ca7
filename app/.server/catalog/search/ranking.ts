import type { CatalogSearch } from "./types.ts";

/**
 * Positions best score first, ties by their rank in another order (ascending): one float key
 * per position, (2^20 steps below the best score) × n + rank, sorted natively — exact in a
 * double up to n = 8 million. `docOfRank` turns a rank back into its position.
 */
export function orderByScore(docs: Int32Array, scores: Float32Array, n: number, rankOf: (doc: number) => number, docOfRank: (rank: number) => number): Int32Array {
  const m = docs.length;
  let max = 0;
  for (let j = 0; j < m; j++) if (scores[j] > max) max = scores[j];
  const step = (j: number) => Math.floor((1 - (max > 0 ? scores[j] / max : 0)) * 0xfffff);
  if (m * 16 >= n) {
    // many positions: the scores take few distinct values (sums of a few word scores × field
    // weights), so a counting sort by score step over the other order, O(n + m), beats sorting
    const stepOf = new Map<number, number>();
    const slotOfDoc = new Int32Array(n).fill(-1);
    for (let j = 0; j < m; j++) {
      const s = step(j);
      if (!stepOf.has(s)) stepOf.set(s, stepOf.size);
      slotOfDoc[docs[j]] = stepOf.get(s)!;
    }
    if (stepOf.size <= 4096) {
      const steps = [...stepOf.keys()].sort((a, b) => a - b);
      const bucketOfSlot = new Int32Array(stepOf.size);
      steps.forEach((s, bucket) => (bucketOfSlot[stepOf.get(s)!] = bucket));
      const starts = new Int32Array(steps.length + 1);
      for (let j = 0; j < m; j++) starts[bucketOfSlot[slotOfDoc[docs[j]]] + 1]++;
      for (let b = 0; b < steps.length; b++) starts[b + 1] += starts[b];
      const out = new Int32Array(m);
      for (let r = 0; r < n; r++) {
        const d = docOfRank(r);
        const slot = slotOfDoc[d];
        if (slot >= 0) out[starts[bucketOfSlot[slot]]++] = d;
      }
      return out;
    }
  }
  const keys = new Float64Array(m);
  for (let j = 0; j < m; j++) keys[j] = step(j) * n + rankOf(docs[j]);
  keys.sort();
  const out = new Int32Array(m);
  for (let j = 0; j < m; j++) out[j] = docOfRank(keys[j] % n);
  return out;
}

/** Album positions matching `q` and `keep` (the genre filter), best first, ties in catalog order (the album view, issue #10). */
export function rankedAlbums(search: CatalogSearch, q: string, keep: (a: number) => boolean): Int32Array {
  const hits = search.albums(q);
  if (!hits) return new Int32Array(0);
  const kept: number[] = [];
  const scores: number[] = [];
  for (let j = 0; j < hits.albums.length; j++) {
    if (keep(hits.albums[j])) {
      kept.push(hits.albums[j]);
      scores.push(hits.scores[j]);
    }
  }
  const n = search.albumTable.length;
  return orderByScore(Int32Array.from(kept), Float32Array.from(scores), n, (a) => a, (r) => r);
}
