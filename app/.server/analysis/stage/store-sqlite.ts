import { openSqlite } from "../../db/sqlite.ts";
import type { SqlDatabase } from "../../db/sql.ts";
import { SQLITE_SCHEMA, sqliteUpgrade } from "./store.ts";

/**
 * The analysis store's SQLite side (DATA_DIR/analysis.sqlite), on the SQL adapter the outbox
 * shares (app/.server/db/sqlite.ts, ADR 0106). `synchronous = NORMAL`: a power cut may undo the
 * last analyses, which are simply made again; nothing here was promised to a visitor.
 */
export function openSqliteDatabase(file: string): SqlDatabase {
  return openSqlite(file, { schema: SQLITE_SCHEMA, synchronous: "NORMAL", upgrade: sqliteUpgrade });
}
