import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { describeOutbox, openOutbox } from "../db/open.ts";
import { leadContentHash, receiptRecipientKey, type LeadRecord, type OutboxRepository } from "../db/outbox.ts";
import { composeLeadMail, composeReceiptMail } from "../mail/compose.ts";
import { createMailTransport, type MailTransport } from "../mail/index.ts";
import { leadReference } from "../../lib/contact/result.ts";
import type { Lead } from "../../lib/contact/schemas.ts";
import { clientTag, createSubmissionRateLimiter } from "./rate-limit.ts";
import { OutboxWorker, type OutboxWorkerOptions } from "./worker.ts";
import { FailureLog } from "../failure-log.ts";
import { RetentionJob, type RetentionOptions } from "./retention.ts";
import { WriteProbe, type Readiness } from "./readiness.ts";
import { errorMessage } from "../catalog/errors.ts";
import type { SharedPostgres } from "../db/postgres-pool.ts";

export type SubmitResult =
  /**
   * Stored in the outbox: the visitor may be told it was received. `duplicate`: this exact
   * lead (same form key, same content) was stored before, and is delivered once.
   */
  | { status: "accepted"; id: number; duplicate: boolean; reference: string }
  | { status: "rate-limited"; retryAfterSeconds: number }
  /**
   * Could not be stored (the database is down, the disk is full): the visitor keeps the form
   * (deviation 2) and is asked to try again after `retryAfterSeconds` (503, issue #15).
   */
  | { status: "unavailable"; reason: string; retryAfterSeconds: number };

/** Issue #15: what a 503 for a lead that could not be stored says in Retry-After. */
export const STORE_RETRY_AFTER_SECONDS = 60;

export type { Readiness } from "./readiness.ts";

/** The leads service owns the outbox and the delivery worker (DESIGN.md §1). */
export interface LeadsService {
  submit(lead: Lead, meta: { ip: string; idempotencyKey: string }): Promise<SubmitResult>;
  /** The outbox store (opened on first use; the operator CLI and tests read it). */
  outbox(): Promise<OutboxRepository>;
  readonly worker: OutboxWorker | undefined;
  /** The daily privacy clean-up (issue #16), where the delivery worker runs. */
  readonly retention: RetentionJob | undefined;
  /**
   * Whether a lead could be stored now: a one-row write to the store, made at most once per
   * READINESS_PROBE_MS whatever the polling rate, and failed at once while submissions fail.
   */
  readiness(): Promise<Readiness>;
  /**
   * Stops the worker (see OutboxWorker.stop: in-flight deliveries get up to `deadlineMs`,
   * default SHUTDOWN_TIMEOUT_SECONDS; unstarted claims are released), then closes the stores.
   */
  close(options?: { deadlineMs?: number }): Promise<void>;
}

/** Issue #11: at most one receipt per address per hour (ADR 0095). */
export const RECEIPT_WINDOW_MS = 60 * 60_000;

export interface LeadsOptions {
  /** Tests inject a transport or worker timings; production takes both from the config. */
  transport?: MailTransport;
  worker?: Partial<Omit<OutboxWorkerOptions, "repository" | "transport" | "logger" | "maxAttempts">>;
  now?: () => number;
  /**
   * This process is one of WEB_CONCURRENCY cluster workers (server.ts): without DATABASE_URL the
   * rate limit is counted in the cluster primary, so it stays LEADS_RATE_LIMIT per machine.
   */
  clusterRateLimit?: boolean;
  /** Tests shorten the clean-up's schedule. */
  retention?: Pick<RetentionOptions, "intervalMs" | "firstRunMs">;
  /** The process's one PostgreSQL pool (services.ts, issue #42, ADR 0149), for the outbox and the rate limit. */
  postgres?: SharedPostgres;
}

/**
 * Opens the outbox on first use and again after a failure, so that a database that is
 * down at start-up (or goes away) costs the affected submissions, not the whole server.
 */
function lazyOutbox(config: Config, logger: Logger, postgres: SharedPostgres | undefined) {
  let opening: Promise<OutboxRepository> | undefined;
  return () =>
    (opening ??= openOutbox(config, { postgres }).catch((error: unknown) => {
      opening = undefined;
      logger.error({ err: error, outbox: describeOutbox(config) }, "leads: the outbox could not be opened");
      throw error;
    }));
}

/**
 * Where OUTBOX_WORKER is on: the delivery worker, and the privacy clean-up (issue #16), which
 * runs where the delivery worker runs: one process per deployment.
 */
function startDelivery(config: Config, logger: Logger, outbox: () => Promise<OutboxRepository>, now: () => number, options: LeadsOptions) {
  if (!config.OUTBOX_WORKER) return { worker: undefined, transport: undefined, retention: undefined };
  const repository = deferredRepository(outbox, config.DATABASE_URL ? "postgres" : "sqlite");
  const transport = options.transport ?? createMailTransport(config, logger);
  const worker = new OutboxWorker({
    repository,
    transport,
    logger,
    maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
    leaseMs: config.OUTBOX_LEASE_SECONDS * 1000,
    now,
    // Options left undefined (e.g. a command-line flag not given) keep the configured value.
    ...Object.fromEntries(Object.entries(options.worker ?? {}).filter(([, v]) => v !== undefined)),
  });
  worker.start();
  const retention = new RetentionJob({
    repository,
    logger,
    retentionDays: config.LEAD_RETENTION_DAYS,
    receiptWindowMs: RECEIPT_WINDOW_MS,
    now,
    ...options.retention,
  });
  retention.start();
  return { worker, transport, retention };
}

export async function startLeads(
  deps: { config: Config; logger: Logger },
  options: LeadsOptions = {},
): Promise<LeadsService> {
  const { config } = deps;
  const logger = deps.logger.child({ component: "leads" });
  const now = options.now ?? Date.now;
  const outbox = lazyOutbox(config, logger, options.postgres);
  const limiter = createSubmissionRateLimiter({
    limit: config.LEADS_RATE_LIMIT,
    windowSeconds: config.LEADS_RATE_WINDOW_SECONDS,
    ipv6Prefix: config.LEADS_RATE_IPV6_PREFIX,
    databaseUrl: config.DATABASE_URL,
    postgres: options.postgres,
    cluster: options.clusterRateLimit,
    logger,
  });

  // A full disk fails every post and every receipt: one line per episode, not one per request.
  const storeFailures = new FailureLog(logger, { level: "error", message: "leads: submissions cannot be stored; visitors keep their forms (503)" });
  const receiptFailures = new FailureLog(logger, { level: "warn", message: "leads: receipts cannot be stored (their leads are)" });

  // Open now so start-up logs say where leads go; a failure here is retried on first submit.
  await outbox().catch(() => undefined);
  logger.info({ outbox: describeOutbox(config), transport: config.MAIL_TRANSPORT }, "leads: outbox ready");

  const { worker, transport, retention } = startDelivery(config, logger, outbox, now, options);

  async function submit(lead: Lead, meta: { ip: string; idempotencyKey: string }): Promise<SubmitResult> {
    const slot = await limiter.take(meta.ip);
    if (!slot.ok) {
      // the client as a short hash of its counted network: logs never hold an address (issue #16)
      logger.warn({ client: clientTag(meta.ip, config.LEADS_RATE_IPV6_PREFIX), retryAfterSeconds: slot.retryAfterSeconds }, "leads: rate limit reached");
      return { status: "rate-limited", retryAfterSeconds: slot.retryAfterSeconds };
    }
    try {
      const repo = await outbox();
      const data: LeadRecord = { ...lead.data };
      const idempotencyKey = `${lead.kind}:${meta.idempotencyKey}`;
      // The same key with other content (a reused or cached form) is stored as a new lead:
      // only an exact repeat is one lead (issue #7 "A lead is never dropped").
      const { message, created } = await repo.enqueue({
        kind: lead.kind,
        idempotencyKey,
        lead: data,
        contentHash: leadContentHash(lead.kind, data),
        // issue #41: composed once the row's id, the lead's reference, is known
        mail: (id) => composeLeadMail(lead, { from: config.MAIL_FROM, to: config.CONTACT_TO }, leadReference(id)),
        clientIp: meta.ip || null,
        now: now(),
      });
      storeFailures.succeeded();
      probe.writeSucceeded();
      if (!created) await slot.release();
      else worker?.wake();
      const rekeyed = message.idempotencyKey !== idempotencyKey;
      logger.info({ outboxId: message.id, kind: lead.kind, duplicate: !created, rekeyed }, "leads: submission stored");
      const reference = leadReference(message.id);
      // After the lead is stored and in the background: a receipt never delays or loses a lead.
      if (created && config.LEAD_RECEIPTS) track(storeReceipt({ config, logger, outbox, now, worker, failures: receiptFailures }, lead, message.idempotencyKey, reference));
      return { status: "accepted", id: message.id, duplicate: !created, reference };
    } catch (error) {
      await slot.release();
      storeFailures.failed(error, { kind: lead.kind });
      probe.writeFailed(errorMessage(error));
      return { status: "unavailable", reason: errorMessage(error), retryAfterSeconds: STORE_RETRY_AFTER_SECONDS };
    }
  }

  const probe = new WriteProbe(outbox, now);
  const readiness = () => probe.readiness();

  const receiptsInFlight = new Set<Promise<void>>();
  const track = (promise: Promise<void>) => {
    receiptsInFlight.add(promise);
    void promise.finally(() => receiptsInFlight.delete(promise));
  };

  let closing: Promise<void> | undefined;
  return {
    submit,
    outbox,
    worker,
    retention,
    readiness,
    close: ({ deadlineMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000 } = {}) =>
      (closing ??= (async () => {
        // receipts still being stored finish first, so the store is not closed under them
        await Promise.allSettled([...receiptsInFlight]);
        await retention?.stop();
        await worker?.stop({ deadlineMs });
        await transport?.close();
        await limiter.close();
        const repo = await outbox().catch(() => undefined);
        await repo?.close();
      })()),
  };
}

/**
 * Issue #11, ADR 0095: the visitor's receipt, through the same outbox, at most one per address
 * per RECEIPT_WINDOW_MS (the limit and the message in one transaction of the outbox's store).
 * Any failure is logged and dropped: the lead is already stored.
 */
async function storeReceipt(
  deps: { config: Config; logger: Logger; outbox: () => Promise<OutboxRepository>; now: () => number; worker: OutboxWorker | undefined; failures: FailureLog },
  lead: Lead,
  leadKey: string,
  reference: string,
): Promise<void> {
  const { config, logger, outbox, now, worker } = deps;
  try {
    const repo = await outbox();
    const record: LeadRecord = { form: lead.kind, reference };
    const result = await repo.enqueueReceipt(
      {
        kind: "receipt",
        idempotencyKey: `receipt:${leadKey}`,
        lead: record,
        contentHash: leadContentHash("receipt", record),
        mail: composeReceiptMail({ kind: lead.kind, reference, to: lead.data.email }, { from: config.MAIL_FROM, siteUrl: config.SITE_URL, retentionDays: config.LEAD_RETENTION_DAYS }),
        clientIp: null,
        now: now(),
      },
      { recipientKey: receiptRecipientKey(lead.data.email), windowMs: RECEIPT_WINDOW_MS },
    );
    if (result.limited) {
      logger.info({ reference }, "leads: no receipt (one went to this address within the hour)");
      return;
    }
    deps.failures.succeeded();
    if (result.created) worker?.wake();
    logger.info({ outboxId: result.message.id, reference }, "leads: receipt stored");
  } catch (error) {
    deps.failures.failed(error, { reference });
  }
}


/** An OutboxRepository that opens the real one on each use (see lazyOutbox). */
function deferredRepository(open: () => Promise<OutboxRepository>, kind: OutboxRepository["kind"]): OutboxRepository {
  const call =
    <K extends keyof OutboxRepository>(name: K) =>
    async (...args: unknown[]) => {
      const repo = await open();
      return (repo[name] as (...a: unknown[]) => unknown)(...args);
    };
  return {
    kind,
    enqueue: call("enqueue"),
    enqueueReceipt: call("enqueueReceipt"),
    claim: call("claim"),
    markSent: call("markSent"),
    markRetry: call("markRetry"),
    markFailed: call("markFailed"),
    release: call("release"),
    get: call("get"),
    list: call("list"),
    counts: call("counts"),
    oldestUndeliveredAt: call("oldestUndeliveredAt"),
    retry: call("retry"),
    retryFailed: call("retryFailed"),
    probeWrite: call("probeWrite"),
    purge: call("purge"),
    findBySubject: call("findBySubject"),
    eraseBySubject: call("eraseBySubject"),
    close: async () => {},
  } as OutboxRepository;
}
