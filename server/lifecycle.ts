// A server process's listening and graceful shutdown (server/app.ts starts it; server.ts's
// primary checks the port with portIsFree before its workers share it).
import net from "node:net";
import type { Server } from "node:http";
import type { Logger } from "../app/.server/logger.ts";

/** Listens on PORT and HOST; a cluster's worker on Linux with the port shared by the kernel (below). */
export function listen(server: Server, config: { PORT: number; HOST: string }, inCluster: boolean): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: config.PORT, host: config.HOST, reusePort: sharesPortByKernel(config, inCluster) }, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/**
 * ADR 0121 (amended): a cluster's workers on Linux each listen on the port themselves
 * (SO_REUSEPORT; the kernel spreads new connections over them) instead of the primary accepting
 * and handing every connection over: a hand-off waits for the receiving worker's event loop, so
 * a busy worker took one new connection per turn and the last of a burst waited many turns.
 * A port of 0 (a free one, tests) cannot be shared that way: the primary hands over as before.
 */
export function sharesPortByKernel(config: { PORT: number }, inCluster: boolean): boolean {
  return inCluster && config.PORT !== 0 && process.platform === "linux";
}

/**
 * Workers that listen with SO_REUSEPORT would share the port with any other server that did the
 * same, such as a second copy of this site started by mistake, rather than fail on it. The
 * primary binds it first without the option, so that a port in use fails before any worker
 * starts, as it does for a process alone.
 */
export function portIsFree(config: { PORT: number; HOST: string }): Promise<boolean> {
  if (!sharesPortByKernel(config, true)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port: config.PORT, host: config.HOST, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** Of the shutdown deadline, kept for releasing leases and closing stores after deliveries. */
const RELEASE_MARGIN_MS = 1_000;

/**
 * Graceful shutdown (issue #7): stop accepting connections, let in-flight requests and the
 * current delivery finish, all within SHUTDOWN_TIMEOUT_SECONDS. Whatever still runs at the
 * deadline is cut off, so the process always exits in time; a delivery cut off keeps its
 * outbox row, which is delivered again after the lease ("a lead is never dropped",
 * docs/product-rules.md "Operating rules"). Requests go first: a lead posted just before the
 * signal is stored before the outbox closes.
 */
export async function shutdown(opts: {
  server: Server;
  services: { close(opts?: { deadlineMs?: number }): Promise<void> };
  logger: Logger;
  timeoutMs: number;
}) {
  const { server, services, logger, timeoutMs } = opts;
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(0, deadline - Date.now());
  logger.info({ timeoutSeconds: timeoutMs / 1000 }, "shutting down: finishing in-flight requests and deliveries");

  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections are closed as soon as they are idle, that is after their answer.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const requestsDone = await settlesWithin(closed, remaining());
  clearInterval(sweep);
  if (!requestsDone) {
    logger.warn("shutdown: requests still running at the deadline were cut off");
    server.closeAllConnections();
  }

  // The deliveries get what is left, less a moment to release their leases and close the
  // stores; our own race still guarantees the exit at the deadline.
  const closing = services.close({ deadlineMs: Math.max(0, remaining() - RELEASE_MARGIN_MS) });
  if (!(await settlesWithin(closing, remaining()))) {
    logger.warn("shutdown: background work still running at the deadline was cut off");
  }
  logger.info("server stopped");
}

/** True when the promise settles within `ms`, false when the time runs out first. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
