import { normalizeTerms } from "../../lib/catalog/matching.ts";
import type { ChannelsState } from "../../lib/catalog/types.ts";

/**
 * The keys of the indexes' match caches (the album index's LRU, index.ts, and the track index's,
 * tracks/query.ts): one function per view, and one normalisation (issue #17; there were five
 * templates, each normalised its own way). Every key is built from:
 * - filter terms as the matchers compare them: trimmed, lower-cased, empty ones dropped
 *   (normalizeTerms);
 * - the search as the search answering it normalises it: the substring rule's words
 *   (searchWords, sorted and distinct) or the catalog search's `normalize(q)`, joined by a space;
 * - ranges as whole numbers, `min-max`.
 * Fields are separated by "|" and list items by U+0001, which no term, word or id contains.
 * A key names what is matched, never how the page shows it (page and sort are applied to the
 * cached list), so `q=e e e` reuses the entry of `q=e`.
 */
const ITEM = "\u0001";

const terms = (values: readonly string[]) => normalizeTerms(values).join(ITEM);
const range = (r: readonly [number, number] | null) => (r ? `${r[0]}-${r[1]}` : "");

export const matchKeys = {
  /** the music filter's path and search; `searchId` the catalog search that ranked it (none: the substring rule) */
  albums: (path: readonly string[], words: readonly string[], searchId?: number) => `albums|${terms(path)}|${words.join(" ")}|${searchId ?? ""}`,
  /** films are not filtered (product-rules §5): the search alone */
  films: (words: readonly string[]) => `films|${words.join(" ")}`,
  singles: (genre: string, subGenre: string, words: readonly string[]) => `singles|${terms([genre])}|${terms([subGenre])}|${words.join(" ")}`,
  channels: (state: Pick<ChannelsState, "category" | "countries" | "languages" | "subscriberRanges">, words: readonly string[]) =>
    `channels|${terms([state.category])}|${terms(state.countries)}|${terms(state.languages)}|${state.subscriberRanges.join(ITEM)}|${words.join(" ")}`,
  /** a music filter level's options derived from the albums' keywords at that path */
  genreLevel: (path: readonly string[]) => `level|${terms(path)}`,
  /** the track view's matches of the genre, tempo, length and search (the key filter and the order apply to them) */
  tracks: (generation: number, path: readonly string[], bpm: readonly [number, number] | null, seconds: readonly [number, number] | null, words: string) =>
    `${generation}|tracks|${terms(path)}|${range(bpm)}|${range(seconds)}|${words}`,
  /** the track view's counts per key of a tempo and length filter over the whole catalog */
  trackCounts: (generation: number, bpm: readonly [number, number] | null, seconds: readonly [number, number] | null) => `${generation}|counts|${range(bpm)}|${range(seconds)}`,
  /**
   * a `like=` view's neighbours under the other filters, most similar first: every sort of them
   * shares it (another order is made from it per request: at most LIKE_LIMIT tracks)
   */
  like: (
    generation: number,
    seedId: string,
    f: { terms: readonly string[]; bpm: readonly [number, number] | null; seconds: readonly [number, number] | null; words: string; keys: readonly number[] },
  ) => `${generation}|like|${seedId}|${terms(f.terms)}|${range(f.bpm)}|${range(f.seconds)}|${f.words}|${f.keys.join(ITEM)}`,
};
