import path from "node:path";
import { Worker } from "node:worker_threads";
import { sourceWorkerFile } from "../../worker-file.ts";
import type { AlbumTable, TrackFile } from "../album-table.ts";
import type { Track } from "../../../lib/catalog/types.ts";
import { listedTracks, type TrackColumns } from "./table.ts";
import type { TitlePostings } from "../search/types.ts";
import type { FiguresTransfer } from "./figures.ts";
import type { FiguresCursor } from "../../analysis/stage/types.ts";
import type { Config } from "../../config.ts";

/**
 * The track index's per-track build off the server's thread (issue #10; ADR 0100, amended).
 * Reading 2.5 million tracks back from the albums snapshot file (a JSON.parse per album) and
 * 2.25 million analysis figures from the store left some 300 MB of V8 pages that the server
 * kept resident after the build (measured at 250,000 albums, ADR 0100 amended). A worker
 * thread does that work, returns its garbage's pages and exits. Its results come back as
 * transferred typed arrays (no copy); the small per-album part and the search's vocabulary
 * tree are built by the caller.
 *
 *   const { columns, titles } = await buildInWorker(albumTable, { signal });
 */

/**
 * PostgreSQL connections the build worker opens while it reads the figures (issue #42, ADR
 * 0149): a worker thread cannot share the process's pool, so this is counted beside
 * DATABASE_POOL_MAX (README). One: its reads are sequential pages.
 */
export const BUILD_WORKER_CONNECTIONS = 1;

export interface BuildInput {
  /** album ids, in table order: each album read from the file is checked against its id */
  ids: string[];
  /** the snapshot file (a file-backed table) … */
  file?: TrackFile;
  /** … or the listed tracks of a table held in memory (fixtures, small lists) */
  lists?: Pick<Track, "s3Path" | "Filename">[][];
  /** where the analysis results are (as the server opened them), and the page size of the full read */
  figures?: {
    store: Pick<Config, "DATA_DIR" | "DATABASE_URL">;
    pageSize: number;
    dir?: string;
    /**
     * A cluster's index (ADR 0162 amended; with DATABASE_URL and `dir`): the newest version
     * published for this table and `format` is taken instead of reading every result, and
     * figures built here are written publishable (with their arrays and the table's digest).
     */
    cluster?: { format: string };
  };
}

/** The track index version the figures came from (ADR 0162 amended). */
export interface PublishedSource {
  version: number;
  /** the last result it includes: the results after it are read by the server's thread */
  resultSeq: number;
  /** downloaded by this process (false: the machine's copy) */
  downloaded: boolean;
  downloadMs: number;
  bytes: number;
}

export interface BuildOutput {
  columns: TrackColumns;
  titles: TitlePostings;
  /** where the columns and title postings came from: a published version written for the same track lists, or the snapshot (ADR 0162, seventh session) */
  columnsFrom: "version" | "snapshot";
  /** every stored result's figures and the cursor after them; absent without `figures` or when the read failed */
  figures?: FiguresTransfer & { cursor: FiguresCursor | null; resultsRead: number; published?: PublishedSource };
  /** why the figures were not read */
  figuresError?: string;
  /** why a published track index version was not taken (the figures were read from the results instead) */
  publishedError?: string;
  /** the table's digest (index-versions.ts), with `figures.cluster` */
  table?: string;
  /** the worker's time on the columns and title postings, and on the figures (and its last collection) */
  ms: { columns: number; figures: number };
}

export interface BuildThreadOptions {
  /** the worker's V8 old-generation heap in MB (default 1,024; its distinct titles are held during the pass) */
  maxHeapMb?: number;
  /** a build that has not answered by then is ended (default 10 minutes) */
  timeoutMs?: number;
  /** ends the build (the index's stop()) */
  signal?: AbortSignal;
  /** also read every stored analysis figure, with the worker's own connection to the store */
  figures?: BuildInput["figures"];
}

const DEFAULT_HEAP_MB = 1024;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** The worker module, a .ts file Node loads by path (the Vite SSR bundle does not contain it: worker-file.ts). */
export function buildWorkerFile(from = import.meta.dirname): string {
  return sourceWorkerFile(path.join("app", ".server", "catalog", "tracks", "build-worker.ts"), from);
}

export function buildInWorker(albums: AlbumTable, opts: BuildThreadOptions = {}): Promise<BuildOutput> {
  const maxHeapMb = opts.maxHeapMb ?? DEFAULT_HEAP_MB;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (opts.signal?.aborted) return Promise.reject(new Error("the track index was stopped"));
  const ids = Array.from({ length: albums.length }, (_, a) => albums.id(a));
  const file = albums.trackFile();
  const input: BuildInput = file
    ? { ids, file, figures: opts.figures }
    : { ids, figures: opts.figures, lists: ids.map((_, a) => listedTracks(albums.tracks(a)).map((t) => ({ s3Path: t.s3Path, Filename: t.Filename }))) };
  return new Promise<BuildOutput>((resolve, reject) => {
    const worker = new Worker(buildWorkerFile(), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const settle = (error: Error | null, out?: BuildOutput) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      // done or failed, the thread goes, and its heap with it
      void worker.terminate();
      if (error) reject(error);
      else resolve(out!);
    };
    const onAbort = () => settle(new Error("the track index was stopped"));
    const timer = setTimeout(() => settle(new Error(`the track index's build did not finish within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (out: BuildOutput) => settle(null, out));
    worker.once("error", (error: Error & { code?: string }) =>
      settle(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new Error(`the track index's build outgrew its worker's ${maxHeapMb} MB heap`, { cause: error }) : error),
    );
    worker.once("exit", (code) => settle(new Error(`the track index's build worker exited (code ${code}) without a result`)));
  });
}
