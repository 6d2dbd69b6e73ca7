import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { Analyzer } from "../app/.server/analysis/stage/analyzer.ts";
import type { CatalogService } from "../app/.server/catalog/service.ts";
import type { Config } from "../app/.server/config.ts";
import type { LeadsService } from "../app/.server/leads/service.ts";
import type { Logger } from "../app/.server/logger.ts";
import { restartCounter } from "./metrics-listener.ts";
import { requestMetrics } from "./metrics-requests.ts";
import { scrapeMetrics } from "./metrics-scrape.ts";
import type { PageAdmission } from "./page-admission.ts";

/**
 * Issue #31, ADR 0120: what an operator scrapes (DESIGN.md §3d "Metrics"). One prom-client
 * Registry per server process, made only when METRICS_PORT is set (no hook runs otherwise).
 *
 * - On a request's path: one histogram observation and, for the few answers that carry one, a
 *   counter (the page cache's X-Page-Cache header, a 429, a reference upload), all read from
 *   the response when it closes. Nothing else is counted per request.
 * - Everything else is read when a scrape asks (collect()): the page store's bytes, the
 *   render queue, the catalog's status, the outbox's and the analysis's counts in their
 *   stores, and the counts the outbox worker and the analyzer keep anyway. A store read is
 *   bounded (STORE_READ_TIMEOUT_MS) and its gauge left empty when it fails.
 * - Label values come from fixed lists (ROUTES, METHODS, …): a flood of unique URLs adds no
 *   series.
 *
 * With WEB_CONCURRENCY > 1 each worker answers the primary's requests for its registry over
 * IPC and the primary sums them (server/metrics-cluster.ts). Every gauge says how it adds up:
 * `sum` for what each process holds (its page store, its queue), `max` for what every process
 * reads alike (the catalog) or only one process reports (the stores' counts).
 *
 * One job per module: the request hook (server/metrics-requests.ts), the families read at scrape
 * time (server/metrics-scrape.ts), a cluster worker's answers to the primary
 * (server/metrics-worker.ts; the primary's side: server/metrics-cluster.ts).
 */

export { DURATION_BUCKETS, METHODS, ROUTES, routeKind, type RouteKind } from "./metrics-requests.ts";
export { answerClusterScrapes } from "./metrics-worker.ts";

export interface SiteMetricsOptions {
  config: Pick<Config, "CATALOG_REFRESH_SECONDS">;
  logger: Logger;
  catalog: Pick<CatalogService, "status" | "snapshot">;
  leads: Pick<LeadsService, "outbox" | "worker">;
  /** the analysis stage's worker, when this process analyses (it may start later) */
  analyzer: () => Analyzer | undefined;
  /**
   * This process reports the stores every process shares (the outbox's and the analysis's
   * counts): a single process, or the cluster's syncing worker, so a sum over the cluster does
   * not count them N times.
   */
  reportsStores: boolean;
}

export interface SiteMetrics {
  readonly registry: Registry;
  /**
   * Every request timed without Express and without a listener of its own: the HTTP server's
   * request handler calls `arrive` before handing the request to Express, and `record(res)` must be
   * called once when the response ends. The server calls it from the request logger's own
   * end-of-response callback (pino-http customLogLevel, server/app.ts). A listener per request,
   * then a middleware layer of Express's router, were most of the metrics' cost on a cached page
   * (ADR 0120).
   */
  arrive(req: IncomingMessage, res: ServerResponse): void;
  record(res: ServerResponse): void;
  /** The admission rule (server/page-admission.ts), its decisions counted. */
  countAdmission(admission: PageAdmission): PageAdmission;
  /** Parts of the app read at scrape time. */
  watch(parts: {
    pageStore?: { usage(): { entries: number; bytes: number; maxBytes: number } };
    renderQueue?: { readonly waiting: number };
    /** a cluster worker's connection balance (server/connection-balance.ts) */
    connections?: { readonly open: number; readonly moved: number };
  }): void;
  /** server/images.ts onEncode: a thumbnail is being made (not read from its disk cache). */
  thumbnailEncoded(): void;
}

/** The increase of a count since the last read, per source object and key. */
export type IncreaseSince = (source: object, key: string, value: number) => number;

/** Counters fed from a count another part keeps (the outbox worker's, the analyzer's): the increase since the last read. */
function increaseSince(): IncreaseSince {
  const last = new WeakMap<object, Map<string, number>>();
  return (source: object, key: string, value: number): number => {
    let seen = last.get(source);
    if (!seen) last.set(source, (seen = new Map()));
    const before = seen.get(key) ?? 0;
    seen.set(key, value);
    return Math.max(0, value - before);
  };
}

export function createSiteMetrics(opts: SiteMetricsOptions): SiteMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  restartCounter(registry);
  const since = increaseSince();
  // registered in this order (the exposition's order): the requests' families, then the scrape-time ones
  const requests = requestMetrics(registry, since);
  const scraped = scrapeMetrics(registry, opts, since);
  return { registry, ...requests, ...scraped };
}
