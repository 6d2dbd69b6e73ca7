import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Long builds (the track table, its figures and its search index: seconds at 2.5 million
 * tracks) run on the server's one thread next to the requests. They call `maybeYield()` in
 * their loops and give the event loop a turn every `sliceMs` of work, so a request waits for
 * at most one slice, not for the build (issue #10: the old table serves meanwhile).
 */
export class Slicer {
  private started = performance.now();
  private counter = 0;
  /** total ms spent yielding, so a build can report its own work time */
  waitedMs = 0;

  private readonly sliceMs: number;

  constructor(sliceMs = 8) {
    this.sliceMs = sliceMs;
  }

  /** Cheap to call in a tight loop: looks at the clock every 256 calls. */
  async maybeYield(): Promise<void> {
    if ((++this.counter & 255) !== 0) return;
    if (performance.now() - this.started < this.sliceMs) return;
    await this.yield();
  }

  async yield(): Promise<void> {
    const before = performance.now();
    await nextTurn();
    this.started = performance.now();
    this.waitedMs += this.started - before;
  }
}

/** A slicer that never yields: for tests and tools that build at once. */
export const NO_YIELD = { maybeYield: async () => undefined, yield: async () => undefined, waitedMs: 0 } as const;

export type Yielder = Pick<Slicer, "maybeYield" | "yield" | "waitedMs">;
