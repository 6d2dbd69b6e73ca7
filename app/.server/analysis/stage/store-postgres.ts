import { describePostgresUrl, openPostgresPool } from "../../db/postgres-pool.ts";
import { SCHEMA, type SqlDatabase } from "./store.ts";

/** Any fixed number (the outbox uses another): serialises the schema creation of processes that start together. */
const MIGRATION_LOCK = 4_009_001;

/**
 * The analysis store's PostgreSQL side (DATABASE_URL), opened as the outbox opens its own
 * (app/.server/db/postgres-outbox.ts): a small pool, the schema created under an advisory
 * lock. Claims lock with FOR UPDATE SKIP LOCKED, so several analyzers on one database take
 * different rows (issue #9).
 */
export async function openPostgresDatabase(connectionString: string, opts: { max?: number } = {}): Promise<SqlDatabase> {
  const pool = await openPostgresPool({ connectionString, max: opts.max ?? 4, migrationLock: MIGRATION_LOCK, schema: SCHEMA });
  let ended: Promise<void> | undefined;
  return {
    kind: "postgres",
    location: describePostgresUrl(connectionString),
    lockClause: "FOR UPDATE SKIP LOCKED",
    keysIn: (n) => `key IN (SELECT jsonb_array_elements_text($${n}::jsonb))`,
    jsonField: (column, field) => `(${column}::json ->> '${field}')`,
    async query<R>(sql: string, params: readonly unknown[]) {
      const result = await pool.query(sql, [...params]);
      return result.rows as R[];
    },
    async batch(statements) {
      const c = await pool.connect();
      let changed = 0;
      try {
        await c.query("BEGIN");
        for (const [sql, params] of statements) changed += (await c.query(sql, [...params])).rowCount ?? 0;
        await c.query("COMMIT");
      } catch (error) {
        await c.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        c.release();
      }
      return changed;
    },
    close: () => (ended ??= pool.end()),
  };
}
