import http from "node:http";
import { Counter, type MetricObjectWithValues, type MetricValue, type Registry } from "prom-client";

/** The cluster primary asks a worker for its metrics (server/metrics-cluster.ts), over the cluster's IPC channel. */
export const CLUSTER_COLLECT = "site-metrics:collect";
/** A worker's answer, or its last counts as it shuts down (`final`). */
export const CLUSTER_SNAPSHOT = "site-metrics:snapshot";
export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];
export interface ClusterSnapshotMessage {
  type: typeof CLUSTER_SNAPSHOT;
  id: number;
  final: boolean;
  metrics: MetricsSnapshot;
}

/**
 * Issue #31, ADR 0120: the Prometheus exposition on a listener of its own
 * (METRICS_HOST:METRICS_PORT), never on the public port. Plain node:http, no Express: it answers
 * GET and HEAD /metrics and 404 otherwise, and nothing of the site runs on it. Used by a single
 * server process and by the cluster primary (server/metrics-cluster.ts).
 *
 * Kept free of the site's modules: server.ts imports it in the cluster primary through
 * metrics-cluster.ts, outside the build.
 */
export interface MetricsListener {
  /** the port it listens on (METRICS_PORT, or the one given for 0) */
  readonly port: number;
  close(): Promise<void>;
}

export interface Exposition {
  contentType: string;
  body: string;
}

export async function listenForScrapes(opts: {
  host: string;
  port: number;
  expose: () => Promise<Exposition>;
  onError: (error: unknown) => void;
}): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?", 1)[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: the exposition is at /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method not allowed\n");
      return;
    }
    opts.expose().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (error: unknown) => {
        opts.onError(error);
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("The metrics could not be collected\n");
      },
    );
  });
  // a scraper's keep-alive connection must not hold a shutdown
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : opts.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Worker replacements, counted by the cluster primary (server/metrics-cluster.ts); every
 * process's registry has it, so the name is in every exposition (0 in a single process).
 */
export function restartCounter(registry: Registry) {
  return new Counter({
    name: "server_worker_restarts_total",
    help: "Server processes the cluster primary started to replace one that exited (WEB_CONCURRENCY > 1). A single process is restarted by its supervisor instead: see process_start_time_seconds.",
    registers: [registry],
  });
}

