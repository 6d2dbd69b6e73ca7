import fs from "node:fs";
import { ConfigError, parseConfig, type Config } from "./config.ts";
import { createLogger, type Logger } from "./logger.ts";
import { startCatalog, type CatalogDeps, type CatalogService } from "./catalog/service.ts";
import { catalogIndexFor } from "./catalog/index.ts";
import { trackIndexFor } from "./catalog/tracks/track-index.ts";
import { startLeads, type LeadsOptions, type LeadsService } from "./leads/service.ts";
import { startAnalyzer, type Analyzer, type AnalyzerOptions } from "./analysis/stage/analyzer.ts";
import { createAnalysisPool, type AnalysisPool } from "./analysis/pool.ts";
import { createAnalysisLookup, type AnalysisService } from "./analysis/stage/lookup.ts";
import { deferredAnalysis } from "./analysis/stage/deferred.ts";
import { describeAnalysisStore, openAnalysisStore } from "./analysis/stage/open.ts";
import { sampleMediaReady, samplePaths } from "./catalog/sample/ensure.ts";
import { seedSampleAnalysis } from "./catalog/sample/sample-analysis.ts";
import { errorMessage } from "./catalog/errors.ts";

/**
 * The one composition root (issue #7): the web server and every command (`worker`, `outbox`,
 * `sample`, `catalog`) build their services here, from one parsed configuration, so the
 * wiring cannot drift between them again (it once did: `npm run worker` ignored
 * OUTBOX_LEASE_SECONDS because it had its own copy).
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
  /**
   * Stops the background work (sync, index warmer, delivery worker, analyzer), then closes
   * stores. `deadlineMs` (default SHUTDOWN_TIMEOUT_SECONDS) bounds the wait for the current
   * delivery and the running analyses; messages and tracks claimed but not finished are
   * released for the next worker or analyzer.
   */
  close(opts?: { deadlineMs?: number }): Promise<void>;
}

export async function createServices(opts: ServiceOptions): Promise<Services> {
  const { config, roles } = opts;
  const base = opts.logger ?? createLogger(config.LOG_LEVEL);
  const logger = opts.logBindings ? base.child(opts.logBindings) : base;

  let catalog: CatalogService | undefined;
  let indexWarmer: NodeJS.Immediate | undefined;
  let stopWarming: (() => void) | undefined;
  if (roles.catalog) {
    catalog = await startCatalog({ config, logger, follow: roles.followCatalog, ...opts.catalog });
  }
  if (catalog && roles.catalogIndex !== false) {
    // The index is rebuilt when the snapshot changes. Build it now and on every change event
    // (ADR 0084), so a visitor's request never pays for the rebuild (seconds at 250,000
    // albums). Deferred, so the sync that changed the data is not held up, and changes in one
    // turn of the event loop cost one rebuild.
    const catalogIndex = catalogIndexFor(catalog);
    const warmIndex = () => void catalogIndex.version;
    warmIndex();
    stopWarming = catalog.onChange(() => {
      indexWarmer ??= setImmediate(() => {
        indexWarmer = undefined;
        warmIndex();
      });
    });
  }

  // Results are read wherever the catalog is served; they are made where the catalog is
  // synced, or by `npm run analyzer` (roles.analyzer on a follower).
  let analysis: AnalysisService | undefined;
  let analyzer: Analyzer | undefined;
  let removeStage: (() => void) | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  if (catalog) {
    const catalogService = catalog;
    const analyse = roles.analyzer ?? (!roles.followCatalog && config.ANALYSIS_WORKER);
    const open = async () => {
      const store = await openAnalysisStore(config);
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
          if (!closed) removeStage = catalogService.addStage(started.stage);
        });
      return { service, analyzer: started };
    };
    try {
      ({ service: analysis, analyzer } = await open());
    } catch (error) {
      // The results' database cannot be reached (DATABASE_URL down at start): the site serves
      // without analysis (sheets show no tempo or key) and tries again every 30 s, as the
      // outbox opens lazily. A start never fails for it.
      const unavailable = deferredAnalysis(describeAnalysisStore(config));
      analysis = unavailable;
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
  }

  // The track view's index (issue #10) is built in the background at start and after each
  // catalog change, off the request path (seconds at 2.5 million tracks), with the analysis
  // results this process reads.
  let stopTracks: (() => void) | undefined;
  if (catalog && roles.catalogIndex !== false) {
    // the first full read of the analysis figures happens in the index's build worker, with its
    // own connection to the same store; after each build the heap pages V8 freed in this thread
    // (the sync's and the build's garbage) are returned (ADR 0100, amended)
    const tracks = trackIndexFor(catalog, analysis, { logger, analysisStore: analysis ? config : undefined, releaseFreedPages: true });
    void tracks.ready();
    const unsubscribe = catalog.onChange(() => void tracks.ready());
    stopTracks = () => {
      unsubscribe();
      tracks.stop();
    };
  }

  let leads: LeadsService | undefined;
  if (roles.leads) {
    const worker = roles.worker ?? config.OUTBOX_WORKER;
    leads = await startLeads({ config: { ...config, OUTBOX_WORKER: worker }, logger }, opts.leads);
  }

  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    catalog,
    leads,
    analysis,
    // a getter: an analyzer started later (the store was down at start) is the one returned
    get analyzer() {
      return analyzer;
    },
    close: (closeOpts) =>
      (closing ??= (async () => {
        stopWarming?.();
        stopTracks?.();
        clearImmediate(indexWarmer);
        closed = true;
        clearTimeout(retryTimer);
        removeStage?.();
        await Promise.allSettled([catalog?.close(), leads?.close({ deadlineMs: closeOpts?.deadlineMs }), analyzer?.stop({ deadlineMs: closeOpts?.deadlineMs })]);
        await analysis?.close();
      })()),
  };
}
