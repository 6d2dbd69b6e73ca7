import { describePostgresUrl, openPostgresPool, type SharedPostgres } from "./postgres-pool.ts";
import { batchOver, type SqlDatabase, type SqlExecutor } from "./sql.ts";

/**
 * A PostgreSQL database as a SqlDatabase (DATABASE_URL): a small pool, the schema created
 * under an advisory lock (postgres-pool.ts). PostgreSQL keeps its default durability
 * (synchronous_commit on: a COMMIT returns once its WAL is flushed).
 */
export async function openPostgres(
  connectionString: string,
  opts: { schema: string; migrationLock: number; max: number; shared?: SharedPostgres },
): Promise<SqlDatabase> {
  // Issue #42, ADR 0149: on the process's shared pool when the composition root built one
  // (closing this store then leaves the pool to its owner); else a pool of `max` of its own
  // (a command that opens one store, a worker thread).
  const { shared } = opts;
  if (shared) await shared.prepare({ migrationLock: opts.migrationLock, schema: opts.schema });
  const pool = shared ? shared.pool : await openPostgresPool({ connectionString, max: opts.max, migrationLock: opts.migrationLock, schema: opts.schema });
  let ended: Promise<void> | undefined;
  const on = (client: { query: (sql: string, params: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }> }): SqlExecutor => ({
    async query<R>(sql: string, params: readonly unknown[] = []) {
      return (await client.query(sql, [...params])).rows as R[];
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return (await client.query(sql, [...params])).rowCount ?? 0;
    },
  });
  const transaction = async <T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(on(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    kind: "postgres",
    location: describePostgresUrl(connectionString),
    lockClause: "FOR UPDATE SKIP LOCKED",
    inJsonArray: (column, n) => `${column}::text IN (SELECT jsonb_array_elements_text($${n}::jsonb))`,
    jsonField: (column, field) => `(${column}::json ->> '${field}')`,
    ...on(pool),
    transaction,
    batch: batchOver(transaction),
    close: () => (ended ??= shared ? Promise.resolve() : pool.end()),
  };
}
