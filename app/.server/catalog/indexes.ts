import type { AnalysisLookup } from "../analysis/stage/types.ts";
import { createCatalogIndex, type CatalogIndex, type CatalogIndexOptions, type CatalogSource } from "./index.ts";
import { createTrackIndex, type TrackIndex, type TrackIndexOptions } from "./tracks/track-index.ts";
import { createCurrentSearch, type CurrentSearch } from "./search/current.ts";

/**
 * The catalog's in-memory indexes, wired together (issue #17): the album index builds the
 * album columns per catalog version; the track index reads them, builds the track table and
 * the catalog search in the background and hands the search to `search`, where the album view
 * reads it. createServices builds them once for the process; tests and benchmarks build them
 * the same way.
 */
export interface CatalogIndexes {
  catalogIndex: CatalogIndex;
  tracks: TrackIndex;
  search: CurrentSearch;
}

export function createCatalogIndexes(
  catalog: CatalogSource,
  analysis: AnalysisLookup | undefined,
  opts: { catalogIndex?: Omit<CatalogIndexOptions, "search">; tracks?: Omit<TrackIndexOptions, "search"> } = {},
): CatalogIndexes {
  const search = createCurrentSearch();
  const catalogIndex = createCatalogIndex(catalog, { ...opts.catalogIndex, search: search.get });
  const tracks = createTrackIndex(catalogIndex, analysis, { ...opts.tracks, search });
  return { catalogIndex, tracks, search };
}
