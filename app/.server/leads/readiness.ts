import { errorMessage } from "../catalog/errors.ts";
import type { OutboxRepository } from "../db/outbox.ts";

/** Whether the outbox can take a write now (GET /readyz, issue #15, ADR 0106). */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** A load balancer may poll /readyz every second: the store is written to at most this often. */
const PROBE_INTERVAL_MS = 2_000;
/** The probe's own bound: a database that does not answer is not ready. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Whether a lead could be stored now: a one-row write to the store (`probeWrite`), made at most
 * once per PROBE_INTERVAL_MS whatever the polling rate; not ready at once while submissions fail.
 */
export class WriteProbe {
  readonly #outbox: () => Promise<OutboxRepository>;
  readonly #now: () => number;
  #lastFailure: { at: number; reason: string } | undefined;
  #probe: { at: number; result: Promise<Readiness> } | undefined;

  constructor(outbox: () => Promise<OutboxRepository>, now: () => number) {
    this.#outbox = outbox;
    this.#now = now;
  }

  /** A submission could not be stored: not ready, without waiting for the next probe. */
  writeFailed(reason: string): void {
    this.#lastFailure = { at: this.#now(), reason };
  }

  writeSucceeded(): void {
    this.#lastFailure = undefined;
  }

  readiness(): Promise<Readiness> {
    const t = this.#now();
    if (this.#lastFailure && t - this.#lastFailure.at < PROBE_INTERVAL_MS) {
      return Promise.resolve({ ready: false, reason: `the lead outbox cannot take a write: ${this.#lastFailure.reason}` });
    }
    if (!this.#probe || t - this.#probe.at >= PROBE_INTERVAL_MS) this.#probe = { at: t, result: this.#write() };
    return this.#probe.result;
  }

  async #write(): Promise<Readiness> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const repo = await this.#outbox();
      await Promise.race([
        repo.probeWrite(this.#now()),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
        }),
      ]);
      return { ready: true };
    } catch (error) {
      return { ready: false, reason: `the lead outbox cannot take a write: ${errorMessage(error)}` };
    } finally {
      clearTimeout(timer);
    }
  }
}
