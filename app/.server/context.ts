import { createContext, type RouterContextProvider } from "react-router";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import type { CatalogService } from "./catalog/service.ts";
import type { LeadsService } from "./leads/service.ts";
import type { AnalysisLookup } from "./analysis/stage/types.ts";
import type { CatalogIndex } from "./catalog/index.ts";
import type { TrackIndex } from "./catalog/tracks/track-index.ts";
import type { CurrentSearch } from "./catalog/search/current.ts";
import type { Sitemaps } from "./sitemap.ts";
import type { SoundsLikeService } from "./sounds-like/service.ts";

/**
 * Long-lived services, created once by createServices (services.ts) for the web server and
 * shared by every request; loaders and actions reach them only through `services(context)`.
 */
export interface AppServices {
  config: Config;
  logger: Logger;
  catalog: CatalogService;
  leads: LeadsService;
  /** Track analyses by audio key (issue #9); absent where the process has no catalog role. */
  analysis?: AnalysisLookup;
  /** the album, film, single and channel views, item pages' data (index.ts) */
  catalogIndex: CatalogIndex;
  /** the music track view (issue #10) */
  tracks: TrackIndex;
  /** the catalog search in use (issue #10), built by the track index, read by the album view */
  search: CurrentSearch;
  sitemaps: Sitemaps;
  /** search by a reference file (issue #19) */
  soundsLike: SoundsLikeService;
}

/** Facts about the current request that loaders and actions may need. */
export interface RequestInfo {
  /** Client IP as Express sees it (honours TRUST_PROXY). */
  ip: string;
  /** Per-request logger (carries the request id). */
  log: Logger;
  /** A refused reference-file upload (server/sounds-like.ts): the form's page shows it with its status. */
  uploadError?: { status: number; message: string };
}

export const servicesContext = createContext<AppServices>();
export const requestContext = createContext<RequestInfo>();

/** Shorthand for loaders and actions: `const { catalog } = services(context)`. */
export function services(context: Readonly<RouterContextProvider>): AppServices {
  return context.get(servicesContext);
}

export function requestInfo(context: Readonly<RouterContextProvider>): RequestInfo {
  return context.get(requestContext);
}

/**
 * product-rules §2 "404 page": the attempted path is logged. At `info`, not `error` (issue #41,
 * spec-deviations 3): a visitor's mistyped or stale link is not a fault of the site, and one
 * error line per 404 (bots probe thousands) buried the real errors.
 */
export function logNotFound(context: Readonly<RouterContextProvider>, path: string): void {
  requestInfo(context).log.info({ path }, "404 Error: User attempted to access non-existent route");
}
