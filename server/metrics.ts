import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Registry } from "prom-client";
import type { Analyzer } from "../app/.server/analysis/stage/analyzer.ts";
import type { CatalogService } from "../app/.server/catalog/service.ts";
import type { Config } from "../app/.server/config.ts";
import type { LeadsService } from "../app/.server/leads/service.ts";
import type { Logger } from "../app/.server/logger.ts";
import { OUTBOX_STATUSES } from "../app/.server/db/outbox.ts";
import { isStaticPage } from "../app/lib/static-pages.ts";
import { CLUSTER_COLLECT, CLUSTER_SNAPSHOT, restartCounter, type ClusterSnapshotMessage } from "./metrics-listener.ts";
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
 */

/** The route label: a kind of page, never the URL (issue #31). */
export const ROUTES = ["catalog", "item", "story", "form", "sounds_like", "data", "img", "static", "sitemap", "health", "other"] as const;
export type RouteKind = (typeof ROUTES)[number];
/** The method label; anything else is OTHER. */
export const METHODS = ["GET", "HEAD", "POST", "OPTIONS", "PUT", "PATCH", "DELETE"] as const;

/** The route label of a request path (before any rewrite by a handler). */
export function routeKind(path: string): RouteKind {
  if (path === "/catalog") return "catalog";
  if (path.endsWith(".data")) return "data";
  // DESIGN.md §3c: the reference-file form; every other path under /catalog/ is an item page (or its 404)
  if (path === "/catalog/sounds-like") return "sounds_like";
  if (path.startsWith("/catalog/")) return "item";
  if (path === "/img") return "img";
  if (isStaticPage(path)) return "story";
  if (path === "/contact") return "form";
  if (path === "/healthz" || path === "/readyz") return "health";
  if (path === "/sitemap.xml" || path === "/robots.txt" || path.startsWith("/sitemaps/")) return "sitemap";
  if (path.startsWith("/assets/") || path.startsWith("/media/") || path === "/sw.js" || STATIC_FILE.test(path)) return "static";
  return "other";
}
/** the build's public files (favicon.ico, icons, the manifest, logos): a name with an extension */
const STATIC_FILE = /^\/[\w./-]*\.(ico|png|svg|webp|avif|jpe?g|webmanifest|json|txt|xml|js|css|woff2?)$/i;

const methodLabel = (method: string) => ((METHODS as readonly string[]).includes(method) ? method : "OTHER");

/**
 * Seconds: a cached page answers in well under a millisecond, a render in 5–50 ms, a thumbnail
 * encode or a reference upload in seconds (issue #31: a few ms to several seconds).
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A store read at scrape time gives up after this long (Prometheus' own scrape timeout is 10 s). */
const STORE_READ_TIMEOUT_MS = 2_000;
/** The analysis counts scan its table: read at most this often, whatever the scrape rate. */
const ANALYSIS_READ_EVERY_MS = 10_000;

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
  watch(parts: { pageStore?: { usage(): { entries: number; bytes: number; maxBytes: number } }; renderQueue?: { readonly waiting: number } }): void;
  /** server/images.ts onEncode: a thumbnail is being made (not read from its disk cache). */
  thumbnailEncoded(): void;
}

/** Counters fed from a count another part keeps (the outbox worker's, the analyzer's): the increase since the last read. */
function increaseSince() {
  const last = new WeakMap<object, Map<string, number>>();
  return (source: object, key: string, value: number): number => {
    let seen = last.get(source);
    if (!seen) last.set(source, (seen = new Map()));
    const before = seen.get(key) ?? 0;
    seen.set(key, value);
    return Math.max(0, value - before);
  };
}

const REQUEST = Symbol("request facts for the metrics");
interface RequestFacts {
  started: number;
  method: string;
  route: RouteKind;
}

/**
 * The request histogram's counts, kept in plain arrays per (method, route, status) and handed to
 * prom-client as a metric object read at scrape time (the shape prom-client's own histograms give,
 * so its registry formats it and its AggregatorRegistry sums it). prom-client's `observe` checks
 * and hashes its label object on every call; here a request costs a string key, a map look-up
 * and a bucket search (ADR 0120).
 */
function requestDurations(name: string, help: string) {
  const series = new Map<string, { labels: { method: string; route: string; status: number }; buckets: Float64Array; sum: number; count: number }>();
  const bounds = DURATION_BUCKETS;
  return {
    observe(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${route} ${status}`;
      let s = series.get(key);
      if (!s) series.set(key, (s = { labels: { method, route, status }, buckets: new Float64Array(bounds.length), sum: 0, count: 0 }));
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      if (i < bounds.length) s.buckets[i]!++;
      s.sum += seconds;
      s.count++;
    },
    metric: {
      name,
      help,
      type: "histogram",
      aggregator: "sum",
      get() {
        const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
        for (const s of series.values()) {
          let cumulative = 0;
          bounds.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` });
          });
          values.push({ labels: { le: "+Inf", ...s.labels }, value: s.count, metricName: `${name}_bucket` });
          values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` });
          values.push({ labels: { ...s.labels }, value: s.count, metricName: `${name}_count` });
        }
        return { name, help, type: "histogram", aggregator: "sum", values };
      },
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}

export function createSiteMetrics(opts: SiteMetricsOptions): SiteMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  restartCounter(registry);
  const registers = [registry];
  const since = increaseSince();
  const readFailed = (what: string) => (error: unknown) => {
    opts.logger.warn({ err: error instanceof Error ? error.message : String(error) }, `metrics: could not read ${what}; its gauge is left out of this scrape`);
  };

  // ---- requests ---------------------------------------------------------------------------
  // OpenTelemetry's HTTP semantic conventions' name, in Prometheus form (issue #31)
  const duration = requestDurations("http_server_request_duration_seconds", "Time from a request's arrival to the end of its answer, by method, route kind (never the URL) and status code. 499: the client went away first.");
  registry.registerMetric(duration.metric as never);
  // counted per request in plain numbers, handed to prom-client at scrape time (see requestDurations)
  /** A counter by route kind whose counts the request path keeps in a plain map, read at scrape time. */
  const routeCounter = (name: string, help: string) => {
    const counts = new Map<RouteKind, number>();
    const counter: Counter<"route"> = new Counter({
      name,
      help,
      labelNames: ["route"],
      registers,
      collect() {
        for (const [route, n] of counts) counter.inc({ route }, since(counts, route, n));
      },
    });
    return counts;
  };
  const hits = routeCounter("page_cache_hits_total", "Pages answered from the page cache (X-Page-Cache: HIT), by route kind.");
  const misses = routeCounter("page_cache_misses_total", "Cacheable pages rendered because the page cache did not hold them (X-Page-Cache: MISS), by route kind.");
  const refusals = new Counter({
    name: "rate_limit_refusals_total",
    help: "Requests refused with 429 by a per-client limit: renders (the render budget, RENDER_RATE_LIMIT), leads (LEADS_RATE_LIMIT), references (REFERENCE_RATE_LIMIT).",
    labelNames: ["limit"],
    registers,
  });
  const uploads = new Counter({
    name: "reference_uploads_total",
    help: "Reference files posted to /catalog/sounds-like, by outcome: accepted, refused (not audio, damaged, silent, too long), too_large, rate_limited, busy (503), error.",
    labelNames: ["outcome"],
    registers,
  });
  const thumbnails = new Counter({ name: "thumbnail_encodes_total", help: "Thumbnails made (resized and encoded), not read from their disk cache.", registers });

  // every value of a small label set from the start, so that rate() and increase() see the first event
  for (const route of ["catalog", "item", "story", "data"] as const) {
    hits.set(route, 0);
    misses.set(route, 0);
  }
  for (const limit of ["renders", "leads", "references"]) refusals.inc({ limit }, 0);
  for (const outcome of ["accepted", "refused", "too_large", "rate_limited", "busy", "error"]) uploads.inc({ outcome }, 0);

  const uploadOutcome = (status: number) =>
    status === 303 ? "accepted" : status === 413 ? "too_large" : status === 429 ? "rate_limited" : status === 503 ? "busy" : status >= 500 ? "error" : "refused";
  // a post of a form or a file is counted by its own limit; any other 429 is the render budget's
  const limitOf = (route: RouteKind, method: string) =>
    method === "POST" && route === "form" ? "leads" : method === "POST" && route === "sounds_like" ? "references" : "renders";

  // The hot path (measured: a closure and prom-client's labelled observe per request cost several
  // microseconds on a cached page of ~60 us, ADR 0120): what the request's close needs is kept on
  // the response, and the request logger's end-of-response callback reads it (server/app.ts).
  function record(res: ServerResponse) {
    const facts = (res as ServerResponse & { [REQUEST]?: RequestFacts })[REQUEST];
    if (!facts) return;
    const status = res.writableFinished ? res.statusCode : 499;
    const { route, method } = facts;
    duration.observe(method, route, status, (performance.now() - facts.started) / 1000);
    const cache = res.getHeader("x-page-cache");
    if (cache === "HIT") hits.set(route, (hits.get(route) ?? 0) + 1);
    else if (cache === "MISS") misses.set(route, (misses.get(route) ?? 0) + 1);
    if (status === 429) refusals.inc({ limit: limitOf(route, method) });
    if (route === "sounds_like" && method === "POST") uploads.inc({ outcome: uploadOutcome(status) });
  }
  function arrive(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    (res as ServerResponse & { [REQUEST]?: RequestFacts })[REQUEST] = {
      started: performance.now(),
      method: methodLabel(req.method ?? "GET"),
      route: routeKind(query < 0 ? url : url.slice(0, query)),
    };
  }

  // ---- the page cache, the render queue ---------------------------------------------------
  let pageStore: { usage(): { entries: number; bytes: number; maxBytes: number } } | undefined;
  let renderQueue: { readonly waiting: number } | undefined;
  let admissionSize: (() => number) | undefined;
  new Gauge({
    name: "page_cache_stored_bytes",
    help: "Bytes of rendered pages held in the page cache (PAGE_CACHE_MAX_BYTES bounds it), summed over the server processes.",
    registers,
    collect() {
      if (pageStore) this.set(pageStore.usage().bytes);
    },
  });
  new Gauge({
    name: "page_cache_entries",
    help: "Pages held in the page cache, summed over the server processes.",
    registers,
    collect() {
      if (pageStore) this.set(pageStore.usage().entries);
    },
  });
  new Gauge({
    name: "page_cache_max_bytes",
    help: "The page cache's bound (PAGE_CACHE_MAX_BYTES), summed over the server processes.",
    registers,
    collect() {
      if (pageStore) this.set(pageStore.usage().maxBytes);
    },
  });
  const admissions = new Counter({
    name: "page_cache_admission_decisions_total",
    help: "The admission rule's decisions on a catalog page the cache did not hold (ADR 0085): store (asked before within its window) or once (first ask: sent, not stored).",
    labelNames: ["decision"],
    registers,
  });
  for (const decision of ["store", "once"]) admissions.inc({ decision }, 0);
  new Gauge({
    name: "page_cache_admission_remembered_keys",
    help: "Catalog pages asked once that the admission rule remembers (PAGE_CACHE_SEEN_MAX_KEYS bounds it).",
    registers,
    collect() {
      if (admissionSize) this.set(admissionSize());
    },
  });
  new Gauge({
    name: "render_queue_length",
    help: "Uncached renders waiting for their turn of the event loop (ADR 0115; always 0 in a cluster's workers, which render at once).",
    registers,
    collect() {
      this.set(renderQueue?.waiting ?? 0);
    },
  });

  // ---- the catalog ------------------------------------------------------------------------
  new Gauge({
    name: "catalog_items",
    help: "Items the catalog serves, by kind (its source: albums, films, channels, singles, genres).",
    labelNames: ["kind"],
    aggregator: "max",
    registers,
    collect() {
      this.reset();
      for (const s of opts.catalog.status()) this.set({ kind: s.name }, s.count);
    },
  });
  new Gauge({
    name: "catalog_last_successful_sync_timestamp_seconds",
    help: "Unix time of the last sync of each source that succeeded (changed or not); absent until one has (ADR 0084).",
    labelNames: ["source"],
    aggregator: "max",
    registers,
    collect() {
      this.reset();
      for (const s of opts.catalog.status()) if (s.lastSuccessAt) this.set({ source: s.name }, Date.parse(s.lastSuccessAt) / 1000);
    },
  });
  const syncFailures = new Counter({
    name: "catalog_sync_failures_total",
    help: "Syncs of a source that failed (upstream error, unreadable answer) or were held back (ADR 0074), or whose snapshot could not be saved.",
    labelNames: ["source"],
    registers,
    collect() {
      for (const s of opts.catalog.status()) {
        const increase = since(opts.catalog, s.name, s.failedSyncs ?? 0);
        // present (0) from the start, so an alert's increase() sees the first failure
        syncFailures.inc({ source: s.name }, increase);
      }
    },
  });
  new Gauge({
    name: "catalog_snapshot_version",
    help: "Version of the catalog served: moves on every change of its data (a sync, an adopted snapshot).",
    aggregator: "max",
    registers,
    collect() {
      this.set(opts.catalog.snapshot().version);
    },
  });
  new Gauge({
    name: "catalog_sync_interval_seconds",
    help: "CATALOG_REFRESH_SECONDS: how often every source is synced (the alerts compare the last sync with it).",
    aggregator: "max",
    registers,
    collect() {
      this.set(opts.config.CATALOG_REFRESH_SECONDS);
    },
  });

  // ---- the outbox -------------------------------------------------------------------------
  const worker = () => opts.leads.worker;
  const attempts = new Counter({
    name: "outbox_delivery_attempts_total",
    help: "Sends of outbox messages (leads and receipts) handed to the mail transport.",
    registers,
    collect() {
      const w = worker();
      if (w) attempts.inc(since(w, "attempts", w.counts.attempts));
    },
  });
  const failures = new Counter({
    name: "outbox_delivery_failures_total",
    help: "Sends the mail transport refused or that failed, by what follows: retry (tried again after a backoff) or failed (for good: permanent, or OUTBOX_MAX_ATTEMPTS reached).",
    labelNames: ["next"],
    registers,
    collect() {
      const w = worker();
      if (!w) return;
      failures.inc({ next: "retry" }, since(w, "retried", w.counts.retried));
      failures.inc({ next: "failed" }, since(w, "failed", w.counts.failed));
    },
  });
  const delivered = new Counter({
    name: "outbox_deliveries_total",
    help: "Outbox messages the mail transport accepted.",
    registers,
    collect() {
      const w = worker();
      if (w) delivered.inc(since(w, "sent", w.counts.sent));
    },
  });
  // the stores' counts: one process reports them (options.reportsStores)
  new Gauge({
    name: "outbox_messages",
    help: "Outbox messages (leads and receipts) by status: pending (waiting for an attempt), sending (held by a worker), sent, failed (waiting for the operator).",
    labelNames: ["status"],
    aggregator: "max",
    registers,
    async collect() {
      if (!opts.reportsStores) return;
      this.reset();
      try {
        const counts = await withTimeout(opts.leads.outbox().then((o) => o.counts()), STORE_READ_TIMEOUT_MS);
        for (const status of OUTBOX_STATUSES) this.set({ status }, counts[status] ?? 0);
      } catch (error) {
        readFailed("the outbox's counts")(error);
      }
    },
  });
  new Gauge({
    name: "outbox_oldest_pending_age_seconds",
    help: "Age of the oldest outbox message not yet delivered (pending or sending); 0 when none waits.",
    aggregator: "max",
    registers,
    async collect() {
      if (!opts.reportsStores) return;
      this.reset();
      try {
        const at = await withTimeout(opts.leads.outbox().then((o) => o.oldestUndeliveredAt()), STORE_READ_TIMEOUT_MS);
        this.set(at === null ? 0 : Math.max(0, (Date.now() - at) / 1000));
      } catch (error) {
        readFailed("the outbox's oldest message")(error);
      }
    },
  });

  // ---- the analysis -----------------------------------------------------------------------
  let analysisRead: { at: number; counts: Record<string, number> } | undefined;
  new Gauge({
    name: "analysis_tracks",
    help: "Audio keys in the analysis store by state: done, pending (waiting or due again), failed (retried after a backoff), analysing (held by an analyzer now; part of pending or failed).",
    labelNames: ["state"],
    aggregator: "max",
    registers,
    async collect() {
      const analyzer = opts.analyzer();
      if (!analyzer || !opts.reportsStores) return;
      this.reset();
      try {
        if (!analysisRead || Date.now() - analysisRead.at >= ANALYSIS_READ_EVERY_MS) {
          const s = await withTimeout(analyzer.store.summary({ now: Date.now(), failures: 0 }), STORE_READ_TIMEOUT_MS);
          analysisRead = { at: Date.now(), counts: { done: s.done, pending: s.pending, failed: s.failed, analysing: s.analysing } };
        }
        for (const [state, n] of Object.entries(analysisRead.counts)) this.set({ state }, n);
      } catch (error) {
        readFailed("the analysis counts")(error);
      }
    },
  });
  const analysed = new Counter({
    name: "analysis_tracks_analysed_total",
    help: "Tracks analysed and their results stored (the analysis rate: rate() of it).",
    registers,
    collect() {
      const analyzer = opts.analyzer();
      if (analyzer) analysed.inc(since(analyzer, "analysed", analyzer.counts.analysed));
    },
  });
  const analysisFailures = new Counter({
    name: "analysis_failures_total",
    help: "Track analyses that failed (unreadable or unsupported audio, a download that failed); each is retried after a backoff.",
    registers,
    collect() {
      const analyzer = opts.analyzer();
      if (analyzer) analysisFailures.inc(since(analyzer, "failed", analyzer.counts.failed));
    },
  });

  return {
    registry,
    arrive,
    record,
    countAdmission(admission) {
      admissionSize = () => admission.size();
      return {
        maxKeys: admission.maxKeys,
        size: () => admission.size(),
        admit(key) {
          const admitted = admission.admit(key);
          admissions.inc({ decision: admitted ? "store" : "once" });
          return admitted;
        },
      };
    },
    watch(parts) {
      pageStore = parts.pageStore ?? pageStore;
      renderQueue = parts.renderQueue ?? renderQueue;
    },
    thumbnailEncoded: () => thumbnails.inc(),
  };
}

/**
 * A cluster worker (WEB_CONCURRENCY > 1): answers the primary's requests for this process's
 * metrics (server/metrics-cluster.ts sums them). `final()` sends them once more as the process
 * shuts down, so the primary keeps its last counts (ADR 0120).
 */
export function answerClusterScrapes(registry: Registry, logger: Logger) {
  const send = (message: ClusterSnapshotMessage) =>
    new Promise<void>((resolve) => {
      if (!process.send || !process.connected) return resolve();
      process.send(message, undefined, {}, () => resolve());
    });
  const snapshot = async (id: number, final: boolean) => {
    try {
      await send({ type: CLUSTER_SNAPSHOT, id, final, metrics: await registry.getMetricsAsJSON() });
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, "metrics: could not send this process's metrics to the cluster primary");
    }
  };
  const onMessage = (message: unknown) => {
    const m = message as { type?: unknown; id?: unknown } | null;
    if (m?.type === CLUSTER_COLLECT && typeof m.id === "number") void snapshot(m.id, false);
  };
  process.on("message", onMessage);
  return {
    final: () => snapshot(-1, true),
    stop: () => void process.off("message", onMessage),
  };
}
