import { describe, expect, it } from "vitest";
import { orderByScore } from "./ranking.ts";
import { queryWords, words } from "./words.ts";

describe("the search's words", () => {
  it("are lower-cased, without accents, split at anything not a letter or digit", () => {
    expect(words("Quinceañera: Rock&Roll 2024")).toEqual(["quinceanera", "rock", "roll", "2024"]);
    expect(queryWords("  Ocen  MIND ocen ")).toEqual(["mind", "ocen"]);
    expect(queryWords("")).toEqual([]);
    expect(queryWords(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))).toHaveLength(16);
  });
});

describe("orderByScore", () => {
  // a reference: best score first, ties by rank (here the rank is the reverse position)
  const n = 1000;
  const rankOf = (d: number) => n - 1 - d;
  const docOfRank = (r: number) => n - 1 - r;
  const reference = (docs: number[], scores: number[]) =>
    docs
      .map((d, j) => ({ d, s: scores[j] }))
      .sort((x, y) => y.s - x.s || rankOf(x.d) - rankOf(y.d))
      .map((x) => x.d);

  it("orders many positions (counting sort) and few (float keys) alike", () => {
    for (const m of [600, 20]) {
      const docs = Array.from({ length: n }, (_, i) => i)
        .filter((i) => (i * 7919) % n < m)
        .slice(0, m);
      const scores = docs.map((d) => [1, 0.8, 1.8, 0.375][d % 4]);
      const out = orderByScore(Int32Array.from(docs), Float32Array.from(scores), n, rankOf, docOfRank);
      expect([...out]).toEqual(reference(docs, scores));
    }
  });
});
