import { Counter, Gauge, type Registry } from "prom-client";
import { OUTBOX_STATUSES } from "../app/.server/db/outbox.ts";
import type { IncreaseSince, SiteMetrics, SiteMetricsOptions } from "./metrics.ts";

/**
 * Issue #31, ADR 0120: the families of the site's metrics read when a scrape asks (collect()),
 * never on a request's path: the page store's bytes, the render queue, the catalog's status, the
 * outbox's and the analysis's counts in their stores, and the counts the outbox worker and the
 * analyzer keep anyway. A store read is bounded (STORE_READ_TIMEOUT_MS) and its gauge left empty
 * when it fails. Every gauge says how it adds up over a cluster (server/metrics.ts).
 */

/** A store read at scrape time gives up after this long (Prometheus' own scrape timeout is 10 s). */
const STORE_READ_TIMEOUT_MS = 2_000;
/** The analysis counts scan its table: read at most this often, whatever the scrape rate. */
const ANALYSIS_READ_EVERY_MS = 10_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}

/** The scrape-time families, registered in `registry`; `watch` and `countAdmission` hand them the parts they read. */
export function scrapeMetrics(registry: Registry, opts: SiteMetricsOptions, since: IncreaseSince): Pick<SiteMetrics, "watch" | "countAdmission"> {
  const registers = [registry];
  const readFailed = (what: string) => (error: unknown) => {
    opts.logger.warn({ err: error instanceof Error ? error.message : String(error) }, `metrics: could not read ${what}; its gauge is left out of this scrape`);
  };

  // ---- the page cache, the render queue ---------------------------------------------------
  let pageStore: { usage(): { entries: number; bytes: number; maxBytes: number } } | undefined;
  let renderQueue: { readonly waiting: number } | undefined;
  let connections: { readonly open: number; readonly moved: number } | undefined;
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
    help: "Uncached renders waiting for their turn of the event loop (ADR 0115; in a cluster's workers only while new connections are being accepted, ADR 0121).",
    registers,
    collect() {
      this.set(renderQueue?.waiting ?? 0);
    },
  });
  // ---- a cluster's connections (server/connection-balance.ts, ADR 0121) ---------------------
  new Gauge({
    name: "cluster_open_connections",
    help: "Client connections the cluster's workers hold open, summed over them (WEB_CONCURRENCY > 1 on Linux, where the kernel spreads connections; 0 otherwise).",
    registers,
    collect() {
      this.set(connections?.open ?? 0);
    },
  });
  new Counter({
    name: "cluster_connections_moved_total",
    help: "Keep-alive connections a cluster's worker asked to reconnect (Connection: close after a full answer) because it held more than its fair share; the kernel spreads them by a hash, not by load (ADR 0121).",
    registers,
    collect() {
      if (connections) this.inc(since(connections, "moved", connections.moved));
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
      connections = parts.connections ?? connections;
    },
  };
}
