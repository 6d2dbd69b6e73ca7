import { openPostgres } from "../../db/postgres.ts";
import type { SqlDatabase } from "../../db/sql.ts";
import type { SharedPostgres } from "../../db/postgres-pool.ts";
import { POSTGRES_SCHEMA } from "./store.ts";

/** Any fixed number (the outbox uses another): serialises the schema creation of processes that start together. */
const MIGRATION_LOCK = 4_009_001;

/**
 * The analysis store's PostgreSQL side (DATABASE_URL), on the SQL adapter the outbox shares
 * (app/.server/db/postgres.ts). Claims lock with FOR UPDATE SKIP LOCKED, so several analyzers
 * on one database take different rows (issue #9).
 */
export function openPostgresDatabase(connectionString: string, opts: { max?: number; shared?: SharedPostgres } = {}): Promise<SqlDatabase> {
  return openPostgres(connectionString, { schema: POSTGRES_SCHEMA, migrationLock: MIGRATION_LOCK, max: opts.max ?? 4, shared: opts.shared });
}
