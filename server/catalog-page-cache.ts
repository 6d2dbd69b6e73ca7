import type { NextFunction, Request, Response } from "express";
import type { CatalogIndex } from "../app/.server/catalog/index.ts";
import { catalogViewQuery, catalogViewState } from "../app/.server/catalog/query-page.ts";
import { catalogHref, defaultCatalogState } from "../app/lib/catalog/url-state.ts";
import { CATALOG_TYPE_OF, catalogReturnHref, parseItemPageKind } from "../app/lib/catalog/item-url.ts";
import { sendCachedPage, type CachedPage, type PageStore } from "./page-cache.ts";
import { sendResponse, singleFetchRoutes } from "./react-router-handler.ts";
import { sendUnstoredPage, type PageAdmission } from "./page-admission.ts";
import type { RenderBudget } from "./render-budget.ts";
import { responseText } from "../app/.server/rendered-document.ts";

/**
 * Issue #8, ADR 0080: a rendered catalog page, its HTML document and its `.data` (React
 * Router single fetch), is reused while the catalog has not changed.
 *
 * The key is the view as the loader sees it, by the loader's own function (catalogViewState,
 * app/.server/catalog/query-page.ts, issue #17): the route's parser drops unknown parameters,
 * fixes their order, trims, canonicalises genres and options, and the page is clamped to the
 * page count, so `?page=99` on a 3-page list shares the entry of `?page=3`. The search stays
 * as the visitor typed it (trimmed): the search field and its chip show it, so `q=Blue` and
 * `q=blue` are two pages (the index shares their match list). Nothing else of the request
 * changes the answer: no loader reads cookies or headers, the site URL is configuration,
 * and the nonce is swapped per response. The page is rendered from that canonical URL, so
 * what is cached depends on the key alone.
 *
 * Entries carry the catalog version they were rendered from: a sync that changes the data
 * drops them all, and a page whose render saw the version change is not kept. Pages that
 * are not a complete 200 (see page-cache.ts isCacheableResponse) are rendered every time.
 */
export interface CatalogPageCacheOptions {
  store: PageStore;
  /** the album index: its version tags the entries, and the canonical state clamps pages with it */
  catalogIndex: Pick<CatalogIndex, "version" | "query">;
  /**
   * Renders a canonical catalog URL (`/catalog?…` or `/catalog.data?…`) the way the React
   * Router handler would.
   */
  render: (url: string, req: Request) => Promise<globalThis.Response>;
  /**
   * The longest an entry is served, whatever the version: a footer year, a release detail
   * fetched after a failure and the like show within it (default 10 minutes).
   */
  ttlMs?: number;
  /**
   * Moves when new audio analysis results are stored (issue #9, ADR 0091). Pages with an open
   * album sheet show them (durations, tempi, keys, waveforms), so they are kept only while it
   * has not moved; other catalog pages don't show analysis and keep their entries.
   */
  analysisVersion?: () => number;
  /**
   * What the track index's answers reflect now (issue #10): its catalog and analysis versions.
   * The track view shows and filters on the analysis as the index holds it, and the index
   * refreshes its figures in the background after the analysis moves, so a track-view entry
   * carries this too: a page rendered before the refresh is rendered again after it.
   */
  trackIndexVersion?: () => string;
  /** issue #18: a page is stored on its second ask within its window (server/page-admission.ts) */
  admission?: PageAdmission;
  /** issue #18: a miss is rendered within the client's budget (server/render-budget.ts), a hit always */
  budget?: RenderBudget;
  /** issue #18, ADR 0115: a page asked once is compressed on the thread pool (one server process) */
  compressOffThread?: boolean;
}

const PREFIX = "catalog|";
export const DEFAULT_TTL_MS = 10 * 60_000;

/**
 * The cache key and the canonical URL to render, for a request to /catalog or /catalog.data: the
 * loader's canonical state (the track view's page is clamped by the track index in the loader,
 * an async query: `page=99` of 3 is its own entry there, showing page 3), and for `.data` the
 * loaders it asks for.
 */
export function catalogPageKey(pathname: string, search: URLSearchParams, catalogIndex: Pick<CatalogIndex, "query">): { key: string; url: string; tracks: boolean } {
  const data = pathname === "/catalog.data";
  const state = catalogViewState({ catalogIndex }, search);
  const routes = data ? singleFetchRoutes(search) : null;
  const q = [catalogViewQuery(state), routes ? new URLSearchParams({ _routes: routes }).toString() : ""].filter(Boolean).join("&");
  const url = (data ? "/catalog.data" : "/catalog") + (q ? `?${q}` : "");
  return { key: `${PREFIX}${url}`, url, tracks: state.view === "tracks" };
}

/**
 * An item page (issue #11, ADR 0096): `/catalog/{albums|singles|films}/{id}[/{slug}][.data]`.
 * The slug does not change the page (any slug answers it, its canonical link names the right
 * one), so it is not part of the key; `from=` is, normalised as the page's back link reads it
 * (and left out when it is the default). Null for any other path.
 */
export function itemPageKey(pathname: string, search: URLSearchParams): { key: string; url: string; album: boolean } | null {
  const m = /^\/catalog\/([a-z]+)\/([^/]+?)(?:\/[^/]*?)?(\.data)?$/.exec(pathname);
  const kind = parseItemPageKind(m?.[1]);
  if (!m || !kind) return null;
  let id: string;
  try {
    id = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  const data = m[3] === ".data";
  const query = new URLSearchParams();
  const back = catalogReturnHref(search.get("from"), kind);
  if (back !== catalogHref(defaultCatalogState(CATALOG_TYPE_OF[kind]))) query.set("from", back);
  const routes = data ? singleFetchRoutes(search) : null;
  if (routes) query.set("_routes", routes);
  const q = query.toString();
  const url = `/catalog/${kind}/${encodeURIComponent(id)}${data ? ".data" : ""}${q ? `?${q}` : ""}`;
  return { key: `${PREFIX}${url}`, url, album: kind === "albums" };
}

export function createCatalogPageCache(opts: CatalogPageCacheOptions) {
  const { store, catalogIndex } = opts;
  const ttlMs = opts.ttlMs ?? DEFAULT_TTL_MS;
  let seenVersion: number | undefined;

  async function handle(req: Request, res: Response, next: NextFunction) {
    const version = catalogIndex.version;
    if (version !== seenVersion) {
      // the catalog changed: every page rendered from the old data goes at once
      if (seenVersion !== undefined) store.clear(PREFIX);
      seenVersion = version;
    }
    const target = new URL(String(res.locals.requestUrl ?? `http://localhost${req.originalUrl}`));
    const item = itemPageKey(target.pathname, target.searchParams);
    // another path under /catalog/ is the 404 page: rendered, not cached
    if (!item && target.pathname !== "/catalog" && target.pathname !== "/catalog.data") return next();
    const view = item ?? catalogPageKey(target.pathname, target.searchParams, catalogIndex);
    const { key, url } = view;
    const tracks = "tracks" in view && view.tracks;
    // an open sheet, an album's page and the track view show analysis results: their entries
    // also carry its version (and the track view the track index's, issue #10)
    const showsAnalysis = opts.analysisVersion !== undefined && (item ? item.album : tracks || target.searchParams.has("item"));
    const tagNow = () =>
      showsAnalysis
        ? `${catalogIndex.version}/${opts.analysisVersion!()}${tracks && opts.trackIndexVersion ? `/${opts.trackIndexVersion()}` : ""}`
        : catalogIndex.version;
    const tag = tagNow();
    const isValid = (page: CachedPage) => page.tag === tagNow();
    if (opts.budget && !store.holds(key, isValid)) {
      const wait = await opts.budget.take(req);
      if (wait !== null) return opts.budget.refuse(req, res, wait);
    }
    const found = await store.lookup(key, () => opts.render(url, req), {
      ttlMs,
      tag,
      // many pages, each compressed on its miss: fast levels (brotli 5 is 0.8 ms for a 48 KB
      // page, 7.9 KB; quality 11 would be 50 ms for 7.1 KB)
      compress: { brotliQuality: 5, gzipLevel: 6 },
      isValid,
      admit: opts.admission ? () => opts.admission!.admit(key) : undefined,
      // rendered while a sync (or new analysis results) changed the data: it may mix old and new
      keep: () => tagNow() === tag,
    });
    switch (found.kind) {
      case "hit":
      case "miss":
        return sendCachedPage(req, res, found.page, found.kind === "hit");
      case "once":
        // asked once so far (issue #18): compressed for this response only, not stored
        return sendUnstoredPage(req, res, found.response, { offThread: opts.compressOffThread });
      case "uncached":
        // a redirect, a 404, a page with incomplete data: sent as rendered, not kept
        res.setHeader("X-Page-Cache", "MISS");
        return sendRendered(req, res, found.response);
      case "pass":
        return next();
    }
  }

  function middleware(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.path !== "/catalog" && req.path !== "/catalog.data" && !req.path.startsWith("/catalog/")) return next();
    handle(req, res, next).catch(next);
  }

  return { middleware, clear: () => store.clear(PREFIX) };
}

/**
 * Sends a render the cache did not keep, as rendered: a document whole (React renders it whole
 * anyway, entry.server.tsx), a `.data` answer streamed as it comes (a slow sub-genre list
 * arrives after the cards).
 */
async function sendRendered(req: Request, res: Response, response: globalThis.Response) {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  let body: BodyInit | null = response.body;
  // a Response with 204, 205 or 304 may carry no body
  if (!body || req.method === "HEAD" || [204, 205, 304].includes(response.status)) {
    await response.body?.cancel();
    body = null;
  } else if (/^text\/html/i.test(response.headers.get("content-type") ?? "")) {
    body = await responseText(response);
  }
  await sendResponse(res, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}
