import type { Server } from "node:http";
import type { Socket } from "node:net";

/**
 * ADR 0121 (amended 2026-11-27, third session): a cluster's workers share the port by
 * SO_REUSEPORT, and the kernel picks a worker for each new connection by a hash of its
 * addresses, not by load. 64 keep-alive connections were measured split 40/24 and 38/26 at
 * 250,000 albums: the busier worker's turns rendered half as many pages again, its young
 * generation promoted several times as much (a major GC every ~3 s against one in 20 s for the
 * other), and every mid-row stall of the long tail was that worker's. Keep-alive connections
 * stay where the hash put them for as long as the client keeps them.
 *
 * So the workers even out their open connections: each reports its count to the primary every
 * REPORT_INTERVAL_MS, the primary answers with the cluster's fair share (the total over the
 * workers that report, rounded up), and a worker holding more than its share plus a slack asks
 * that many of its clients to reconnect: the next response on each of those connections carries
 * `Connection: close` (HTTP/1.1's own way to end a persistent connection, RFC 9112 §9.6; a
 * client reconnects for its next request, as a shared cache in front or a browser does). The
 * kernel hashes the new connection afresh: about half land on the other worker, and the next
 * report evens out the rest. Nothing is cut mid-response and nothing is refused; a connection is
 * closed only after an answer it has already received in full.
 */
export const CONNECTIONS_REPORT = "northbeat:connections";
export const CONNECTION_SHARE = "northbeat:connection-share";
export const REPORT_INTERVAL_MS = 500;

export interface ConnectionsReport {
  type: typeof CONNECTIONS_REPORT;
  open: number;
}
export interface ConnectionShare {
  type: typeof CONNECTION_SHARE;
  share: number;
}

export function isConnectionsReport(message: unknown): message is ConnectionsReport {
  const m = message as Partial<ConnectionsReport> | null;
  return m?.type === CONNECTIONS_REPORT && typeof m.open === "number" && Number.isInteger(m.open) && m.open >= 0;
}

/** The primary's answer: the connections each worker would hold if they were spread evenly. */
export function fairShare(counts: Iterable<number>): number {
  let total = 0;
  let workers = 0;
  for (const n of counts) {
    total += n;
    workers++;
  }
  return workers === 0 ? 0 : Math.ceil(total / workers);
}

/**
 * How many of a worker's connections to move: none within the slack (a connection or two, a
 * sixteenth of the share on a large cluster), so that a spread that is even give or take the
 * connections arriving and leaving between two reports does not churn.
 */
export function excessOver(open: number, share: number): number {
  const slack = Math.max(2, Math.floor(share / 16));
  const excess = open - share;
  return excess > slack ? excess : 0;
}

export interface BalancedConnections {
  /** connections this process holds open now */
  readonly open: number;
  /** connections asked to reconnect elsewhere since the start */
  readonly moved: number;
  stop(): void;
}

/**
 * A worker's side: counts its server's open connections, reports them, and marks the next
 * `excess` responses (on distinct connections) with `Connection: close` when the share asks.
 * `send` reports to the primary; `onShare` registers for its answers and returns an unsubscriber.
 */
export function balanceConnections(
  server: Server,
  ipc: { send(report: ConnectionsReport): void; onShare(listener: (share: number) => void): () => void },
  opts: { intervalMs?: number } = {},
): BalancedConnections {
  const open = new Set<Socket>();
  let toMove = 0;
  let moved = 0;
  const leaving = new WeakSet<Socket>();
  const onConnection = (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };
  // prepended: it must set the header before the site's handler answers (a cached page is
  // answered in the same tick)
  const onRequest = (req: { socket: Socket }, res: { setHeader(name: string, value: string): unknown; headersSent: boolean }) => {
    if (toMove === 0 || res.headersSent || leaving.has(req.socket)) return;
    leaving.add(req.socket);
    toMove--;
    moved++;
    res.setHeader("Connection", "close");
  };
  server.on("connection", onConnection);
  server.prependListener("request", onRequest);
  const unsubscribe = ipc.onShare((share) => {
    // counted from the moment of the answer: connections already asked to leave but not yet
    // closed still count as open, and a report every half second keeps this fresh
    let stillLeaving = 0;
    for (const socket of open) if (leaving.has(socket)) stillLeaving++;
    toMove = Math.max(0, excessOver(open.size - stillLeaving, share));
  });
  const timer = setInterval(() => ipc.send({ type: CONNECTIONS_REPORT, open: open.size }), opts.intervalMs ?? REPORT_INTERVAL_MS);
  timer.unref();
  return {
    get open() {
      return open.size;
    },
    get moved() {
      return moved;
    },
    stop() {
      clearInterval(timer);
      unsubscribe();
      server.off("connection", onConnection);
      server.off("request", onRequest);
    },
  };
}

/** The worker's IPC to its cluster primary (process.send), for balanceConnections. */
export function primaryChannel() {
  return {
    send(report: ConnectionsReport) {
      if (process.send && process.connected) process.send(report);
    },
    onShare(listener: (share: number) => void) {
      const onMessage = (message: unknown) => {
        const m = message as Partial<ConnectionShare> | null;
        if (m?.type === CONNECTION_SHARE && typeof m.share === "number") listener(m.share);
      };
      process.on("message", onMessage);
      return () => void process.off("message", onMessage);
    },
  };
}
