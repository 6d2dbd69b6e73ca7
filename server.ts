// Express entry. `node server.ts` serves the production build (building it first when it is
// missing or older than the sources); `node server.ts --dev` serves through Vite with HMR.
// Run through npm (or node_modules/.bin/node): the project brings Node 24 (DESIGN.md §1).
// WEB_CONCURRENCY=N (N > 1) runs N server processes sharing the port (node:cluster, ADR 0081).
import { spawnSync } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { RateLimiterClusterMaster } from "rate-limiter-flexible";
import { ConfigError, parseConfig, type Config } from "./app/.server/config.ts";
import { createLogger } from "./app/.server/logger.ts";
import { allocatorDefaults } from "./server/allocator.ts";
import { portIsFree } from "./server/lifecycle.ts";
import { CONNECTION_SHARE, fairShare, isConnectionsReport, type ConnectionShare } from "./server/connection-balance.ts";

const root = import.meta.dirname;
/** a worker's message to the primary: it listens on the port itself (ADR 0121) */
const WORKER_LISTENING = "northbeat:worker-listening";
const dev = process.argv.includes("--dev");
// `npm start` serves the production build: React and Express read NODE_ENV when they load
// (below, dynamically), and without it React renders with its development build, 2–3× slower
// per page. An explicit NODE_ENV is kept.
if (!dev) process.env.NODE_ENV ??= "production";
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
const serverEntry = path.join(buildDir, "server", "index.js");

/** Newest modification time under the given paths (files only). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) if (name !== "node_modules") visit(path.join(p, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach((p) => visit(path.join(root, p)));
  return newest;
}

function buildIsStale(): boolean {
  if (!fs.existsSync(serverEntry)) return true;
  const built = fs.statSync(serverEntry).mtimeMs;
  const sources = newestMtime([
    "app",
    "server",
    "public",
    "vite.config.ts",
    "react-router.config.ts",
    "package-lock.json",
  ]);
  return sources > built;
}

/**
 * SIGTERM or SIGINT: a graceful shutdown (server/app.ts: in-flight requests and the current
 * delivery finish within SHUTDOWN_TIMEOUT_SECONDS), then exit 0. A repeated signal (npm and
 * the terminal both forward Ctrl-C) does not cut the shutdown short.
 */
function onShutdownSignal(close: () => Promise<void>) {
  let stopping = false;
  const stop = (signal: NodeJS.Signals | "disconnect") => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    close().then(
      () => process.exit(0),
      (error) => {
        console.error("shutdown failed:", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // A cluster worker whose primary has gone (killed) gets no more connections: it finishes
  // what it has and exits rather than linger.
  if (cluster.isWorker) process.on("disconnect", () => stop("disconnect"));
}

/** The cluster worker's slot (1..N), passed by the primary; slot 1 syncs and delivers. */
const WORKER_SLOT_ENV = "SERVER_CLUSTER_WORKER";
/** A worker that ran this long before exiting was not crash-looping: replace it at once. */
const STABLE_UPTIME_MS = 30_000;
/** Replacement delays after quick exits in a row: 1 s, 2 s, 4 s, … at most 30 s. */
const RESTART_BASE_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** After SHUTDOWN_TIMEOUT_SECONDS, the moment a worker gets to exit before it is killed. */
const EXIT_GRACE_MS = 5_000;

/**
 * The cluster primary (ADR 0081): it serves nothing itself. It forks slot 1 (catalog sync and
 * outbox worker) first and the others once slot 1 listens, so that on a first start the
 * followers find the snapshots slot 1 made; replaces a worker that dies (slot 1's replacement
 * takes over its roles), with a growing delay when they die quickly in a row; keeps the form
 * rate limit's count for all of them (rate-limiter-flexible over IPC); and on SIGTERM or
 * SIGINT lets every worker shut down gracefully, then exits 0 (1 if one did not exit cleanly).
 */
function runPrimary(config: Config) {
  const log = createLogger(config.LOG_LEVEL).child({ pid: process.pid, cluster: "primary" });
  new RateLimiterClusterMaster();
  // issue #31, ADR 0120: one scrape gives the whole machine (the workers' metrics summed here)
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : import("./server/metrics-cluster.ts")
          .then((m) => m.startClusterMetrics({ host: config.METRICS_HOST, port: config.METRICS_PORT!, log }))
          .then((started) => {
            log.info({ url: `http://${config.METRICS_HOST}:${started.listener.port}/metrics` }, "metrics listening");
            return started;
          })
          .catch((error: unknown) => {
            log.fatal({ err: error }, "cluster: the metrics listener could not start (METRICS_HOST, METRICS_PORT)");
            process.exit(1);
          });
  const workers = new Map<number, Worker>();
  const quickExits = new Map<number, number>();
  /** each worker's last report of its open connections, by slot */
  const openConnections = new Map<number, number>();
  const restarts = new Set<NodeJS.Timeout>();
  let listened = false;
  let stopping = false;
  let cleanExits = true;

  const fork = (slot: number) => {
    // glibc's settings for the index's memory, unless the operator set them (server/allocator.ts)
    const worker = cluster.fork({ ...allocatorDefaults(process.env), [WORKER_SLOT_ENV]: String(slot) });
    const startedAt = Date.now();
    workers.set(slot, worker);
    // an IPC message (the rate limit's answer) to a worker that just died must not crash us
    worker.on("error", (error) => log.warn({ err: error, worker: slot }, "cluster: worker channel error"));
    let up = false;
    const onListening = () => {
      if (up) return;
      up = true;
      log.info({ worker: slot, workerPid: worker.process.pid }, "cluster: worker listening");
      if (listened) return;
      listened = true;
      for (let other = 2; other <= config.WEB_CONCURRENCY; other++) if (!stopping) fork(other);
    };
    // the primary's own hand-off says so by "listening"; a worker listening on the port itself
    // (SO_REUSEPORT, ADR 0121) sends WORKER_LISTENING
    worker.once("listening", onListening);
    worker.on("message", (message: unknown) => {
      if (message === WORKER_LISTENING) onListening();
      // the workers even out their connections (server/connection-balance.ts, ADR 0121)
      else if (isConnectionsReport(message)) {
        openConnections.set(slot, message.open);
        if (worker.isConnected()) worker.send({ type: CONNECTION_SHARE, share: fairShare(openConnections.values()) } satisfies ConnectionShare);
      }
    });
    worker.once("exit", (code, signal) => {
      if (workers.get(slot) === worker) {
        workers.delete(slot);
        openConnections.delete(slot);
      }
      if (stopping) {
        if (code !== 0) cleanExits = false;
        if (workers.size === 0) process.exit(cleanExits ? 0 : 1);
        return;
      }
      if (!listened) {
        // Nothing ever listened (a port in use, a bad build): fail like a single process.
        log.fatal({ worker: slot, code, signal }, "cluster: the first server process failed to start");
        process.exit(1);
      }
      const quick = Date.now() - startedAt < STABLE_UPTIME_MS ? (quickExits.get(slot) ?? 0) : 0;
      quickExits.set(slot, quick + 1);
      const delayMs = quick === 0 ? 0 : Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** (quick - 1));
      log.error(
        { worker: slot, workerPid: worker.process.pid, code, signal, restartInMs: delayMs, syncing: slot === 1 },
        "cluster: server process exited; starting a replacement",
      );
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (stopping) return;
        fork(slot);
        void metrics?.then((m) => m.restarts.inc());
      }, delayMs);
      restarts.add(timer);
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: workers.size }, "cluster: shutting down every server process");
    for (const timer of restarts) clearTimeout(timer);
    if (workers.size === 0) process.exit(0);
    // A worker in a terminal's process group got the SIGINT itself; a second signal is ignored.
    for (const worker of workers.values()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      log.error({ workers: workers.size }, "cluster: server processes still running after the shutdown deadline were killed");
      for (const worker of workers.values()) worker.process.kill("SIGKILL");
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000 + EXIT_GRACE_MS).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  log.info({ workers: config.WEB_CONCURRENCY }, "cluster: starting server processes");
  void portIsFree(config).then((free) => {
    if (free) return fork(1);
    log.fatal({ port: config.PORT, host: config.HOST }, "cluster: the port is in use");
    process.exit(1);
  });
}

/** The parsed environment; a bad value prints the variables at fault and exits 1. */
function configOrExit(): Config {
  try {
    return parseConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

if (dev) {
  if (configOrExit().WEB_CONCURRENCY > 1) console.log("WEB_CONCURRENCY is ignored with --dev: one process serves through Vite");
  const { createServer } = await import("vite");
  const vite = await createServer({ root, server: { middlewareMode: true }, appType: "custom" });
  const mod = await vite.ssrLoadModule(path.join(root, "server/app.ts"));
  const running = await mod.start({ vite, env: { NODE_ENV: "development", ...process.env } });
  onShutdownSignal(async () => {
    await running.close();
    await vite.close();
  });
} else if (cluster.isWorker) {
  // One of WEB_CONCURRENCY processes: the primary built the site and checked the configuration.
  const slot = Number(process.env[WORKER_SLOT_ENV]);
  const running = import(pathToFileURL(serverEntry).href).then((mod) =>
    mod.start({ buildDir, cluster: { worker: slot, syncing: slot === 1 } }),
  );
  // Listening for the primary's SIGTERM from the start: a worker told to stop while it is
  // still starting finishes starting, then shuts down gracefully like the others.
  onShutdownSignal(async () => (await running).close());
  await running;
  process.send?.(WORKER_LISTENING);
} else {
  const config = configOrExit();
  if (process.env.SKIP_BUILD !== "1" && buildIsStale()) {
    console.log("Building the site (the build is missing or older than the sources)...");
    const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  // A first start on a full DATA_DIR stops here with the reason, before any process writes
  // half a sample (issue #15).
  const { checkSampleSpace, SampleSpaceError, usesSampleData } = await import("./app/.server/catalog/sample/ensure.ts");
  const exitOnSpace = (error: unknown) => {
    if (!(error instanceof Error) || error.name !== SampleSpaceError.name) throw error;
    console.error(error.message);
    process.exit(1);
  };
  if (usesSampleData(config)) await checkSampleSpace(config.DATA_DIR).catch(exitOnSpace);
  if (config.WEB_CONCURRENCY > 1) runPrimary(config);
  else {
    const mod = await import(pathToFileURL(serverEntry).href);
    const running = await mod.start({ buildDir }).catch(exitOnSpace);
    onShutdownSignal(() => running.close());
  }
}
