import type { Logger } from "./logger.ts";

/**
 * Logs a failure that can repeat on every request (a full disk, a database that is down) once
 * per episode instead of once per request (issue #15): the first failure with its error, then
 * at most one line per `summaryMs` with how many more there were, and one line when the
 * operation works again. An operator reads one clear line, not a storm that buries it.
 */
export class FailureLog {
  readonly #logger: Logger;
  readonly #level: "error" | "warn";
  readonly #message: string;
  readonly #summaryMs: number;
  readonly #now: () => number;
  #failing = false;
  #since = 0;
  #lastLogged = 0;
  #unlogged = 0;
  #total = 0;

  constructor(logger: Logger, opts: { level: "error" | "warn"; message: string; summaryMs?: number; now?: () => number }) {
    this.#logger = logger;
    this.#level = opts.level;
    this.#message = opts.message;
    this.#summaryMs = opts.summaryMs ?? 60_000;
    this.#now = opts.now ?? Date.now;
  }

  get failing(): boolean {
    return this.#failing;
  }

  failed(error: unknown, fields: Record<string, unknown> = {}): void {
    const now = this.#now();
    this.#total++;
    if (!this.#failing) {
      this.#failing = true;
      this.#since = now;
      this.#lastLogged = now;
      this.#unlogged = 0;
      this.#logger[this.#level]({ err: error, ...fields }, this.#message);
      return;
    }
    this.#unlogged++;
    if (now - this.#lastLogged >= this.#summaryMs) {
      this.#logger[this.#level](
        { err: error, failuresSinceLastLine: this.#unlogged, failures: this.#total, failingForSeconds: Math.round((now - this.#since) / 1000) },
        `${this.#message} (still failing)`,
      );
      this.#lastLogged = now;
      this.#unlogged = 0;
    }
  }

  succeeded(): void {
    if (!this.#failing) return;
    this.#logger.info(
      { failures: this.#total, failingForSeconds: Math.round((this.#now() - this.#since) / 1000) },
      `${this.#message}: works again`,
    );
    this.#failing = false;
    this.#total = 0;
  }
}
