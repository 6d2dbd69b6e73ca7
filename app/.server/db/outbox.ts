// The lead outbox (DESIGN.md §3, deviation 2): every accepted submission is stored here
// before the visitor is told it was received, then delivered by the worker with retries.
// One interface, two stores: SQLite (node:sqlite, the default) and PostgreSQL (DATABASE_URL).

import { createHash } from "node:crypto";

export type OutboxStatus = "pending" | "sending" | "sent" | "failed";
export const OUTBOX_STATUSES: readonly OutboxStatus[] = ["pending", "sending", "sent", "failed"];

/** A composed e-mail, exactly as it will be handed to the transport. */
export interface OutgoingMail {
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Extra header fields (issue #41: X-Lead-Reference, X-Lead-Item), values already on one line.
   * Absent on messages stored before they existed.
   */
  headers?: Record<string, string>;
}

/** A stored lead's fields: strings, and a list for a checkbox group (issue #11 `media`). */
export type LeadRecord = Record<string, string | string[]>;

export interface OutboxMessage {
  id: number;
  /** A lead of one of the two forms, or the visitor's receipt for one (issue #11, ADR 0095). */
  kind: "contact" | "licensing" | "receipt";
  /** `${kind}:${key}`: a second post of the same form render maps to this row. */
  idempotencyKey: string;
  /** The validated lead as the visitor sent it (a receipt: its reference and form, no visitor text). */
  lead: LeadRecord;
  /** leadContentHash of the lead; null on rows stored before the column existed. */
  contentHash: string | null;
  mail: OutgoingMail;
  status: OutboxStatus;
  /** Delivery attempts started so far (counted when a worker claims the message). */
  attempts: number;
  /** Earliest time (ms since epoch) the next attempt may start. */
  nextAttemptAt: number;
  /** Worker holding the message while it is `sending`, and until when (ms). */
  leaseOwner: string | null;
  leaseUntil: number | null;
  lastError: string | null;
  /** Id the mail transport gave the message (SMTP/SES Message-ID, or the .eml file name). */
  providerMessageId: string | null;
  clientIp: string | null;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
  /** When its personal data was erased (retention or a request, issue #16); the row stays. */
  erasedAt: number | null;
}

export interface NewOutboxMessage {
  kind: OutboxMessage["kind"];
  idempotencyKey: string;
  lead: LeadRecord;
  /** leadContentHash(kind, lead): tells a repeat of a form apart from a new message under the same key. */
  contentHash: string;
  /**
   * The e-mail, or (a lead, issue #41) how to compose it from the row's id, which is the
   * visitor's reference: called once the row is inserted, in the same transaction.
   */
  mail: OutgoingMail | ((id: number) => OutgoingMail);
  clientIp: string | null;
  now: number;
}

/**
 * A stable hash of a validated lead: SHA-256 of its kind and its fields sorted by name, so
 * the same content always gives the same hash whatever order the fields arrived in.
 */
export function leadContentHash(kind: string, lead: LeadRecord): string {
  const fields = Object.keys(lead)
    .sort()
    .map((k) => [k, lead[k]]);
  return createHash("sha256").update(JSON.stringify([kind, fields])).digest("hex");
}

/**
 * The key a lead is stored under when its form's key already holds different content
 * (issue #7 "A lead is never dropped"): the visitor reused a form (a cached page, a second
 * message from the same render), and the new message is a new lead, not a repeat.
 */
export function rekeyedIdempotencyKey(idempotencyKey: string, contentHash: string): string {
  return `${idempotencyKey}#${contentHash}`;
}

export interface ClaimOptions {
  owner: string;
  now: number;
  leaseMs: number;
  limit: number;
}

export interface OutboxRepository {
  readonly kind: "sqlite" | "postgres";
  /**
   * Stores a message once per idempotency key and content. The same key with the same
   * content hash is a repeat (`created` false, the stored message); the same key with other
   * content is stored as a new message under rekeyedIdempotencyKey(); a repeat of that one
   * is again a repeat. Never returns without the message being stored.
   */
  enqueue(message: NewOutboxMessage): Promise<{ message: OutboxMessage; created: boolean }>;
  /**
   * Atomically leases up to `limit` due messages to `owner`: pending ones whose time has
   * come, and `sending` ones whose lease expired (their worker died). Counts an attempt.
   */
  claim(options: ClaimOptions): Promise<OutboxMessage[]>;
  /** The following three only apply while `owner` still holds the lease; false otherwise. */
  markSent(id: number, owner: string, providerMessageId: string, now: number): Promise<boolean>;
  markRetry(id: number, owner: string, error: string, nextAttemptAt: number, now: number): Promise<boolean>;
  markFailed(id: number, owner: string, error: string, now: number): Promise<boolean>;
  /**
   * Gives back messages `owner` claimed but never started sending (a worker stopping): back
   * to pending, due at once, and the attempt the claim counted is taken back. Messages no
   * longer leased to `owner` are left alone. Returns how many were released.
   */
  release(ids: number[], owner: string, now?: number): Promise<number>;
  /**
   * Stores a receipt (ADR 0095) unless one went to the same recipient within `windowMs`: the
   * check, the record of this one and the message are one transaction, so concurrent posts
   * and several processes send at most one per window. `recipientKey` is receiptRecipientKey()
   * of the address. The log keeps only the recipients of the last window.
   */
  enqueueReceipt(
    message: NewOutboxMessage,
    limit: { recipientKey: string; windowMs: number },
  ): Promise<{ limited: false; message: OutboxMessage; created: boolean } | { limited: true }>;
  get(id: number): Promise<OutboxMessage | undefined>;
  list(options?: { status?: OutboxStatus; limit?: number }): Promise<OutboxMessage[]>;
  counts(): Promise<Record<OutboxStatus, number>>;
  /** When the oldest message not yet delivered (pending or sending) was stored (ms), or null (issue #31 metrics). */
  oldestUndeliveredAt(): Promise<number | null>;
  /** Operator: puts a failed (or pending) message back in the queue with fresh attempts. */
  retry(id: number, now: number): Promise<boolean>;
  retryFailed(now: number): Promise<number>;
  /** A small write (issue #15 readiness): throws when the store cannot take a write now. */
  probeWrite(now: number): Promise<void>;
  /**
   * Issue #16 retention: erases the personal data of messages delivered `retentionMs` ago or
   * earlier (the row stays, anonymous), deletes receipt-log entries older than their window,
   * and counts the failed messages still waiting for the operator.
   */
  purge(options: PurgeOptions): Promise<PurgeReport>;
  /** Every message that holds this person's data (a lead from the address, a receipt to it). */
  findBySubject(email: string): Promise<OutboxMessage[]>;
  /** Erases those messages' personal data and the address's receipt-log entry; returns how many. */
  eraseBySubject(email: string, now: number): Promise<number>;
  close(): Promise<void>;
}

export interface PurgeOptions {
  now: number;
  /** LEAD_RETENTION_DAYS in ms: how long after delivery a message keeps its personal data */
  retentionMs: number;
  /** the receipt limit's window (RECEIPT_WINDOW_MS): older receipt-log entries are deleted */
  receiptWindowMs: number;
}

export interface PurgeReport {
  /** messages whose personal data was erased now */
  erased: number;
  receiptLogDeleted: number;
  /** failed messages kept until delivered or erased by the operator */
  failedWaiting: number;
}

/**
 * The receipt log's key for an address: a SHA-256 of it, trimmed and lower-cased, so the log
 * holds no address (only whether a receipt went to one within the hour).
 */
export function receiptRecipientKey(address: string): string {
  return createHash("sha256").update(address.trim().toLowerCase()).digest("hex");
}

/** Column list shared by both stores (snake_case in SQL). */
export const OUTBOX_COLUMNS =
  "id, kind, idempotency_key, lead, content_hash, mail, status, attempts, next_attempt_at, lease_owner, lease_until, last_error, provider_message_id, client_ip, created_at, updated_at, sent_at, erased_at";

export interface OutboxRow {
  id: number | string | bigint;
  kind: string;
  idempotency_key: string;
  lead: string;
  content_hash: string | null;
  mail: string;
  status: string;
  attempts: number | string | bigint;
  next_attempt_at: number | string | bigint;
  lease_owner: string | null;
  lease_until: number | string | bigint | null;
  last_error: string | null;
  provider_message_id: string | null;
  client_ip: string | null;
  created_at: number | string | bigint;
  updated_at: number | string | bigint;
  sent_at: number | string | bigint | null;
  erased_at: number | string | bigint | null;
}

const num = (v: number | string | bigint) => Number(v);
const numOrNull = (v: number | string | bigint | null) => (v === null ? null : Number(v));

export function rowToMessage(row: OutboxRow): OutboxMessage {
  return {
    id: num(row.id),
    kind: row.kind as OutboxMessage["kind"],
    idempotencyKey: row.idempotency_key,
    lead: JSON.parse(row.lead),
    contentHash: row.content_hash,
    mail: JSON.parse(row.mail),
    status: row.status as OutboxStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    leaseOwner: row.lease_owner,
    leaseUntil: numOrNull(row.lease_until),
    lastError: row.last_error,
    providerMessageId: row.provider_message_id,
    clientIp: row.client_ip,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    sentAt: numOrNull(row.sent_at),
    erasedAt: numOrNull(row.erased_at),
  };
}

/** Errors are kept for the operator; very long ones are cut. */
export function truncateError(error: string): string {
  return error.length > 2000 ? `${error.slice(0, 2000)}…` : error;
}
