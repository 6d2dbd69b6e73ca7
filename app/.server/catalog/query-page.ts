import type { CatalogIndex, CatalogQueryResult } from "./index.ts";
import type { AppServices } from "../context.ts";
import type { AlbumDetailData, CatalogDetailData, SingleDetailData } from "../../lib/catalog/cards.ts";
import type { GenreLevel } from "../../lib/catalog/genre-tree.ts";
import { parseCatalogState, serializeCatalogState, trackQueryOf, type CatalogState } from "../../lib/catalog/url-state.ts";
import type { CatalogType } from "../../lib/catalog/types.ts";
import type { TrackQueryResult } from "../../lib/catalog/track-query.ts";
import type { ReferenceSeed } from "./tracks/track-index.ts";
import { ANALYSIS_WAIT_MS, withAnalysis } from "./with-analysis.ts";

/** What the catalog pages read: the catalog service (slow upstream lookups), the indexes, the analysis results. */
export type CatalogPageServices = Pick<AppServices, "catalog" | "catalogIndex" | "tracks" | "analysis">;

/** How long a page waits for a singles sub-genre list before streaming it in later. */
const SUB_GENRES_WAIT_MS = 250;

export interface CatalogPageData extends CatalogQueryResult {
  /** the state shown: the URL's, with the page clamped */
  state: CatalogState;
  /** music: the genre filter levels */
  musicLevels: GenreLevel[];
  /** singles: the genre list (product-rules §7 api/Genre/) */
  singlesGenres: string[];
  /**
   * singles: sub-genres of the chosen genre. An array when known at once (cached), a promise
   * when the upstream is slow: the page streams "Loading sub-genres..." until it settles.
   */
  subGenres: string[] | Promise<string[]> | null;
  /** the open sheet (`item=`), or null */
  detail: CatalogDetailData | null;
  /** the track view (issue #10): its page of rows and the key filter's counts; null in other views */
  tracks: TrackQueryResult | null;
  updatedAt: string;
  /**
   * false when part of the data is missing for now: the sub-genres are still on their way
   * from a slow upstream, an open single's release detail could not be fetched, track rows
   * came without their analysis, or an album search was answered before the catalog search was
   * built (`provisional`). Such a page is sent but not kept by the page cache (ADR 0080).
   */
  complete: boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<{ done: true; value: T } | { done: false }> {
  // the timer is cleared once the race is decided: left to run, it would keep the answer (and
  // the request's data it holds) reachable for `ms` after the page was sent (ADR 0121, fourth session)
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then((value) => ({ done: true as const, value })),
    new Promise<{ done: false }>((resolve) => (timer = setTimeout(() => resolve({ done: false }), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** A single's sheet or page (product-rules §2 release details); `complete` is false when its release detail could not be fetched. */
export async function singleDetail({ catalog, catalogIndex: index }: CatalogPageServices, id: string): Promise<{ data: SingleDetailData | null; complete: boolean }> {
  const single = index.single(id);
  if (!single) return { data: null, complete: true };
  const detail = await catalog.releaseDetail(id).catch(() => null);
  const artwork = single.artwork || detail?.artwork || "";
  const audio = single.audioUrl || detail?.audioFile || "";
  const data: SingleDetailData = {
    kind: "single",
    id: single.id,
    title: single.title,
    artist: single.artist,
    genre: single.genre || detail?.genre || "",
    subGenre: detail?.subGenre || single.subGenre || "",
    language: single.language,
    image: index.image(artwork, "music", 960),
    audioUrl: audio ? (/^(https?:)?\/\//.test(audio) || audio.startsWith("/") ? audio : catalog.mediaUrl(audio, "music")) : "",
    album: detail?.album ?? "",
    releaseDate: detail?.releaseDate || single.releaseDate || "",
    country: detail?.country || single.country || "",
    label: detail?.label || single.label || "",
    composer: detail?.composer || single.composer || "",
    isrc: detail?.isrc || single.isrc || "",
    parentalAdvisory: detail?.parentalAdvisory ?? false,
  };
  return { data, complete: detail !== null };
}

/** An album's sheet or page, its tracks with their analysis when it answers within ANALYSIS_WAIT_MS. */
export async function albumDetail({ catalogIndex, analysis }: CatalogPageServices, id: string): Promise<{ data: AlbumDetailData | null; complete: boolean }> {
  const found = catalogIndex.albumWithKeys(id);
  if (!found) return { data: null, complete: true };
  if (!analysis || !found.keys.length) return { data: found.album, complete: true };
  const settled = await withTimeout(
    analysis.lookup(found.keys).catch(() => null),
    ANALYSIS_WAIT_MS,
  );
  const results = settled.done ? settled.value : null;
  if (!results) return { data: found.album, complete: false };
  const tracks = found.album.tracks.map((track, i) => withAnalysis(track, results.get(found.keys[i])));
  return { data: { ...found.album, tracks }, complete: true };
}

async function loadDetail(services: CatalogPageServices, type: CatalogType, id: string): Promise<{ data: CatalogDetailData | null; complete: boolean }> {
  if (!id) return { data: null, complete: true };
  if (type === "music") return albumDetail(services, id);
  if (type === "singles") return singleDetail(services, id);
  // product-rules §2: films and channels have no detail view
  return { data: null, complete: true };
}

/**
 * Whether the track rows carry all their analysis: an analysed row (its length is known from
 * the index's figures) whose waveform is missing was sent without its analysis results (the
 * lookup took longer than the track index waits), so the page is not kept by the page cache.
 */
export function rowsComplete(result: TrackQueryResult): boolean {
  return result.rows.every((row) => row.seconds === undefined || row.peaks !== undefined);
}

/**
 * The catalog state of a URL as /catalog shows it (ADR 0102; issue #17: the one parser): the
 * route's parser (url-state.ts: unknown parameters dropped, options canonical, lengths capped),
 * then a page past the end of a card view clamped to its last page, the one place that does
 * (the index counts the matches; its match list is cached, so this is a slice). The track
 * view's page is clamped by the track index when it answers (an async query over the figures).
 * The route's loader and the page cache's key (server/catalog-page-cache.ts) both read it, so
 * `?page=99` of a 4-page list is the page and the cache entry of `?page=4`.
 */
export function catalogViewState({ catalogIndex }: { catalogIndex: Pick<CatalogIndex, "query"> }, search: URLSearchParams): CatalogState {
  const state = parseCatalogState(search);
  if (state.view === "tracks" || state.page === 1) return state;
  const { page } = catalogIndex.query(state);
  return page === state.page ? state : { ...state, page };
}

/** The canonical query string of a catalog state (the page cache's key and the URL it renders). */
export function catalogViewQuery(state: CatalogState): string {
  return serializeCatalogState(state).toString();
}

/**
 * Everything /catalog renders for one URL state (catalogViewState's): one page of cards, never
 * the catalog. An open album sheet shows its tracks' analysis when `analysis` has results for them.
 */
export async function loadCatalogPage(services: CatalogPageServices, state: CatalogState, reference?: ReferenceSeed): Promise<CatalogPageData> {
  const { catalog, catalogIndex: index } = services;
  const result = index.query(state);

  let subGenres: CatalogPageData["subGenres"] = null;
  if (state.view === "singles" && state.genre) {
    const pending = catalog.subGenres(state.genre).catch(() => [] as string[]);
    const settled = await withTimeout(pending, SUB_GENRES_WAIT_MS);
    subGenres = settled.done ? settled.value : pending;
  }

  const tracks = state.view === "tracks" ? await services.tracks.query(trackQueryOf(state), reference) : null;
  const detail = await loadDetail(services, state.type, state.item);
  const shown = tracks ? { total: tracks.total, page: tracks.page, pageCount: tracks.pageCount } : {};
  const { provisional, ...cards } = result;
  return {
    ...cards,
    ...shown,
    state: { ...state, page: tracks ? tracks.page : result.page },
    musicLevels: state.type === "music" ? index.musicLevels(state.genre, state.subGenres) : [],
    singlesGenres: state.type === "singles" ? index.singlesGenres() : [],
    subGenres,
    detail: detail.data,
    tracks,
    updatedAt: index.updatedAt,
    // a seed still being analysed will have neighbours soon, and a reference expires (issue #19): neither page is kept
    complete:
      !provisional && detail.complete && !(subGenres instanceof Promise) && (tracks === null || rowsComplete(tracks)) && !(tracks?.like && (tracks.like.status === "analysing" || tracks.like.kind === "reference")),
  };
}
