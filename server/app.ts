import path from "node:path";
import type { Server } from "node:http";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { pinoHttp } from "pino-http";
import { createRequestHandler as createExpressHandler } from "@react-router/express";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { trustProxySetting } from "../app/.server/config.ts";
import type { Logger } from "../app/.server/logger.ts";
import { createServices, loadConfig } from "../app/.server/services.ts";
import {
  requestContext,
  servicesContext,
  type AppServices,
} from "../app/.server/context.ts";
import { isStaticPage } from "../app/lib/static-pages.ts";
import { mediaOrigins, securityHeaders } from "./security.ts";
import { createPageCache, NONCE_PLACEHOLDER } from "./page-cache.ts";
import { createImageHandler } from "./images.ts";
import { serviceWorkerHandler } from "./service-worker.ts";

export interface StartOptions {
  /** Present in development: Vite serves the client modules and hot-reloads the app. */
  vite?: ViteDevServer;
  /** Directory holding client/ and server/ of the build (default: $BUILD_DIR or ./build). */
  buildDir?: string;
  env?: Record<string, string | undefined>;
}

export interface RunningServer {
  server: Server;
  url: string;
  services: AppServices;
  close(): Promise<void>;
}

const loadBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

/** Builds the Express app around already-started services. */
export function createApp(services: AppServices, opts: StartOptions = {}) {
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
      customLogLevel: (_req, res, err) =>
        err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
      serializers: {
        req: (req) => ({ method: req.method, url: req.url, id: req.id }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(
    securityHeaders({ dev, mediaOrigins: mediaOrigins(config.MEDIA_URL, config.FILM_MEDIA_URL) }),
  );
  app.use(compression());

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });

  // DESIGN.md §3, deviation 3: the footer's old hyphen-less path.
  app.get(["/aibrands", "/aibrands/"], (_req, res) => res.redirect(301, "/ai-brands"));

  // Sample media generated into DATA_DIR/media (and any operator-provided files there).
  app.use(
    "/media",
    express.static(path.join(config.DATA_DIR, "media"), { maxAge: "1d", fallthrough: false }),
  );

  // Catalog thumbnails: resized, AVIF/WebP by Accept, cached (server/images.ts).
  app.get("/img", createImageHandler({ config, logger }));

  if (opts.vite) {
    app.use(opts.vite.middlewares);
  } else {
    // The service worker (spec §1), generated from the build's asset list; before the
    // static files so it always carries its no-cache and scope headers.
    app.get("/sw.js", serviceWorkerHandler(clientDir));
    // Vite's hashed assets (directly in assets/) never change: cache them for a year. Files
    // from public/assets/<folder>/ keep fixed names (spec §3 logo paths), so they get a day.
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
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  const loadContext = (nonce: string, ip: string, log: Logger) => {
    const context = new RouterContextProvider();
    context.set(servicesContext, services);
    context.set(requestContext, { nonce, ip, log });
    return context;
  };

  if (!dev) {
    const render = createRequestHandler(loadBuild, "production");
    const cache = createPageCache({
      ttlMs: 60_000,
      isCacheable: isStaticPage,
      render: (pagePath) =>
        render(
          new Request(new URL(pagePath, config.SITE_URL), { headers: { accept: "text/html" } }),
          loadContext(NONCE_PLACEHOLDER, "127.0.0.1", logger),
        ),
    });
    app.use(cache.middleware);
  }

  app.use(
    createExpressHandler({
      build: dev
        ? () => opts.vite!.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
        : loadBuild,
      mode: dev ? "development" : "production",
      getLoadContext: (req, res) => loadContext(String(res.locals.nonce), req.ip ?? "", req.log),
    }),
  );

  // Any error that escapes: a 4xx with a reason for bad requests, a plain 500 otherwise,
  // never a stack trace.
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const status =
      typeof err === "object" && err && "status" in err && typeof err.status === "number"
        ? err.status
        : 500;
    if (status >= 500) req.log.error({ err }, "unhandled error");
    res.status(status).type("text/plain");
    res.send(status === 404 ? "Not found" : status < 500 ? "Bad request" : "Internal server error");
  });

  return app;
}

/** Parses the configuration, starts the services (app/.server/services.ts) and listens. */
export async function start(opts: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(opts.env ?? process.env);
  const built = await createServices({ config, roles: { catalog: true, leads: true } });
  const { logger } = built;
  const services: AppServices = { config, logger, catalog: built.catalog!, leads: built.leads! };
  const app = createApp(services, opts);

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  logger.info({ url, port }, "server listening");

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await built.close();
      logger.info("server stopped");
    })());
  return { server, url, services, close };
}
