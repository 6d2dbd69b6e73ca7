import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { Album, Channel, Film, ReleaseDetail, Single } from "../../lib/catalog/types.ts";

/**
 * The catalog as the rest of the server sees it (DESIGN.md §1). Sources are synced in the
 * background into snapshots; reading never waits on an upstream.
 *
 * CONTRACT between the catalog sync (sources, snapshots, sample data) and the catalog
 * index/UI (queries, loaders): keep these names.
 */
export interface CatalogSnapshot {
  albums: Album[];
  films: Film[];
  singles: Single[];
  channels: Channel[];
  /** singles genre list (spec §7 api/Genre/), names only */
  genres: string[];
  /** increments on every change, so derived indexes know when to rebuild */
  version: number;
  /** ISO time of the last successful sync of any source */
  updatedAt: string;
}

export interface CatalogService {
  /** The current data. Never waits on an upstream. */
  snapshot(): CatalogSnapshot;
  /** Sub-genres of a singles genre (spec §7 api/Genre/Get/SubGenres), cached. */
  subGenres(genre: string): Promise<string[]>;
  /** A single's release detail, fetched once and cached. */
  releaseDetail(submissionId: string): Promise<ReleaseDetail | null>;
  /** Public URL of an album/track/channel media key (MEDIA_URL) or a film image key (FILM_MEDIA_URL). */
  mediaUrl(key: string, kind: "music" | "film"): string;
  close(): Promise<void>;
}

// Placeholder until the catalog sync lands.
export async function startCatalog(_deps: { config: Config; logger: Logger }): Promise<CatalogService> {
  const empty: CatalogSnapshot = {
    albums: [],
    films: [],
    singles: [],
    channels: [],
    genres: [],
    version: 0,
    updatedAt: new Date(0).toISOString(),
  };
  return {
    snapshot: () => empty,
    subGenres: async () => [],
    releaseDetail: async () => null,
    mediaUrl: (key) => `/media/${encodeURIComponent(key)}`,
    close: async () => {},
  };
}
