import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, collectDefaultMetrics, Registry, type Counter } from "prom-client";
import { CLUSTER_COLLECT, CLUSTER_SNAPSHOT, listenForScrapes, restartCounter, type ClusterSnapshotMessage, type MetricsListener, type MetricsSnapshot } from "./metrics-listener.ts";

/**
 * Issue #31, ADR 0120: with WEB_CONCURRENCY > 1 the machine is one scrape target. The cluster
 * primary listens on METRICS_PORT; a scrape asks every worker for its registry over the
 * cluster's IPC channel (server/metrics.ts answerClusterScrapes) and sums them with
 * prom-client's own aggregation (AggregatorRegistry.aggregate: `sum` unless a metric says
 * otherwise), with the primary's own process metrics and its count of worker replacements.
 *
 * A replaced worker's counts do not vanish: the primary keeps each worker's latest snapshot
 * (from every scrape, from a poll every POLL_MS, and from the worker's last message as it shuts
 * down); when a worker exits, the counters and histograms of its latest snapshot are added to
 * a "retired" total that every later scrape includes. A counter thus never goes down when a
 * worker is replaced, and is never counted twice (a worker's snapshot is either live or
 * retired, by its cluster id). What a worker killed without warning counted after its latest
 * snapshot is lost: at most POLL_MS of its requests. Gauges of an exited worker go with it.
 *
 * Kept free of the site's modules: server.ts imports it in the primary, outside the build.
 */

/** How often the primary refreshes its copy of each worker's counts between scrapes. */
const POLL_MS = 10_000;
/** A worker that does not answer within this is summed with its latest snapshot. */
const ANSWER_TIMEOUT_MS = 3_000;

type Snapshot = MetricsSnapshot;

export interface ClusterMetrics {
  /** the primary's counter of worker replacements (server_worker_restarts_total) */
  readonly restarts: Counter;
  /** the machine's exposition, as a scrape gets it */
  expose(): Promise<string>;
  readonly listener: MetricsListener;
  close(): Promise<void>;
}

/** Counters and histograms of a snapshot: what must keep adding up after its worker is gone. */
const cumulative = (snapshot: Snapshot) => snapshot.filter((m) => String(m.type) === "counter" || String(m.type) === "histogram");

/**
 * The sum of snapshots (AggregatorRegistry.aggregate), with the process start time of the
 * first one only (the primary's: prom-client omits the metric from a sum of processes).
 */
export async function sumSnapshots(own: Snapshot, others: Snapshot[]): Promise<Registry> {
  const first = own.map((m) => (m.name === "process_start_time_seconds" ? { ...m, aggregator: "first" as const } : m));
  const rest = others.map((s) => s.filter((m) => m.name !== "process_start_time_seconds"));
  return AggregatorRegistry.aggregate([first, ...rest]);
}

/**
 * The live workers' latest snapshots and the retired total: the bookkeeping of a cluster's
 * counts, apart from the IPC so that a test can drive it.
 */
export function createClusterCounts() {
  const live = new Map<number, Snapshot>();
  let retired: Snapshot = [];
  let retiring = Promise.resolve();
  return {
    /** a worker's latest snapshot (ignored once it has exited) */
    update(workerId: number, snapshot: Snapshot, exited: boolean) {
      if (!exited) live.set(workerId, snapshot);
    },
    /** a worker exited: its counters and histograms join the retired total, once */
    retire(workerId: number) {
      const last = live.get(workerId);
      live.delete(workerId);
      if (!last) return retiring;
      retiring = retiring.then(async () => {
        retired = await AggregatorRegistry.aggregate([retired, cumulative(last)]).getMetricsAsJSON();
      });
      return retiring;
    },
    /** the snapshots to sum now: every live worker's and the retired total */
    async snapshots(): Promise<Snapshot[]> {
      await retiring;
      return [...live.values(), retired];
    },
    liveWorkers: () => [...live.keys()],
  };
}

export async function startClusterMetrics(opts: {
  host: string;
  port: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}): Promise<ClusterMetrics> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const restarts = restartCounter(registry);
  const counts = createClusterCounts();
  const exited = new Set<number>();
  const waiting = new Map<number, { workerId: number; resolve: (s: Snapshot | undefined) => void }>();
  let nextId = 1;

  const onMessage = (worker: Worker, message: unknown) => {
    const m = message as Partial<ClusterSnapshotMessage> | null;
    if (m?.type !== CLUSTER_SNAPSHOT || !Array.isArray(m.metrics)) return;
    counts.update(worker.id, m.metrics, exited.has(worker.id));
    const request = typeof m.id === "number" ? waiting.get(m.id) : undefined;
    if (request && request.workerId === worker.id) {
      waiting.delete(m.id!);
      request.resolve(m.metrics);
    }
  };
  const onExit = (worker: Worker) => {
    exited.add(worker.id);
    void counts.retire(worker.id);
  };
  cluster.on("message", onMessage);
  cluster.on("exit", onExit);

  /** Asks one worker for its snapshot; undefined when it does not answer in time. */
  const ask = (worker: Worker) =>
    new Promise<Snapshot | undefined>((resolve) => {
      if (!worker.isConnected()) return resolve(undefined);
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        resolve(undefined);
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, {
        workerId: worker.id,
        resolve: (s) => {
          clearTimeout(timer);
          resolve(s);
        },
      });
      try {
        worker.send({ type: CLUSTER_COLLECT, id });
      } catch {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(undefined);
      }
    });
  const refresh = () => Promise.all(Object.values(cluster.workers ?? {}).flatMap((w) => (w ? [ask(w)] : [])));

  const poll = setInterval(() => void refresh(), POLL_MS);
  poll.unref();

  const expose = async () => {
    // a worker that did not answer is summed with its latest snapshot (counts.update keeps it)
    await refresh();
    const summed = await sumSnapshots(await registry.getMetricsAsJSON(), await counts.snapshots());
    return summed.metrics();
  };
  const listener = await listenForScrapes({
    host: opts.host,
    port: opts.port,
    expose: async () => ({ contentType: registry.contentType, body: await expose() }),
    onError: (error) => opts.log.error({ err: error instanceof Error ? error.message : String(error) }, "metrics: the cluster's metrics could not be summed"),
  });
  return {
    restarts,
    expose,
    listener,
    close: async () => {
      clearInterval(poll);
      cluster.off("message", onMessage);
      cluster.off("exit", onExit);
      await listener.close();
    },
  };
}
