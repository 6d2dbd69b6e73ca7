import { MAX_SEARCH_WORD_LENGTH, MAX_SEARCH_WORDS } from "../../../lib/catalog/matching.ts";

/** A text's words: lower-cased, accents dropped ("Quinceañera" → quinceanera), split at anything not a letter or digit. */
export function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The query's words: distinct, at most MAX_SEARCH_WORDS, each cut to MAX_SEARCH_WORD_LENGTH (as the album view's searchWords), sorted. */
export function queryWords(q: string): string[] {
  const unique = new Set<string>();
  for (const w of words(q)) {
    unique.add(w.slice(0, MAX_SEARCH_WORD_LENGTH));
    if (unique.size === MAX_SEARCH_WORDS) break;
  }
  return [...unique].sort();
}
