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
 * A process alone renders this way all the time. A cluster's workers, which also accept their
 * own connections since ADR 0121's SO_REUSEPORT, do only while connections arrive (below):
 * turns all the time cost them throughput (ADR 0115, ADR 0121).
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
  /** The server accepted a connection (the server's "connection" event); see `whileConnecting`. */
  connected(): void;
}

/**
 * ADR 0121 (amended 2026-11-27): with `whileConnecting`, renders take turns only while
 * connections are arriving. A cluster's worker uses this. libuv accepts one connection per turn
 * (libuv PR #3696), so a burst of new connections on a busy worker whose every turn renders all
 * its keep-alive clients' requests waited a turn of ~30 renders per connection (the first
 * answers of a 64-connection burst took 1–2 s at 250,000 albums, each row's whole p99). While
 * connections arrive, a turn that accepted one renders nothing (an accept costs microseconds,
 * and the newcomer's request joins the queue), up to ACCEPT_ONLY_TURNS in a row so that renders
 * still go on under a flood of connections; a turn that accepted none renders one; once
 * QUIET_TURNS pass without an accept, every waiting render runs in that turn, in order, and the
 * worker renders as before (turns all the time cost it 15–35 % of throughput).
 */
const QUIET_TURNS = 2;
const ACCEPT_ONLY_TURNS = 8;

export function createRenderTurns(opts: { whileConnecting?: boolean } = {}): RenderTurns {
  const adaptive = Boolean(opts.whileConnecting);
  // a turn is scheduled exactly while the queue holds a render (always), or while connections
  // are arriving (adaptive)
  const queue: (() => void)[] = [];
  let scheduled = false;
  let accepted = false;
  let quietTurns = 0;
  let acceptOnlyTurns = 0;

  // A setImmediate callback runs after the poll phase (where sockets are read and the one
  // connection accepted); one scheduled from inside it runs on the next turn, after the next
  // poll. Each callback's microtasks (the render's own awaits) run before the loop moves on.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turn);
  };
  const turn = () => {
    scheduled = false;
    if (adaptive) {
      const acceptedNow = accepted;
      accepted = false;
      quietTurns = acceptedNow ? 0 : quietTurns + 1;
      if (quietTurns >= QUIET_TURNS) {
        // no connection waits to be accepted: render everything asked, in order, as before
        for (const next of queue.splice(0)) next();
        return;
      }
      schedule();
      if (acceptedNow && acceptOnlyTurns < ACCEPT_ONLY_TURNS) {
        acceptOnlyTurns++;
        return;
      }
      acceptOnlyTurns = 0;
      queue.shift()?.();
      return;
    }
    const next = queue.shift();
    if (queue.length) schedule();
    next?.();
  };

  return {
    run(task) {
      if (adaptive && !scheduled) return runNow(task);
      return new Promise((resolve, reject) => {
        queue.push(() => runNow(task).then(resolve, reject));
        schedule();
      });
    },
    get waiting() {
      return queue.length;
    },
    connected() {
      if (!adaptive) return;
      accepted = true;
      schedule();
    },
  };
}

/** Runs a task, a synchronous throw becoming its promise's rejection. */
function runNow<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (error) {
    return Promise.reject(error);
  }
}
