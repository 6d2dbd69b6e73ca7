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
import type { CatalogIndex } from "../index.ts";
import type { AnalysisLookup } from "../../analysis/stage/types.ts";
import type { TrackAnalysis } from "../../analysis/analyze.ts";
import type { Logger } from "../../logger.ts";
import type { Config } from "../../config.ts";
import { errorMessage } from "../errors.ts";
import { ANALYSIS_WAIT_MS, withAnalysis } from "../with-analysis.ts";
import type { AlbumTable } from "../album-table.ts";
import type { Track } from "../../../lib/catalog/types.ts";
import { clampPage, pageCountFor } from "../../../lib/catalog/pagination.ts";
import { KEY_NAMES, TRACKS_PER_PAGE, type LikeSeed, type TrackQuery, type TrackQueryResult, type TrackRowData } from "../../../lib/catalog/track-query.ts";
import { FiguresBuilder, NO_BPM, NO_KEY, NO_SECONDS, PRINT_BYTES, readFigures, TrackFigures } from "./figures.ts";
import { compare, explain, type Sounding } from "../../analysis/similarity.ts";
import { modelOf, type LikeSeedSound } from "./like.ts";
import { hash64 } from "./columns.ts";
import { tracksOfHash } from "./table.ts";
import { matchPage } from "./query.ts";
import { createCountsCache, createTrackCache, type TrackQueryContext } from "./query-context.ts";
import { albumTexts, listedTracks, trackTable, trackTitle, type TrackTable } from "./table.ts";
import { buildInWorker } from "./build-thread.ts";
import { releaseFreedPages } from "./release-pages.ts";
import { createTrackSearch } from "../search/build.ts";
import type { CatalogSearch } from "../search/types.ts";
import type { CurrentSearch } from "../search/current.ts";
import { Slicer, type Yielder } from "./yielding.ts";
import type { FiguresCursor } from "../../analysis/stage/types.ts";

/** A reference file's seed, as the caller read it from the reference store (issue #19 "Search by a reference file"). */
export interface ReferenceSeed {
  id: string;
  status: "ready" | "expired" | "unknown";
  sounding?: Sounding;
  label?: string;
}

export interface TrackIndex {
  /** One page of the track view; a `like=` view of a reference (`ref-…`) reads its seed from `reference`. */
  query(q: TrackQuery, reference?: ReferenceSeed): Promise<TrackQueryResult>;
  /** Builds for the current catalog and analysis now (the warm-up; tests await it). */
  ready(): Promise<void>;
  /** What the index holds, for the operator and the bench. */
  stats(): TrackIndexStats | null;
  /** No further builds or refreshes (shutdown); a running one stops at its next slice. */
  stop(): void;
}

export interface TrackIndexStats {
  catalogVersion: number;
  tracks: number;
  analysed: number;
  analysisVersion: number;
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

/** What the track index reads of the album index: the album columns of the current version, media URLs, the cache budget. */
export type TrackIndexSource = Pick<CatalogIndex, "albumColumns" | "mediaUrl" | "cacheBytes">;

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
   * After each build, return the heap pages V8 freed in this thread (a last-resort collection,
   * a pause of this thread: release-pages.ts, ADR 0100 amended). The server sets it.
   */
  releaseFreedPages?: boolean;
  /** the builds' time slices (tests: NO_YIELD) */
  yielder?: () => Yielder;
  logger?: Logger;
}

/**
 * Each figures refresh reads again the results of the minute before the last one it saw: a
 * result stamped by another process whose clock is a little behind is not missed.
 */
const CLOCK_MARGIN_MS = 60_000;

interface Generation {
  table: TrackTable;
  search: CatalogSearch;
  catalogVersion: number;
  buildMs: number;
}

interface FiguresState {
  figures: TrackFigures;
  /** the table they were built for */
  table: TrackTable;
  analysisVersion: number;
  cursor: FiguresCursor | null;
  ms: number;
}

export function createTrackIndex(source: TrackIndexSource, analysis: AnalysisLookup | undefined, opts: TrackIndexOptions = {}): TrackIndex {
  const cache = createTrackCache(opts.maxCacheBytes ?? source.cacheBytes);
  const counts = createCountsCache();
  const pageSize = opts.figuresPage ?? 5_000;
  const waitMs = opts.analysisWaitMs ?? ANALYSIS_WAIT_MS;
  let current: Generation | null = null;
  let figures: FiguresState | null = null;
  let building: Promise<void> | null = null;
  let refreshing: Promise<void> | null = null;
  let generation = 0;
  let stopped = false;
  /** ends a build worker at stop() */
  const stopping = new AbortController();

  const log = (error: unknown, msg: string) => {
    if (!stopped) opts.logger?.error({ err: errorMessage(error) }, msg);
  };
  /** The builds' slices; after stop() the next slice ends the build. */
  const makeYielder = (): Yielder => {
    const inner = (opts.yielder ?? (() => new Slicer()))();
    const check = () => {
      if (stopped) throw new Error("the track index was stopped");
    };
    return {
      maybeYield: async () => (await inner.maybeYield(), check()),
      yield: async () => (await inner.yield(), check()),
      get waitedMs() {
        return inner.waitedMs;
      },
    };
  };

  /**
   * The figures for `table`: every stored result when `previous` is of another table (or
   * none), else `previous` and what changed since its cursor. Page by page, each applied as it
   * comes; the figures in use are untouched until the new ones are whole.
   */
  const loadFigures = async (table: TrackTable, previous: FiguresState | null, version: number): Promise<FiguresState> => {
    const started = performance.now();
    const yielder = makeYielder();
    const same = previous?.table === table ? previous : null;
    const builder = new FiguresBuilder(table, same?.figures ?? null);
    let cursor = same?.cursor ?? null;
    if (analysis) {
      const after = cursor ? { at: cursor.at - CLOCK_MARGIN_MS, key: "" } : null;
      cursor = await readFigures(analysis, builder, cursor, after, pageSize, yielder);
    }
    const built = await TrackFigures.from(builder, yielder);
    return { figures: built, table, analysisVersion: version, cursor, ms: performance.now() - started - yielder.waitedMs };
  };

  const rebuild = async (): Promise<void> => {
    const columns = source.albumColumns();
    const { albums } = columns;
    const version = analysis?.version ?? 0;
    // a rebuild follows a sync: its garbage in this thread is returned before the worker's grows (the re-sync's peak)
    if (opts.releaseFreedPages && current) releasePages("before");
    // the per-track work in a worker thread, whose heap is returned when it exits (ADR 0100, amended)
    const built = await buildInWorker(albums, {
      signal: stopping.signal,
      figures: analysis && opts.analysisStore ? { store: opts.analysisStore, pageSize } : undefined,
    });
    const started = performance.now();
    const yielder = makeYielder();
    const searchBuilder = createTrackSearch(built.titles);
    await albumTexts(columns, yielder, searchBuilder.sink);
    const table = trackTable(columns, built.columns);
    const search = await searchBuilder.finish(table, yielder);
    const buildMs = built.ms.columns + performance.now() - started - yielder.waitedMs;
    if (built.figuresError) log(new Error(built.figuresError), "the track index's build worker could not read the analysis figures; reading them here");
    const nextFigures: FiguresState = built.figures
      ? { figures: TrackFigures.of(built.figures), table, analysisVersion: version, cursor: built.figures.cursor, ms: built.ms.figures }
      : await loadFigures(table, null, version);
    // the previous table and its figures go together; cached lists of the old generation are
    // never read again (their keys carry the generation) and age out of the LRU
    current = { table, search, catalogVersion: columns.version, buildMs };
    figures = nextFigures;
    generation++;
    cache.clear();
    opts.search?.set(search);
    // the sync's and this build's garbage in this thread: pages V8 would keep resident
    if (opts.releaseFreedPages && !stopped) releasePages("after");
  };

  const releasePages = (when: "before" | "after") => {
    const pauseMs = releaseFreedPages();
    opts.logger?.info({ pauseMs: Math.round(pauseMs) }, when === "after" ? "track index built; freed heap pages returned" : "track index rebuild: freed heap pages returned first");
  };

  const refreshFigures = async (): Promise<void> => {
    const gen = current;
    const state = figures;
    if (!gen || !state) return;
    const version = analysis?.version ?? 0;
    const next = await loadFigures(gen.table, state, version);
    if (current !== gen) return; // a catalog rebuild won: it read the figures itself
    figures = next;
    generation++;
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

  /** The album's listed tracks, read from the table that indexed them, else from the current one by album id. */
  const readTracks = (albums: AlbumTable, a: number): Track[] | null => {
    try {
      return listedTracks(albums.tracks(a));
    } catch {
      // that table was replaced (its file closed, ADR 0082) while the next index is built
      const table = source.albumColumns().albums;
      const i = table.indexOf(albums.id(a));
      return i >= 0 ? listedTracks(table.tracks(i)) : null;
    }
  };

  /** A track's sound as the index holds it (its fingerprint bytes are a view of the figures). */
  const soundingOf = (f: TrackFigures, t: number): Sounding => ({
    fingerprint: f.prints.subarray(t * PRINT_BYTES, (t + 1) * PRINT_BYTES),
    bpm: f.bpm[t] === NO_BPM ? null : f.bpm[t],
    key: f.key[t] === NO_KEY ? null : f.key[t],
  });

  /**
   * The seed of a `like=` view: a catalog track by its id (`${albumId}:${index}`), its sound
   * when it has a fingerprint and the tracks of the same audio (never listed: the same
   * recording on an album and a single is the seed itself); or the reference the caller read.
   */
  const resolveSeed = async (ctx: TrackQueryContext, id: string, reference?: ReferenceSeed): Promise<{ like: LikeSeed; sound?: LikeSeedSound }> => {
    if (id.startsWith("ref-")) {
      const like: LikeSeed = { id, kind: "reference", status: reference?.id === id ? reference.status : "unknown", ...(reference?.label ? { label: reference.label } : {}) };
      if (like.status !== "ready" || !reference?.sounding) return { like: { ...like, status: like.status === "ready" ? "unknown" : like.status } };
      return { like, sound: { sounding: reference.sounding, exclude: new Set(), cacheId: id } };
    }
    const { table, figures: f } = ctx;
    const colon = id.lastIndexOf(":");
    const a = colon > 0 ? table.albums.indexOf(id.slice(0, colon)) : -1;
    const index = Number(id.slice(colon + 1));
    const t = a >= 0 ? table.albumStart[a] + index : -1;
    if (a < 0 || !Number.isInteger(index) || t >= table.albumStart[a + 1]) return { like: { id, kind: "track", status: "unknown" } };
    const [row] = await rows(ctx, Int32Array.of(t));
    if (!row) return { like: { id, kind: "track", status: "unknown" } };
    if (!f.printed[t]) return { like: { id, kind: "track", status: "analysing", row } };
    const exclude = new Set<number>([t]);
    const track = readTracks(table.albums, a)?.[index];
    if (track) {
      const h = new Uint32Array(2);
      hash64(track.s3Path, h, 0);
      const [from, to] = tracksOfHash(table, h[0], h[1]);
      for (let i = from; i < to; i++) exclude.add(table.byAudio[i]);
    }
    return { like: { id, kind: "track", status: "ready", row }, sound: { sounding: soundingOf(f, t), exclude, cacheId: id } };
  };

  const rows = async (ctx: TrackQueryContext, positions: Int32Array, seed?: LikeSeedSound): Promise<TrackRowData[]> => {
    const { table, figures: f } = ctx;
    const albums = table.albums;
    const listed = new Map<number, Track[] | null>();
    const found: { t: number; track: Track }[] = [];
    for (const t of positions) {
      const a = table.trackAlbum[t];
      if (!listed.has(a)) listed.set(a, readTracks(albums, a));
      const track = listed.get(a)?.[t - table.albumStart[a]];
      if (track) found.push({ t, track });
    }
    // the peaks are not in memory (100 bars a track): the analysis lookup has them, as for the sheet
    let results: Map<string, TrackAnalysis> | null = null;
    if (analysis && found.length) {
      results = await Promise.race([
        analysis.lookup(found.map((x) => x.track.s3Path)).catch(() => null),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs).unref?.()),
      ]);
    }
    return found.map(({ t, track }) => {
      const a = table.trackAlbum[t];
      const base = { name: trackTitle(track), audioUrl: source.mediaUrl(track.s3Path, "music") };
      const result = results?.get(track.s3Path);
      // The figures shown are the ones this query filtered and ordered by (the index's), so a
      // list sorted by tempo never shows its tempi out of order in the seconds before a fresh
      // result reaches the index (issue #10); only the preview's bars come from the lookup.
      const data = {
        ...base,
        ...(f.seconds[t] !== NO_SECONDS ? { seconds: f.seconds[t] } : {}),
        ...(f.bpm[t] !== NO_BPM ? { bpm: f.bpm[t] } : {}),
        ...(f.key[t] !== NO_KEY ? { key: KEY_NAMES[f.key[t]] } : {}),
        ...(result ? { peaks: withAnalysis(base, result).peaks } : {}),
      };
      const row: TrackRowData = {
        id: `${albums.id(a)}:${t - table.albumStart[a]}`,
        title: data.name,
        artist: albums.artist(a),
        album: albums.name(a),
        albumId: albums.id(a),
        genre: table.albumGenre[a],
        audioUrl: data.audioUrl,
      };
      if (data.seconds !== undefined) row.seconds = data.seconds;
      if (data.bpm !== undefined) row.bpm = data.bpm;
      if (data.key !== undefined) row.key = data.key;
      if (data.peaks !== undefined) row.peaks = data.peaks;
      if (seed && f.printed[t]) {
        const other = soundingOf(f, t);
        row.why = explain(compare(modelOf(f), seed.sounding, other), seed.sounding.bpm, other.bpm);
      }
      return row;
    });
  };

  return {
    async query(q, reference) {
      look();
      if (!current || !figures) await ready();
      if (!current || !figures) return { rows: [], total: 0, page: 1, pageCount: 0, keyCounts: [] };
      const ctx: TrackQueryContext = { table: current.table, figures: figures.figures, search: current.search, cache, counts, generation };
      let seed: LikeSeedSound | undefined;
      let like: LikeSeed | undefined;
      if (q.like) {
        ({ like, sound: seed } = await resolveSeed(ctx, q.like, reference));
        // no neighbours to list: the page says why (still being analysed, expired, unknown)
        if (!seed) return { rows: [], total: 0, page: 1, pageCount: 0, keyCounts: [], like };
      }
      // the page asked, then again the last one when it was past the end (clamped)
      const start = (Math.max(1, Math.floor(q.page) || 1) - 1) * TRACKS_PER_PAGE;
      let found = matchPage(ctx, q, start, TRACKS_PER_PAGE, seed);
      const pageCount = pageCountFor(found.total, TRACKS_PER_PAGE);
      const page = clampPage(q.page, pageCount);
      if ((page - 1) * TRACKS_PER_PAGE !== start) found = matchPage(ctx, q, (page - 1) * TRACKS_PER_PAGE, TRACKS_PER_PAGE, seed);
      return { rows: await rows(ctx, found.page, seed), total: found.total, page, pageCount, keyCounts: found.keyCounts, ...(like ? { like } : {}) };
    },
    ready,
    stats() {
      if (!current || !figures) return null;
      return {
        catalogVersion: current.catalogVersion,
        tracks: current.table.count,
        analysed: figures.figures.analysed,
        analysisVersion: figures.analysisVersion,
        buildMs: current.buildMs,
        figuresMs: figures.ms,
        cache: { entries: cache.size, bytes: cache.calculatedSize },
        searchBytes: current.search.bytes(),
        arrayBytes: arrayBytes(current.table, figures.figures),
      };
    },
    stop() {
      stopped = true;
      stopping.abort();
    },
  };
}

/** The bytes of a table's and its figures' typed arrays. */
function arrayBytes(t: TrackTable, f: TrackFigures): number {
  let bytes = 0;
  const arrays: ArrayBufferView[] = [t.albumStart, t.trackAlbum, t.titleOrder, t.titleRank, t.audioSorted, t.byAudio, ...t.albumBuckets.values()];
  arrays.push(f.seconds, f.bpm, f.key, f.prints, f.printed, f.scales, ...Object.values(f.orders), ...Object.values(f.packed));
  for (const a of arrays) bytes += a.byteLength;
  return bytes;
}
