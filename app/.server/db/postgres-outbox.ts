import type pg from "pg";
import { openPostgresPool } from "./postgres-pool.ts";
import {
  OUTBOX_COLUMNS,
  rekeyedIdempotencyKey,
  rowToMessage,
  truncateError,
  type ClaimOptions,
  type NewOutboxMessage,
  type OutboxRepository,
  type OutboxRow,
  type OutboxStatus,
} from "./outbox.ts";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  lead TEXT NOT NULL,
  content_hash TEXT,
  mail TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  lease_owner TEXT,
  lease_until BIGINT,
  last_error TEXT,
  provider_message_id TEXT,
  client_ip TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  sent_at BIGINT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
-- Tables created before issue #7 have no content_hash (their rows keep NULL, which never
-- equals a new hash, so a post under an old key is stored, not dropped).
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS content_hash TEXT;
-- ADR 0095: when the last receipt went to each recipient (a hash of the address), for the
-- one-per-hour rule; rows older than the window are deleted as receipts are stored.
CREATE TABLE IF NOT EXISTS receipt_log (
  recipient TEXT PRIMARY KEY,
  sent_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS receipt_log_sent_at ON receipt_log (sent_at);
`;

/** Any fixed number: serialises the schema creation of processes that start together. */
const MIGRATION_LOCK = 4_004_004;

/**
 * The outbox in PostgreSQL (DATABASE_URL). Claims use `FOR UPDATE SKIP LOCKED`, so several
 * workers on one database each take different rows and never wait on each other.
 */
export class PostgresOutboxRepository implements OutboxRepository {
  readonly kind = "postgres";
  private readonly pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  static async open(connectionString: string, opts: { max?: number } = {}) {
    const pool = await openPostgresPool({ connectionString, max: opts.max ?? 10, migrationLock: MIGRATION_LOCK, schema: SCHEMA });
    return new PostgresOutboxRepository(pool);
  }

  private async rows(sql: string, params: unknown[], db: pg.Pool | pg.PoolClient = this.pool) {
    const result = await db.query<OutboxRow>(sql, params);
    return result.rows;
  }

  /** Inserts under `key` unless the key exists; returns the row under `key` and whether it is new. */
  private async insertOrGet(m: NewOutboxMessage, key: string, db: pg.Pool | pg.PoolClient = this.pool) {
    const [inserted] = await this.rows(
      `INSERT INTO outbox (kind, idempotency_key, lead, content_hash, mail, status, attempts, next_attempt_at, client_ip, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $7, $6, $6)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING ${OUTBOX_COLUMNS}`,
      [m.kind, key, JSON.stringify(m.lead), m.contentHash, JSON.stringify(m.mail), m.now, m.clientIp],
      db,
    );
    if (inserted) return { message: rowToMessage(inserted), created: true };
    const [existing] = await this.rows(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE idempotency_key = $1`, [key], db);
    return { message: rowToMessage(existing), created: false };
  }

  async enqueue(m: NewOutboxMessage) {
    const first = await this.insertOrGet(m, m.idempotencyKey);
    if (first.created || first.message.contentHash === m.contentHash) return first;
    // The key holds other content: this is a new message (see OutboxRepository.enqueue).
    return this.insertOrGet(m, rekeyedIdempotencyKey(m.idempotencyKey, m.contentHash));
  }

  async enqueueReceipt(m: NewOutboxMessage, { recipientKey, windowMs }: { recipientKey: string; windowMs: number }) {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("DELETE FROM receipt_log WHERE sent_at <= $1", [m.now - windowMs]);
      // A concurrent insert of the same recipient waits on the key, then finds it taken.
      const taken = await client.query(
        "INSERT INTO receipt_log (recipient, sent_at) VALUES ($1, $2) ON CONFLICT (recipient) DO NOTHING RETURNING recipient",
        [recipientKey, m.now],
      );
      const result =
        taken.rowCount === 1 ? { limited: false as const, ...(await this.insertOrGet(m, m.idempotencyKey, client)) } : { limited: true as const };
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async claim({ owner, now, leaseMs, limit }: ClaimOptions) {
    const rows = await this.rows(
      `UPDATE outbox
          SET status = 'sending', lease_owner = $1, lease_until = $2, attempts = attempts + 1, updated_at = $3
        WHERE id IN (
          SELECT id FROM outbox
           WHERE (status = 'pending' AND next_attempt_at <= $3)
              OR (status = 'sending' AND lease_until < $3)
           ORDER BY id
           LIMIT $4
           FOR UPDATE SKIP LOCKED)
      RETURNING ${OUTBOX_COLUMNS}`,
      [owner, now + leaseMs, now, limit],
    );
    return rows.map(rowToMessage).sort((a, b) => a.id - b.id);
  }

  private async finish(id: number, owner: string, set: string, params: unknown[]) {
    const n = params.length;
    const result = await this.pool.query(
      `UPDATE outbox SET ${set} WHERE id = $${n + 1} AND status = 'sending' AND lease_owner = $${n + 2}`,
      [...params, id, owner],
    );
    return result.rowCount === 1;
  }

  markSent(id: number, owner: string, providerMessageId: string, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'sent', provider_message_id = $1, sent_at = $2, updated_at = $2, lease_owner = NULL, lease_until = NULL, last_error = NULL",
      [providerMessageId, now],
    );
  }

  markRetry(id: number, owner: string, error: string, nextAttemptAt: number, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'pending', last_error = $1, next_attempt_at = $2, updated_at = $3, lease_owner = NULL, lease_until = NULL",
      [truncateError(error), nextAttemptAt, now],
    );
  }

  markFailed(id: number, owner: string, error: string, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'failed', last_error = $1, updated_at = $2, lease_owner = NULL, lease_until = NULL",
      [truncateError(error), now],
    );
  }

  async release(ids: number[], owner: string, now = Date.now()) {
    if (ids.length === 0) return 0;
    const result = await this.pool.query(
      `UPDATE outbox SET status = 'pending', attempts = GREATEST(0, attempts - 1), next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_until = NULL
        WHERE status = 'sending' AND lease_owner = $2 AND id = ANY($3::bigint[])`,
      [now, owner, ids],
    );
    return result.rowCount ?? 0;
  }

  async get(id: number) {
    const [row] = await this.rows(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = $1`, [id]);
    return row ? rowToMessage(row) : undefined;
  }

  async list({ status, limit = 50 }: { status?: OutboxStatus; limit?: number } = {}) {
    const rows = status
      ? await this.rows(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE status = $1 ORDER BY id DESC LIMIT $2`, [status, limit])
      : await this.rows(`SELECT ${OUTBOX_COLUMNS} FROM outbox ORDER BY id DESC LIMIT $1`, [limit]);
    return rows.map(rowToMessage);
  }

  async counts() {
    const counts: Record<OutboxStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0 };
    const result = await this.pool.query<{ status: OutboxStatus; n: string }>(
      "SELECT status, COUNT(*) AS n FROM outbox GROUP BY status",
    );
    for (const r of result.rows) counts[r.status] = Number(r.n);
    return counts;
  }

  async retry(id: number, now: number) {
    const result = await this.pool.query(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_until = NULL
        WHERE id = $2 AND status IN ('failed', 'pending')`,
      [now, id],
    );
    return result.rowCount === 1;
  }

  async retryFailed(now: number) {
    const result = await this.pool.query(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_until = NULL
        WHERE status = 'failed'`,
      [now],
    );
    return result.rowCount ?? 0;
  }

  async close() {
    await this.pool.end();
  }
}
