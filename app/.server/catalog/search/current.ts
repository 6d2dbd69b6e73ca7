import type { CatalogSearch } from "./types.ts";

/**
 * The catalog search in use (issue #10, ADR 0099; issue #17: a service of its own, built once in
 * createServices). The track index builds a new search with each track table, in the
 * background, and hands it here; the album view, whose index is rebuilt synchronously on the
 * first query after a catalog change, reads the latest one and checks that it indexed the same
 * album table (until then a search is answered by the substring rule and marked provisional).
 */
export interface CurrentSearch {
  /** the latest search built, or null before the first */
  get(): CatalogSearch | null;
  /** the track index's: a new search is in use */
  set(search: CatalogSearch): void;
}

export function createCurrentSearch(): CurrentSearch {
  let current: CatalogSearch | null = null;
  return {
    get: () => current,
    set: (search) => void (current = search),
  };
}
