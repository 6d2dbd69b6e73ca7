import type { Registry } from "prom-client";
import type { Logger } from "../app/.server/logger.ts";
import { CLUSTER_COLLECT, CLUSTER_SNAPSHOT, type ClusterSnapshotMessage } from "./metrics-listener.ts";

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
