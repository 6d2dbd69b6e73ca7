import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ANALYZER_VERSION } from "../../app/.server/analysis/analyze.ts";
import { openSqliteDatabase } from "../../app/.server/analysis/stage/store-sqlite.ts";
import { createPrng } from "../../app/.server/catalog/sample/prng.ts";
import { DEFAULT_SEED, distinctAudioKey, sampleAlbums } from "../../app/.server/catalog/sample/generate.ts";
import { KEY_NAMES } from "../../app/lib/catalog/track-query.ts";
import { FINGERPRINT_BYTES, FINGERPRINT_VERSION } from "../../app/.server/analysis/fingerprint.ts";
import { TOP_GENRES } from "../../app/lib/catalog/genre-tree.ts";
import { CELLS, codebookId, STORED_CODES_VERSION } from "../../app/.server/analysis/passage-codes.ts";

/**
 * The track view's part of `npm run bench:catalog` (issue #10): synthetic analysis results for
 * the benchmark catalog's tracks, and the track view and search requests it measures.
 */

/** A fingerprint of this version with every field drawn at random (the stored form: base64). */
function randomFingerprint(r: ReturnType<typeof createPrng>): string {
  const bytes = new Uint8Array(FINGERPRINT_BYTES);
  bytes[0] = FINGERPRINT_VERSION;
  for (let i = 1; i < bytes.length; i++) bytes[i] = r.int(0, 255);
  return Buffer.from(bytes).toString("base64");
}

/**
 * Passage codes as the analyzer stores them (passage-codes.ts encodePassageCodes: version,
 * codebook id, then a cell and a residual code per window), drawn at random: one window every
 * 10 s of the track (the index keeps at most MAX_TRACK_PASSAGES distinct ones a track).
 */
function randomPassageCodes(r: ReturnType<typeof createPrng>, seconds: number): string {
  const count = Math.max(1, Math.floor(seconds / 10));
  const bytes = Buffer.alloc(5 + 4 * count);
  bytes[0] = STORED_CODES_VERSION;
  bytes.writeUInt32LE(codebookId(), 1);
  for (let w = 0; w < count; w++) {
    bytes.writeUInt16LE(r.int(0, CELLS - 1), 5 + 4 * w);
    bytes.writeUInt16LE(r.int(0, 65_535), 5 + 4 * w + 2);
  }
  return bytes.toString("base64");
}

/** Share of the bench's tracks with a stored analysis; the rest are listed without figures. */
const ANALYSED = 0.9;

/**
 * Writes a `done` result for ~90 % of the tracks of the catalog `sampleAlbums(albums, seed,
 * { distinctAudio: true })` into DATA_DIR/analysis.sqlite (the store the server reads): lengths
 * 20 s – 7 min, tempi 60–180 BPM (15 % without a beat), the 24 keys (5 % none), 100 preview
 * bars, and with `fingerprints` a random fingerprint (for `like=` views; bench:load). Returns
 * how many rows it wrote.
 */
export function seedAnalysis(dataDir: string, albums: number, seed = DEFAULT_SEED, opts: { fingerprints?: boolean } = {}): number {
  const file = path.join(dataDir, "analysis.sqlite");
  // the schema, as the server creates it
  void openSqliteDatabase(file).close();
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
  const insert = db.prepare(
    `INSERT OR REPLACE INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, result_seq, finished_at, updated_at)
     VALUES (?, 'bench', 'done', ?, ?, 0, 0, ?, ?, 0, 0)`,
  );
  let rows = 0;
  let at = 1;
  db.exec("BEGIN");
  for (const { key, json } of syntheticResults(albums, seed, opts)) {
    insert.run(key, json, ANALYZER_VERSION, at, at++);
    rows++;
    if (rows % 50_000 === 0) {
      db.exec("COMMIT");
      db.exec("BEGIN");
    }
  }
  db.exec("COMMIT");
  db.close();
  return rows;
}

/**
 * The results seedAnalysis writes, one per analysed track in catalog order (`album` is the
 * album's position): for a store other than SQLite (bench:cluster writes them to PostgreSQL).
 */
export function* syntheticResults(albums: number, seed = DEFAULT_SEED, opts: { fingerprints?: boolean; passages?: boolean } = {}): Generator<{ key: string; json: string; album: number }> {
  const r = createPrng(seed ^ 0xa11a);
  let i = 0;
  for (const album of sampleAlbums(albums, seed, { distinctAudio: true })) {
    for (let j = 0; j < album.tracks.length; j++) {
      if (!r.chance(ANALYSED)) continue;
      const peaks = Array.from({ length: 100 }, () => Math.round(r.next() * 100) / 100);
      const durationSeconds = 20 + r.next() * 400;
      const analysis = {
        durationSeconds,
        bpm: r.chance(0.15) ? null : 60 + r.next() * 120,
        bpmConfidence: 0.8,
        key: r.chance(0.05) ? null : KEY_NAMES[r.int(0, 23)],
        keyConfidence: 0.7,
        loudnessLufs: -14,
        previewPeaks: peaks,
        overviewPeaks: [],
        // how it sounds (ADR 0104), for `like=` views: random bytes of the fingerprint's layout
        ...(opts.fingerprints ? { fingerprint: randomFingerprint(r) } : {}),
        // a reference file's first stage (ADR 0129): the passage index every origin holds
        ...(opts.passages ? { passageCodes: randomPassageCodes(r, durationSeconds) } : {}),
        analyzerVersion: ANALYZER_VERSION,
      };
      yield { key: distinctAudioKey(i, j), json: JSON.stringify(analysis), album: i };
    }
    i++;
  }
}

/**
 * Writes syntheticResults to a PostgreSQL store's table (as the analyzer would: numbered by its
 * result sequence), 5,000 a statement, through `query` (a pg client's); returns how many.
 */
export async function seedPostgresResults(query: (sql: string, params: unknown[]) => Promise<unknown>, albums: number, opts: { fingerprints?: boolean; passages?: boolean } = {}): Promise<number> {
  let keys: string[] = [];
  let jsons: string[] = [];
  let written = 0;
  const flush = async () => {
    if (!keys.length) return;
    await query(
      `INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, result_seq, finished_at, updated_at)
       SELECT k, 'bench', 'done', a, $3, 0, 0, 1, nextval('track_analysis_result_seq'), 0, 0 FROM unnest($1::text[], $2::text[]) AS t(k, a)`,
      [keys, jsons, ANALYZER_VERSION],
    );
    written += keys.length;
    keys = [];
    jsons = [];
  };
  for (const r of syntheticResults(albums, DEFAULT_SEED, opts)) {
    keys.push(r.key);
    jsons.push(r.json);
    if (keys.length === 5_000) await flush();
  }
  await flush();
  return written;
}

/** Realistic track views (the filters a music supervisor uses), `count` of them, all different, the same every run. */
export function trackViews(count: number, seed = 10): string[] {
  const r = createPrng(seed);
  const out = new Set<string>();
  const durations = ["-59", "60-119", "120-239", "240-"];
  const bpms = ["-89", "90-120", "121-"];
  while (out.size < count) {
    const p = new URLSearchParams({ type: "music", view: "tracks" });
    if (r.chance(0.5)) {
      const lo = r.int(12, 34) * 5;
      p.set("bpm", r.chance(0.3) ? r.pick(bpms) : `${lo}-${lo + r.int(2, 8) * 5}`);
    }
    if (r.chance(0.4)) p.set("duration", r.pick(durations));
    if (r.chance(0.35)) for (let k = r.int(1, 3); k > 0; k--) p.append("key", r.pick(KEY_NAMES));
    if (r.chance(0.3)) p.set("genre", r.pick(TOP_GENRES));
    if (r.chance(0.5)) p.set("sort", r.pick(["bpm", "-bpm", "duration", "-duration"]));
    if (r.chance(0.4)) p.set("page", String(r.int(2, 6)));
    out.add(p.toString());
  }
  return [...out];
}

/** Searches with typos, prefixes and several words, over the sample catalog's words. */
export const TRACK_SEARCHES = [
  "ocen",
  "bosa",
  "golden rivers",
  "midnite",
  "velvet sky",
  "kofi",
  "electric dreams",
  "jaz",
  "afro house",
  "mind healing",
  "tender bells",
  "quiet stars",
  "silvr",
  "winter song",
  "ana costa",
  "brazil",
  "nothern lights",
  "crimson tide",
  "sacred",
  "lucky",
  // two neighbouring letters swapped (issue #41: one edit, ADR 0142)
  "nihgt",
  "gloden rivers",
];

/** The album view's searches, before (substring) and after (the catalog search). */
export const ALBUM_SEARCHES = ["love", "blue", "night", "gold", "ocen", "bosa", "golden rivers", "kofi", "midnite", "jazz"];
