import type { TrackAnalysis } from "../analyze.ts";
import type { AnalysisFigures, FiguresCursor } from "./types.ts";
import type { SqlDatabase } from "../../db/sql.ts";

/**
 * The reads of the analysis store (store.ts: the table, its schema and the queue) that pages
 * and the track index make: results by key, the figures after a cursor, passages by key.
 * AnalysisStore extends this with the queue's claims, leases and results.
 */

export interface StoredResult {
  key: string;
  analysis: TrackAnalysis;
  /** the stored JSON's length, for the lookup cache's byte bound */
  bytes: number;
}

/** The lookups a page makes and the changes a walk sends are cut into statements of this many keys. */
const KEYS_PER_STATEMENT = 500;

export function chunks<T>(items: readonly T[], size = KEYS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** PostgreSQL returns BIGINT and COUNT as strings; SQLite as numbers (or bigints). */
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/**
 * The figures read on PostgreSQL (figuresAfter): each row's JSON parsed once (json_to_record),
 * not once per field as `analysis::json ->> 'field'` does: 2.5 times faster over 180,000 results
 * on a quiet machine, 3.9 over 90,000 on a busy one (labs/pg-figures-read.ts, ADR 0161). A withdrawn result (no analysis) is kept by the outer
 * join, its fields null. Exported for the test of its plan (an index scan of the result order).
 */
export const POSTGRES_FIGURES_AFTER = `SELECT t.key, t.result_seq AS seq, r."durationSeconds" AS seconds, r.bpm, r.key AS musical_key, r.fingerprint,
        CASE WHEN r.segments IS NULL THEN 0 ELSE 1 END AS has_segments, r."passageCodes" AS passage_codes
   FROM track_analysis t
   LEFT JOIN LATERAL json_to_record(t.analysis::json) AS r("durationSeconds" text, bpm text, key text, fingerprint text, segments text, "passageCodes" text) ON true
  WHERE t.result_seq > $1
  ORDER BY t.result_seq
  LIMIT $2`;

export class StoredResults {
  readonly db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.db = db;
  }

  /** The stored results for these keys (done, or requeued for a newer analyzer and not redone yet). */
  async results(keys: readonly string[]): Promise<StoredResult[]> {
    const out: StoredResult[] = [];
    for (const part of chunks(keys)) {
      const rows = await this.db.query<{ key: string; analysis: string }>(
        `SELECT key, analysis FROM track_analysis WHERE analysis IS NOT NULL AND ${this.db.inJsonArray("key", 1)}`,
        [JSON.stringify(part)],
      );
      for (const r of rows) out.push({ key: r.key, analysis: JSON.parse(r.analysis) as TrackAnalysis, bytes: r.analysis.length });
    }
    return out;
  }

  /**
   * The figures of the results stored or withdrawn after `cursor`, in the order the database
   * numbered them (`result_seq`, ADR 0151; issue #10: the track index reads them all at start,
   * then what changed). A result numbered n is committed before any numbered above it, so
   * nothing before the cursor appears later. Read in SQL from the stored
   * JSON, so the peaks (most of each result's bytes) never reach the process. A withdrawn
   * result (other audio under the key) has no analysis and comes back with `seconds` null.
   */
  async figuresAfter(cursor: FiguresCursor | null, limit: number): Promise<{ rows: AnalysisFigures[]; next: FiguresCursor | null }> {
    const field = (name: string) => this.db.jsonField("analysis", name);
    // the passages themselves (~1 KB a track) are not read here: with codes stored by this
    // codebook the build never needs them; segmentsOf reads the few it does (ADR 0134)
    const sql =
      this.db.kind === "postgres"
        ? POSTGRES_FIGURES_AFTER
        : `SELECT key, result_seq AS seq, ${field("durationSeconds")} AS seconds, ${field("bpm")} AS bpm, ${field("key")} AS musical_key,
                  ${field("fingerprint")} AS fingerprint, CASE WHEN ${field("segments")} IS NULL THEN 0 ELSE 1 END AS has_segments,
                  ${field("passageCodes")} AS passage_codes
             FROM track_analysis
            WHERE result_seq > $1
            ORDER BY result_seq
            LIMIT $2`;
    const rows = await this.db.query<{ key: string; seq: unknown; seconds: unknown; bpm: unknown; musical_key: string | null; fingerprint: string | null; has_segments: unknown; passage_codes: string | null }>(sql, [cursor?.seq ?? 0, Math.max(1, limit)]);
    const value = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const last = rows.at(-1);
    return {
      rows: rows.map((r) => ({ key: r.key, seconds: value(r.seconds), bpm: value(r.bpm), musicalKey: r.musical_key ?? null, ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}), ...(num(r.has_segments) ? { hasSegments: true } : {}), ...(r.passage_codes ? { passageCodes: r.passage_codes } : {}) })),
      next: last ? { seq: num(last.seq) } : null,
    };
  }

  /**
   * The stored passages (segments.ts, base64) of these keys' results, for an index build's
   * tracks whose stored codes it cannot use (ADR 0134): a keyed read, KEYS_PER_STATEMENT keys a
   * statement. Keys without a result or without passages are absent.
   */
  async segmentsOf(keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const part of chunks(keys)) {
      const rows = await this.db.query<{ key: string; segments: string | null }>(
        `SELECT key, ${this.db.jsonField("analysis", "segments")} AS segments FROM track_analysis
          WHERE analysis IS NOT NULL AND ${this.db.inJsonArray("key", 1)}`,
        [JSON.stringify(part)],
      );
      for (const r of rows) if (r.segments) out.set(r.key, r.segments);
    }
    return out;
  }
}
