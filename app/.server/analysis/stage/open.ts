import path from "node:path";
import type { Config } from "../../config.ts";
import { describePostgresUrl } from "../../db/postgres-pool.ts";
import { AnalysisStore } from "./store.ts";
import { openPostgresDatabase } from "./store-postgres.ts";
import { openSqliteDatabase } from "./store-sqlite.ts";

const sqliteFile = (config: Pick<Config, "DATA_DIR">) => path.join(config.DATA_DIR, "analysis.sqlite");

/** Where the results live, for logs (never a password). */
export function describeAnalysisStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): string {
  return config.DATABASE_URL ? describePostgresUrl(config.DATABASE_URL) : sqliteFile(config);
}

/** DESIGN.md §2, as the outbox (app/.server/db/open.ts): PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR/analysis.sqlite. */
export async function openAnalysisStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<AnalysisStore> {
  if (config.DATABASE_URL) return new AnalysisStore(await openPostgresDatabase(config.DATABASE_URL));
  return new AnalysisStore(openSqliteDatabase(sqliteFile(config)));
}
