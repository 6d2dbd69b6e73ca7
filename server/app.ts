import fs from "node:fs";
import path from "node:path";
import http, { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { pinoHttp } from "pino-http";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { trustProxySetting } from "../app/.server/config.ts";
import type { Logger } from "../app/.server/logger.ts";
import { appServices, createServices, loadConfig } from "../app/.server/services.ts";
import {
  requestContext,
  servicesContext,
  type AppServices,
} from "../app/.server/context.ts";
import { isStaticPage } from "../app/lib/static-pages.ts";
import { mediaOrigins, securityHeaders } from "./security.ts";
import { createPageCache, createPageStore } from "./page-cache.ts";
import { buildIdentity, createSharedCacheHeaders } from "./shared-cache.ts";
import { startCachePurger } from "./cache-purge.ts";
import { createCatalogPageCache, DEFAULT_TTL_MS as CATALOG_PAGE_TTL_MS } from "./catalog-page-cache.ts";
import { createPageAdmission } from "./page-admission.ts";
import { createRenderBudget, type RenderBudget } from "./render-budget.ts";
import { createImageHandler } from "./images.ts";
import { serviceWorkerHandler } from "./service-worker.ts";
import { answerUnparsableRequests, requestGuard, requestLimits, sendRefusal } from "./request-guard.ts";
import { productionHandler, reactRouterHandler } from "./react-router-handler.ts";
import { readinessHandler } from "./readiness.ts";
import { createRenderTurns, type RenderTurns } from "./render-turns.ts";
import { isSoundsLikeUpload, soundsLikeUpload, type UploadError } from "./sounds-like.ts";
import { answerClusterScrapes, createSiteMetrics, type SiteMetrics } from "./metrics.ts";
import { listenForScrapes } from "./metrics-listener.ts";
import { listen, sharesPortByKernel, shutdown } from "./lifecycle.ts";
import { balanceConnections, primaryChannel } from "./connection-balance.ts";

export interface StartOptions {
  /** Present in development: Vite serves the client modules and hot-reloads the app. */
  vite?: ViteDevServer;
  /** Directory holding client/ and server/ of the build (default: $BUILD_DIR or ./build). */
  buildDir?: string;
  env?: Record<string, string | undefined>;
  /**
   * Set by server.ts in each of WEB_CONCURRENCY > 1 cluster workers (ADR 0081). `worker` is
   * the process's slot (1..N; a replacement takes its predecessor's); `syncing` is true for
   * the one process that syncs the catalog and runs the outbox worker.
   */
  cluster?: { worker: number; syncing: boolean };
}

export interface RunningServer {
  server: Server;
  url: string;
  services: AppServices;
  close(): Promise<void>;
}

/** What a client reads for a refusal raised by a handler or a static file. */
const ERROR_REASONS: Record<number, string> = {
  400: "Bad request",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  413: "Request body too large",
  414: "URI too long",
  415: "Unsupported media type",
  416: "Range not satisfiable",
  429: "Too many requests",
  431: "Request header fields too large",
};

/**
 * Settings of one machine or process that no page prints: left out of the validators'
 * configuration fingerprint, so that the origins of one cluster, which differ in them (a port,
 * a data folder, which one analyses), give the same ETag for the same page (ADR 0157 amended).
 */
const MACHINE_SETTINGS = new Set([
  "PORT",
  "HOST",
  "DATA_DIR",
  "WEB_CONCURRENCY",
  "METRICS_PORT",
  "METRICS_HOST",
  "LOG_LEVEL",
  "ANALYSIS_WORKER",
  "ANALYSIS_CONCURRENCY",
  "OUTBOX_WORKER",
  "DATABASE_POOL_MAX",
  "SHUTDOWN_TIMEOUT_SECONDS",
]);

const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

// Any error that escapes: a 4xx with a short reason for bad requests (serve-static's 403,
// 404, 405, …), a plain 500 otherwise, never a stack trace.
function answerUnhandledErrors(err: unknown, req: Request, res: Response, next: NextFunction) {
  if (res.headersSent) return next(err);
  const e = (typeof err === "object" && err ? err : {}) as { status?: unknown; expose?: unknown; message?: unknown };
  const status = typeof e.status === "number" && e.status >= 400 && e.status < 600 ? e.status : 500;
  if (status >= 500) req.log.error({ err }, "unhandled error");
  const reason =
    status >= 500
      ? "Internal server error"
      : (ERROR_REASONS[status] ?? (e.expose && typeof e.message === "string" ? e.message : STATUS_CODES[status]) ?? "Bad request");
  sendRefusal(res, { status, reason });
}

/**
 * The page caches (ADR 0002, ADR 0080): static pages and catalog views, rendered once for
 * everyone (ADR 0119) and kept compressed, in one byte budget.
 */
function pageCaches(
  services: AppServices,
  renderForCache: (pageUrl: string, ip: string, log: Logger) => Promise<globalThis.Response>,
  budget: RenderBudget,
  alone: boolean,
  metrics: SiteMetrics | undefined,
) {
  const { config, logger } = services;
  // Static pages and catalog pages share one byte budget (ADR 0080).
  const pages = createPageStore({
    maxBytes: config.PAGE_CACHE_MAX_BYTES,
    onError: (err, key) => logger.error({ err, key }, "page render for the cache failed"),
  });
  metrics?.watch({ pageStore: pages });
  const admission = createPageAdmission({ maxKeys: config.PAGE_CACHE_SEEN_MAX_KEYS, windowMs: CATALOG_PAGE_TTL_MS });
  const cache = createPageCache({
    store: pages,
    ttlMs: 60_000,
    isCacheable: isStaticPage,
    render: (pagePath) => renderForCache(pagePath, "127.0.0.1", logger),
  });
  const catalogPages = createCatalogPageCache({
    store: pages,
    catalogIndex: services.catalogIndex,
    render: (url, req) => renderForCache(url, req.ip ?? "", req.log),
    // an open album sheet shows analysis results (issue #9): rendered again when new ones land
    analysisVersion: services.analysis ? () => services.analysis!.version : undefined,
    // the track view also shows the track index's figures, refreshed after the analysis moves
    trackIndexVersion: () => {
      const stats = services.tracks.stats();
      return stats ? `${stats.catalogVersion}:${stats.analysisVersion}` : "building";
    },
    // issue #18, ADR 0085: stored on a second ask; a miss within the client's render budget
    admission: metrics ? metrics.countAdmission(admission) : admission,
    budget,
    // ADR 0115: one process leaves a core to the thread pool; a cluster's workers take them all
    compressOffThread: alone,
  });
  return [cache.middleware, catalogPages.middleware];
}

/** Builds the Express app around already-started services; `metrics` (METRICS_PORT set, issue #31) times and counts its requests. */
export function createApp(
  services: AppServices,
  opts: StartOptions = {},
  metrics?: SiteMetrics,
  // a process alone renders one page a turn; a cluster's worker only while connections arrive
  // (server/render-turns.ts; start() tells it of each accepted connection)
  turns: RenderTurns = createRenderTurns({ whileConnecting: Boolean(opts.cluster) }),
) {
  const { config, logger } = services;
  const dev = Boolean(opts.vite);
  const buildDir = path.resolve(opts.buildDir ?? process.env.BUILD_DIR ?? "build");
  const clientDir = path.join(buildDir, "client");

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxySetting(config.TRUST_PROXY));
  // One structured log line per request.
  app.use(
    pinoHttp({
      logger,
      // 503 is a deliberate answer (a lead that cannot be stored, a busy thumbnail queue, not
      // ready): its cause is logged once by the service that knows it (issue #15), not per request
      customLogLevel: (_req, res, err) => {
        // recorded as the request log's line is (issue #31, ADR 0120): no listener of its own
        metrics?.record(res);
        return err || (res.statusCode >= 500 && res.statusCode !== 503) ? "error" : res.statusCode >= 400 ? "warn" : "info";
      },
      serializers: {
        req: (req) => ({ method: req.method, url: req.url, id: req.id }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(
    securityHeaders({ dev, mediaOrigins: mediaOrigins(config.MEDIA_URL, config.FILM_MEDIA_URL) }),
  );
  // Method, target, Host and body are checked (and the body read, bounded) before anything
  // else sees the request: issue #7, server/request-guard.ts.
  app.use(requestGuard(requestLimits(config), { streamed: isSoundsLikeUpload }));
  app.use(compression());

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  app.get("/readyz", readinessHandler(services));

  // DESIGN.md §3, deviation 3: the footer's old hyphen-less path, and the spec's "Our Team"
  // (/team, never a page: the people who lead the company are on /board; issue #41).
  // A permanent answer a shared cache may keep (ADR 0119), a day, even while the origin is down.
  const permanentRedirect = (to: string) => (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "public, max-age=86400, s-maxage=86400, stale-if-error=604800");
    res.redirect(301, to);
  };
  app.get(["/aibrands", "/aibrands/"], permanentRedirect("/ai-brands"));
  app.get(["/team", "/team/"], permanentRedirect("/board"));

  // Sample media generated into DATA_DIR/media (and any operator-provided files there).
  app.use(
    "/media",
    express.static(path.join(config.DATA_DIR, "media"), { maxAge: "1d", fallthrough: false }),
  );

  // Catalog thumbnails: resized, AVIF/WebP by Accept, cached (server/images.ts).
  app.get("/img", createImageHandler({ config, logger, onEncode: metrics && (() => metrics.thumbnailEncoded()) }));

  if (opts.vite) {
    app.use(opts.vite.middlewares);
  } else {
    // The service worker (product-rules §1), generated from the build's asset list; before the
    // static files so it always carries its no-cache and scope headers.
    app.get("/sw.js", serviceWorkerHandler(clientDir));
    // Vite's hashed assets (directly in assets/) never change: cache them for a year. Files
    // from public/assets/<folder>/ keep fixed names (product-rules §3 logo paths), so they get a day.
    const assetsDir = path.join(clientDir, "assets");
    app.use(
      "/assets",
      express.static(assetsDir, {
        fallthrough: false,
        setHeaders: (res, filePath) => {
          res.setHeader(
            "Cache-Control",
            path.dirname(filePath) === assetsDir ? "public, max-age=31536000, immutable" : "public, max-age=86400",
          );
        },
      }),
    );
    // The build's other public files (favicon, icons, manifest, …). Looked up on disk only for
    // paths under the build's top-level names, read once: express.static would stat every
    // request's path (a trip to the thread pool, and an error with its stack when the file is
    // not there, 3 % of an uncached page's CPU, issue #18).
    const publicNames = new Set(fs.readdirSync(clientDir).filter((name) => name !== "assets"));
    const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req, res, next) => (publicNames.has(req.path.split("/", 2)[1] ?? "") ? publicFiles(req, res, next) : next()));
  }

  const loadContext = (ip: string, log: Logger, uploadError?: UploadError) => {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    context.set(requestContext, { ip, log, ...(uploadError ? { uploadError } : {}) });
    return context;
  };

  // issue #18, ADR 0085: uncached renders per client (cached pages and files are never counted)
  const budget = createRenderBudget({
    limit: config.RENDER_RATE_LIMIT,
    windowSeconds: config.RENDER_RATE_WINDOW_SECONDS,
    ipv6Prefix: config.LEADS_RATE_IPV6_PREFIX,
    cluster: config.WEB_CONCURRENCY > 1,
    logger,
  });
  // one handler, its route tables derived once, for the caches' renders and every other request
  const render = dev
    ? createRequestHandler(() => opts.vite!.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>, "development")
    : productionHandler(loadBuild);
  // issue #18, ADR 0115: renders take turns of the event loop so that new connections are
  // accepted while keep-alive clients keep the process busy (server/render-turns.ts): a process
  // alone all the time, a cluster's worker while connections arrive (ADR 0121, amended). Alone,
  // a page asked once is also compressed on the thread pool; in a cluster every core has a
  // process, and that cost the workers throughput, measured.
  const alone = !opts.cluster;
  metrics?.watch({ renderQueue: turns });
  const handle: typeof render = (request, context) => turns.run(() => render(request, context));
  // ADR 0119: Cache-Control, ETag (a 304 without a render) and Surrogate-Key per page kind;
  // CACHE_PURGE_URL: the shared cache is told what changed
  const buildId = dev ? "dev" : buildIdentity(clientDir);
  if (config.CACHE_PURGE_URL) {
    startCachePurger({
      url: config.CACHE_PURGE_URL,
      logger,
      dataDir: config.DATA_DIR,
      buildId,
      catalogVersion: () => services.catalogIndex.version,
      analysisVersion: services.analysis ? () => services.analysis!.version : undefined,
    });
  }
  app.use(
    createSharedCacheHeaders({
      buildId,
      // the configuration a page may print; credentials never enter even a hash that is sent
      // (nor a machine's own settings, which no page prints: machines of one cluster differ in them, ADR 0157 amended)
      configId: buildIdentity(
        JSON.stringify(Object.fromEntries(Object.entries(config).filter(([name]) => !/PASSWORD|SECRET|SMTP_URL|DATABASE_URL|EMAIL|USERNAME|CLIENT_ID|POOL_ID|PURGE/.test(name) && !MACHINE_SETTINGS.has(name)))),
      ),
      // by content, equal on every machine serving the same version (ADR 0157 amended)
      catalogVersion: () => services.catalog.snapshot().contentId ?? services.catalogIndex.version,
      analysisVersion: services.analysis ? () => services.analysis!.marker ?? services.analysis!.version : undefined,
      trackIndexVersion: () => String(services.tracks.stats()?.resultsThrough ?? "building"),
    }).middleware,
  );
  if (!dev) {
    /** Renders a path for the caches: the same bytes for everyone, CSP by hashes (ADR 0119). */
    const renderForCache = (pageUrl: string, ip: string, log: Logger) =>
      handle(new Request(new URL(pageUrl, config.SITE_URL), { headers: { accept: "text/html" } }), loadContext(ip, log));
    for (const middleware of pageCaches(services, renderForCache, budget, alone, metrics)) app.use(middleware);
  }

  // issue #19: a reference file's upload, streamed and bounded by UPLOAD_LIMIT_BYTES; a refusal renders the form's page
  app.use(soundsLikeUpload({ service: () => services.soundsLike }));

  app.use(budget.middleware);
  app.use(
    reactRouterHandler({
      handle,
      getLoadContext: (req, res) => loadContext(req.ip ?? "", req.log, res.locals.uploadError as UploadError | undefined),
    }),
  );

  app.use(answerUnhandledErrors);

  return app;
}

/** Parses the configuration, starts the services (app/.server/services.ts) and listens. */
export async function start(opts: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(opts.env ?? process.env);
  const { cluster } = opts;
  // In a cluster, one process syncs and delivers; the others follow its catalog snapshots
  // and count the rate limit in the primary (ADR 0081). Alone, the process does everything.
  const built = await createServices({
    config,
    roles:
      cluster && !cluster.syncing
        ? { catalog: true, followCatalog: true, leads: true, worker: false, soundsLike: true }
        : { catalog: true, leads: true, soundsLike: true },
    cluster: Boolean(cluster),
    leads: cluster ? { clusterRateLimit: true } : undefined,
    logBindings: cluster ? { pid: process.pid, worker: cluster.worker } : undefined,
  });
  const { logger } = built;
  const services = appServices(built);
  // issue #31, ADR 0120: metrics only when METRICS_PORT is set; alone, this process serves them on
  // their own listener; in a cluster, the primary asks each worker for them (server/metrics-cluster.ts)
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : createSiteMetrics({ config, logger, catalog: services.catalog, leads: services.leads, analyzer: () => built.analyzer, reportsStores: !cluster || cluster.syncing });
  const scrapes = metrics && cluster ? answerClusterScrapes(metrics.registry, logger) : undefined;
  const metricsListener =
    metrics && !cluster
      ? await listenForScrapes({
          host: config.METRICS_HOST,
          port: config.METRICS_PORT!,
          expose: async () => ({ contentType: metrics.registry.contentType, body: await metrics.registry.metrics() }),
          onError: (err) => logger.error({ err }, "metrics: could not be collected"),
        })
      : undefined;
  if (metricsListener) logger.info({ url: `http://${config.METRICS_HOST}:${metricsListener.port}/metrics` }, "metrics listening");
  const turns = createRenderTurns({ whileConnecting: Boolean(cluster) });
  const app = createApp(services, opts, metrics, turns);

  // issue #31, ADR 0120: a request's time starts before Express sees it, from the server's own
  // handler rather than a middleware layer (a layer of Express's router cost more than the
  // metrics themselves on a cached page)
  const handler = metrics
    ? (req: IncomingMessage, res: ServerResponse) => {
        metrics.arrive(req, res);
        app(req, res);
      }
    : app;
  const server = http.createServer(handler);
  // a cluster's worker renders in turns while connections arrive (server/render-turns.ts)
  server.on("connection", turns.connected);
  await listen(server, config, Boolean(cluster));
  // the kernel spreads a cluster's connections by a hash, not by load: the workers even them
  // out through the primary (server/connection-balance.ts, ADR 0121)
  const balance = cluster && sharesPortByKernel(config, true) ? balanceConnections(server, primaryChannel()) : undefined;
  if (balance) metrics?.watch({ connections: balance });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  // nodeEnv: React renders several times slower with its development build; the operator sees
  // which one this process loaded.
  logger.info({ url, port, nodeEnv: process.env.NODE_ENV }, "server listening");

  answerUnparsableRequests(server, requestLimits(config));

  let closing: Promise<void> | undefined;
  const close = () => {
    balance?.stop();
    return (closing ??= shutdown({ server, services: built, logger, timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000 }).then(async () => {
      // a cluster worker's last counts reach the primary before it exits (ADR 0120)
      await scrapes?.final();
      await metricsListener?.close();
    }));
  };
  return { server, url, services, close };
}
