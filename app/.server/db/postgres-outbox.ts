import { openPostgres } from "./postgres.ts";
import { OutboxStore } from "./outbox-store.ts";

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
-- issue #16: whose data a row holds (a hash of the address), and when it was erased
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS subject_key TEXT;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS erased_at BIGINT;
CREATE INDEX IF NOT EXISTS outbox_subject ON outbox (subject_key);
CREATE INDEX IF NOT EXISTS outbox_sent_at ON outbox (status, sent_at);
-- ADR 0095: when the last receipt went to each recipient (a hash of the address), for the
-- one-per-hour rule; rows older than the window are deleted.
CREATE TABLE IF NOT EXISTS receipt_log (
  recipient TEXT PRIMARY KEY,
  sent_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS receipt_log_sent_at ON receipt_log (sent_at);
-- issue #15: the readiness probe's one-row write
CREATE TABLE IF NOT EXISTS outbox_health (
  id INTEGER PRIMARY KEY,
  checked_at BIGINT NOT NULL
);
`;

/** Any fixed number: serialises the schema creation of processes that start together. */
const MIGRATION_LOCK = 4_004_004;

/**
 * The outbox in PostgreSQL (DATABASE_URL), on the shared SQL adapter (ADR 0104). Claims use
 * `FOR UPDATE SKIP LOCKED`, so several workers on one database each take different rows and
 * never wait on each other. PostgreSQL's default durability is kept: a COMMIT returns once
 * its WAL record is flushed.
 */
export class PostgresOutboxRepository {
  static async open(connectionString: string, opts: { max?: number } = {}): Promise<OutboxStore> {
    const db = await openPostgres(connectionString, { schema: SCHEMA, migrationLock: MIGRATION_LOCK, max: opts.max ?? 10 });
    return new OutboxStore(db);
  }
}
