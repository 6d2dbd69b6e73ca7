import { createHash } from "node:crypto";
import pg from "pg";

/**
 * The schemas already applied to this database, each by a hash of its text. A process whose
 * schema is there runs no DDL at all: `CREATE INDEX IF NOT EXISTS` takes a SHARE lock on its
 * table and `ALTER TABLE … ADD COLUMN IF NOT EXISTS` an ACCESS EXCLUSIVE one even when there is
 * nothing to do, and a process starting beside one that is storing leads deadlocked with it
 * (ADR 0140). A new schema text (a new column) is applied once, by the first process to start.
 */
const APPLIED_TABLE = "site_schema_applied";
/** Any fixed number: every store takes it before its own, so the bookkeeping table is created once. */
const APPLIED_LOCK = 4_000_001;

/**
 * A pg pool for one of the site's PostgreSQL stores (the lead outbox, the analysis results,
 * the shared rate limit), with its schema created first. Processes that start together
 * (several servers, an analyzer, a worker) create it one at a time under transaction-scoped
 * advisory locks, so `CREATE … IF NOT EXISTS` never races, and only when this schema text has
 * not been applied before (above). An idle client that loses its connection must not crash
 * the process.
 */
export async function openPostgresPool(opts: {
  connectionString: string;
  max: number;
  /**
   * the store's own fixed number. Behind APPLIED_LOCK it orders nothing among processes of this
   * release; it is kept because a process of an earlier release, started beside this one during
   * a roll-out, takes only it before the same store's DDL.
   */
  migrationLock: number;
  schema: string;
  /** how long to wait for a connection (default 10 s; the rate limit waits less, it fails open) */
  connectionTimeoutMillis?: number;
}): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: opts.max, connectionTimeoutMillis: opts.connectionTimeoutMillis ?? 10_000 });
  pool.on("error", () => {});
  // A client checked out between two queries (a transaction's, the schema's) that loses its
  // connection (PostgreSQL restarted: "terminating connection due to administrator command")
  // emits "error" on itself, not on the pool; unheard, that crashed the process (seen in
  // references-postgres-restart.test.ts). Its next query fails and is answered as any other.
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    await applySchema(pool, opts);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/** A store's schema on `pool`, under the advisory locks, unless this text was applied before (above). */
async function applySchema(pool: pg.Pool, opts: { migrationLock: number; schema: string }): Promise<void> {
  const hash = createHash("sha256").update(opts.schema).digest("hex");
  let client: pg.PoolClient | undefined;
  try {
    client = await pool.connect();
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [APPLIED_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${APPLIED_TABLE} (hash TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    await client.query("SELECT pg_advisory_xact_lock($1)", [opts.migrationLock]);
    const applied = await client.query(`SELECT 1 FROM ${APPLIED_TABLE} WHERE hash = $1`, [hash]);
    if (applied.rowCount === 0) {
      await client.query(opts.schema);
      await client.query(`INSERT INTO ${APPLIED_TABLE} (hash) VALUES ($1)`, [hash]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client?.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client?.release();
  }
}

/**
 * Issue #42, ADR 0149: the process's one PostgreSQL pool, built by the composition root
 * (services.ts) and shared by every store of the process (the outbox, the analysis results,
 * the reference files, both rate limits): at most DATABASE_POOL_MAX connections per process,
 * however many parts it runs. A store opens on it by applying its schema (once per schema text
 * per process; a failure is tried again by the next open) and never ends it: the root does.
 */
export interface SharedPostgres {
  readonly pool: pg.Pool;
  readonly max: number;
  /** Applies a store's schema (above) unless this process already did. */
  prepare(opts: { migrationLock: number; schema: string }): Promise<void>;
  end(): Promise<void>;
}

export function createSharedPostgres(connectionString: string, max: number): SharedPostgres {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 10_000 });
  // an idle client that loses its connection (PostgreSQL restarting) must not crash the process
  pool.on("error", () => {});
  // A client checked out between two queries (a transaction's, the schema's) that loses its
  // connection (PostgreSQL restarted: "terminating connection due to administrator command")
  // emits "error" on itself, not on the pool; unheard, that crashed the process (seen in
  // references-postgres-restart.test.ts). Its next query fails and is answered as any other.
  pool.on("connect", (client) => client.on("error", () => {}));
  const prepared = new Map<string, Promise<void>>();
  let ended: Promise<void> | undefined;
  return {
    pool,
    max,
    prepare(opts) {
      const key = `${opts.migrationLock}:${opts.schema}`;
      let done = prepared.get(key);
      if (!done) {
        done = applySchema(pool, opts);
        prepared.set(key, done);
        // only a success is kept: a failed attempt is made again by the next open
        done.catch(() => prepared.delete(key));
      }
      return done;
    },
    end: () => (ended ??= pool.end()),
  };
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
