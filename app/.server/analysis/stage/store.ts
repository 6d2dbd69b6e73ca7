import { ANALYZER_VERSION, type TrackAnalysis } from "../analyze.ts";
import { chunks, num, StoredResults } from "./store-reads.ts";
import type { SqlDatabase } from "../../db/sql.ts";
import { REFERENCES_SCHEMA } from "./references.ts";
import type { DatabaseSync } from "node:sqlite";

/**
 * Where track analyses are kept (issue #9 "Results persist", ADR 0091): one row per audio key
 * (a track's s3Path), with the identity of the audio it describes (size and mtime of a local
 * file; size and ETag or Last-Modified of a remote one). A row is
 * - `pending`: to analyse, from `next_attempt_at` on;
 * - `done`: `analysis` holds the result for `identity`;
 * - `failed`: `reason` says why; retried from `next_attempt_at` (exponential backoff).
 * A row being analysed keeps its status and carries a lease (`lease_owner` until
 * `lease_until`): no other analyzer claims it until the lease ends, so a crashed analyzer's
 * claims come back after it (the outbox's pattern, DESIGN.md §3).
 *
 * The SQL is shared by SQLite (node:sqlite, DATA_DIR/analysis.sqlite) and PostgreSQL
 * (DATABASE_URL), as DESIGN.md §2 stores the outbox: one statement text, written with
 * PostgreSQL's `$n` placeholders, which the SQLite side reads as `?n` (store-sqlite.ts).
 */

export type AnalysisStatus = "pending" | "done" | "failed";

const TRACK_ANALYSIS_SCHEMA = `
CREATE TABLE IF NOT EXISTS track_analysis (
  key TEXT PRIMARY KEY,
  identity TEXT NOT NULL,
  status TEXT NOT NULL,
  analysis TEXT,
  analyzer_version INTEGER,
  reason TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  lease_owner TEXT,
  lease_until BIGINT,
  result_at BIGINT,
  result_seq BIGINT,
  finished_at BIGINT,
  updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS track_analysis_due ON track_analysis (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS track_analysis_result_at ON track_analysis (result_at);
CREATE INDEX IF NOT EXISTS track_analysis_finished_at ON track_analysis (finished_at);
`;

/**
 * Issue #42, ADR 0151: results are read in the order the database stored them (`result_seq`),
 * never by the writer's clock. A store made before it gets the column, and its results numbered
 * in their old order (result time, then key), once: on PostgreSQL through the schema mechanism
 * (ADR 0140: this text is applied once), on SQLite when the column is missing (sqliteUpgrade).
 */
const NUMBER_EXISTING_RESULTS = `UPDATE track_analysis SET result_seq = numbered.seq
  FROM (SELECT key, ROW_NUMBER() OVER (ORDER BY result_at, key) AS seq FROM track_analysis WHERE result_at IS NOT NULL) AS numbered
 WHERE track_analysis.key = numbered.key AND track_analysis.result_seq IS NULL`;
const RESULT_SEQ_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS track_analysis_result_seq ON track_analysis (result_seq)";

/** PostgreSQL's sequence of stored results; nextval under RESULT_SEQ_LOCK (AnalysisStore.writeResults). */
const RESULT_SEQUENCE = "track_analysis_result_seq";

/**
 * PostgreSQL's index of the result order. RESULT_SEQ_INDEX names the relation the sequence above
 * already is (indexes and sequences share one namespace), so on PostgreSQL its `IF NOT EXISTS`
 * skipped it and no index was ever made: each figures page (the track index's read, 5,000 rows)
 * and each look at the marker (every 2 s, every process) scanned and sorted the whole table,
 * parsing every row's JSON (found by bench:cluster at 2.25 million results: a marker read took
 * 6 s, a figures page minutes). Not unique: a database numbered before has never been checked,
 * and a failed unique build would stop the store from opening.
 */
const POSTGRES_RESULT_ORDER_INDEX = "CREATE INDEX IF NOT EXISTS track_analysis_result_order ON track_analysis (result_seq)";

// Applied again when this text changes (ADR 0140): the sequence is only ever moved forward, so
// numbers taken meanwhile by a writer (under RESULT_SEQ_LOCK, not committed yet) are not given again.
const POSTGRES_RESULT_SEQ = `
ALTER TABLE track_analysis ADD COLUMN IF NOT EXISTS result_seq BIGINT;
CREATE SEQUENCE IF NOT EXISTS ${RESULT_SEQUENCE};
${NUMBER_EXISTING_RESULTS};
SELECT setval('${RESULT_SEQUENCE}', GREATEST(COALESCE(MAX(result_seq), 0), (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM ${RESULT_SEQUENCE})) + 1, false) FROM track_analysis;
${POSTGRES_RESULT_ORDER_INDEX};
`;

const REFERENCES = REFERENCES_SCHEMA.map((statement) => `${statement};`).join("\n") + "\n";

/**
 * The analysis database's schema: the track analyses and the visitors' reference files
 * (references.ts), applied when the store opens, once per schema text on PostgreSQL (ADR
 * 0140). Issue #42, ADR 0149: the references' tables were created by their store on first use,
 * outside this mechanism, and a failure there was kept until the process restarted.
 */
export const POSTGRES_SCHEMA = TRACK_ANALYSIS_SCHEMA + POSTGRES_RESULT_SEQ + REFERENCES;
/** SQLite's: run at every open; the result order's column of an older file is added by sqliteUpgrade. */
export const SQLITE_SCHEMA = TRACK_ANALYSIS_SCHEMA + REFERENCES;

/** Adds and fills `result_seq` in a file made before it (ADR 0151), then its index. */
export function sqliteUpgrade(db: DatabaseSync): void {
  const columns = db.prepare("PRAGMA table_info(track_analysis)").all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === "result_seq")) {
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec("ALTER TABLE track_analysis ADD COLUMN result_seq BIGINT");
      db.exec(NUMBER_EXISTING_RESULTS);
      db.exec("COMMIT");
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  }
  db.exec(RESULT_SEQ_INDEX);
}

/**
 * Any fixed number (the migrations use others): on PostgreSQL a transaction that numbers results
 * holds it until its COMMIT, so results become visible in the order of their numbers and a reader
 * that has seen number n never later finds a smaller one committed (ADR 0151). SQLite has one
 * writer at a time (BEGIN IMMEDIATE) and needs none.
 */
const RESULT_SEQ_LOCK = 4_009_151;

/** The statements a store runs, over either database (app/.server/db/sql.ts, ADR 0106). */
export type { SqlDatabase } from "../../db/sql.ts";

/** What the catalog walk saw of one audio key: its identity, or undefined when it could not tell. */
export interface Observation {
  key: string;
  identity: string | undefined;
}

/** A row's state as reconcile() weighs it. */
export interface RowState {
  identity: string;
  status: AnalysisStatus;
  /** The version that produced the last outcome (done or failed); null while pending. */
  analyzerVersion: number | null;
}

export type ReconcileAction =
  /** a key never seen: analyse it */
  | { kind: "insert"; identity: string }
  /** other audio under the key: analyse it, and stop showing the old result */
  | { kind: "reset"; identity: string }
  /** the same audio, an older analyzer: analyse again, showing the old result meanwhile */
  | { kind: "requeue" };

/**
 * What to do with a row given what the walk saw (pure; the unit tests cover it). An identity
 * the walk could not find (a missing file, a HEAD that failed) changes nothing on a known row:
 * a media host that is down for a minute must not throw away 25,000 results. A new key is
 * still queued, with an empty identity, and the attempt to read it records why it fails.
 */
export function reconcileAction(row: RowState | undefined, observed: string | undefined, version = ANALYZER_VERSION): ReconcileAction | null {
  if (!row) return { kind: "insert", identity: observed ?? "" };
  if (observed !== undefined && observed !== row.identity) return { kind: "reset", identity: observed };
  if (row.status !== "pending" && (row.analyzerVersion ?? 0) < version) return { kind: "requeue" };
  return null;
}

/** First retry after a minute, doubling per attempt, never more than a day apart (ADR 0091). */
export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 24 * 60 * 60_000;

/** The wait before the next attempt after `attempts` failed ones (attempts >= 1). */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.max(0, attempts - 1);
  // 2^exponent overflows nothing below 2^53, and the cap is reached at exponent 11
  return exponent >= 11 ? RETRY_MAX_MS : Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** exponent);
}

/** A failure's reason as stored and printed: one line, bounded. */
export function truncateReason(reason: string): string {
  const line = reason.replace(/\s+/g, " ").trim();
  return line.length > 500 ? `${line.slice(0, 499)}…` : line;
}

export interface Claim {
  key: string;
  identity: string;
  /** attempts including this one */
  attempts: number;
}

/** A result made elsewhere, for the audio `identity` names (AnalysisStore.seed). */
export interface SeededResult {
  key: string;
  identity: string;
  analysis: TrackAnalysis;
}

export interface AnalysisFailureRow {
  key: string;
  reason: string;
  attempts: number;
  nextAttemptAt: number;
}

export interface AnalysisSummary {
  done: number;
  pending: number;
  failed: number;
  /** rows an analyzer holds now (part of pending and failed) */
  analysing: number;
  /** analyses finished in the last hour */
  doneLastHour: number;
  /** the most recent failures, newest first */
  failures: AnalysisFailureRow[];
}

interface Row {
  key: string;
  identity: string;
  status: AnalysisStatus;
  analyzer_version: number | string | null;
  attempts: number | string;
}

export type { StoredResult } from "./store-reads.ts";

/**
 * The analysis queue (reconcile, claims and their leases, results stored, failures, release)
 * over the reads pages and the index make of it (StoredResults, store-reads.ts).
 */
export class AnalysisStore extends StoredResults {
  constructor(db: SqlDatabase) {
    super(db);
  }

  get kind() {
    return this.db.kind;
  }

  get location() {
    return this.db.location;
  }

  /**
   * Queues what the walk found new or changed (reconcileAction). Rows an analyzer holds are
   * left alone: changing them could start a second analysis of the same key while the first
   * runs. The analysis in progress stores the identity it read, and the next walk compares
   * against that. Returns how many rows were queued.
   */
  async reconcile(observed: readonly Observation[], now: number, version = ANALYZER_VERSION): Promise<number> {
    let queued = 0;
    for (const part of chunks(observed)) {
      const rows = await this.db.query<Row>(
        `SELECT key, identity, status, analyzer_version, attempts FROM track_analysis WHERE ${this.db.inJsonArray("key", 1)}`,
        [JSON.stringify(part.map((o) => o.key))],
      );
      const byKey = new Map(rows.map((r) => [r.key, r]));
      const statements: Array<[string, unknown[]]> = [];
      let resets = false;
      for (const o of part) {
        const row = byKey.get(o.key);
        const action = reconcileAction(
          row && { identity: row.identity, status: row.status, analyzerVersion: row.analyzer_version === null ? null : num(row.analyzer_version) },
          o.identity,
          version,
        );
        if (!action) continue;
        if (action.kind === "insert") {
          statements.push([
            `INSERT INTO track_analysis (key, identity, status, attempts, next_attempt_at, updated_at)
             VALUES ($1, $2, 'pending', 0, $3, $3) ON CONFLICT (key) DO NOTHING`,
            [o.key, action.identity, now],
          ]);
        } else if (action.kind === "reset") {
          // the old result described other audio: it goes, and readers see it go (a new result_seq)
          resets = true;
          statements.push([
            `UPDATE track_analysis SET identity = $2, status = 'pending', analysis = NULL, analyzer_version = NULL, reason = NULL,
                    attempts = 0, next_attempt_at = $3, result_at = CASE WHEN analysis IS NULL THEN result_at ELSE $3 END,
                    result_seq = CASE WHEN analysis IS NULL THEN result_seq ELSE ${this.nextSeq} END, updated_at = $3
              WHERE key = $1 AND identity = $4 AND (lease_until IS NULL OR lease_until < $3)`,
            [o.key, action.identity, now, row!.identity],
          ]);
        } else {
          statements.push([
            `UPDATE track_analysis SET status = 'pending', attempts = 0, next_attempt_at = $2, updated_at = $2
              WHERE key = $1 AND status <> 'pending' AND (lease_until IS NULL OR lease_until < $2)`,
            [o.key, now],
          ]);
        }
      }
      if (statements.length) queued += resets ? await this.writeResults(statements) : await this.db.batch(statements);
    }
    return queued;
  }

  /**
   * Takes up to `limit` rows that are due and not held, under a lease. On PostgreSQL the
   * inner SELECT locks with SKIP LOCKED, so analyzers claiming at once take different rows
   * and never wait on each other; SQLite runs the one statement under its write lock.
   */
  async claim(opts: { owner: string; now: number; leaseMs: number; limit: number }): Promise<Claim[]> {
    if (opts.limit <= 0) return [];
    const rows = await this.db.query<Row>(
      `UPDATE track_analysis SET lease_owner = $1, lease_until = $2, attempts = attempts + 1, updated_at = $3
        WHERE key IN (
          SELECT key FROM track_analysis
           WHERE status IN ('pending', 'failed') AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
           ORDER BY next_attempt_at, key
           LIMIT $4
           ${this.db.lockClause})
      RETURNING key, identity, status, analyzer_version, attempts`,
      [opts.owner, opts.now + opts.leaseMs, opts.now, opts.limit],
    );
    return rows.map((r) => ({ key: r.key, identity: r.identity, attempts: num(r.attempts) }));
  }

  /**
   * The number of a result being stored, assigned by the database (issue #42, ADR 0151): a
   * sequence on PostgreSQL; on SQLite the largest number plus one, under its one writer's lock.
   * Readers follow these numbers, never `result_at` (the writer's clock, kept for people).
   */
  private get nextSeq(): string {
    return this.db.kind === "postgres" ? `nextval('${RESULT_SEQUENCE}')` : "(SELECT COALESCE(MAX(result_seq), 0) + 1 FROM track_analysis)";
  }

  /**
   * Runs statements that number results in one transaction; on PostgreSQL under RESULT_SEQ_LOCK,
   * so their numbers are committed in order (ADR 0151). Returns the rows they changed.
   */
  private writeResults(statements: ReadonlyArray<readonly [string, readonly unknown[]]>): Promise<number> {
    return this.db.transaction(async (tx) => {
      if (this.db.kind === "postgres") await tx.query("SELECT pg_advisory_xact_lock($1)", [RESULT_SEQ_LOCK]);
      let changed = 0;
      for (const [sql, params] of statements) changed += await tx.run(sql, params);
      return changed;
    });
  }

  /** Stores a result; false when `owner` no longer holds the row (its lease ran out and another took it). */
  async finishDone(key: string, owner: string, identity: string, analysis: TrackAnalysis, now: number): Promise<boolean> {
    const changed = await this.writeResults([
      [
        `UPDATE track_analysis SET status = 'done', identity = $3, analysis = $4, analyzer_version = $5, reason = NULL, attempts = 0,
                next_attempt_at = $6, lease_owner = NULL, lease_until = NULL, result_at = $6, result_seq = ${this.nextSeq}, finished_at = $6, updated_at = $6
          WHERE key = $1 AND lease_owner = $2`,
        [key, owner, identity, JSON.stringify(analysis), analysis.analyzerVersion, now],
      ],
    ]);
    return changed === 1;
  }

  /**
   * Stores results made elsewhere for audio known by its identity (the sample's shipped
   * analysis: app/.server/catalog/sample/sample-analysis.ts, issue #19), as if analysed now:
   * a new key, a row of an older analyzer, or a row of other audio takes them; a row held by
   * an analyzer or already as new is left alone. Returns the rows stored.
   */
  async seed(results: readonly SeededResult[], now: number): Promise<number> {
    if (results.length === 0) return 0;
    return this.writeResults(
      results.map((r) => [
        `INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, result_seq, finished_at, updated_at)
         VALUES ($1, $2, 'done', $3, $4, 0, $5, $5, ${this.nextSeq}, $5, $5)
         ON CONFLICT (key) DO UPDATE SET identity = excluded.identity, status = 'done', analysis = excluded.analysis,
                analyzer_version = excluded.analyzer_version, reason = NULL, attempts = 0, next_attempt_at = excluded.next_attempt_at,
                result_at = excluded.result_at, result_seq = excluded.result_seq, finished_at = excluded.finished_at, updated_at = excluded.updated_at
          WHERE (track_analysis.analyzer_version IS NULL OR track_analysis.analyzer_version < excluded.analyzer_version
                 OR track_analysis.identity <> excluded.identity)
            AND (track_analysis.lease_until IS NULL OR track_analysis.lease_until < $5)`,
        [r.key, r.identity, JSON.stringify(r.analysis), r.analysis.analyzerVersion, now],
      ] as const),
    );
  }

  /** Records a failure and its next attempt (retryDelayMs after `now`). */
  async finishFailed(claim: Claim, owner: string, identity: string, reason: string, now: number, version = ANALYZER_VERSION): Promise<boolean> {
    const changed = await this.db.batch([
      [
        `UPDATE track_analysis SET status = 'failed', identity = $3, reason = $4, analyzer_version = $5, next_attempt_at = $6,
                lease_owner = NULL, lease_until = NULL, updated_at = $7
          WHERE key = $1 AND lease_owner = $2`,
        [claim.key, owner, identity, truncateReason(reason), version, now + retryDelayMs(claim.attempts), now],
      ],
    ]);
    return changed === 1;
  }

  /**
   * Extends the leases `owner` still holds on `keys` to `now + leaseMs` (issue #42, ADR 0158):
   * the analyzer renews what it is working on, so a lease can be short (a killed analyzer's
   * tracks come back soon) and still never run out under a live one. A key another analyzer took
   * meanwhile (this one's lease had run out) is left alone. Returns the leases extended.
   */
  async renew(keys: readonly string[], owner: string, now: number, leaseMs: number): Promise<number> {
    if (keys.length === 0) return 0;
    return this.db.batch([
      [
        `UPDATE track_analysis SET lease_until = $2 WHERE lease_owner = $1 AND ${this.db.inJsonArray("key", 3)}`,
        [owner, now + leaseMs, JSON.stringify(keys)],
      ],
    ]);
  }

  /** Gives back claims that were not worked on (a stop): due at once, the attempt not counted. */
  async release(keys: readonly string[], owner: string, now: number): Promise<number> {
    if (keys.length === 0) return 0;
    return this.db.batch([
      [
        `UPDATE track_analysis SET lease_owner = NULL, lease_until = NULL, attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
                next_attempt_at = $2, updated_at = $2
          WHERE lease_owner = $1 AND ${this.db.inJsonArray("key", 3)}`,
        [owner, now, JSON.stringify(keys)],
      ],
    ]);
  }

  /**
   * Changes whenever a shown result is stored or withdrawn, in any process (the lookup's
   * version): the last result number (ADR 0151; one step of the unique index), whatever the
   * clocks of the processes that stored them.
   */
  async marker(): Promise<string> {
    const [row] = await this.db.query<{ seq: unknown }>(`SELECT MAX(result_seq) AS seq FROM track_analysis`, []);
    return row?.seq === null || row?.seq === undefined ? "" : String(num(row.seq));
  }

  /** When the next row falls due (ms), or undefined when none waits; held rows count from their lease's end. */
  async nextDue(): Promise<number | undefined> {
    const [row] = await this.db.query<{ due: unknown }>(
      `SELECT MIN(CASE WHEN lease_until IS NOT NULL AND lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END) AS due
         FROM track_analysis WHERE status IN ('pending', 'failed')`,
      [],
    );
    return row?.due === null || row?.due === undefined ? undefined : num(row.due);
  }

  async summary(opts: { now: number; failures?: number }): Promise<AnalysisSummary> {
    const counts = await this.db.query<{ status: AnalysisStatus; n: unknown; held: unknown }>(
      `SELECT status, COUNT(*) AS n, SUM(CASE WHEN lease_until >= $1 THEN 1 ELSE 0 END) AS held FROM track_analysis GROUP BY status`,
      [opts.now],
    );
    const [recent] = await this.db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM track_analysis WHERE finished_at >= $1`, [opts.now - 3_600_000]);
    const failures = await this.db.query<{ key: string; reason: string | null; attempts: unknown; next_attempt_at: unknown }>(
      `SELECT key, reason, attempts, next_attempt_at FROM track_analysis WHERE status = 'failed' ORDER BY updated_at DESC, key LIMIT $1`,
      [opts.failures ?? 50],
    );
    const summary: AnalysisSummary = { done: 0, pending: 0, failed: 0, analysing: 0, doneLastHour: num(recent?.n), failures: [] };
    for (const c of counts) {
      summary[c.status] = num(c.n);
      summary.analysing += num(c.held);
    }
    summary.failures = failures.map((f) => ({ key: f.key, reason: f.reason ?? "", attempts: num(f.attempts), nextAttemptAt: num(f.next_attempt_at) }));
    return summary;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
