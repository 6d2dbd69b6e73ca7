import type { Album, Channel, ChannelsState, GenrePath, Single, SinglesState } from "./types.ts";
import { subscriberRangeBounds } from "./channel-options.ts";

/** product-rules §5: for these top genres the second term is looked for in the album name. */
export const NAME_MATCHED_GENRES: ReadonlySet<string> = new Set(["african", "asian", "latin"]);

/** product-rules §5: filter terms are lower-cased and trimmed. Empty terms are dropped. */
export function normalizeTerms(terms: readonly string[]): string[] {
  return terms.map((t) => t.trim().toLowerCase()).filter(Boolean);
}

/** The music filter's terms: the top genre, then the sub-genre levels in order. */
export function musicTerms(path: { readonly genre: string; readonly subGenres: readonly string[] }): string[] {
  if (!path.genre.trim()) return [];
  return normalizeTerms([path.genre, ...path.subGenres]);
}

/**
 * product-rules §5 "Music albums", on pre-lower-cased fields (the index keeps them, so a query does
 * not lower-case 250,000 names):
 * - the album's first keyword must equal the first term;
 * - for african, asian and latin the second term must be contained in the album name;
 * - otherwise each further term must equal the album keyword at the same position.
 * With the name rule, terms beyond the second still follow the positional rule, so the
 * deeper levels of the filter keep narrowing.
 */
export function albumTermsMatch(nameLower: string, keywordsLower: readonly string[], terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  if (keywordsLower[0] !== terms[0]) return false;
  const byName = NAME_MATCHED_GENRES.has(terms[0]);
  for (let i = 1; i < terms.length; i++) {
    if (i === 1 && byName) {
      if (!nameLower.includes(terms[1])) return false;
    } else if (keywordsLower[i] !== terms[i]) {
      return false;
    }
  }
  return true;
}

export function albumMatches(album: Pick<Album, "name" | "keywords">, path: Pick<GenrePath, "genre" | "subGenres">): boolean {
  return albumTermsMatch(album.name.toLowerCase(), normalizeTerms(album.keywords), musicTerms(path));
}

/** The channel fields product-rules §5 searches, lower-cased and joined (one string per channel). */
export function channelHaystack(channel: Pick<Channel, "name" | "description" | "category" | "language" | "country" | "keywords">): string {
  return [channel.name, channel.description, channel.category, channel.language, channel.country, ...channel.keywords]
    .join("\u0000")
    .toLowerCase();
}

/** product-rules §5 "Channels": any term is a case-insensitive substring of the channel's fields. */
export function channelMatchesAnyTerm(haystackLower: string, terms: readonly string[]): boolean {
  const normalized = normalizeTerms(terms);
  return normalized.some((t) => haystackLower.includes(t));
}

/**
 * The channel filters (product-rules §4 "Channel filters"). Each group (category, countries,
 * languages) keeps the spec's any-term substring rule inside the group; groups combine with
 * AND, and subscriber ranges compare the subscriber count (DESIGN.md §3 deviation 4: a
 * range label such as "1K-10K" is never a substring of a channel's text).
 */
export function channelMatches(
  channel: Pick<Channel, "subscriberCount">,
  haystackLower: string,
  filters: Pick<ChannelsState, "category" | "countries" | "languages" | "subscriberRanges">,
): boolean {
  if (filters.category && !channelMatchesAnyTerm(haystackLower, [filters.category])) return false;
  if (filters.countries.length && !channelMatchesAnyTerm(haystackLower, filters.countries)) return false;
  if (filters.languages.length && !channelMatchesAnyTerm(haystackLower, filters.languages)) return false;
  if (filters.subscriberRanges.length) {
    const inRange = filters.subscriberRanges.some((label) => {
      const bounds = subscriberRangeBounds(label);
      return bounds !== null && channel.subscriberCount >= bounds[0] && channel.subscriberCount < bounds[1];
    });
    if (!inRange) return false;
  }
  return true;
}

/**
 * Singles (DESIGN.md §3 deviation 4): a single matches its chosen genre and sub-genre,
 * case-insensitive equality. The spec's literal rule (any term is a substring of title,
 * artist, genre, …) would show "Pop" singles under "K-Pop" and a song titled "Jazz Hands"
 * under Jazz.
 */
export function singleMatches(single: Pick<Single, "genre" | "subGenre">, filters: Pick<SinglesState, "genre" | "subGenre">): boolean {
  const genre = filters.genre.trim().toLowerCase();
  if (genre && single.genre.trim().toLowerCase() !== genre) return false;
  const sub = filters.subGenre.trim().toLowerCase();
  if (sub && single.subGenre.trim().toLowerCase() !== sub) return false;
  return true;
}

/** Most search words used; further words are ignored (a long q must not cost CPU per album). */
export const MAX_SEARCH_WORDS = 16;
/** Longest search word used, in characters; a longer word is cut to this length. */
export const MAX_SEARCH_WORD_LENGTH = 64;

/**
 * The search field: whitespace-separated words, lower-cased; every word must appear.
 * The list is normalised, so that `e`, `e e` and `E e e` are one search (and one cache key,
 * issue #7) without changing what matches:
 * - duplicates are dropped, and so is a word contained in another word (`e` in `electro`):
 *   whatever contains the longer word contains it too;
 * - the words are sorted;
 * - the first MAX_SEARCH_WORDS distinct words are kept, each cut to MAX_SEARCH_WORD_LENGTH
 *   characters.
 */
export function searchWords(q: string): string[] {
  const unique = new Set<string>();
  for (const word of q.toLowerCase().split(/\s+/)) {
    if (word) unique.add(word.slice(0, MAX_SEARCH_WORD_LENGTH));
    if (unique.size === MAX_SEARCH_WORDS) break;
  }
  const words = [...unique];
  return words.filter((w) => !words.some((other) => other !== w && other.includes(w))).sort();
}

export function matchesSearch(haystackLower: string, words: readonly string[]): boolean {
  for (const w of words) if (!haystackLower.includes(w)) return false;
  return true;
}
