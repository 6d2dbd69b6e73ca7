import pg from "pg";

/**
 * A pg pool for one of the site's PostgreSQL stores (the lead outbox, the analysis results),
 * with its schema created first. Processes that start together (several servers, an analyzer,
 * a worker) create it one at a time under a transaction-scoped advisory lock, so `CREATE … IF
 * NOT EXISTS` never races. An idle client that loses its connection must not crash the process.
 */
export async function openPostgresPool(opts: {
  connectionString: string;
  max: number;
  /** the store's own fixed number: stores migrate independently */
  migrationLock: number;
  schema: string;
}): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: opts.max, connectionTimeoutMillis: 10_000 });
  pool.on("error", () => {});
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [opts.migrationLock]);
    await client.query(opts.schema);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    client.release();
    await pool.end();
    throw error;
  }
  client.release();
  return pool;
}

/** A PostgreSQL URL as logs and operators see it: host, port and database, never the user or password. */
export function describePostgresUrl(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    return `postgres://${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    // a URL the pool accepts but URL does not: the bare name
    return "postgres";
  }
}
