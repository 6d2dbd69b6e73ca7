import { openPostgres } from "./postgres.ts";
import type { SharedPostgres } from "./postgres-pool.ts";
import { OUTBOX_ADDED_COLUMNS, OUTBOX_LATER_INDEXES, OutboxStore, outboxSchema } from "./outbox-store.ts";

const SCHEMA =
  outboxSchema({ id: "BIGSERIAL PRIMARY KEY", bigint: "BIGINT" }) +
  OUTBOX_ADDED_COLUMNS.map(([column, type]) => `ALTER TABLE outbox ADD COLUMN IF NOT EXISTS ${column} ${type.replace("{bigint}", "BIGINT")};`).join("\n") +
  OUTBOX_LATER_INDEXES;

/** Any fixed number: serialises the schema creation of processes that start together. */
const MIGRATION_LOCK = 4_004_004;

/**
 * The outbox in PostgreSQL (DATABASE_URL), on the shared SQL adapter (ADR 0106). Claims use
 * `FOR UPDATE SKIP LOCKED`, so several workers on one database each take different rows and
 * never wait on each other. PostgreSQL's default durability is kept: a COMMIT returns once
 * its WAL record is flushed.
 */
export class PostgresOutboxRepository {
  static async open(connectionString: string, opts: { max?: number; shared?: SharedPostgres } = {}): Promise<OutboxStore> {
    const db = await openPostgres(connectionString, { schema: SCHEMA, migrationLock: MIGRATION_LOCK, max: opts.max ?? 10, shared: opts.shared });
    return new OutboxStore(db);
  }
}
