import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { batchOver, type SqlDatabase, type SqlExecutor } from "./sql.ts";

export interface SqliteOptions {
  /** CREATE … IF NOT EXISTS statements, run at every open. */
  schema: string;
  /**
   * `FULL` for data the site acknowledges to a visitor (the outbox: a commit is on disk before
   * the visitor is told, ADR 0106); `NORMAL` where losing the last commits to a power cut only
   * repeats work (the analyses).
   */
  synchronous: "FULL" | "NORMAL";
  /**
   * Deleted content is overwritten with zeros (issue #16: erased personal data must not survive
   * in the file's free pages).
   */
  secureDelete?: boolean;
  /** Changes the schema's CREATE … IF NOT EXISTS cannot make (a column added later). */
  upgrade?: (db: DatabaseSync) => void;
}

/**
 * A SQLite file as a SqlDatabase (node:sqlite). WAL and a busy timeout let the web server and a
 * separate command (`npm run worker`, `npm run analyzer`) share the file.
 *
 * node:sqlite is synchronous, but a transaction's callback awaits between its statements. While
 * one is open, any other statement of this process on any SQLite connection waits for it (the
 * gate below): a second connection's write would otherwise wait synchronously for the first's
 * lock, in the one thread that must run the first to its COMMIT.
 *
 * The file is created readable by its owner only (issue #16: it holds visitors' messages).
 */
/** One per process: SQLite transactions and the statements issued during one run in turn. */
const gate = { busy: false, queue: Promise.resolve() as Promise<unknown> };

function exclusive<T>(fn: () => Promise<T>): Promise<T> {
  const turn = gate.queue.then(async () => {
    gate.busy = true;
    try {
      return await fn();
    } finally {
      gate.busy = false;
    }
  });
  gate.queue = turn.catch(() => undefined);
  return turn;
}

export function openSqlite(file: string, opts: SqliteOptions): SqlDatabase & { readonly handle: DatabaseSync } {
  if (file !== ":memory:") {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // create it 0600 before SQLite opens it (SQLite creates its -wal and -shm with the same mode)
    fs.closeSync(fs.openSync(file, "a", 0o600));
    fs.chmodSync(file, 0o600);
  }
  const db = new DatabaseSync(file);
  db.exec(`PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = ${opts.synchronous};`);
  if (opts.secureDelete) db.exec("PRAGMA secure_delete = ON;");
  db.exec(opts.schema);
  opts.upgrade?.(db);

  const statements = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql.replace(/\$(\d+)/g, "?$1"));
      if (statements.size < 200) statements.set(sql, statement);
    }
    return statement;
  };
  const values = (params: readonly unknown[]) => params as SQLInputValue[];
  // Statements of the transaction that holds the gate run directly; everyone else's wait.
  const inside: SqlExecutor = {
    // .all() steps the statement until it is done: an autocommit's COMMIT (and its error) happens there
    async query<R>(sql: string, params: readonly unknown[] = []) {
      return prepare(sql).all(...values(params)) as R[];
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return Number(prepare(sql).run(...values(params)).changes);
    },
  };
  const executor: SqlExecutor = {
    query: (sql, params) => (gate.busy ? exclusive(() => inside.query(sql, params)) : inside.query(sql, params)),
    run: (sql, params) => (gate.busy ? exclusive(() => inside.run(sql, params)) : inside.run(sql, params)),
  };

  const transaction = <T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> =>
    exclusive(async () => {
      db.exec("BEGIN IMMEDIATE");
      try {
        const result = await work(inside);
        db.exec("COMMIT");
        return result;
      } catch (error) {
        // a COMMIT that failed (SQLITE_FULL, an I/O error) may have rolled back already
        if (db.isTransaction) db.exec("ROLLBACK");
        throw error;
      }
    });

  return {
    kind: "sqlite",
    location: file,
    handle: db,
    lockClause: "",
    inJsonArray: (column, n) => `${column} IN (SELECT value FROM json_each($${n}))`,
    jsonField: (column, field) => `json_extract(${column}, '$.${field}')`,
    ...executor,
    transaction,
    batch: batchOver(transaction),
    async close() {
      await gate.queue;
      statements.clear();
      if (db.isOpen) db.close();
    },
  };
}

/** Adds a column that a table created by an older version lacks (SQLite has no ADD COLUMN IF NOT EXISTS). */
export function addColumnIfMissing(db: DatabaseSync, table: string, column: string, type: string): void {
  const columns = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
}
