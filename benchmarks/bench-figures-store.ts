import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { ANALYZER_VERSION } from "../app/.server/analysis/analyze.ts";
import { codebookId, STORED_CODES_VERSION } from "../app/.server/analysis/passage-codes.ts";
import { encodeSegments, WINDOW_BYTES } from "../app/.server/analysis/segments.ts";
import { AnalysisStore } from "../app/.server/analysis/stage/store.ts";
import { openSqliteDatabase } from "../app/.server/analysis/stage/store-sqlite.ts";
import type { AnalysisFigures, FiguresCursor } from "../app/.server/analysis/stage/types.ts";
import type { SqlDatabase } from "../app/.server/db/sql.ts";
import { createPrng } from "../app/.server/catalog/sample/prng.ts";
import { FiguresBuilder } from "../app/.server/catalog/tracks/figures-builder.ts";
import { readFigures } from "../app/.server/catalog/tracks/figures-read.ts";
import { buildTrackColumns } from "../app/.server/catalog/tracks/table.ts";
import { NO_YIELD } from "../app/.server/catalog/tracks/yielding.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * `npm run bench:figures-store -- --tracks 250000` (ADR 0134): the track index's full read of
 * the analysis figures (readFigures, as the build worker makes it) from a SQLite analysis store
 * of realistic rows — 60–420 s tracks, a passage window every 10 s (segments.ts), 100 preview
 * and 200 overview peaks, a fingerprint, and stored passage codes of this codebook (analyser 8)
 * — three ways: before (the figures read returning every track's passages, ADR 0130's query),
 * after (the codes only), and after with every track's codes another codebook's (a refit: each
 * track's passages read by key, ADR 0130's fallback; with --stale, and every track is then coded at the build); and a reference view's keyed read of its candidates' passages (--keyed sizes), whole analyses or the passages alone. Prints the wall time and the bytes of
 * strings the database returned. The store is made in a temporary directory and removed.
 */
const { values } = parseArgs({ options: { tracks: { type: "string", default: "250000" }, page: { type: "string", default: "5000" }, runs: { type: "string", default: "2" }, stale: { type: "boolean", default: false }, keyed: { type: "string", default: "600,1200,2400" } } });
const tracks = Number(values.tracks);
const pageSize = Number(values.page);
const runs = Number(values.runs);

const dir = mkdtempSync(path.join(os.tmpdir(), "figures-store-"));
const file = path.join(dir, "analysis.sqlite");
void openSqliteDatabase(file).close();

/** Stored codes with this codebook's header (or another's) and random cells and residuals: what an analyser-8 result holds. */
function storedCodes(r: ReturnType<typeof createPrng>, windows: number, id: number): string {
  const bytes = Buffer.alloc(5 + 4 * windows);
  bytes[0] = STORED_CODES_VERSION;
  bytes.writeUInt32LE(id, 1);
  for (let w = 0; w < windows; w++) {
    bytes.writeUInt16LE(r.int(0, 65_535), 5 + 4 * w);
    bytes.writeUInt16LE(r.int(0, 65_535), 7 + 4 * w);
  }
  return bytes.toString("base64");
}

function seed(id: number): void {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; DELETE FROM track_analysis;");
  const insert = db.prepare(
    `INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, result_seq, finished_at, updated_at)
     VALUES (?, 'bench', 'done', ?, ?, 0, 0, ?, ?, 0, 0)`,
  );
  const r = createPrng(134);
  db.exec("BEGIN");
  for (let i = 0; i < tracks; i++) {
    const seconds = 60 + r.next() * 360;
    const windows = Math.min(120, Math.floor((seconds - 20) / 10) + 1);
    const anchors = Uint8Array.from({ length: windows * WINDOW_BYTES }, () => r.int(0, 255));
    const peaks = (n: number) => Array.from({ length: n }, () => Math.round(r.next() * 1000) / 1000);
    const analysis = {
      durationSeconds: seconds,
      bpm: 60 + r.next() * 120,
      bpmConfidence: 0.8,
      key: "A minor",
      keyConfidence: 0.7,
      loudnessLufs: -14,
      previewPeaks: peaks(100),
      overviewPeaks: peaks(200),
      fingerprint: Buffer.from(Uint8Array.from({ length: 45 }, () => r.int(0, 255))).toString("base64"),
      segments: encodeSegments(anchors),
      passageCodes: storedCodes(r, windows, id),
      analyzerVersion: ANALYZER_VERSION,
    };
    insert.run(`t/${i}.mp3`, JSON.stringify(analysis), ANALYZER_VERSION, i + 1, i + 1);
    if (i % 20_000 === 19_999) {
      db.exec("COMMIT");
      db.exec("BEGIN");
    }
  }
  db.exec("COMMIT");
  db.close();
}

/** A store over the file whose returned strings are counted. */
function countedStore(): { store: AnalysisStore; bytes: () => number } {
  const db = openSqliteDatabase(file);
  let bytes = 0;
  const counted: SqlDatabase = Object.assign(Object.create(db) as SqlDatabase, {
    async query<R>(sql: string, params?: readonly unknown[]): Promise<R[]> {
      const rows = await db.query<R>(sql, params);
      for (const row of rows) for (const v of Object.values(row as object)) if (typeof v === "string") bytes += v.length;
      return rows;
    },
  });
  return { store: new AnalysisStore(counted), bytes: () => bytes };
}

/** The figures read before ADR 0134 (ADR 0130's query: every track's passages beside its codes). */
async function figuresBefore(db: SqlDatabase, cursor: FiguresCursor | null, limit: number): Promise<{ rows: AnalysisFigures[]; next: FiguresCursor | null }> {
  const field = (name: string) => db.jsonField("analysis", name);
  const rows = await db.query<{ key: string; seq: number; seconds: number | null; bpm: number | null; musical_key: string | null; fingerprint: string | null; segments: string | null; passage_codes: string | null }>(
    `SELECT key, result_seq AS seq, ${field("durationSeconds")} AS seconds, ${field("bpm")} AS bpm, ${field("key")} AS musical_key,
            ${field("fingerprint")} AS fingerprint, ${field("segments")} AS segments, ${field("passageCodes")} AS passage_codes
       FROM track_analysis
      WHERE result_seq > $1
      ORDER BY result_seq
      LIMIT $2`,
    [cursor?.seq ?? 0, Math.max(1, limit)],
  );
  const last = rows.at(-1);
  return {
    rows: rows.map((r) => ({ key: r.key, seconds: r.seconds, bpm: r.bpm, musicalKey: r.musical_key, ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}), ...(r.segments ? { segments: r.segments } : {}), ...(r.passage_codes ? { passageCodes: r.passage_codes } : {}) })),
    next: last ? { seq: Number(last.seq) } : null,
  };
}

const columns = await buildTrackColumns(Math.ceil(tracks / 10), (a) => Array.from({ length: Math.min(10, tracks - a * 10) }, (_, j) => ({ s3Path: `t/${a * 10 + j}.mp3`, Filename: `${a * 10 + j}.mp3` })), NO_YIELD);

async function measure(way: "before" | "after"): Promise<{ ms: number; bytes: number; coded: number }> {
  const { store, bytes } = countedStore();
  const db = (store as unknown as { db: SqlDatabase }).db;
  const source = way === "before" ? { figuresAfter: (c: FiguresCursor | null, l: number) => figuresBefore(db, c, l) } : store;
  const builder = await FiguresBuilder.create(columns, null, NO_YIELD);
  const started = performance.now();
  await readFigures(source, builder, null, pageSize, NO_YIELD);
  const ms = performance.now() - started;
  let coded = 0;
  for (const c of builder.passageCount) if (c > 0) coded++;
  await store.close();
  return { ms, bytes: bytes(), coded };
}

const line = (name: string, r: { ms: number; bytes: number; coded: number }) =>
  console.log(`${name.padEnd(44)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${(r.bytes / 1e6).toFixed(0).padStart(6)} MB returned  ${r.coded.toLocaleString("en-US")} tracks with codes`);

try {
  let started = performance.now();
  seed(codebookId());
  console.log(`${tracks.toLocaleString("en-US")} results seeded in ${((performance.now() - started) / 1000).toFixed(0)} s, store ${(statSync(file).size / 1e6).toFixed(0)} MB (SQLite, ${dir})`);
  for (let run = 0; run < runs; run++) {
    line(`before: passages read with the figures`, await measure("before"));
    line(`after: codes only`, await measure("after"));
  }
  // a reference view's first ask reads its candidates' passages by key (track-rows.ts byPassages):
  // whole analyses (results(), before ADR 0134) or the passages alone (segmentsOf), 20 random sets each
  {
    const { store, bytes } = countedStore();
    const r = createPrng(7);
    for (const k of values.keyed.split(",").map(Number).filter((x) => x > 0)) {
      for (const way of ["whole analyses (results)", "passages alone (segmentsOf)"] as const) {
        const times: number[] = [];
        const from = bytes();
        for (let run = 0; run < 20; run++) {
          const keys = Array.from({ length: k }, () => `t/${r.int(0, tracks - 1)}.mp3`);
          const t = performance.now();
          if (way === "passages alone (segmentsOf)") await store.segmentsOf(keys);
          else await store.results(keys);
          times.push(performance.now() - t);
        }
        times.sort((x, y) => x - y);
        console.log(`read ${k} keys, ${way}: p50 ${times[10].toFixed(1)} ms, p95 ${times[19].toFixed(1)} ms, ${((bytes() - from) / 20 / 1e6).toFixed(2)} MB a read`);
      }
    }
    await store.close();
  }
  if (values.stale) {
    started = performance.now();
    seed(codebookId() ^ 1);
    console.log(`re-seeded with another codebook's codes in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    line(`before, codes stale: passages read, all coded`, await measure("before"));
    line(`after, codes stale: passages read by key`, await measure("after"));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
