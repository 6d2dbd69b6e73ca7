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
  /** Deliveries running at once within a round (default: the whole batch). */
  concurrency?: number;
  /**
   * Tries at recording a successful send (markSent) before the worker keeps the record in
   * memory and tries again on every round; waits between tries double from recordRetryMs.
   */
  recordAttempts?: number;
  recordRetryMs?: number;
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Delivers the outbox: claims due messages under a lease, sends each through the transport,
 * then records the outcome only if it still holds the lease. A message is sent by one worker
 * at a time (claims are atomic: SKIP LOCKED on PostgreSQL, the write lock on SQLite); one
 * left `sending` by a killed process is claimed again when its lease runs out.
 *
 * Sending and recording are separate steps (issue #7 "Outbox crash windows"): once the
 * transport has accepted a message, nothing that happens to the record can make this worker
 * send it again. A failed markSent is retried with backoff; if the store stays unreachable,
 * the worker keeps "sent, not yet recorded" in memory, retries the record on every round,
 * and should it claim the same message again (its lease ran out meanwhile) it records it
 * instead of sending. Only a crash of this process in that window (store down, then killed)
 * can lead to a second send, and that one carries the same Message-ID.
 */
/** What this worker did since it started, read by the metrics at scrape time (issue #31, ADR 0120). */
export interface DeliveryCounts {
  /** sends handed to the transport */
  attempts: number;
  /** sends the transport accepted */
  sent: number;
  /** sends that failed and will be tried again */
  retried: number;
  /** sends that failed for good (permanent, or out of attempts) */
  failed: number;
}

export class OutboxWorker {
  readonly owner: string;
  readonly counts: DeliveryCounts = { attempts: 0, sent: 0, retried: 0, failed: 0 };
  private readonly opts: Required<Omit<OutboxWorkerOptions, "owner">>;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = true;
  private wakeAgain = false;
  private current: Promise<void> | undefined;
  /** Claimed by this worker, delivery not started: released when the worker stops. */
  private readonly claimedNotStarted = new Set<number>();
  /** Accepted by the transport, markSent not yet stored: id → provider message id. */
  private readonly sentUnrecorded = new Map<number, string>();

  constructor(opts: OutboxWorkerOptions) {
    this.owner = opts.owner ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
    // Options given as undefined keep the defaults.
    const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
    this.opts = {
      pollIntervalMs: 1000,
      leaseMs: 120_000,
      batchSize: 10,
      concurrency: Number.POSITIVE_INFINITY,
      recordAttempts: 5,
      recordRetryMs: 200,
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

  /**
   * Stops claiming and waits for the deliveries in progress, at most `deadlineMs` (default:
   * no limit). Messages claimed but not started are then released (back to pending, the
   * attempt given back) so another worker takes them at once instead of after the lease.
   * A delivery still running at the deadline keeps its lease: it may have reached the mail
   * server, so it is only retried once the lease has run out.
   */
  async stop({ deadlineMs }: { deadlineMs?: number } = {}) {
    this.stopped = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const deadline =
      deadlineMs === undefined
        ? undefined
        : new Promise<"deadline">((resolve) => (timer = setTimeout(() => resolve("deadline"), deadlineMs)));
    const current = this.current ?? Promise.resolve();
    const outcome = await (deadline ? Promise.race([current.then(() => "done" as const), deadline]) : current);
    clearTimeout(timer);
    await this.releaseUnstarted();
    if (this.sentUnrecorded.size > 0) await this.recordPending().catch(() => {});
    if (outcome === "deadline") {
      this.opts.logger.warn({ deadlineMs }, "outbox: deliveries still running at the shutdown deadline keep their lease");
    }
    if (this.sentUnrecorded.size > 0) {
      this.opts.logger.error(
        { outboxIds: [...this.sentUnrecorded.keys()] },
        "outbox: sent but not recorded as sent at shutdown (a restart may send these again, with the same Message-ID)",
      );
    }
  }

  private async releaseUnstarted() {
    const ids = [...this.claimedNotStarted];
    if (ids.length === 0) return;
    for (const id of ids) this.claimedNotStarted.delete(id);
    try {
      const released = await this.opts.repository.release(ids, this.owner, this.opts.now());
      this.opts.logger.info({ released, outboxIds: ids }, "outbox: released messages not yet started");
    } catch (error) {
      // Their lease runs out and they are claimed again then.
      this.opts.logger.error({ err: error, outboxIds: ids }, "outbox: could not release unstarted messages");
    }
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
    const { repository, leaseMs, batchSize, concurrency, now } = this.opts;
    // Records left over from an earlier round first: the store may be back.
    if (this.sentUnrecorded.size > 0) await this.recordPending();
    if (this.stopped) return 0;
    const batch = await repository.claim({ owner: this.owner, now: now(), leaseMs, limit: batchSize });
    for (const message of batch) this.claimedNotStarted.add(message.id);
    const queue = [...batch];
    const lane = async () => {
      for (let message = queue.shift(); message; message = queue.shift()) {
        // Stopping: leave the rest claimed-not-started, to be released below or by stop().
        if (this.stopped) return;
        this.claimedNotStarted.delete(message.id);
        await this.deliver(message);
      }
    };
    await Promise.all(Array.from({ length: Math.min(batch.length, concurrency) }, lane));
    await this.releaseUnstarted();
    return batch.length;
  }

  /** Tries once more to record every send this worker made but could not record yet. */
  private async recordPending() {
    const { repository, logger, now } = this.opts;
    for (const [id, messageId] of this.sentUnrecorded) {
      try {
        const recorded = await repository.markSent(id, this.owner, messageId, now());
        this.sentUnrecorded.delete(id);
        if (recorded) logger.info({ outboxId: id, messageId }, "outbox: delivery recorded late");
        else logger.warn({ outboxId: id, messageId }, "outbox: delivered, but another worker holds the message now");
      } catch (error) {
        logger.error({ err: error, outboxId: id }, "outbox: still cannot record a delivery");
        return; // the store is down: try again next round
      }
    }
  }

  /**
   * Records a send the transport accepted. Retried with backoff (recordAttempts tries); a
   * record that still fails stays in memory for the next rounds, never counts as a failed
   * delivery.
   */
  private async recordSent(message: OutboxMessage, messageId: string, log: Logger) {
    const { repository, transport, recordAttempts, recordRetryMs, now } = this.opts;
    for (let attempt = 1; ; attempt++) {
      try {
        const recorded = await repository.markSent(message.id, this.owner, messageId, now());
        if (recorded) log.info({ messageId, transport: transport.name }, "outbox: lead delivered");
        else log.warn({ messageId }, "outbox: delivered after the lease ran out (another worker may send it again)");
        return;
      } catch (error) {
        if (attempt >= recordAttempts) {
          this.sentUnrecorded.set(message.id, messageId);
          log.error({ err: error, messageId }, "outbox: delivered, but the record failed; kept to record later, never resent");
          return;
        }
        log.warn({ err: error, messageId, attempt }, "outbox: delivered, recording it failed; retrying the record");
        await sleep(recordRetryMs * 2 ** (attempt - 1));
      }
    }
  }

  private async deliver(message: OutboxMessage) {
    const { transport, logger } = this.opts;
    const log = logger.child({ outboxId: message.id, kind: message.kind, attempt: message.attempts });
    const alreadySent = this.sentUnrecorded.get(message.id);
    if (alreadySent !== undefined) {
      // Sent by this worker before; only its record is missing (see the class comment).
      this.sentUnrecorded.delete(message.id);
      await this.recordSent(message, alreadySent, log);
      return;
    }
    let messageId: string;
    this.counts.attempts++;
    try {
      ({ messageId } = await transport.send(message.mail, {
        outboxId: message.id,
        idempotencyKey: message.idempotencyKey,
        createdAt: message.createdAt,
      }));
    } catch (error) {
      await this.recordFailure(message, error, log);
      return;
    }
    this.counts.sent++;
    await this.recordSent(message, messageId, log);
  }

  /** A send that failed: retry later with backoff, or fail for good (permanent, or out of attempts). */
  private async recordFailure(message: OutboxMessage, error: unknown, log: Logger) {
    const { repository, maxAttempts, baseDelayMs, maxDelayMs, now } = this.opts;
    const reason = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof MailDeliveryError && error.permanent;
    if (permanent || message.attempts >= maxAttempts) this.counts.failed++;
    else this.counts.retried++;
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
      // Nothing was sent: the lease runs out and the message is tried again.
      log.error({ err: dbError, reason }, "outbox: could not record the delivery failure");
    }
  }
}
