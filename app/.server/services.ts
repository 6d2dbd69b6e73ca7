import fs from "node:fs";
import path from "node:path";
import { ConfigError, parseConfig, type Config } from "./config.ts";
import { createLogger, type Logger } from "./logger.ts";
import { startCatalog, type CatalogDeps, type CatalogService } from "./catalog/service.ts";
import { createCatalogIndexes, type CatalogIndexes } from "./catalog/indexes.ts";
import { siteSitemaps, type Sitemaps } from "./sitemap.ts";
import { createSoundsLike, type SoundsLikeService } from "./sounds-like/service.ts";
import type { AppServices } from "./context.ts";
import { startLeads, type LeadsOptions, type LeadsService } from "./leads/service.ts";
import { startAnalyzer, type Analyzer, type AnalyzerOptions } from "./analysis/stage/analyzer.ts";
import { createAnalysisPool, type AnalysisPool } from "./analysis/pool.ts";
import { createAnalysisLookup, type AnalysisService } from "./analysis/stage/lookup.ts";
import { deferredAnalysis } from "./analysis/stage/deferred.ts";
import { describeAnalysisStore, openAnalysisStore } from "./analysis/stage/open.ts";
import { sampleMediaReady, samplePaths } from "./catalog/sample/ensure.ts";
import { seedSampleAnalysis } from "./catalog/sample/sample-analysis.ts";
import { errorMessage } from "./catalog/errors.ts";
import { createSharedPostgres, type SharedPostgres } from "./db/postgres-pool.ts";
import { indexFormat, prefetchIndexVersion } from "./catalog/tracks/index-versions.ts";

/**
 * The one composition root (issue #7): the web server and every command (`worker`, `outbox`,
 * `sample`, `catalog`) build their services here, from one parsed configuration, so the
 * wiring cannot drift between them again (it once did: `npm run worker` ignored
 * OUTBOX_LEASE_SECONDS because it had its own copy). Every long-lived service is made by a
 * factory (`create…`/`start…` returning an interface with its `close` or `stop`) and handed
 * to the services that use it; none is looked up from a module-level registry (ADR 0109).
 */

/**
 * `npm run analyze` (issue #20, DESIGN §3c): the analysis engine alone — no catalog, no store,
 * no network — in the same worker pool as the analysis stage, ANALYSIS_CONCURRENCY threads.
 */
export function createFileAnalysis(config: Config): AnalysisPool {
  return createAnalysisPool({ concurrency: config.ANALYSIS_CONCURRENCY, maxQueue: config.ANALYSIS_CONCURRENCY });
}

/** Parses the environment; a bad value prints the variables at fault and exits 1. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export interface ServiceRoles {
  /** Sync the upstream catalogs (web server, catalog command). */
  catalog?: boolean;
  /**
   * With `catalog`: serve the snapshots another process syncs instead of syncing (the server
   * processes of WEB_CONCURRENCY > 1 but the first, ADR 0081). Never calls an upstream.
   */
  followCatalog?: boolean;
  /** Keep the in-memory catalog index warm (web server; default: with `catalog`). */
  catalogIndex?: boolean;
  /** The lead outbox (web server, worker, outbox command). */
  leads?: boolean;
  /** Run the delivery worker; default OUTBOX_WORKER. */
  worker?: boolean;
  /**
   * With `catalog`: analyse the tracks' audio after each albums change (issue #9, ADR 0091).
   * Default: ANALYSIS_WORKER in the process that syncs; never in a follower, which only reads
   * the results (the `analyzer` command follows and analyses: it sets this).
   */
  analyzer?: boolean;
  /** Search by a reference file (issue #19): its worker pool, rate limit and store (web server). */
  soundsLike?: boolean;
}

export interface ServiceOptions {
  config: Config;
  logger?: Logger;
  /** Added to every log line (a cluster worker's pid and number: which process did what). */
  logBindings?: Record<string, unknown>;
  roles: ServiceRoles;
  /** Tests and the standalone worker adjust these; production takes everything from config. */
  catalog?: Partial<Omit<CatalogDeps, "config" | "logger">>;
  leads?: LeadsOptions;
  /** Tests hand in a counting pool, a clock, a short lease. */
  analyzer?: Partial<Omit<AnalyzerOptions, "config" | "logger" | "store">>;
  /** With the soundsLike role: this process is one of a cluster's (its rate limit counts in the primary). */
  cluster?: boolean;
}

export interface Services {
  config: Config;
  logger: Logger;
  catalog: CatalogService | undefined;
  leads: LeadsService | undefined;
  /** Track analyses by audio key, for pages (AnalysisLookup); undefined without the catalog role. */
  analysis: AnalysisService | undefined;
  /** The analysis stage's worker, when this process analyses. */
  analyzer: Analyzer | undefined;
  /** The album index, the track index and the catalog search (catalog/indexes.ts); with the catalog role. */
  indexes: CatalogIndexes | undefined;
  /** sitemap.xml and its files (sitemap.ts); with the catalog role. */
  sitemaps: Sitemaps | undefined;
  /** Search by a reference file; with the soundsLike role. */
  soundsLike: SoundsLikeService | undefined;
  /**
   * Stops the background work (sync, index warmer, delivery worker, analyzer), then closes
   * stores. `deadlineMs` (default SHUTDOWN_TIMEOUT_SECONDS) bounds the wait for the current
   * delivery and the running analyses; messages and tracks claimed but not finished are
   * released for the next worker or analyzer.
   */
  close(opts?: { deadlineMs?: number }): Promise<void>;
}

/** What a request handler reads (context.ts): the web server's services, every one present. */
export function appServices(built: Services): AppServices {
  const { config, logger, catalog, leads, analysis, indexes, sitemaps, soundsLike } = built;
  if (!catalog || !leads || !indexes || !sitemaps || !soundsLike) throw new Error("the web server needs the catalog, leads and soundsLike roles");
  return { config, logger, catalog, leads, analysis, ...indexes, sitemaps, soundsLike };
}

export async function createServices(opts: ServiceOptions): Promise<Services> {
  const { config, roles } = opts;
  const base = opts.logger ?? createLogger(config.LOG_LEVEL);
  const logger = opts.logBindings ? base.child(opts.logBindings) : base;
  const stops: (() => void)[] = [];
  // Issue #42, ADR 0149: one PostgreSQL pool per process, DATABASE_POOL_MAX connections at most,
  // shared by every store below; ended last, after them.
  const postgres = config.DATABASE_URL ? createSharedPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX) : undefined;

  // A process that starts into a running cluster downloads the newest track index version
  // while it takes and reads the catalog's snapshot; its first index build then finds the
  // machine's copy (issue #42, ADR 0162 seventh session: the first like= after a start).
  const clustered = Boolean(config.DATABASE_URL && config.CATALOG_CLUSTER_SYNC && roles.catalog && roles.catalogIndex !== false);
  const prefetching = new AbortController();
  const prefetch = clustered
    ? prefetchIndexVersion({ databaseUrl: config.DATABASE_URL!, dir: figuresDir(config), format: indexFormat() }, prefetching.signal).then((taken) => {
        if (taken) logger.info(taken, "track index: newest published version brought in at start");
        return taken;
      })
    : undefined;
  if (prefetch) stops.push(() => prefetching.abort());

  // issue #42, ADR 0157: with DATABASE_URL the catalog is synced once per cluster, through this pool
  const catalog = roles.catalog ? await startCatalog({ config, logger, follow: roles.followCatalog, postgres, ...opts.catalog }) : undefined;
  const analysis = catalog ? await startAnalysis(opts, logger, catalog, postgres) : undefined;

  let indexes: CatalogIndexes | undefined;
  let sitemaps: Sitemaps | undefined;
  if (catalog) {
    // the first full read of the analysis figures happens in the track index's build worker,
    // with its own connection to the same store; after each build the heap pages V8 freed in
    // this thread (the sync's and the build's garbage) are returned (ADR 0100, amended); the
    // figures' fingerprints and passages go to a file the machine's processes share (ADR 0162);
    // in a cluster that file is published by the lease holder and taken by every other process
    // instead of reading every result (ADR 0162 amended)
    const cluster = config.DATABASE_URL && config.CATALOG_CLUSTER_SYNC ? { publisher: catalog.cluster, prefetch } : undefined;
    indexes = createCatalogIndexes(catalog, analysis?.service, {
      tracks: { logger, analysisStore: analysis?.service ? config : undefined, releaseFreedPages: true, figuresDir: figuresDir(config), cluster },
    });
    sitemaps = siteSitemaps(indexes.catalogIndex, config);
    if (roles.catalogIndex !== false) stops.push(warmIndexes(catalog, indexes, analysis?.service));
    stops.push(indexes.tracks.stop);
  }

  let leads: LeadsService | undefined;
  if (roles.leads) {
    const worker = roles.worker ?? config.OUTBOX_WORKER;
    leads = await startLeads({ config: { ...config, OUTBOX_WORKER: worker }, logger }, { postgres, ...opts.leads });
  }
  const soundsLike = roles.soundsLike ? createSoundsLike(config, logger, { cluster: opts.cluster, postgres }) : undefined;

  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    catalog,
    leads,
    analysis: analysis?.service,
    indexes,
    sitemaps,
    soundsLike,
    // a getter: an analyzer started later (the store was down at start) is the one returned
    get analyzer() {
      return analysis?.analyzer();
    },
    close: (closeOpts) =>
      (closing ??= (async () => {
        for (const stop of stops) stop();
        analysis?.stop();
        await Promise.allSettled([
          catalog?.close(),
          leads?.close({ deadlineMs: closeOpts?.deadlineMs }),
          analysis?.analyzer()?.stop({ deadlineMs: closeOpts?.deadlineMs }),
          soundsLike?.close(),
        ]);
        await analysis?.service.close();
        await postgres?.end().catch(() => {});
      })()),
  };
}

/** Where the track index's figures files are (ADR 0162): the machine's processes share them. */
const figuresDir = (config: Pick<Config, "DATA_DIR">) => path.join(config.DATA_DIR, "catalog", "index");

/**
 * Keeps the indexes warm: the album index is rebuilt when the snapshot changes, and the track
 * index in the background. Build them now and on every change event (ADR 0084), so a visitor's
 * request never pays for the rebuild (seconds at 250,000 albums). Deferred, so the sync that
 * changed the data is not held up, and changes in one turn of the event loop cost one rebuild.
 * Returns the stop.
 */
function warmIndexes(catalog: CatalogService, { catalogIndex, tracks }: CatalogIndexes, analysis: AnalysisService | undefined): () => void {
  let warmer: NodeJS.Immediate | undefined;
  const warm = () => {
    void catalogIndex.version;
    void tracks.ready();
  };
  warm();
  const schedule = () => {
    warmer ??= setImmediate(() => {
      warmer = undefined;
      warm();
    });
  };
  const unsubscribe = catalog.onChange(schedule);
  // new analysis results, stored by any process: the index reads them without waiting for a
  // visitor (issue #42, ADR 0151: like= answers have them within 10 s p99)
  const unwatch = analysis?.watch(schedule);
  return () => {
    unwatch?.();
    unsubscribe();
    clearImmediate(warmer);
  };
}

/**
 * The analysis results, read wherever the catalog is served; they are made where the catalog
 * is synced, or by `npm run analyzer` (roles.analyzer on a follower). When the results'
 * database cannot be reached at start (DATABASE_URL down), the site serves without analysis
 * (sheets show no tempo or key) and tries again every 30 s, as the outbox opens lazily: a
 * start never fails for it.
 */
async function startAnalysis(opts: ServiceOptions, logger: Logger, catalog: CatalogService, postgres: SharedPostgres | undefined) {
  const { config, roles } = opts;
  const analyse = roles.analyzer ?? (!roles.followCatalog && config.ANALYSIS_WORKER);
  let analyzer: Analyzer | undefined;
  let removeStage: (() => void) | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const open = async () => {
    const store = await openAnalysisStore(config, { postgres });
    const service = await createAnalysisLookup(store, { logger });
    if (!analyse) return { service };
    // the sample's shipped results, before the stage walks (issue #19: figures at once); only
    // when the albums are the sample's (ALBUMS_URL unset): other catalogs' audio is not the sample's
    if (!config.ALBUMS_URL && fs.existsSync(samplePaths(config.DATA_DIR).dir)) {
      await seedSampleAnalysis(store, samplePaths(config.DATA_DIR).media)
        .then((n) => n && logger.info({ results: n }, "sample analysis results stored"))
        .catch((error: unknown) => logger.error({ err: errorMessage(error) }, "could not store the sample analysis results"));
    }
    const started = startAnalyzer({ config, logger, store, ...opts.analyzer });
    // The sample audio is written in a worker thread after start-up (so the first page does
    // not wait for it): the stage starts once it is there, instead of recording every sample
    // track as unreadable and retrying a minute later. At once when nothing is being written.
    void sampleMediaReady(config.DATA_DIR)
      .catch(() => undefined)
      .then(() => {
        if (!closed) removeStage = catalog.addStage(started.stage);
      });
    return { service, analyzer: started };
  };
  let service: AnalysisService;
  try {
    ({ service, analyzer } = await open());
  } catch (error) {
    const unavailable = deferredAnalysis(describeAnalysisStore(config));
    service = unavailable;
    logger.error({ err: errorMessage(error), retryInSeconds: 30 }, "audio analysis unavailable: its store cannot be opened");
    const retry = () => {
      retryTimer = setTimeout(() => {
        open()
          .then((opened) => {
            if (closed) return void opened.analyzer?.stop({ deadlineMs: 0 }).finally(() => opened.service.close());
            unavailable.attach(opened.service);
            analyzer = opened.analyzer;
            logger.info("audio analysis available: its store is open");
          })
          .catch(retry);
      }, 30_000);
      retryTimer.unref();
    };
    retry();
  }
  return {
    service,
    analyzer: () => analyzer,
    /** no further retry or stage start; the caller stops the analyzer and closes the service */
    stop() {
      closed = true;
      clearTimeout(retryTimer);
      removeStage?.();
    },
  };
}
