/**
 * "Best match" tiers (issue #41, ADR 0142; the order is described at the top of scoring.ts): how
 * a query word matched a vocabulary word, the match flags each candidate gathers over the query
 * words, and what its tier adds to its score. Tables, not branches: these run once per candidate.
 */

/** How a vocabulary word matched a query word (0: not at all); the better the higher. */
export const FUZZY = 1;
export const PREFIX = 2;
export const EXACT = 3;
/** Above any score of up to 16 words (each ≤ 1): a tier's place in the score (ADR 0142). */
export const TIER_STEP = 32;
const LAST_TIER = 7;

/**
 * Match flags over the query words: every word found whole in the main field (the title; album
 * view: the name), exactly or (for a word found only with an edit) with it; every word found in
 * it at all; some word found only with an edit.
 */
const ALL_WHOLE = 1;
const ALL_IN_MAIN = 2;
const SOME_FUZZY = 4;
/** A track's (album's) tier (see the comment at the top); `first`: how the first word typed matched its main field's first word. */
function tierOf(flags: number, first: number, count: number, words: number): number {
  const fuzzy = flags & SOME_FUZZY ? 4 : 0;
  if (!(flags & ALL_IN_MAIN)) return fuzzy + 3;
  if (flags & ALL_WHOLE && count === words) return fuzzy;
  return fuzzy + (first >= (fuzzy ? FUZZY : PREFIX) ? 1 : 2);
}

/** flagsOf's answers, looked up (main << 2 | any): it runs once per candidate and word. */
const FLAGS = Uint8Array.from({ length: 16 }, (_, i) => {
  const main = i >> 2;
  const any = i & 3;
  if (any === FUZZY) return SOME_FUZZY | (main === FUZZY ? ALL_WHOLE | ALL_IN_MAIN : 0);
  return (main === EXACT ? ALL_WHOLE : 0) | (main >= PREFIX ? ALL_IN_MAIN : 0);
});

/**
 * What each tier adds to a score, TIER_STEP × (7 − tier), looked up by (flags << 3 | first << 1 |
 * whole): the tier pass runs once per candidate (ADR 0142).
 */
function tierScores(): Float32Array {
  const out = new Float32Array(64);
  for (let i = 0; i < 64; i++) out[i] = TIER_STEP * (LAST_TIER - tierOf(i >> 3, (i >> 1) & 3, i & 1, 1));
  return out;
}
const TIER_SCORE = tierScores();

/**
 * A word's match flags (as tierOf reads them) from how it matched the main field (the title;
 * album view: the name) and any field; over the words the first two are AND-ed, the third OR-ed.
 * A word found only with an edit counts as found in the main field when it is found there so.
 */
export const flagsOf = (main: number, any: number) => FLAGS[(main << 2) | any];
/** The flags over the words so far and one more word's: the first two AND-ed, the third OR-ed. */
export const combine = (flags: number, word: number) => (flags & word & (ALL_WHOLE | ALL_IN_MAIN)) | ((flags | word) & SOME_FUZZY);

/**
 * What a candidate's tier adds to its score: `first`, how the first word typed matched its main
 * field's first word; `whole`, 1 when the main field has as many words as the query.
 */
export const tierScore = (flags: number, first: number, whole: number) => TIER_SCORE[(flags << 3) | (first << 1) | whole];
