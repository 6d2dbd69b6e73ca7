import path from "node:path";
import type { Config } from "../../config.ts";
import { AnalysisStore } from "./store.ts";
import { openPostgresDatabase } from "./store-postgres.ts";
import { openSqliteDatabase } from "./store-sqlite.ts";

/** DESIGN.md §2, as the outbox (app/.server/db/open.ts): PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR/analysis.sqlite. */
export async function openAnalysisStore(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): Promise<AnalysisStore> {
  if (config.DATABASE_URL) return new AnalysisStore(await openPostgresDatabase(config.DATABASE_URL));
  return new AnalysisStore(openSqliteDatabase(path.join(config.DATA_DIR, "analysis.sqlite")));
}
