import type SearchableMap from "minisearch/SearchableMap";

/**
 * The vocabulary words within `maxDistance` edits of a query word, where an edit is a letter
 * added, dropped or changed, or two neighbouring letters swapped: the optimal string alignment
 * distance (restricted Damerau–Levenshtein). Issue #41: MiniSearch's `fuzzyGet` counts a swap
 * ("nihgt" for "night") as two edits, so a 5-letter word with a swap found nothing (ADR 0142).
 *
 * The walk is MiniSearch's own (SearchableMap's fuzzySearch: one matrix row per letter along the
 * radix tree's edges, a band of 2 × maxDistance + 1 cells a row, a branch dropped as soon as its
 * row's best cell exceeds maxDistance) with the swap's term added; it reads the tree through the
 * map's public `_tree` field. Dropping a branch stays exact with swaps: a swap at row i reads row
 * i − 2, whose cells are all ≥ the best of row i − 1 minus one.
 *
 * Its work is bounded twice: by the tree (each letter of it is one row at most, once per walk)
 * and by `maxRows`: past it the walk stops and returns what it found (a query word of 64
 * letters, or 16 of them, cannot hold the loop longer than that many rows each).
 */

/** Rows (letters walked) one query word may cost at most; a real one costs a few thousand (ADR 0142). */
export const MAX_FUZZY_ROWS = 100_000;

type Tree = Map<string, unknown>;

export interface FuzzyWalk {
  /** word id → its edits and its length, for every word within maxDistance (the word itself at 0 edits) */
  found: Map<number, { distance: number; length: number }>;
  /** rows computed (letters walked) */
  rows: number;
  /** true when maxRows stopped the walk before the end */
  cut: boolean;
}

export function fuzzyWords(map: SearchableMap<number>, query: string, maxDistance: number, maxRows = MAX_FUZZY_ROWS): FuzzyWalk {
  const found: FuzzyWalk["found"] = new Map();
  // the walk's state in locals of this call, not fields of an object: the inner loop runs for
  // every letter of the tree within reach (ADR 0142's profile: the walk was a third of a search)
  let rows = 0;
  let cut = false;
  const n = query.length + 1;
  // a word within maxDistance is at most that much longer than the query
  const m = n + maxDistance;
  const big = maxDistance + 1;
  const matrix = new Uint8Array(m * n).fill(big);
  for (let j = 0; j < n; ++j) matrix[j] = j;
  for (let i = 1; i < m; ++i) matrix[i * n] = i;
  const q = new Uint16Array(query.length);
  for (let j = 0; j < query.length; j++) q[j] = query.charCodeAt(j);
  // the word's letter at each row (row i holds letter i − 1), for the swap's test
  const letters = new Uint16Array(m);

  const recurse = (node: Tree, row: number): void => {
    const offset = row * n;
    key: for (const key of node.keys()) {
      if (key === "") {
        const distance = matrix[offset - 1];
        if (distance <= maxDistance) found.set(node.get(key) as number, { distance, length: row - 1 });
        continue;
      }
      let i = row;
      for (let pos = 0; pos < key.length; ++pos, ++i) {
        // deeper than any word within maxDistance: the band below would read past the matrix
        if (i >= m) continue key;
        if (++rows > maxRows) {
          cut = true;
          return;
        }
        const c = key.charCodeAt(pos);
        letters[i] = c;
        const before = i >= 2 ? letters[i - 1] : -1;
        const thisRow = n * i;
        const prevRow = thisRow - n;
        const swapRow = prevRow - n;
        let best = matrix[thisRow];
        const jmin = Math.max(0, i - maxDistance - 1);
        const jmax = Math.min(n - 1, i + maxDistance);
        for (let j = jmin; j < jmax; ++j) {
          const same = c === q[j];
          let d = Math.min(matrix[prevRow + j] + (same ? 0 : 1), matrix[prevRow + j + 1] + 1, matrix[thisRow + j] + 1);
          // the word's last two letters are the query's letters j − 1 and j swapped
          if (!same && j >= 1 && c === q[j - 1] && before === q[j]) d = Math.min(d, matrix[swapRow + j - 1] + 1);
          matrix[thisRow + j + 1] = d;
          if (d < best) best = d;
        }
        if (best > maxDistance) continue key;
      }
      recurse(node.get(key) as Tree, i);
      if (cut) return;
    }
  };
  recurse(map._tree as Tree, 1);
  return { found, rows, cut };
}
