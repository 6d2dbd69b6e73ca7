import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import type pg from "pg";
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Logger } from "../logger.ts";
import { openPostgresPool, type SharedPostgres } from "../db/postgres-pool.ts";

/**
 * The client a submission is counted against (issue #7 "Rate limit"): an IPv4 address as
 * is; an IPv6 address by its network of `ipv6Prefix` bits (LEADS_RATE_IPV6_PREFIX, a /64 by
 * default: one subscriber gets a whole /64, so counting single addresses gives an attacker
 * unlimited keys); an IPv4-mapped IPv6 address (::ffff:198.51.100.7, as a dual-stack socket
 * reports IPv4 clients) as the IPv4 address. Anything unparsable is its own key.
 */
export function rateLimitKey(ip: string, ipv6Prefix: number): string {
  if (!ip || !ipaddr.isValid(ip)) return ip || "unknown";
  try {
    const addr = ipaddr.process(ip);
    if (addr.kind() === "ipv4") return addr.toString();
    const network = ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/${ipv6Prefix}`);
    return `${network.toString()}/${ipv6Prefix}`;
  } catch {
    return ip;
  }
}

/**
 * A client as logs name it (issue #16: no address in a log): 12 hex digits of a SHA-256 of its
 * counted network, enough to see one client repeat itself, not to recover the address.
 */
export function clientTag(ip: string, ipv6Prefix: number): string {
  return createHash("sha256").update(`client:${rateLimitKey(ip, ipv6Prefix)}`).digest("hex").slice(0, 12);
}

export type RateSlot = { ok: true; release: () => Promise<void> } | { ok: false; retryAfterSeconds: number };

export interface SubmissionRateLimiter {
  /**
   * "postgres": one count shared by every process on DATABASE_URL; "cluster": one count kept
   * by the primary of this machine's WEB_CONCURRENCY processes; "memory": this process.
   */
  readonly store: "postgres" | "cluster" | "memory";
  /**
   * Takes one slot for the client at `ip`. Returns a release function (to give the slot back
   * when the submission turns out to be a repeat or could not be stored), or the seconds to
   * wait.
   */
  take(ip: string): Promise<RateSlot>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  limit: number;
  windowSeconds: number;
  ipv6Prefix: number;
  /** DATABASE_URL: count in PostgreSQL (its own table), shared by every process. */
  databaseUrl?: string;
  /**
   * The process's shared pool (services.ts, issue #42, ADR 0149); without it the limiter opens a
   * pool of 3 of its own.
   */
  postgres?: SharedPostgres;
  /**
   * This process is one of several cluster workers (WEB_CONCURRENCY > 1, server.ts): count in
   * the cluster primary (rate-limiter-flexible's RateLimiterClusterMaster, over the IPC
   * channel), so N processes do not allow N times the limit.
   */
  cluster?: boolean;
  logger: Logger;
  /** Names this limiter's counts in the shared store (default "leads"; the reference uploads use their own). */
  keyPrefix?: string;
}

/** The table rate-limiter-flexible keeps its counters in, next to the outbox. */
export const RATE_LIMIT_TABLE = "leads_rate_limit";
/** rate-limiter-flexible's own table (its `_getCreateTableStmt`), created here instead (ADR 0140). */
const RATE_LIMIT_SCHEMA = `CREATE TABLE IF NOT EXISTS ${RATE_LIMIT_TABLE} (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);`;
/** Any fixed number (the outbox and the analysis store use others). */
const MIGRATION_LOCK = 4_004_005;
const RETRY_STORE_MS = 15_000;
/** The cluster primary answers over IPC in well under a millisecond; this only guards a hung one. */
const CLUSTER_TIMEOUT_MS = 3_000;

/**
 * The pool as rate-limiter-flexible's store, its statements sent unnamed. The library names
 * its statements ("leads_rate_limit:rlflx-upsert"), and node-postgres prepares a named one once
 * per connection; behind PgBouncer in transaction mode (docs/deployment.md, issue #42) the next
 * transaction may run on another server connection, where the statement does not exist: every
 * take failed and fell open onto each process's own count, so three origins allowed three times
 * the limit (tests/e2e/cluster-pgbouncer.test.ts). Unnamed statements work through any pooler.
 */
function unnamedStatements(pool: pg.Pool): Pick<pg.Pool, "query"> {
  return { query: ((q: pg.QueryConfig) => pool.query({ text: q.text, values: q.values })) as pg.Pool["query"] };
}

/**
 * LEADS_RATE_LIMIT submissions per LEADS_RATE_WINDOW_SECONDS per client, with
 * rate-limiter-flexible (a fixed window that starts at the client's first submission).
 *
 * With DATABASE_URL the count lives in PostgreSQL, so every web server process shares it.
 * When PostgreSQL cannot be reached the limiter fails open onto the local count below
 * and logs a warning: a visitor's lead must not be refused because the limiter's store is
 * down (the outbox decides whether it can be stored). Without DATABASE_URL the count is in
 * memory: in the cluster primary when this is one of several server processes (the same
 * fail-open onto this process's own count should the primary not answer), else in this
 * process; rate-limiter-flexible drops each key when its window ends, so the store holds at
 * most the clients of one window.
 */
export function createSubmissionRateLimiter(opts: RateLimiterOptions): SubmissionRateLimiter {
  const { limit, windowSeconds, ipv6Prefix, databaseUrl, logger } = opts;
  const memory = new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix: opts.keyPrefix ?? "leads" });
  // The primary creates its RateLimiterMemory from these options on the worker's first message.
  const shared = opts.cluster
    ? new RateLimiterCluster({ points: limit, duration: windowSeconds, keyPrefix: opts.keyPrefix ?? "leads", timeoutMs: CLUSTER_TIMEOUT_MS })
    : undefined;
  // rate-limiter-flexible would create its table itself when constructed, racing the other
  // processes that start with this one (PostgreSQL answers a concurrent CREATE TABLE IF NOT
  // EXISTS with an error now and then, which made one process count alone: ADR 0140). The table
  // is created the way the site's other stores create theirs, under an advisory lock.
  // Should that fail, it is tried again on a later submission, after a pause: while PostgreSQL
  // is unreachable, submissions must not each wait for a connection timeout.
  let pool: pg.Pool | undefined;
  let ready: Promise<RateLimiterAbstract> | undefined;
  let retryAt = 0;
  const postgres = (url: string) =>
    Date.now() < retryAt
      ? Promise.reject(new Error("PostgreSQL rate-limit store unreachable (retrying shortly)"))
      : (ready ??= (
          opts.postgres
            ? opts.postgres.prepare({ migrationLock: MIGRATION_LOCK, schema: RATE_LIMIT_SCHEMA }).then(() => opts.postgres!.pool)
            : openPostgresPool({ connectionString: url, max: 3, connectionTimeoutMillis: 3_000, migrationLock: MIGRATION_LOCK, schema: RATE_LIMIT_SCHEMA }).then((own) => (pool = own))
        )
          .then((opened) => {
            return new RateLimiterPostgres({
              storeClient: unnamedStatements(opened),
              storeType: "pool",
              tableName: RATE_LIMIT_TABLE,
              tableCreated: true,
              keyPrefix: opts.keyPrefix ?? "leads",
              points: limit,
              duration: windowSeconds,
            });
          })
          .catch((error: unknown) => {
            ready = undefined;
            retryAt = Date.now() + RETRY_STORE_MS;
            throw error;
          }));

  const slot = (limiter: RateLimiterAbstract, key: string) => ({
    ok: true as const,
    release: async () => {
      await limiter.reward(key, 1).catch((error: unknown) => {
        logger.warn({ err: error }, "leads: could not give a rate-limit slot back");
      });
    },
  });
  const refused = (res: RateLimiterRes) => ({
    ok: false as const,
    retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  });

  async function take(ip: string): Promise<RateSlot> {
    const key = rateLimitKey(ip, ipv6Prefix);
    if (databaseUrl) {
      try {
        const limiter = await postgres(databaseUrl);
        await limiter.consume(key, 1);
        return slot(limiter, key);
      } catch (error) {
        if (error instanceof RateLimiterRes) return refused(error);
        // in a cluster the fallback is still the machine's count, in the primary
        logger.warn({ err: error }, "leads: the shared rate limit is unreachable; counting on this machine meanwhile");
      }
    }
    if (shared) {
      try {
        await shared.consume(key, 1);
        return slot(shared, key);
      } catch (error) {
        if (error instanceof RateLimiterRes) return refused(error);
        logger.warn({ err: error }, "leads: the cluster primary's rate limit did not answer; counting in this process meanwhile");
      }
    }
    try {
      await memory.consume(key, 1);
      return slot(memory, key);
    } catch (error) {
      if (error instanceof RateLimiterRes) return refused(error);
      throw error;
    }
  }

  return {
    store: databaseUrl ? "postgres" : shared ? "cluster" : "memory",
    take,
    close: async () => {
      await ready?.catch(() => undefined);
      await pool?.end().catch(() => {});
    },
  };
}
