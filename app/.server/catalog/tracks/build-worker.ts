import { parentPort, workerData } from "node:worker_threads";
import { fileTracks } from "../album-table.ts";
import type { Track } from "../../../lib/catalog/types.ts";
import { openAnalysisStore } from "../../analysis/stage/open.ts";
import { buildTrackColumns } from "./table.ts";
import { createTitleIndexer } from "../search/postings.ts";
import { figuresOfFile, toTransfer, TrackFigures } from "./figures.ts";
import { tableDigest, takeIndexVersion, takeIndexVersionInThread } from "./index-versions.ts";
import { isTableArray, tableArrays, tableOfArrays, tableSource } from "./table-arrays.ts";
import type { TrackColumns } from "./table.ts";
import type { TitlePostings } from "../search/types.ts";
import { FiguresBuilder } from "./figures-builder.ts";
import { readFigures } from "./figures-read.ts";
import { NO_YIELD } from "./yielding.ts";
import { releaseFreedPages } from "./release-pages.ts";
import { BUILD_WORKER_CONNECTIONS, type BuildInput, type BuildOutput } from "./build-thread.ts";

/**
 * The track index's build worker (build-thread.ts runs it; ADR 0100, amended): reads every
 * album's track list from the snapshot file the server's album table holds open (its
 * descriptor, shared by the process's threads), builds the track columns and the titles'
 * search postings, reads every stored analysis figure with its own store connection and lays
 * out the figures' orders, then hands the typed arrays back without a copy (a transfer).
 */
const input = workerData as BuildInput;
// never closed here: the album table in the server's thread owns the descriptor (ADR 0082)
const file = input.file ? fileTracks({ fd: input.file.fd, close: async () => undefined }, input.file.offsets, input.file.lengths, input.file.path, 1 << 20) : null;
const tracksOf = (a: number): readonly Track[] => (file ? file.read(a, input.ids[a]) : (input.lists?.[a] ?? []));

const started = performance.now();
const cluster = input.figures?.cluster && input.figures.store.DATABASE_URL && input.figures.dir ? { url: input.figures.store.DATABASE_URL, dir: input.figures.dir, format: input.figures.cluster.format } : undefined;
/**
 * What the columns are made from (ADR 0162, seventh session): the digest of the track lists,
 * the same on every machine that holds the published catalog version. A version written for
 * them carries the columns and title postings, so this process parses no album for them.
 */
const source = input.figures?.cluster ? sourceOfLists() : null;
/**
 * A cluster's newest published track index version downloads while the columns are built
 * (ADR 0162 amended, "the download beside the columns": a joining machine's first like= waited
 * for both one after the other). The version is chosen by the track lists' digest, else by
 * format only, since the table's digest needs the columns; it is used only if its table is the
 * one built below. It runs on a thread of its own (takeIndexVersionInThread): on this one its
 * reads waited for the columns' turns.
 */
const version = cluster ? takeIndexVersionInThread({ databaseUrl: cluster.url, dir: cluster.dir, table: null, format: cluster.format, source }) : null;
const early = version ? version.taken.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))) : null;
let publishedError: string | undefined;
/** the columns and title postings, where they came from, and (from a version) the table digest they were checked against */
let built: { columns: TrackColumns; titles: TitlePostings; from: "version" | "snapshot"; digest?: string } | null = null;
if (version && source && (await version.chosen)?.source === source) {
  // the version carries this table's columns: they come with its download, nothing is parsed
  const taken = await early;
  if (taken && !(taken instanceof Error)) {
    try {
      const { columns, titles } = tableOfArrays(taken.bytes.arrays(isTableArray) ?? {}, input.ids.length);
      // its header's table is the one these columns make (written together; a damaged file is refused)
      const digest = tableDigest(input.ids, columns);
      if (digest !== taken.bytes.table) throw new Error("the track index version's columns are not those of its table");
      built = { columns, titles, from: "version", digest };
    } catch (error) {
      publishedError = error instanceof Error ? error.message : String(error);
    }
  }
}
if (!built) {
  const titles = createTitleIndexer();
  const columns = await buildTrackColumns(input.ids.length, tracksOf, NO_YIELD, titles.track);
  built = { columns, titles: titles.finish(), from: "snapshot" };
}
const { columns, titles: postings } = built;
const columnsMs = performance.now() - started;

/** The track lists' digest (table-arrays.ts): each album's bytes in the snapshot file, or its listed tracks held in memory. */
function sourceOfLists(): string | null {
  try {
    if (file?.bytes) return tableSource(input.ids, (a) => file.bytes!(a));
    const encoder = new TextEncoder();
    return tableSource(input.ids, (a) => encoder.encode(JSON.stringify(input.lists?.[a] ?? [])));
  } catch {
    // a snapshot shorter than its index: the columns' own read says so, with the album
    return null;
  }
}

let figures: BuildOutput["figures"];
let figureBuffers: ArrayBuffer[] = [];
let figuresError: string | undefined;
// a cluster's index (ADR 0162 amended): the table's digest names the figures built for it (once:
// columns taken from a version had theirs computed for the check above, 0.35 s at 250,000 albums)
const digest = input.figures?.cluster ? (built.digest ?? tableDigest(input.ids, columns)) : undefined;
if (cluster && digest && early) {
  // the newest version the lease holder published for this table: no result read but those after it
  try {
    let taken = await early;
    if (taken instanceof Error) throw taken;
    if (taken && taken.bytes.table !== digest) {
      // the newest is another table's (the holder has not published this catalog's yet): this table's, if any
      taken.bytes.close();
      taken = await takeIndexVersion({ databaseUrl: cluster.url, dir: cluster.dir, table: digest, format: cluster.format });
    }
    if (taken) {
      try {
        const built = figuresOfFile(taken.bytes, columns.count);
        const { transfer, buffers } = toTransfer(built.arrays());
        figures = { ...transfer, cursor: taken.version.resultSeq ? { seq: taken.version.resultSeq } : null, resultsRead: 0, published: { version: taken.version.version, resultSeq: taken.version.resultSeq, downloaded: taken.downloaded, downloadMs: taken.downloadMs, bytes: taken.version.bytes } };
        figureBuffers = buffers;
      } finally {
        taken.bytes.close();
      }
    }
  } catch (error) {
    // refused (cut short, another SHA-256, another table) or PostgreSQL down: built from the results, as without a version
    publishedError = error instanceof Error ? error.message : String(error);
    figures = undefined;
    figureBuffers = [];
  }
}
if (input.figures && !figures) {
  try {
    // A worker thread cannot share the process's pool: one connection of its own, for the
    // length of the build (its reads are sequential pages). Issue #42, ADR 0149: the process's
    // PostgreSQL connections are DATABASE_POOL_MAX + BUILD_WORKER_CONNECTIONS at most.
    const store = await openAnalysisStore(input.figures.store, { max: BUILD_WORKER_CONNECTIONS });
    try {
      const builder = await FiguresBuilder.create(columns, null, NO_YIELD);
      const { cursor, rows: resultsRead } = await readFigures(store, builder, null, input.figures.pageSize, NO_YIELD);
      // a cluster's file carries the columns and title postings for the processes that join (ADR 0162, seventh session)
      const carried = source ? tableArrays(columns, postings) : null;
      const publish = digest ? { table: digest, tableArrays: carried && source ? { source, arrays: carried } : null } : undefined;
      const made = await TrackFigures.from(builder, NO_YIELD, undefined, input.figures.dir, publish);
      const { transfer, buffers } = toTransfer(made.arrays());
      // the server's thread opens the file again (ADR 0162); this thread's descriptor goes with it
      made.bytes.close();
      figures = { ...transfer, cursor, resultsRead };
      figureBuffers = buffers;
    } finally {
      await store.close();
    }
  } catch (error) {
    // the server's thread reads them through its own lookup instead (the store may be down)
    figuresError = error instanceof Error ? error.message : String(error);
  }
}

// This thread's garbage (2.5 million parsed tracks and figures rows at 250,000 albums) stays
// resident after it exits unless collected so (release-pages.ts); no request waits on this thread.
releaseFreedPages();

const out: BuildOutput = { columns, titles: postings, columnsFrom: built.from, figures, figuresError, publishedError, table: digest, ms: { columns: columnsMs, figures: performance.now() - started - columnsMs } };
const arrays: ArrayBufferView[] = [columns.albumStart, columns.trackAlbum, columns.titleOrder, columns.titleRank, columns.audioSorted, columns.byAudio, postings.offsets, postings.docs, postings.heads];
parentPort!.postMessage(out, [...new Set([...arrays.map((a) => a.buffer as ArrayBuffer), ...figureBuffers])]);
