import { ANALYZER_VERSION, type TrackAnalysis } from "../analyze.ts";
import { chunks, num, StoredResults } from "./store-reads.ts";
import type { SqlDatabase } from "../../db/sql.ts";
import { REFERENCES_SCHEMA } from "./references.ts";

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
  finished_at BIGINT,
  updated_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS track_analysis_due ON track_analysis (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS track_analysis_result_at ON track_analysis (result_at);
CREATE INDEX IF NOT EXISTS track_analysis_finished_at ON track_analysis (finished_at);
`;

/**
 * The analysis database's schema: the track analyses and the visitors' reference files
 * (references.ts), applied when the store opens, once per schema text on PostgreSQL (ADR
 * 0140). Issue #42, ADR 0149: the references' tables were created by their store on first use,
 * outside this mechanism, and a failure there was kept until the process restarted.
 */
export const SCHEMA = TRACK_ANALYSIS_SCHEMA + REFERENCES_SCHEMA.map((statement) => `${statement};`).join("\n") + "\n";

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
  private lastResultAt = 0;

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
          // the old result described other audio: it goes, and the version moves (result_at)
          statements.push([
            `UPDATE track_analysis SET identity = $2, status = 'pending', analysis = NULL, analyzer_version = NULL, reason = NULL,
                    attempts = 0, next_attempt_at = $3, result_at = CASE WHEN analysis IS NULL THEN result_at ELSE $3 END, updated_at = $3
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
      if (statements.length) queued += await this.db.batch(statements);
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

  /** A strictly rising stamp per process, so two results in one millisecond still move the version. */
  private stamp(now: number): number {
    this.lastResultAt = Math.max(now, this.lastResultAt + 1);
    return this.lastResultAt;
  }

  /** Stores a result; false when `owner` no longer holds the row (its lease ran out and another took it). */
  async finishDone(key: string, owner: string, identity: string, analysis: TrackAnalysis, now: number): Promise<boolean> {
    const changed = await this.db.batch([
      [
        `UPDATE track_analysis SET status = 'done', identity = $3, analysis = $4, analyzer_version = $5, reason = NULL, attempts = 0,
                next_attempt_at = $6, lease_owner = NULL, lease_until = NULL, result_at = $7, finished_at = $6, updated_at = $6
          WHERE key = $1 AND lease_owner = $2`,
        [key, owner, identity, JSON.stringify(analysis), analysis.analyzerVersion, now, this.stamp(now)],
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
    return this.db.batch(
      results.map((r) => [
        `INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, finished_at, updated_at)
         VALUES ($1, $2, 'done', $3, $4, 0, $5, $6, $5, $5)
         ON CONFLICT (key) DO UPDATE SET identity = excluded.identity, status = 'done', analysis = excluded.analysis,
                analyzer_version = excluded.analyzer_version, reason = NULL, attempts = 0, next_attempt_at = excluded.next_attempt_at,
                result_at = excluded.result_at, finished_at = excluded.finished_at, updated_at = excluded.updated_at
          WHERE (track_analysis.analyzer_version IS NULL OR track_analysis.analyzer_version < excluded.analyzer_version
                 OR track_analysis.identity <> excluded.identity)
            AND (track_analysis.lease_until IS NULL OR track_analysis.lease_until < $5)`,
        [r.key, r.identity, JSON.stringify(r.analysis), r.analysis.analyzerVersion, now, this.stamp(now)],
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

  /** Changes whenever a shown result is stored or withdrawn, in any process (the lookup's version). */
  async marker(): Promise<string> {
    const [row] = await this.db.query<{ at: unknown; n: unknown }>(
      `SELECT result_at AS at, COUNT(*) AS n FROM track_analysis
        WHERE result_at = (SELECT MAX(result_at) FROM track_analysis) GROUP BY result_at`,
      [],
    );
    return row ? `${num(row.at)}:${num(row.n)}` : "";
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
