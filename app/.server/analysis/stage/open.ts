import path from "node:path";
import type { Config } from "../../config.ts";
import { describePostgresUrl, type SharedPostgres } from "../../db/postgres-pool.ts";
import { AnalysisStore } from "./store.ts";
import { openPostgresDatabase } from "./store-postgres.ts";
import { openSqliteDatabase } from "./store-sqlite.ts";

const sqliteFile = (config: Pick<Config, "DATA_DIR">) => path.join(config.DATA_DIR, "analysis.sqlite");

/** Where the results live, for logs (never a password). */
export function describeAnalysisStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): string {
  return config.DATABASE_URL ? describePostgresUrl(config.DATABASE_URL) : sqliteFile(config);
}

/** DESIGN.md §2, as the outbox (app/.server/db/open.ts): PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR/analysis.sqlite. */
/**
 * Issue #42, ADR 0149: `postgres`, the process's shared pool (services.ts); without it (a worker
 * thread, which cannot share a pool) a pool of `max` connections of its own (default 4).
 */
export async function openAnalysisStore(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
  opts: { postgres?: SharedPostgres; max?: number } = {},
): Promise<AnalysisStore> {
  if (config.DATABASE_URL) return new AnalysisStore(await openPostgresDatabase(config.DATABASE_URL, { shared: opts.postgres, max: opts.max }));
  return new AnalysisStore(openSqliteDatabase(sqliteFile(config)));
}
