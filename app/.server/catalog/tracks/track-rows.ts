import type { AnalysisLookup } from "../../analysis/stage/types.ts";
import type { TrackAnalysis } from "../../analysis/analyze.ts";
import { compare, explain, type Sounding } from "../../analysis/similarity.ts";
import { segmentWindows } from "../../analysis/segments.ts";
import { rankByPassages } from "./passages.ts";
import type { AlbumTable } from "../album-table.ts";
import { withAnalysis } from "../with-analysis.ts";
import type { Track } from "../../../lib/catalog/types.ts";
import { KEY_NAMES, type HeardFile, type LikeSeed, type TrackRowData } from "../../../lib/catalog/track-query.ts";
import { NO_BPM, NO_KEY, NO_SECONDS, type TrackFigures } from "./figures.ts";
import type { LikeSeedSound } from "./like.ts";
import { hash64 } from "./columns.ts";
import { listedTracks, tracksOfHash, trackTitle } from "./table.ts";
import type { TrackQueryContext } from "./query-context.ts";
import type { CatalogIndex } from "../index.ts";

/**
 * The track view's rows and `like=` seeds (issue #10, #19), from the positions a query found:
 * only the page's tracks are read back from the snapshot file (ADR 0082), and their waveforms
 * from the analysis lookup, waiting at most `waitMs` (a page never waits on the analysis).
 */
/** A reference file's seed, as the caller read it from the reference store (issue #19 "Search by a reference file"). */
export interface ReferenceSeed {
  id: string;
  status: "ready" | "expired" | "unknown";
  sounding?: Sounding;
  label?: string;
  /** its passages' windows (segments.ts), when it was stored with them (issue #29) */
  segments?: Uint8Array;
  /** what the site heard in it, for the view's heading (issue #41) */
  heard?: HeardFile;
}

/** What the track index reads of the album index: the album columns of the current version, media URLs, the cache budget. */
export type TrackIndexSource = Pick<CatalogIndex, "albumColumns" | "mediaUrl" | "cacheBytes">;

export interface RowDeps {
  source: TrackIndexSource;
  analysis: AnalysisLookup | undefined;
  waitMs: number;
}

/** The album's listed tracks, read from the table that indexed them, else from the current one by album id. */
export function readTracks(source: TrackIndexSource, albums: AlbumTable, a: number): Track[] | null {
  try {
    return listedTracks(albums.tracks(a));
  } catch {
    // that table was replaced (its file closed, ADR 0082) while the next index is built
    const table = source.albumColumns().albums;
    const i = table.indexOf(albums.id(a));
    return i >= 0 ? listedTracks(table.tracks(i)) : null;
  }
}

/** A track's sound as the index holds it (its fingerprint bytes a copy of the figures' row; none, empty, without a row). */
export function soundingOf(f: TrackFigures, t: number): Sounding {
  const row = f.printRow[t];
  return {
    fingerprint: row < 0 ? new Uint8Array(0) : f.printOf(row),
    bpm: f.bpm[t] === NO_BPM ? null : f.bpm[t],
    key: f.key[t] === NO_KEY ? null : f.key[t],
  };
}

/**
 * The seed of a `like=` view: a catalog track by its id (`${albumId}:${index}`), its sound
 * when it has a fingerprint and the tracks of the same audio (never listed: the same
 * recording on an album and a single is the seed itself); or the reference the caller read.
 */
export async function resolveSeed(deps: RowDeps, ctx: TrackQueryContext, id: string, reference?: ReferenceSeed): Promise<{ like: LikeSeed; sound?: LikeSeedSound }> {
  if (id.startsWith("ref-")) {
    const like: LikeSeed = {
      id,
      kind: "reference",
      status: reference?.id === id ? reference.status : "unknown",
      ...(reference?.label ? { label: reference.label } : {}),
      ...(reference?.heard ? { heard: reference.heard } : {}),
    };
    if (like.status !== "ready" || !reference?.sounding) return { like: { ...like, status: like.status === "ready" ? "unknown" : like.status } };
    const windows = reference.segments;
    const rerank = windows ? (kept: Int32Array) => byPassages(deps, ctx, kept, windows) : undefined;
    return { like, sound: { sounding: reference.sounding, exclude: new Set(), cacheId: id, reference: true, ...(rerank && windows ? { rerank, passages: windows } : {}) } };
  }
  const { table, figures: f } = ctx;
  const colon = id.lastIndexOf(":");
  const a = colon > 0 ? table.albums.indexOf(id.slice(0, colon)) : -1;
  const index = Number(id.slice(colon + 1));
  const t = a >= 0 ? table.albumStart[a] + index : -1;
  if (a < 0 || !Number.isInteger(index) || t >= table.albumStart[a + 1]) return { like: { id, kind: "track", status: "unknown" } };
  const [row] = await trackRows(deps, ctx, Int32Array.of(t));
  if (!row) return { like: { id, kind: "track", status: "unknown" } };
  if (f.printRow[t] < 0) return { like: { id, kind: "track", status: "analysing", row } };
  const exclude = new Set<number>([t]);
  const track = readTracks(deps.source, table.albums, a)?.[index];
  if (track) {
    const h = new Uint32Array(2);
    hash64(track.s3Path, h, 0);
    const [from, to] = tracksOfHash(table, h[0], h[1]);
    for (let i = from; i < to; i++) exclude.add(table.byAudio[i]);
  }
  return { like: { id, kind: "track", status: "ready", row }, sound: { sounding: soundingOf(f, t), exclude, cacheId: id } };
}

/**
 * A reference's like= list in the order of the candidates' passages nearest to its own
 * (passages.ts; issue #29, ADR 0122): the candidates' anchors are read from the analysis
 * store (one read of ≤ LIKE_LIMIT + PASSAGE_CANDIDATES keys: the scan's kept list and the passage
 * stage's, like-query.ts; the passages alone when the store can, ADR 0134), waiting at most
 * `waitMs`; null without them in time.
 */
async function byPassages(deps: RowDeps, ctx: TrackQueryContext, kept: Int32Array, reference: Uint8Array): Promise<Int32Array | null> {
  const { analysis, source, waitMs } = deps;
  if (!analysis || kept.length === 0) return null;
  const { table } = ctx;
  const listed = new Map<number, Track[] | null>();
  const keyOf = new Map<number, string>();
  for (const t of kept) {
    const a = table.trackAlbum[t];
    if (!listed.has(a)) listed.set(a, readTracks(source, table.albums, a));
    const track = listed.get(a)?.[t - table.albumStart[a]];
    if (track) keyOf.set(t, track.s3Path);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  // only the passages when the store can read them alone (~1 KB a key, not the whole analysis
  // with its peaks: ADR 0134); a lookup without it (a test's, the bench's) gives whole analyses
  const keys = [...keyOf.values()];
  const read = analysis.segmentsOf
    ? analysis.segmentsOf(keys)
    : analysis.lookup(keys).then((found) => new Map([...found].flatMap(([key, a]) => (a.segments ? [[key, a.segments] as const] : []))));
  const results = await Promise.race([read.catch(() => null), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs)))]).finally(() => clearTimeout(timer));
  if (!results) return null;
  const windows = new Map<number, Uint8Array | null>();
  for (const [t, key] of keyOf) windows.set(t, segmentWindows(results.get(key)));
  return rankByPassages(kept, (t) => windows.get(t) ?? null, reference);
}

/** The rows of the page: titles read from the snapshot file, figures from the index, waveforms from the analysis lookup. */
export async function trackRows(deps: RowDeps, ctx: TrackQueryContext, positions: Int32Array, seed?: LikeSeedSound): Promise<TrackRowData[]> {
  const { source, analysis, waitMs } = deps;
  const { table, figures: f } = ctx;
  const albums = table.albums;
  const listed = new Map<number, Track[] | null>();
  const found: { t: number; track: Track }[] = [];
  for (const t of positions) {
    const a = table.trackAlbum[t];
    if (!listed.has(a)) listed.set(a, readTracks(source, albums, a));
    const track = listed.get(a)?.[t - table.albumStart[a]];
    if (track) found.push({ t, track });
  }
  // the peaks are not in memory (100 bars a track): the analysis lookup has them, as for the sheet
  let results: Map<string, TrackAnalysis> | null = null;
  if (analysis && found.length) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    results = await Promise.race([
      analysis.lookup(found.map((x) => x.track.s3Path)).catch(() => null),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs))),
    ]).finally(() => clearTimeout(timer));
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
    if (seed && f.printRow[t] >= 0) {
      const other = soundingOf(f, t);
      row.why = explain(compare(f.model, seed.sounding, other), seed.sounding.bpm, other.bpm);
    }
    return row;
  });
}
