import { randomUUID } from "node:crypto";
import type { OutboxMessage, OutboxRepository } from "../db/outbox.ts";
import type { Logger } from "../logger.ts";
import { MailDeliveryError, type MailTransport } from "../mail/transport.ts";

export interface OutboxWorkerOptions {
  repository: OutboxRepository;
  transport: MailTransport;
  logger: Logger;
  /** OUTBOX_MAX_ATTEMPTS: after this many attempts a message is marked failed. */
  maxAttempts: number;
  /** How often to look for due messages when nothing wakes the worker (ms). */
  pollIntervalMs?: number;
  /** How long a claim lasts; a message whose worker died is taken again after it (ms). */
  leaseMs?: number;
  /** Messages claimed per round. */
  batchSize?: number;
  /** Backoff before retry n (1-based): min(maxDelay, baseDelay × 2^(n-1)), ±20 % jitter. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Name of this worker in the lease column and the logs. */
  owner?: string;
  /**
   * Whether the poll timer keeps Node running. Off inside the web server (the HTTP server
   * does that, and must be able to exit); on for the standalone `npm run worker`.
   */
  keepProcessAlive?: boolean;
  now?: () => number;
}

/** Exponential backoff with a cap and a little jitter, so retries of many messages spread out. */
export function retryDelayMs(attempt: number, baseDelayMs: number, maxDelayMs: number, random = Math.random): number {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(Math.min(maxDelayMs, exponential * (0.8 + 0.4 * random())));
}

/**
 * Delivers the outbox: claims due messages under a lease, sends each through the transport,
 * then records the outcome only if it still holds the lease. A message is sent by one worker
 * at a time (claims are atomic: SKIP LOCKED on PostgreSQL, the write lock on SQLite); one
 * left `sending` by a killed process is claimed again when its lease runs out.
 */
export class OutboxWorker {
  readonly owner: string;
  private readonly opts: Required<Omit<OutboxWorkerOptions, "owner">>;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;
  private wakeAgain = false;
  private current: Promise<void> | undefined;

  constructor(opts: OutboxWorkerOptions) {
    this.owner = opts.owner ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
    // Options given as undefined keep the defaults.
    const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
    this.opts = {
      pollIntervalMs: 1000,
      leaseMs: 120_000,
      batchSize: 10,
      baseDelayMs: 5_000,
      maxDelayMs: 15 * 60_000,
      keepProcessAlive: false,
      now: Date.now,
      ...(given as OutboxWorkerOptions),
    };
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks for work now (called after a submission is stored). */
  wake() {
    if (this.stopped) return;
    if (this.running) this.wakeAgain = true;
    else this.schedule(0);
  }

  /** Stops polling and waits for the deliveries in progress. */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delayMs: number) {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.tick().finally(() => (this.current = undefined));
    }, delayMs);
    if (!this.opts.keepProcessAlive) this.timer.unref?.();
  }

  private async tick() {
    this.running = true;
    let claimed = 0;
    try {
      claimed = await this.runOnce();
    } catch (error) {
      this.opts.logger.error({ err: error }, "outbox: claiming messages failed");
    } finally {
      this.running = false;
    }
    // A full batch (or a wake-up during the round) means there may be more right away.
    const more = claimed >= this.opts.batchSize || this.wakeAgain;
    this.wakeAgain = false;
    this.schedule(more ? 0 : this.opts.pollIntervalMs);
  }

  /** One round: claim a batch and deliver it. Returns how many messages were claimed. */
  async runOnce(): Promise<number> {
    const { repository, leaseMs, batchSize, now } = this.opts;
    const batch = await repository.claim({ owner: this.owner, now: now(), leaseMs, limit: batchSize });
    await Promise.all(batch.map((message) => this.deliver(message)));
    return batch.length;
  }

  private async deliver(message: OutboxMessage) {
    const { repository, transport, logger, maxAttempts, baseDelayMs, maxDelayMs, now } = this.opts;
    const log = logger.child({ outboxId: message.id, kind: message.kind, attempt: message.attempts });
    try {
      const { messageId } = await transport.send(message.mail, {
        outboxId: message.id,
        idempotencyKey: message.idempotencyKey,
        createdAt: message.createdAt,
      });
      const recorded = await repository.markSent(message.id, this.owner, messageId, now());
      if (recorded) log.info({ messageId, transport: transport.name }, "outbox: lead delivered");
      else log.warn({ messageId }, "outbox: delivered after the lease ran out (another worker may send it again)");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof MailDeliveryError && error.permanent;
      try {
        if (permanent || message.attempts >= maxAttempts) {
          await repository.markFailed(message.id, this.owner, reason, now());
          log.error({ reason, permanent }, "outbox: delivery failed for good");
        } else {
          const delay = retryDelayMs(message.attempts, baseDelayMs, maxDelayMs);
          await repository.markRetry(message.id, this.owner, reason, now() + delay, now());
          log.warn({ reason, retryInMs: delay }, "outbox: delivery failed, will retry");
        }
      } catch (dbError) {
        // The lease will run out and the message will be tried again.
        log.error({ err: dbError, reason }, "outbox: could not record the delivery failure");
      }
    }
  }
}
