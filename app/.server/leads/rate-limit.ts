/**
 * Per-IP sliding-window limit on stored submissions (LEADS_RATE_LIMIT per
 * LEADS_RATE_WINDOW_SECONDS). In memory, per process: with several server processes each
 * one counts on its own, so the effective limit is a multiple — acceptable for spam
 * control, and it needs no shared store.
 */
export class SubmissionRateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(opts: { limit: number; windowSeconds: number; now?: () => number }) {
    this.limit = opts.limit;
    this.windowMs = opts.windowSeconds * 1000;
    this.now = opts.now ?? Date.now;
  }

  /**
   * Takes one slot for `ip`. Returns a release function (to give the slot back when the
   * submission turns out to be a repeat or could not be stored), or the seconds to wait.
   */
  take(ip: string): { ok: true; release: () => void } | { ok: false; retryAfterSeconds: number } {
    const now = this.now();
    this.sweep(now);
    const recent = (this.hits.get(ip) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length >= this.limit) {
      this.hits.set(ip, recent);
      const retryAfterMs = recent[0] + this.windowMs - now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    }
    recent.push(now);
    this.hits.set(ip, recent);
    return {
      ok: true,
      release: () => {
        const list = this.hits.get(ip);
        const i = list?.lastIndexOf(now) ?? -1;
        if (list && i >= 0) list.splice(i, 1);
      },
    };
  }

  private sweep(now: number) {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [ip, list] of this.hits) {
      if (!list.some((t) => t > now - this.windowMs)) this.hits.delete(ip);
    }
  }
}
