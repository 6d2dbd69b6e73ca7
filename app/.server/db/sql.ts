/**
 * The site's SQL stores (the lead outbox, the track analyses) run one set of statements over
 * SQLite (node:sqlite, in DATA_DIR) or PostgreSQL (DATABASE_URL), DESIGN.md §2. Statements are
 * written with PostgreSQL's `$n` placeholders; the SQLite side reads them as `?n`. What differs
 * between the two stays in the dialect fields below and in each store's schema (ADR 0106).
 *
 * Every write reports a failed commit as a failure (issue #15): on SQLite, statements are
 * stepped to completion (an autocommit's COMMIT runs inside the last step) or run inside an
 * explicit transaction whose COMMIT error is thrown; a store never reads the first row of a
 * writing statement and resets it, which is how node:sqlite's `.get()` loses a COMMIT that
 * failed on a full disk.
 */
export interface SqlExecutor {
  /** Rows of a SELECT, or of a statement with RETURNING, after the statement has completed. */
  query<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a statement to completion; returns how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface SqlDatabase extends SqlExecutor {
  readonly kind: "sqlite" | "postgres";
  /** Where it is, for logs (never a password). */
  readonly location: string;
  /**
   * Runs `work` in one transaction and commits it; throws when any statement or the COMMIT
   * fails (the transaction is then rolled back). On SQLite transactions of one connection
   * run one after another.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs the statements in one transaction; returns the rows they changed. */
  batch(statements: ReadonlyArray<readonly [sql: string, params: readonly unknown[]]>): Promise<number>;
  /** `column IN (…)` over a JSON array passed as the parameter `$n`. */
  inJsonArray(column: string, n: number): string;
  /** Appended to a claim's inner SELECT: `FOR UPDATE SKIP LOCKED` on PostgreSQL. */
  readonly lockClause: string;
  /** A field of a JSON text column, as text (`json_extract` on SQLite, `->>` on PostgreSQL). */
  jsonField(column: string, field: string): string;
  close(): Promise<void>;
}

/** PostgreSQL returns BIGINT and COUNT as strings; SQLite as numbers (or bigints). */
export const sqlNumber = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** `batch` over a database's `transaction`: the statements in order, in one transaction. */
export function batchOver(transaction: SqlDatabase["transaction"]): SqlDatabase["batch"] {
  return (statements) =>
    transaction(async (tx) => {
      let changed = 0;
      for (const [sql, params] of statements) changed += await tx.run(sql, params);
      return changed;
    });
}
