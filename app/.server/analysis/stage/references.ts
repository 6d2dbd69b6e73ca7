import crypto from "node:crypto";
import type { SqlDatabase } from "./store.ts";
import { fingerprintBytes } from "../fingerprint.ts";
import type { Sounding } from "../similarity.ts";
import { KEY_NAMES } from "../../../lib/catalog/track-query.ts";

/**
 * The fingerprints of visitors' reference files (issue #19 "Search by a reference file"),
 * next to the track analyses in the analysis store (SQLite or PostgreSQL, one SQL). Only the
 * fingerprint, the segment anchors (issue #29), tempo, key, the file's name and what was heard (its length, the part
 * compared, a 100-bar outline of its loudness: issue #41) are kept — never the audio — until
 * `expires_at` (REFERENCE_TTL_DAYS after the upload); an expired row reads as "expired" and is
 * deleted by the next upload's sweep.
 */

/**
 * What the site heard in the file (issue #41 "What the site heard"): its length, the part
 * compared and an outline of its loudness for the result's waveform (WAVEFORM_BARS numbers
 * 0–100, not audio). A table of its own like reference_segments (additive: stores made before
 * it keep theirs as they are), swept with them; a reference stored before it has no row and
 * its view names it without them.
 */
export const REFERENCE_HEARD_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS reference_heard (
     id TEXT PRIMARY KEY,
     file_seconds REAL NOT NULL,
     from_seconds REAL NOT NULL,
     to_seconds REAL NOT NULL,
     peaks TEXT NOT NULL,
     expires_at BIGINT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS reference_heard_expires ON reference_heard (expires_at)`,
];

export const REFERENCES_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS reference_fingerprint (
     id TEXT PRIMARY KEY,
     fingerprint TEXT NOT NULL,
     bpm REAL,
     musical_key TEXT,
     label TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS reference_fingerprint_expires ON reference_fingerprint (expires_at)`,
  // A table of its own, not a column: stores made before it keep their table as it is (no
  // ALTER that SQLite and PostgreSQL would spell differently). Issue #29, ADR 0122.
  `CREATE TABLE IF NOT EXISTS reference_segments (
     id TEXT PRIMARY KEY,
     segments TEXT NOT NULL,
     expires_at BIGINT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS reference_segments_expires ON reference_segments (expires_at)`,
  // issue #41, additive: a table of its own
  ...REFERENCE_HEARD_SCHEMA,
];

/** What the site heard in a reference file (issue #41): the file's length, the part compared, its waveform's bars (0–100). */
export interface HeardFigures {
  fileSeconds: number;
  fromSeconds: number;
  toSeconds: number;
  peaks: number[];
}

export interface StoredReference {
  id: string;
  fingerprint: string;
  bpm: number | null;
  key: string | null;
  label: string;
  expiresAt: number;
  /** its passages (segments.ts, at most REFERENCE_WINDOWS windows), base64; absent for a reference stored before them */
  segments?: string | null;
  /** what the site heard (issue #41); absent for a reference stored before it */
  heard?: HeardFigures | null;
}

export type ReferenceLookup = { status: "ready"; reference: StoredReference } | { status: "expired" | "unknown" };

/** A reference's id: `ref-` and 16 random bytes, base64url (the URL's `like=`, track-params.ts). */
export const newReferenceId = () => `ref-${crypto.randomBytes(16).toString("base64url")}`;

/** The longest file name kept (for the view's heading). */
const LABEL_MAX = 80;

/**
 * Issue #42, ADR 0149: the tables are part of the analysis store's schema (store.ts SCHEMA),
 * created when the store opens; this class runs no DDL and keeps no state between calls, so a
 * statement that fails (PostgreSQL restarting) fails that request only.
 */
export class ReferenceStore {
  private readonly db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.db = db;
  }

  async put(ref: Omit<StoredReference, "label"> & { label: string }, now: number): Promise<void> {
    // eslint-disable-next-line no-control-regex
    const label = ref.label.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, LABEL_MAX);
    await this.db.batch([
      [`DELETE FROM reference_fingerprint WHERE expires_at < $1`, [now]],
      [`DELETE FROM reference_segments WHERE expires_at < $1`, [now]],
      [`DELETE FROM reference_heard WHERE expires_at < $1`, [now]],
      [
        `INSERT INTO reference_fingerprint (id, fingerprint, bpm, musical_key, label, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [ref.id, ref.fingerprint, ref.bpm, ref.key, label, now, ref.expiresAt],
      ],
      ...(ref.segments ? [[`INSERT INTO reference_segments (id, segments, expires_at) VALUES ($1, $2, $3)`, [ref.id, ref.segments, ref.expiresAt]] as const] : []),
      ...(ref.heard
        ? [
            [
              `INSERT INTO reference_heard (id, file_seconds, from_seconds, to_seconds, peaks, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
              [ref.id, ref.heard.fileSeconds, ref.heard.fromSeconds, ref.heard.toSeconds, encodePeaks(ref.heard.peaks), ref.expiresAt],
            ] as const,
          ]
        : []),
    ]);
  }

  async get(id: string, now: number): Promise<ReferenceLookup> {
    const [row] = await this.db.query<{
      id: string;
      fingerprint: string;
      bpm: unknown;
      musical_key: string | null;
      label: string;
      expires_at: unknown;
      segments: string | null;
      file_seconds: unknown;
      from_seconds: unknown;
      to_seconds: unknown;
      peaks: string | null;
    }>(
      `SELECT f.id, f.fingerprint, f.bpm, f.musical_key, f.label, f.expires_at, s.segments,
              h.file_seconds, h.from_seconds, h.to_seconds, h.peaks
         FROM reference_fingerprint f LEFT JOIN reference_segments s ON s.id = f.id LEFT JOIN reference_heard h ON h.id = f.id
        WHERE f.id = $1`,
      [id],
    );
    if (!row) return { status: "unknown" };
    if (Number(row.expires_at) <= now) return { status: "expired" };
    return {
      status: "ready",
      reference: {
        id: row.id,
        fingerprint: row.fingerprint,
        bpm: row.bpm === null ? null : Number(row.bpm),
        key: row.musical_key,
        label: row.label,
        expiresAt: Number(row.expires_at),
        segments: row.segments ?? null,
        heard:
          row.peaks === null || row.peaks === undefined
            ? null
            : { fileSeconds: Number(row.file_seconds), fromSeconds: Number(row.from_seconds), toSeconds: Number(row.to_seconds), peaks: decodePeaks(row.peaks) },
      },
    };
  }
}

/** Waveform bars (whole numbers 0–100) as stored: one byte each, base64. */
const encodePeaks = (peaks: readonly number[]) => Buffer.from(peaks.map((p) => Math.min(100, Math.max(0, Math.round(p) || 0)))).toString("base64");
const decodePeaks = (text: string) => [...Buffer.from(text, "base64")].map((p) => Math.min(100, p));

/** A stored reference as the track index compares it. */
export function referenceSounding(ref: StoredReference): Sounding | null {
  const fingerprint = fingerprintBytes(ref.fingerprint);
  if (!fingerprint) return null;
  const key = ref.key ? KEY_NAMES.indexOf(ref.key) : -1;
  return { fingerprint: new Uint8Array(fingerprint), bpm: ref.bpm === null ? null : Math.round(ref.bpm), key: key >= 0 ? key : null };
}
