import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { SCHEMA, type SqlDatabase } from "./store.ts";

/**
 * The analysis store's SQLite side (node:sqlite, as the outbox: app/.server/db/sqlite-outbox.ts).
 * WAL and a busy timeout let the web server and a separate `npm run analyzer` share the file.
 * node:sqlite is synchronous, so a batch runs whole between two turns of the event loop: no
 * other statement of this process can slip into its transaction. The statements are the
 * shared ones (store.ts), their `$n` placeholders read as SQLite's numbered `?n`.
 */
export function openSqliteDatabase(file: string): SqlDatabase {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new DatabaseSync(file);
  db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  db.exec(SCHEMA);
  const prepare = (sql: string) => db.prepare(sql.replace(/\$(\d+)/g, "?$1"));
  const values = (params: readonly unknown[]) => params as SQLInputValue[];
  return {
    kind: "sqlite",
    location: file,
    lockClause: "",
    keysIn: (n) => `key IN (SELECT value FROM json_each($${n}))`,
    jsonField: (column, field) => `json_extract(${column}, '$.${field}')`,
    async query<R>(sql: string, params: readonly unknown[]) {
      return prepare(sql).all(...values(params)) as R[];
    },
    async batch(statements) {
      let changed = 0;
      db.exec("BEGIN IMMEDIATE");
      try {
        for (const [sql, params] of statements) changed += Number(prepare(sql).run(...values(params)).changes);
        db.exec("COMMIT");
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
      return changed;
    },
    async close() {
      if (db.isOpen) db.close();
    },
  };
}
