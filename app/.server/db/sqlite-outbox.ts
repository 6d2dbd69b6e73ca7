import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  OUTBOX_COLUMNS,
  rekeyedIdempotencyKey,
  rowToMessage,
  truncateError,
  type ClaimOptions,
  type NewOutboxMessage,
  type OutboxMessage,
  type OutboxRepository,
  type OutboxRow,
  type OutboxStatus,
} from "./outbox.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  lead TEXT NOT NULL,
  content_hash TEXT,
  mail TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  last_error TEXT,
  provider_message_id TEXT,
  client_ip TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
-- ADR 0095: when the last receipt went to each recipient (a hash of the address), for the
-- one-per-hour rule; rows older than the window are deleted as receipts are stored.
CREATE TABLE IF NOT EXISTS receipt_log (
  recipient TEXT PRIMARY KEY,
  sent_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS receipt_log_sent_at ON receipt_log (sent_at);
`;

/**
 * The outbox in a SQLite file (node:sqlite). WAL mode and a busy timeout let the web server
 * and a separate `npm run worker` share the file; every claim is one UPDATE … RETURNING
 * statement, which SQLite runs under its single write lock, so no two workers get a row.
 */
export class SqliteOutboxRepository implements OutboxRepository {
  readonly kind = "sqlite";
  readonly file: string;
  private readonly db: DatabaseSync;

  constructor(file: string) {
    this.file = file;
    if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    this.db.exec(SCHEMA);
    // Tables created before issue #7 have no content_hash: add it (their rows keep NULL,
    // which never equals a new hash, so a post under an old key is stored, not dropped).
    const columns = this.db.prepare("PRAGMA table_info(outbox)").all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === "content_hash")) this.db.exec("ALTER TABLE outbox ADD COLUMN content_hash TEXT");
  }

  /** Inserts under `key` unless the key exists; returns the row under `key` and whether it is new. */
  private insertOrGet(m: NewOutboxMessage, key: string) {
    const inserted = this.db
      .prepare(
        `INSERT INTO outbox (kind, idempotency_key, lead, content_hash, mail, status, attempts, next_attempt_at, client_ip, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)
         ON CONFLICT (idempotency_key) DO NOTHING
         RETURNING ${OUTBOX_COLUMNS}`,
      )
      .get(m.kind, key, JSON.stringify(m.lead), m.contentHash, JSON.stringify(m.mail), m.now, m.clientIp, m.now, m.now) as
      | OutboxRow
      | undefined;
    if (inserted) return { message: rowToMessage(inserted), created: true };
    const existing = this.db
      .prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE idempotency_key = ?`)
      .get(key) as unknown as OutboxRow;
    return { message: rowToMessage(existing), created: false };
  }

  async enqueue(m: NewOutboxMessage) {
    const first = this.insertOrGet(m, m.idempotencyKey);
    if (first.created || first.message.contentHash === m.contentHash) return first;
    // The key holds other content: this is a new message (see OutboxRepository.enqueue).
    return this.insertOrGet(m, rekeyedIdempotencyKey(m.idempotencyKey, m.contentHash));
  }

  async enqueueReceipt(m: NewOutboxMessage, { recipientKey, windowMs }: { recipientKey: string; windowMs: number }) {
    // One write transaction: SQLite's write lock orders it against every other process on the file.
    this.db.exec("BEGIN IMMEDIATE");
    try {
      this.db.prepare("DELETE FROM receipt_log WHERE sent_at <= ?").run(m.now - windowMs);
      const taken = this.db
        .prepare("INSERT INTO receipt_log (recipient, sent_at) VALUES (?, ?) ON CONFLICT (recipient) DO NOTHING RETURNING recipient")
        .get(recipientKey, m.now);
      const result = taken ? { limited: false as const, ...this.insertOrGet(m, m.idempotencyKey) } : { limited: true as const };
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  async claim({ owner, now, leaseMs, limit }: ClaimOptions) {
    const rows = this.db
      .prepare(
        `UPDATE outbox
            SET status = 'sending', lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
          WHERE id IN (
            SELECT id FROM outbox
             WHERE (status = 'pending' AND next_attempt_at <= ?)
                OR (status = 'sending' AND lease_until < ?)
             ORDER BY id
             LIMIT ?)
        RETURNING ${OUTBOX_COLUMNS}`,
      )
      .all(owner, now + leaseMs, now, now, now, limit) as unknown as OutboxRow[];
    return rows.map(rowToMessage).sort((a, b) => a.id - b.id);
  }

  private finish(id: number, owner: string, sql: string, params: Array<string | number | null>) {
    const result = this.db
      .prepare(`UPDATE outbox SET ${sql} WHERE id = ? AND status = 'sending' AND lease_owner = ?`)
      .run(...params, id, owner);
    return Number(result.changes) === 1;
  }

  async markSent(id: number, owner: string, providerMessageId: string, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'sent', provider_message_id = ?, sent_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL, last_error = NULL",
      [providerMessageId, now, now],
    );
  }

  async markRetry(id: number, owner: string, error: string, nextAttemptAt: number, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'pending', last_error = ?, next_attempt_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL",
      [truncateError(error), nextAttemptAt, now],
    );
  }

  async markFailed(id: number, owner: string, error: string, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'failed', last_error = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL",
      [truncateError(error), now],
    );
  }

  async release(ids: number[], owner: string, now = Date.now()) {
    if (ids.length === 0) return 0;
    const result = this.db
      .prepare(
        `UPDATE outbox SET status = 'pending', attempts = MAX(0, attempts - 1), next_attempt_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
          WHERE status = 'sending' AND lease_owner = ? AND id IN (SELECT value FROM json_each(?))`,
      )
      .run(now, now, owner, JSON.stringify(ids));
    return Number(result.changes);
  }

  async get(id: number) {
    const row = this.db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`).get(id) as OutboxRow | undefined;
    return row ? rowToMessage(row) : undefined;
  }

  async list({ status, limit = 50 }: { status?: OutboxStatus; limit?: number } = {}) {
    const rows = (
      status
        ? this.db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE status = ? ORDER BY id DESC LIMIT ?`).all(status, limit)
        : this.db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox ORDER BY id DESC LIMIT ?`).all(limit)
    ) as unknown as OutboxRow[];
    return rows.map(rowToMessage);
  }

  async counts() {
    const counts: Record<OutboxStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0 };
    const rows = this.db.prepare("SELECT status, COUNT(*) AS n FROM outbox GROUP BY status").all() as Array<{
      status: OutboxStatus;
      n: number;
    }>;
    for (const r of rows) counts[r.status] = Number(r.n);
    return counts;
  }

  async retry(id: number, now: number) {
    const result = this.db
      .prepare(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
          WHERE id = ? AND status IN ('failed', 'pending')`,
      )
      .run(now, now, id);
    return Number(result.changes) === 1;
  }

  async retryFailed(now: number) {
    const result = this.db
      .prepare(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL
          WHERE status = 'failed'`,
      )
      .run(now, now);
    return Number(result.changes);
  }

  async close() {
    if (this.db.isOpen) this.db.close();
  }
}

export type { OutboxMessage };
