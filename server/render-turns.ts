/**
 * Issue #18, ADR 0115: at most one uncached render starts per turn of the event loop, in the
 * order the requests came.
 *
 * Why: libuv (1.52, Node 24) accepts one new connection per turn of the loop, and a turn used
 * to run every request whose bytes had arrived, each rendered at once: with 64 keep-alive
 * clients busy, a turn was 64 renders (a quarter of a second and more), so a new connection
 * waited a turn per connection ahead of it in the kernel's queue. Measured with
 * `npm run bench:load`: a fresh client's first page took up to 7 s while the keep-alive clients
 * were answered in 0.2 s, the whole of the long tail's p99. Now a turn is one render: the
 * loop comes back to the listening socket every few milliseconds, and a newcomer's request
 * joins the same queue as everyone else's.
 *
 * Used where the process accepts its own connections (one process; in a cluster the primary
 * accepts and the workers run without turns, which cost them throughput there: ADR 0115).
 * Only renders wait here (React Router's handler, for the page caches and for every other
 * request): cached pages, static files and /healthz are answered in the turn their bytes
 * arrive. The queue holds at most one render per open connection (HTTP/1.1 answers a
 * connection's requests one after another), so it is bounded by the connections the process
 * can hold; the per-client render budget (render-budget.ts) keeps one client from filling it.
 */
export interface RenderTurns {
  /** Runs `task` on a later turn of the event loop, after the renders asked before it. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** renders waiting for their turn */
  readonly waiting: number;
}

export function createRenderTurns(): RenderTurns {
  // a turn is scheduled exactly while the queue holds a render
  const queue: (() => void)[] = [];

  // A setImmediate callback runs after the poll phase (where sockets are read and the one
  // connection accepted); one scheduled from inside it runs on the next turn, after the next
  // poll. Each callback's microtasks (the render's own awaits) run before the loop moves on.
  const turn = () => {
    const next = queue.shift();
    if (queue.length) setImmediate(turn);
    next?.();
  };

  return {
    run(task) {
      return new Promise((resolve, reject) => {
        queue.push(() => {
          try {
            task().then(resolve, reject);
          } catch (error) {
            reject(error);
          }
        });
        if (queue.length === 1) setImmediate(turn);
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
