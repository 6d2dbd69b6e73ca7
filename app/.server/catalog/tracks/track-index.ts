/**
 * The music track view's index (issue #10, DESIGN.md §3b; ADR 0100). Usage, from a loader:
 *
 *   const { tracks } = services(context);
 *   const result = await tracks.query(trackQuery);
 *   // result: TrackQueryResult (app/lib/catalog/track-query.ts): 12 rows of the page asked
 *   // (clamped), total, pageCount, keyCounts
 *
 * Built once in createServices (app/.server/services.ts) over the album index, whose album
 * columns it reads, and the services' AnalysisLookup (undefined when the process has none:
 * every track is then unanalysed). It is built in the background after each catalog change
 * (services.ts warms it) and its figures are refreshed in the background when
 * `analysis.version` moves. Until the first build is done a query waits for it; afterwards the
 * previous table answers while the next one is built. Each build makes the catalog search and
 * hands it to `search` (search/current.ts), where the album view reads it.
 */
import type { AnalysisLookup } from "../../analysis/stage/types.ts";
import type { Logger } from "../../logger.ts";
import type { Config } from "../../config.ts";
import { errorMessage } from "../errors.ts";
import { ANALYSIS_WAIT_MS } from "../with-analysis.ts";
import { clampPage, pageCountFor } from "../../../lib/catalog/pagination.ts";
import { TRACKS_PER_PAGE, type LikeSeed, type TrackQuery, type TrackQueryResult } from "../../../lib/catalog/track-query.ts";
import { figureArrays, fromTransfer, TrackFigures, type FiguresPublication } from "./figures.ts";
import type { FigureBytes } from "./figure-bytes.ts";
import { isTableArray } from "./table-arrays.ts";
import { FiguresBuilder } from "./figures-builder.ts";
import { readFigures } from "./figures-read.ts";
import type { LikeSeedSound } from "./like.ts";
import { matchPage } from "./query.ts";
import { createCountsCache, createTrackCache, type TrackQueryContext } from "./query-context.ts";
import { albumTexts, trackTable, type TrackTable } from "./table.ts";
import { buildInWorker, type PublishedSource } from "./build-thread.ts";
import { indexFormat, INDEX_VERSION_MAX_BYTES } from "./index-versions.ts";
import type { CatalogCluster } from "../cluster-sync.ts";
import { releaseFreedPages } from "./release-pages.ts";
import { createTrackSearch } from "../search/build.ts";
import type { CatalogSearch } from "../search/types.ts";
import type { CurrentSearch } from "../search/current.ts";
import { Slicer, type Yielder } from "./yielding.ts";
import { resolveSeed, trackRows, type ReferenceSeed, type TrackIndexSource } from "./track-rows.ts";
import type { FiguresCursor } from "../../analysis/stage/types.ts";
import { setTimeout as delay } from "node:timers/promises";

export type { ReferenceSeed, TrackIndexSource } from "./track-rows.ts";

export interface TrackIndex {
  /** One page of the track view; a `like=` view of a reference (`ref-…`) reads its seed from `reference`. */
  query(q: TrackQuery, reference?: ReferenceSeed): Promise<TrackQueryResult>;
  /** Builds for the current catalog and analysis now (the warm-up; tests await it). */
  ready(): Promise<void>;
  /** What the index holds, for the operator and the bench. */
  stats(): TrackIndexStats | null;
  /** The figures in use (the bench times their like= cells: ADR 0124), or null before the first build. */
  currentFigures(): TrackFigures | null;
  /** No further builds or refreshes (shutdown); a running one stops at its next slice. */
  stop(): void;
}

export interface TrackIndexStats {
  catalogVersion: number;
  tracks: number;
  analysed: number;
  analysisVersion: number;
  /**
   * The last result number (ADR 0151) its figures include, 0 before any: the same on every
   * machine whose index read the same results, unlike `analysisVersion` (this process's count).
   */
  resultsThrough: number;
  /**
   * Results the figures in use were read from since the last catalog change: every stored one
   * for a build from the results, only those after its cursor for figures taken from a
   * published track index version (ADR 0162 amended), plus each refresh's.
   */
  resultsRead: number;
  /** the published track index version the figures were taken from at the last build, or null (built from the results) */
  publishedSource: PublishedSource | null;
  /** where the table's columns and title postings came from at the last build (ADR 0162, seventh session) */
  columnsFrom: "version" | "snapshot";
  /** ms of work (yields excluded) of the last table build and the last figures refresh */
  buildMs: number;
  figuresMs: number;
  cache: { entries: number; bytes: number };
  /** bytes the search holds (postings, scratch, vocabulary) */
  searchBytes: number;
  /**
   * bytes of the table's and the figures' typed arrays (most were made by the build worker and
   * transferred: process.memoryUsage().arrayBuffers does not count those)
   */
  arrayBytes: number;
}

export interface TrackIndexOptions {
  /** bytes of cached match lists (default: the album index's budget, CATALOG_CACHE_MAX_BYTES) */
  maxCacheBytes?: number;
  /** where each build's catalog search goes, for the album view (createServices passes the services' one) */
  search?: CurrentSearch;
  /** figures read per statement from the analysis store (default 5,000) */
  figuresPage?: number;
  /** how long the page's rows wait for their analysis (peaks) before being sent without (default: the album sheet's) */
  analysisWaitMs?: number;
  /**
   * Where the analysis results are stored (the services' config): the build worker reads the
   * first full set of figures with its own connection (ADR 0100, amended). Without it they are
   * read through `analysis` in this thread, as every later refresh is.
   */
  analysisStore?: Pick<Config, "DATA_DIR" | "DATABASE_URL">;
  /**
   * Where the figures' fingerprints and passages are written, one file per set of figures read
   * at offsets and shared by the machine's processes (figure-bytes.ts, ADR 0162; the services:
   * DATA_DIR/catalog/index). Without it they stay in this process's memory.
   */
  figuresDir?: string;
  /**
   * After each build, return the heap pages V8 freed in this thread (a last-resort collection,
   * a pause of this thread: release-pages.ts, ADR 0100 amended). The server sets it.
   */
  releaseFreedPages?: boolean;
  /** the builds' time slices (tests: NO_YIELD) */
  yielder?: () => Yielder;
  /** the bench's "before": like= views take the approximate stage from this many candidates (default like.ts APPROXIMATE_FROM; Infinity: always the exact scan, ADR 0124) */
  likeApproximateFrom?: number;
  /**
   * A cluster's track index (issue #42, ADR 0162 amended; the services: DATABASE_URL with
   * CATALOG_CLUSTER_SYNC and `figuresDir`): the build worker takes the newest version published
   * for this table instead of reading every result, and writes figures it builds publishable;
   * `publisher` (the process that is a cluster member) publishes them while it holds the lease.
   */
  cluster?: {
    publisher?: Pick<CatalogCluster, "leads" | "publishIndex">;
    /**
     * The newest version's download begun at the process's start (index-versions.ts
     * prefetchIndexVersion): the first build waits for it, then finds the machine's copy
     * instead of downloading the same file beside it (ADR 0162, seventh session).
     */
    prefetch?: Promise<unknown>;
  };
  /** a figures refresh starts at least this many times its predecessor's work after it (default REFRESH_SPACING) */
  refreshSpacing?: number;
  logger?: Logger;
}

/**
 * While analysis results land (the lookup's version moves every few seconds for as long as a
 * catalog is being analysed: days at 2.5 million tracks), refreshes would follow each other and
 * take the server's thread between requests: one refresh is ~2.5 s of work at 2.5 million
 * tracks (ADR 0116's layout included). Each refresh waits four times the previous one's work
 * (yields excluded) after it ended, so refreshes take at most a fifth of the thread; the figures
 * of a small catalog are as fresh as before (its refresh is a few ms). Issue #18.
 */
const REFRESH_SPACING = 4;
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Replaced figures' file is closed this long after the swap (ADR 0162): a query that began on
 * them (a reference's second stage awaits the store) still reads them; a descriptor's number is
 * reused once closed, so it is never closed under a reader.
 */
const RETIRE_MS = 120_000;
/**
 * The lease holder publishes figures a refresh built at most this often (ADR 0162 amended; its
 * item 4): during a backfill refreshes follow each other, and a version is the whole file
 * (about 0.95 GB at 2.5 million tracks). A build for a new table is published at once.
 */
const PUBLISH_SPACING_MS = 10 * 60_000;

interface Generation {
  table: TrackTable;
  /** the table's digest (index-versions.ts), in a cluster */
  tableDigest: string | undefined;
  search: CatalogSearch;
  catalogVersion: number;
  buildMs: number;
  columnsFrom: "version" | "snapshot";
}

interface FiguresState {
  figures: TrackFigures;
  /** the table they were built for */
  table: TrackTable;
  analysisVersion: number;
  cursor: FiguresCursor | null;
  ms: number;
  /** results read for them since the last build (ADR 0162 amended: only the delta after a published version) */
  resultsRead: number;
  /** the published version they were taken from at the build (kept through refreshes), else null */
  source: PublishedSource | null;
  /** they are a published version's bytes (taken, or published by this process): nothing to publish */
  published: boolean;
}

export function createTrackIndex(source: TrackIndexSource, analysis: AnalysisLookup | undefined, opts: TrackIndexOptions = {}): TrackIndex {
  const cache = createTrackCache(opts.maxCacheBytes ?? source.cacheBytes);
  const counts = createCountsCache();
  const pageSize = opts.figuresPage ?? 5_000;
  const rowDeps = { source, analysis, waitMs: opts.analysisWaitMs ?? ANALYSIS_WAIT_MS };
  let current: Generation | null = null;
  let figures: FiguresState | null = null;
  let building: Promise<void> | null = null;
  let refreshing: Promise<void> | null = null;
  let prefetch = opts.cluster?.prefetch;
  let generation = 0;
  let stopped = false;
  /** ends a build worker at stop() */
  const stopping = new AbortController();

  const log = (error: unknown, msg: string) => {
    if (!stopped) opts.logger?.error({ err: errorMessage(error) }, msg);
  };
  /** The builds' slices; after stop() the next slice ends the build. */
  const makeYielder = () => stoppable((opts.yielder ?? (() => new Slicer()))(), () => stopped);
  const format = opts.cluster && opts.figuresDir ? indexFormat() : undefined;
  const loadFigures = (table: TrackTable, previous: FiguresState | null, version: number, digest: string | undefined) =>
    readAllFigures(analysis, table, previous, version, pageSize, makeYielder(), opts.figuresDir, format ? digest : undefined, opts.cluster?.publisher?.leads() ?? false);
  let lastPublishAt = -Infinity;
  /** The lease holder's publication of figures it built (ADR 0162 amended), in the background. */
  const maybePublish = (state: FiguresState, digest: string | undefined, after: "build" | "refresh") => {
    const publisher = opts.cluster?.publisher;
    const file = state.figures.bytes.file;
    if (!publisher || !format || !digest || !file || state.published || state.figures.bytes.table !== digest || !publisher.leads()) return;
    if (after === "refresh" && performance.now() - lastPublishAt < PUBLISH_SPACING_MS) return;
    lastPublishAt = performance.now();
    publisher
      .publishIndex({ file, table: digest, source: state.figures.bytes.source, format, resultSeq: state.cursor?.seq ?? 0, maxBytes: INDEX_VERSION_MAX_BYTES })
      .then((published) => {
        if (published !== undefined) state.published = true;
      })
      .catch((error: unknown) => log(error, "could not publish the track index version; the next build or refresh tries again"));
  };
  /** the figures in use from now on: the replaced ones' file closed once no query reads them */
  const swapFigures = (next: FiguresState) => {
    if (next.figures.fileError) log(new Error(next.figures.fileError), "could not write the track index's figures file; keeping the figures in this process's memory");
    const old = figures;
    figures = next;
    if (old && old.figures.bytes !== next.figures.bytes) setTimeout(() => old.figures.bytes.close(), RETIRE_MS).unref();
  };

  const rebuild = async (): Promise<void> => {
    const columns = source.albumColumns();
    const { albums } = columns;
    const version = analysis?.version ?? 0;
    // a rebuild follows a sync: its garbage in this thread is returned before the worker's grows (the re-sync's peak)
    if (opts.releaseFreedPages && current) releasePages("before");
    if (prefetch) {
      const waiting = prefetch;
      prefetch = undefined;
      await waiting;
    }
    // the per-track work in a worker thread, whose heap is returned when it exits (ADR 0100, amended)
    const built = await buildInWorker(albums, {
      signal: stopping.signal,
      figures: analysis && opts.analysisStore ? { store: opts.analysisStore, pageSize, dir: opts.figuresDir, cluster: format ? { format } : undefined } : undefined,
    });
    const started = performance.now();
    const yielder = makeYielder();
    const searchBuilder = createTrackSearch(built.titles);
    await albumTexts(columns, yielder, searchBuilder.sink);
    const table = trackTable(columns, built.columns);
    const search = await searchBuilder.finish(table, yielder);
    const buildMs = built.ms.columns + performance.now() - started - yielder.waitedMs;
    if (built.figuresError) log(new Error(built.figuresError), "the track index's build worker could not read the analysis figures; reading them here");
    if (built.publishedError) opts.logger?.warn({ err: built.publishedError }, "could not take the published track index version; building it from the results");
    let nextFigures: FiguresState | null = null;
    if (built.figures) {
      try {
        const source = built.figures.published ?? null;
        nextFigures = { figures: fromTransfer(built.figures), table, analysisVersion: version, cursor: built.figures.cursor, ms: built.ms.figures, resultsRead: built.figures.resultsRead, source, published: source !== null };
      } catch (error) {
        log(error, "could not open the figures file the track index's build worker wrote; reading them here");
      }
    }
    if (nextFigures?.source) {
      const { source } = nextFigures;
      opts.logger?.info(
        { version: source.version, resultSeq: source.resultSeq, downloaded: source.downloaded, downloadMs: Math.round(source.downloadMs), bytes: source.bytes, columns: built.columnsFrom, columnsMs: Math.round(built.ms.columns), searchMs: Math.round(buildMs - built.ms.columns) },
        "track index: figures taken from a published version",
      );
      // the results stored after the version's cursor, as a refresh reads them (ADR 0151)
      const after = analysis ? await analysis.figuresAfter(nextFigures.cursor, 1) : null;
      if (after?.rows.length) {
        const taken = nextFigures;
        try {
          nextFigures = await loadFigures(table, taken, version, built.table);
          taken.figures.bytes.close();
        } catch (error) {
          if (stopped) throw error;
          // the version serves meanwhile; the next look refreshes it (its analysis version is none)
          log(error, "could not read the results stored after the published track index version; serving the version and trying again");
          taken.analysisVersion = -1;
        }
      }
    }
    nextFigures ??= await loadFigures(table, null, version, built.table);
    // the previous table and its figures go together; cached lists of the old generation are
    // never read again (their keys carry the generation) and age out of the LRU
    current = { table, tableDigest: built.table, search, catalogVersion: columns.version, buildMs, columnsFrom: built.columnsFrom };
    swapFigures(nextFigures);
    maybePublish(nextFigures, built.table, "build");
    generation++;
    cache.clear();
    opts.search?.set(search);
    // the sync's and this build's garbage in this thread: pages V8 would keep resident
    if (opts.releaseFreedPages && !stopped) releasePages("after");
  };

  const releasePages = (when: "before" | "after") => returnFreedPages(opts.logger, when);

  let nextRefreshAt = 0;
  const refreshFigures = async (): Promise<void> => {
    // at most a timer's longest (~24.8 days): Node fires a longer one after 1 ms
    const wait = Math.min(nextRefreshAt - performance.now(), MAX_TIMER_MS);
    // not a busy wait: a timer that ends early at stop() and keeps no process alive
    if (wait > 0) await delay(wait, undefined, { signal: stopping.signal, ref: false }).catch(() => undefined);
    if (stopped) return;
    const gen = current;
    const state = figures;
    if (!gen || !state) return;
    const version = analysis?.version ?? 0;
    const next = await loadFigures(gen.table, state, version, gen.tableDigest);
    nextRefreshAt = performance.now() + (opts.refreshSpacing ?? REFRESH_SPACING) * next.ms;
    if (current !== gen) {
      // a catalog rebuild won: it read the figures itself
      next.figures.bytes.close();
      return;
    }
    swapFigures(next);
    generation++;
    maybePublish(next, gen.tableDigest, "refresh");
  };

  /** Starts a rebuild or a refresh when the catalog or the analysis moved; never waits for it. */
  const look = () => {
    if (stopped) return;
    const version = source.albumColumns().version;
    if (!building && (!current || current.catalogVersion !== version)) {
      building = rebuild()
        .catch((error: unknown) => log(error, "could not build the track index"))
        .finally(() => (building = null));
    }
    if (!building && !refreshing && analysis && figures && figures.analysisVersion !== analysis.version) {
      refreshing = refreshFigures()
        .catch((error: unknown) => log(error, "could not refresh the track index's analysis figures"))
        .finally(() => (refreshing = null));
    }
  };

  const ready = async () => {
    look();
    while (building || refreshing) {
      await building;
      await refreshing;
      look();
    }
  };

  return {
    async query(q, reference) {
      look();
      if (!current || !figures) await ready();
      if (!current || !figures) return { rows: [], total: 0, page: 1, pageCount: 0, keyCounts: [] };
      const ctx: TrackQueryContext = { table: current.table, figures: figures.figures, search: current.search, cache, counts, generation, likeApproximateFrom: opts.likeApproximateFrom };
      let seed: LikeSeedSound | undefined;
      let like: LikeSeed | undefined;
      if (q.like) {
        ({ like, sound: seed } = await resolveSeed(rowDeps, ctx, q.like, reference));
        // no neighbours to list: the page says why (still being analysed, expired, unknown)
        if (!seed) return { rows: [], total: 0, page: 1, pageCount: 0, keyCounts: [], like };
      }
      const { found, page, pageCount } = await clampedPage(ctx, q, seed);
      return { rows: await trackRows(rowDeps, ctx, found.page, seed), total: found.total, page, pageCount, keyCounts: found.keyCounts, ...(like ? { like } : {}) };
    },
    ready,
    stats: () => (current && figures ? statsOf(current, figures, cache) : null),
    currentFigures: () => figures?.figures ?? null,
    stop() {
      stopped = true;
      stopping.abort();
    },
  };
}

/** The page asked, then again the last one when it was past the end (the track view's clamp). */
async function clampedPage(ctx: TrackQueryContext, q: TrackQuery, seed: LikeSeedSound | undefined) {
  const start = (Math.max(1, Math.floor(q.page) || 1) - 1) * TRACKS_PER_PAGE;
  let found = await matchPage(ctx, q, start, TRACKS_PER_PAGE, seed);
  const pageCount = pageCountFor(found.total, TRACKS_PER_PAGE);
  const page = clampPage(q.page, pageCount);
  if ((page - 1) * TRACKS_PER_PAGE !== start) found = await matchPage(ctx, q, (page - 1) * TRACKS_PER_PAGE, TRACKS_PER_PAGE, seed);
  return { found, page, pageCount };
}

/** Returns the heap pages V8 freed in this thread (release-pages.ts) and says how long this thread paused. */
function returnFreedPages(logger: Logger | undefined, when: "before" | "after"): void {
  const pauseMs = releaseFreedPages();
  logger?.info({ pauseMs: Math.round(pauseMs) }, when === "after" ? "track index built; freed heap pages returned" : "track index rebuild: freed heap pages returned first");
}

/** A yielder whose next slice ends the build once `stopped()` (the index's stop()). */
function stoppable(inner: Yielder, stopped: () => boolean): Yielder {
  const check = () => {
    if (stopped()) throw new Error("the track index was stopped");
  };
  return {
    maybeYield: async () => (await inner.maybeYield(), check()),
    yield: async () => (await inner.yield(), check()),
    get waitedMs() {
      return inner.waitedMs;
    },
  };
}

/**
 * The figures for `table`: every stored result when `previous` is of another table (or none),
 * else `previous` and what changed since its cursor. Page by page, each applied as it comes;
 * the figures in use are untouched until the new ones are whole.
 */
async function readAllFigures(
  analysis: AnalysisLookup | undefined,
  table: TrackTable,
  previous: FiguresState | null,
  version: number,
  pageSize: number,
  yielder: Yielder,
  dir: string | undefined,
  digest: string | undefined,
  carryTable: boolean,
): Promise<FiguresState> {
  const started = performance.now();
  const same = previous?.table === table ? previous : null;
  const builder = await FiguresBuilder.create(table, same?.figures ?? null, yielder);
  let cursor = same?.cursor ?? null;
  let read = 0;
  // after the last result number seen (ADR 0151: no margin for the writers' clocks, none needed)
  if (analysis) ({ cursor, rows: read } = await readFigures(analysis, builder, cursor, pageSize, yielder));
  const built = await TrackFigures.from(builder, yielder, undefined, dir, digest ? { table: digest, tableArrays: carryTable ? tableArraysOf(same?.figures.bytes, digest) : null } : undefined);
  const resultsRead = (same?.resultsRead ?? 0) + read;
  return { figures: built, table, analysisVersion: version, cursor, ms: performance.now() - started - yielder.waitedMs, resultsRead, source: same?.source ?? null, published: false };
}

/**
 * The table's columns and title postings a refreshed file carries on (ADR 0162, seventh
 * session): read back from the file they were written with, for the table of `digest`. Only
 * the lease holder's refreshes carry them (`carryTable`: it is the one that publishes), so the
 * other processes' refreshes never read them.
 */
function tableArraysOf(bytes: FigureBytes | undefined, digest: string): FiguresPublication["tableArrays"] {
  if (!bytes?.source || bytes.table !== digest) return null;
  const arrays = bytes.arrays(isTableArray);
  return arrays ? { source: bytes.source, arrays } : null;
}

/** What the index holds, for the operator and the bench. */
function statsOf(current: Generation, figures: FiguresState, cache: { size: number; calculatedSize: number }): TrackIndexStats {
  return {
    catalogVersion: current.catalogVersion,
    tracks: current.table.count,
    analysed: figures.figures.analysed,
    analysisVersion: figures.analysisVersion,
    resultsThrough: figures.cursor?.seq ?? 0,
    resultsRead: figures.resultsRead,
    publishedSource: figures.source,
    columnsFrom: current.columnsFrom,
    buildMs: current.buildMs,
    figuresMs: figures.ms,
    cache: { entries: cache.size, bytes: cache.calculatedSize },
    searchBytes: current.search.bytes(),
    arrayBytes: arrayBytes(current.table, figures.figures),
  };
}

/** The bytes of a table's and its figures' typed arrays. */
function arrayBytes(t: TrackTable, f: TrackFigures): number {
  let bytes = 0;
  const arrays: ArrayBufferView[] = [t.albumStart, t.trackAlbum, t.titleOrder, t.titleRank, t.audioSorted, t.byAudio, ...t.albumBuckets.values()];
  arrays.push(...figureArrays(f));
  for (const a of arrays) bytes += a.byteLength;
  return bytes;
}
