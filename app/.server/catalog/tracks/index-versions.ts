import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import { sourceWorkerFile } from "../../worker-file.ts";
import { INDEX_CHUNK_NAME, type IndexVersion } from "../cluster-sync.ts";
import { download } from "../chunk-store.ts";
import { codebookId } from "../../analysis/passage-codes.ts";
import { adoptFigureFile, figureTempFile, openFigureFile, type FigureBytes } from "./figure-bytes.ts";
import { PRINT_BYTES } from "./print-layout.ts";
import { QUANTISE_FROM } from "./print-cells.ts";
import type { TrackColumns } from "./table.ts";

/**
 * The track index built once per cluster (issue #42; ADR 0162, amended 2026-11-29 "published
 * by the lease holder"): the lease holder publishes its figures file as a version in
 * PostgreSQL (cluster-sync.ts publishIndex); a process whose build would read every result
 * first takes the newest version for its table and format (here, in its build worker) and then
 * reads only the results after the version's cursor.
 */

/**
 * What the figures' bytes depend on besides the table and the results: the file layout, the
 * fingerprint's width, the passage codebook the stored codes were made with (ADR 0130) and the
 * like= cells' threshold (ADR 0124). A version of another format is never taken.
 */
export function indexFormat(): string {
  return `figures-index 1; print ${PRINT_BYTES}; codebook ${codebookId()}; cells from ${QUANTISE_FROM}`;
}

/**
 * A version's bound (ADR 0162: about 0.95 GB at 2.5 million tracks with passages and arrays):
 * a larger file is neither published nor downloaded; every machine builds its own instead.
 */
export const INDEX_VERSION_MAX_BYTES = 2 * 1024 ** 3;

/**
 * The track table a set of figures is laid out for, as a digest: the albums' ids, each album's
 * track count, each track's audio key (its 64-bit hash, table.ts) in table order, and the title
 * order (the figures' orders and packed words follow it). The same published catalog version
 * gives the same table, so the same digest, on every machine (ADR 0157); a machine whose table
 * differs in any track never takes a file built for another.
 */
export function tableDigest(ids: readonly string[], columns: Pick<TrackColumns, "count" | "albumStart" | "audioSorted" | "byAudio" | "titleOrder">): string {
  const hash = crypto.createHash("sha256");
  hash.update(`tracks ${columns.count} albums ${ids.length}\n`);
  hash.update(ids.join("\n"));
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  hash.update(bytes(columns.albumStart));
  const inOrder = new Uint32Array(2 * columns.count);
  for (let i = 0; i < columns.count; i++) {
    const t = columns.byAudio[i];
    inOrder[2 * t] = columns.audioSorted[2 * i];
    inOrder[2 * t + 1] = columns.audioSorted[2 * i + 1];
  }
  hash.update(bytes(inOrder));
  hash.update(bytes(columns.titleOrder));
  return hash.digest("hex");
}

/** A published file's name: a figures file's, content-named (figure-bytes.ts); anything else is refused. */
const FILE_NAME = /^figures-[0-9a-f]{32}\.bin$/;

export interface TakenVersion {
  version: IndexVersion;
  bytes: FigureBytes;
  /** downloaded now (false: the machine's copy, another process of it downloaded or wrote it) */
  downloaded: boolean;
  downloadMs: number;
}

/** Which version to take (takeIndexVersion), and where the machine keeps them. */
export interface VersionThreadInput {
  databaseUrl: string;
  dir: string;
  /** the caller's table digest, or null before it knows it (the newest of the format is taken) */
  table: string | null;
  format: string;
  /**
   * With `table` null: the digest of the caller's track lists (table-arrays.ts tableSource). The
   * newest version written for them is preferred (it carries the table's columns and title
   * postings: ADR 0162, seventh session), else the newest of the format.
   */
  source?: string | null;
}

/**
 * The newest published version for `table` and `format`, opened from `dir`: the machine's copy
 * when a process of the machine already has it (its content name), else downloaded chunk by
 * chunk into a temp file there, checked (size, SHA-256) and renamed. Null when none is
 * published for this table (or PostgreSQL has no such tables yet). Throws when one is
 * published but cannot be taken whole (cut short, another SHA-256, over its bound, another
 * table in its header): the caller builds from the results instead. One connection of its own,
 * closed before it returns (the build worker's, ADR 0149).
 *
 * `table` null takes the newest version of the format whatever its table, before the caller
 * knows its own (the build worker, while it builds the columns: ADR 0162 amended, "the
 * download beside the columns"); the caller then compares `bytes.table` with its digest and
 * never uses a file built for another table. `onChosen` hears the version's row before its
 * download (the build worker decides from it whether to build the columns meanwhile).
 */
export async function takeIndexVersion(input: VersionThreadInput, onChosen?: (version: IndexVersion | null) => void): Promise<TakenVersion | null> {
  const { databaseUrl, dir, table, format, source } = input;
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    type Row = { version: string; result_seq: string; name: string; bytes: string; sha256: string; table_digest: string; table_source: string | null };
    const columns = "SELECT version, result_seq, name, bytes, sha256, table_digest, table_source FROM track_index_versions";
    let row: Row | undefined;
    try {
      if (table !== null) row = (await client.query<Row>(`${columns} WHERE table_digest = $2 AND format = $1 ORDER BY version DESC LIMIT 1`, [format, table])).rows[0];
      else {
        if (source) row = (await client.query<Row>(`${columns} WHERE table_source = $2 AND format = $1 ORDER BY version DESC LIMIT 1`, [format, source])).rows[0];
        row ??= (await client.query<Row>(`${columns} WHERE format = $1 ORDER BY version DESC LIMIT 1`, [format])).rows[0];
      }
    } catch (error) {
      // 42P01: no lease holder has made the cluster's tables yet, so nothing is published
      if ((error as { code?: string }).code === "42P01") {
        onChosen?.(null);
        return null;
      }
      throw error;
    }
    if (!row) {
      onChosen?.(null);
      return null;
    }
    const version: IndexVersion = { version: Number(row.version), table: row.table_digest, format, resultSeq: Number(row.result_seq), name: row.name, bytes: Number(row.bytes), sha256: row.sha256, source: row.table_source };
    onChosen?.(version);
    if (!FILE_NAME.test(version.name)) throw new Error(`track index version ${version.version} names no figures file (${version.name})`);
    if (version.bytes > INDEX_VERSION_MAX_BYTES) throw new Error(`track index version ${version.version} is ${version.bytes} bytes, over its bound of ${INDEX_VERSION_MAX_BYTES}`);
    const file = path.join(dir, version.name);
    const started = performance.now();
    let bytes = machineCopy(file);
    const downloaded = !bytes;
    if (!bytes) {
      await fs.promises.mkdir(dir, { recursive: true });
      const tmp = figureTempFile(dir);
      try {
        await download(client, "track_index_chunks", version.version, { name: INDEX_CHUNK_NAME, bytes: version.bytes, sha256: version.sha256 }, tmp);
        // another process of the machine may have renamed the same bytes in meanwhile: either is whole
        await fs.promises.rename(tmp, file);
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        throw error;
      }
      bytes = await adoptFigureFile(dir, file);
    }
    return { version, bytes: ofTable(bytes, version), downloaded, downloadMs: performance.now() - started };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What the version's own thread answers (index-version-worker.ts): first the row chosen, then the file. */
export type VersionThreadOutput =
  | { chosen: IndexVersion | null }
  | { taken: { version: IndexVersion; file: string; downloaded: boolean; downloadMs: number } | null }
  | { error: string };

/** A small heap: the download holds one piece of the COPY stream at a time. */
const VERSION_THREAD_HEAP_MB = 64;

/**
 * `takeIndexVersion` on a thread of its own, the file then opened in the caller's thread. The
 * build worker takes the newest version while it builds the columns (ADR 0162 amended, "the
 * download beside the columns"); on its own thread the download's reads ran only at the
 * columns' turns, so it lasted as long as they did (12.8 s for 286.6 MB at 100,000 albums,
 * ADR 0162 amended in the sixth session). `taken` rejects as takeIndexVersion throws; `chosen`
 * is the version's row as soon as it is chosen (null: none, or the thread failed first).
 */
export function takeIndexVersionInThread(input: VersionThreadInput, signal?: AbortSignal): { chosen: Promise<IndexVersion | null>; taken: Promise<TakenVersion | null> } {
  let choose: (v: IndexVersion | null) => void = () => undefined;
  const chosen = new Promise<IndexVersion | null>((resolve) => (choose = resolve));
  const taken = new Promise<VersionThreadOutput>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("the track index version's download was stopped"));
    const worker = new Worker(sourceWorkerFile(path.join("app", ".server", "catalog", "tracks", "index-version-worker.ts"), import.meta.dirname), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: VERSION_THREAD_HEAP_MB },
    });
    // a stop (shutdown) ends the thread and its download; the temp file it leaves is a dead
    // writer's, removed by the directory's bound (figure-bytes.ts)
    const onAbort = () => {
      reject(new Error("the track index version's download was stopped"));
      void worker.terminate();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (out: VersionThreadOutput) => {
      if ("chosen" in out) choose(out.chosen);
      else resolve(out);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new Error(`the track index version's thread exited (code ${code}) without an answer`));
    });
  })
    .then((out) => {
      if ("error" in out) throw new Error(out.error);
      if (!("taken" in out) || !out.taken) return null;
      const { version, file, downloaded, downloadMs } = out.taken;
      return { version, bytes: ofTable(openFigureFile(file), version), downloaded, downloadMs };
    })
    .finally(() => choose(null));
  return { chosen, taken };
}

/**
 * The newest published version of the format, brought into the machine's directory and
 * closed: a process that starts into a running cluster downloads it while it takes and reads
 * the catalog's snapshot (seconds at 250,000 albums), so its build worker finds the machine's
 * copy (ADR 0162, seventh session). Resolves with the version taken, or null: none, another
 * table's in the end (the build worker then takes its own), or failed (the build worker tries
 * again and says why). Never rejects.
 */
export function prefetchIndexVersion(input: Omit<VersionThreadInput, "table" | "source">, signal?: AbortSignal): Promise<{ version: number; downloaded: boolean; downloadMs: number } | null> {
  return takeIndexVersionInThread({ ...input, table: null }, signal).taken.then(
    (taken) => {
      if (!taken) return null;
      taken.bytes.close();
      return { version: taken.version.version, downloaded: taken.downloaded, downloadMs: taken.downloadMs };
    },
    () => null,
  );
}

/** An opened version's file, refused (closed) unless its header names the row's table (and so the caller's, when it named one). */
function ofTable(bytes: FigureBytes, version: IndexVersion): FigureBytes {
  if (bytes.table === version.table) return bytes;
  bytes.close();
  throw new Error(`track index version ${version.version}'s file was built for another table`);
}

/** The machine's whole copy of a published file (touched: the directory's bound keeps it), or null. */
function machineCopy(file: string): FigureBytes | null {
  try {
    const opened = openFigureFile(file);
    const now = new Date();
    fs.utimesSync(file, now, now);
    return opened;
  } catch {
    return null;
  }
}
