import type { OutboxRepository, PurgeReport } from "../db/outbox.ts";
import type { Logger } from "../logger.ts";
import { FailureLog } from "../failure-log.ts";

export const DAY_MS = 24 * 60 * 60_000;

export interface RetentionOptions {
  repository: OutboxRepository;
  logger: Logger;
  /** LEAD_RETENTION_DAYS */
  retentionDays: number;
  /** the receipt limit's window: older receipt-log entries are deleted */
  receiptWindowMs: number;
  now?: () => number;
  /** how often the clean-up runs (a day; tests shorten it) */
  intervalMs?: number;
  /** the first run after start-up (a minute: the start itself is not slowed) */
  firstRunMs?: number;
}

/**
 * Issue #16, ADR 0107: personal data is kept only as long as needed. Once after start-up and
 * then once a day, in the process that runs the outbox worker: delivered messages older than
 * LEAD_RETENTION_DAYS lose their personal data (in batches, docs/operations.md), receipt-log
 * entries past their hour are deleted, and the failed messages still waiting for the
 * operator are counted in the log. `npm run outbox -- purge` runs the same clean-up at once.
 */
export class RetentionJob {
  readonly #opts: Required<RetentionOptions>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<PurgeReport | undefined> | undefined;
  readonly #failures: FailureLog;

  constructor(opts: RetentionOptions) {
    this.#opts = { now: Date.now, intervalMs: DAY_MS, firstRunMs: 60_000, ...opts };
    this.#failures = new FailureLog(opts.logger, { level: "error", message: "privacy clean-up failed; it runs again at the next interval" });
  }

  start(): void {
    this.#schedule(this.#opts.firstRunMs);
  }

  #schedule(ms: number): void {
    this.#timer = setTimeout(() => {
      void this.runNow().finally(() => {
        if (this.#timer) this.#schedule(this.#opts.intervalMs);
      });
    }, ms);
    this.#timer.unref();
  }

  /** Runs the clean-up now (one at a time); logs what it did. Never throws. */
  runNow(): Promise<PurgeReport | undefined> {
    return (this.#running ??= this.#run().finally(() => (this.#running = undefined)));
  }

  async #run(): Promise<PurgeReport | undefined> {
    const { repository, logger, retentionDays, receiptWindowMs, now } = this.#opts;
    try {
      const report = await purgeOutbox(repository, { now: now(), retentionDays, receiptWindowMs });
      this.#failures.succeeded();
      logger.info({ ...report, retentionDays }, "privacy clean-up: personal data past its retention erased");
      if (report.failedWaiting > 0) {
        logger.warn(
          { failedWaiting: report.failedWaiting },
          "privacy clean-up: failed messages keep their personal data until delivered or erased (npm run outbox -- list --status failed)",
        );
      }
      return report;
    } catch (error) {
      this.#failures.failed(error);
      return undefined;
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}

/** The clean-up itself, shared by the job and `npm run outbox -- purge`. */
export function purgeOutbox(
  repository: OutboxRepository,
  opts: { now: number; retentionDays: number; receiptWindowMs: number },
): Promise<PurgeReport> {
  return repository.purge({ now: opts.now, retentionMs: opts.retentionDays * DAY_MS, receiptWindowMs: opts.receiptWindowMs });
}
