import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { SITE_PAGE_PATHS } from "../app/lib/static-pages.ts";
import { parseItemPageKind } from "../app/lib/catalog/item-url.ts";

/**
 * ADR 0119 (issue #30): what a shared cache (Varnish, deploy/varnish/default.vcl, or a CDN) may
 * store, for how long, under which tags, and a validator answered without rendering.
 *
 * Each public GET is of one kind (below). For its kind a response gets a Cache-Control that a
 * shared cache may keep (`public, max-age, s-maxage, stale-while-revalidate, stale-if-error`),
 * a weak ETag made of what the page depends on (the build, the configuration, the catalog
 * version, the analysis figures it shows), and a `Surrogate-Key` header naming the tags a purge
 * reaches (server/cache-purge.ts). A request whose If-None-Match holds that ETag is answered
 * 304 here, before any cache lookup or render. A response its route marked `no-store` or
 * `private` (a form's answer, a page with the visitor's own input or file, a page whose data
 * was not all there) keeps that and gets neither tags nor validator; so does every POST.
 */
export type PageKind = "story" | "list" | "tracks" | "item" | "sitemap";

export interface Lifetime {
  /** browser */
  maxAge: number;
  /** shared cache */
  sMaxage: number;
  staleWhileRevalidate: number;
  staleIfError: number;
}

/** The table of ADR 0119 (seconds). */
export const LIFETIMES: Record<PageKind | "notFound", Lifetime> = {
  story: { maxAge: 60, sMaxage: 3600, staleWhileRevalidate: 60, staleIfError: 86_400 },
  list: { maxAge: 60, sMaxage: 600, staleWhileRevalidate: 60, staleIfError: 86_400 },
  tracks: { maxAge: 60, sMaxage: 600, staleWhileRevalidate: 60, staleIfError: 86_400 },
  item: { maxAge: 300, sMaxage: 86_400, staleWhileRevalidate: 300, staleIfError: 604_800 },
  sitemap: { maxAge: 3600, sMaxage: 3600, staleWhileRevalidate: 600, staleIfError: 86_400 },
  // a 404 may become a page on the next sync: short, and purged with the catalog
  notFound: { maxAge: 0, sMaxage: 60, staleWhileRevalidate: 0, staleIfError: 0 },
};

export function cacheControl(l: Lifetime): string {
  const parts = ["public", `max-age=${l.maxAge}`, `s-maxage=${l.sMaxage}`];
  if (l.staleWhileRevalidate) parts.push(`stale-while-revalidate=${l.staleWhileRevalidate}`);
  if (l.staleIfError) parts.push(`stale-if-error=${l.staleIfError}`);
  return parts.join(", ");
}

/** Tags (Surrogate-Key): every page carries its build's; the rest say what a change reaches. */
export const TAGS = {
  build: (id: string) => `build-${id}`,
  pages: "pages",
  catalog: "catalog",
  analysis: "analysis",
  item: (kind: string, id: string) => `item-${kind}-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}`,
} as const;

const STORY = new Set(SITE_PAGE_PATHS);

export interface Classified {
  kind: PageKind;
  tags: string[];
  /** what, besides the build and the configuration, the page depends on */
  depends: "none" | "catalog" | "analysis" | "tracks";
}

/**
 * The page a path is, or the page whose `.data` it is: React Router's single fetch asks
 * `/mission.data` for `/mission` and `/_.data` for `/`.
 */
export function storyPageOf(pathname: string): string | null {
  if (!pathname.endsWith(".data")) return pathname;
  if (pathname === "/_.data") return "/";
  const page = pathname.slice(0, -".data".length);
  return page.length > 1 && !page.endsWith("/") ? page : null;
}

/** The kind of a GET, or null for what this module leaves alone (files, forms' answers, health). */
export function classify(pathname: string, search: URLSearchParams): Classified | null {
  if (pathname === "/robots.txt") return { kind: "sitemap", tags: [TAGS.pages], depends: "none" };
  if (pathname === "/sitemap.xml" || pathname.startsWith("/sitemaps/")) return { kind: "sitemap", tags: [TAGS.catalog], depends: "catalog" };
  if (pathname === "/catalog" || pathname === "/catalog.data") {
    const tracks = (search.get("view") ?? "").trim().toLowerCase() === "tracks";
    if (tracks) return { kind: "tracks", tags: [TAGS.catalog, TAGS.analysis], depends: "tracks" };
    // an open album sheet shows analysis figures
    if (search.has("item")) return { kind: "list", tags: [TAGS.catalog, TAGS.analysis], depends: "analysis" };
    return { kind: "list", tags: [TAGS.catalog], depends: "catalog" };
  }
  // A story page, or its `.data` (a client navigation's loader data: issue #42, DESIGN.md §3d
  // "their .data"), which is stored, validated and purged like its HTML. /contact with a query
  // may carry what a visitor typed: left alone.
  const story = storyPageOf(pathname);
  if (story !== null && STORY.has(story) && (story !== "/contact" || search.size === 0)) {
    // Home shows the featured albums (product-rules §2): a catalog change purges it too
    if (story === "/") return { kind: "story", tags: [TAGS.pages, TAGS.catalog], depends: "catalog" };
    return { kind: "story", tags: [TAGS.pages], depends: "none" };
  }
  const m = /^\/catalog\/([a-z]+)\/([^/]+?)(?:\/[^/]*?)?(\.data)?$/.exec(pathname);
  const kind = parseItemPageKind(m?.[1]);
  if (m && kind) {
    let id: string;
    try {
      id = decodeURIComponent(m[2]!);
    } catch {
      return null;
    }
    const album = kind === "albums";
    return { kind: "item", tags: [TAGS.catalog, TAGS.item(kind, id), ...(album ? [TAGS.analysis] : [])], depends: album ? "analysis" : "catalog" };
  }
  return null;
}

/** A catalog view whose `like=` names an uploaded reference file (`ref-…`), not a catalog track. */
export function namesVisitorFile(pathname: string, search: URLSearchParams): boolean {
  return (pathname === "/catalog" || pathname === "/catalog.data") && /^ref-/i.test((search.get("like") ?? "").trim());
}

export interface SharedCacheOptions {
  /** the build's identity (its hashed assets' names) */
  buildId: string;
  /** the configuration's fingerprint: a page prints some of it */
  configId: string;
  /**
   * What the validators name of the catalog, the analysis results and the track index: what is
   * served, never a process's own counter, so that every origin of a cluster serving the same
   * published version gives the same ETag (ADR 0157, amended): a shared cache in front of
   * several origins revalidates against any of them, and a browser's If-None-Match survives a
   * load balancer's switch.
   */
  catalogVersion: () => number | string;
  analysisVersion?: () => number | string;
  trackIndexVersion?: () => string;
}

const NO_STORE = /(^|[\s,])(no-store|private)\b/i;

/**
 * `Cache-Control: no-store` set once, when the headers are written: set earlier, a route's own
 * `no-store` (the form actions') was appended to it and the answer carried it twice.
 */
function forceNoStore(res: Response) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    res.setHeader("Cache-Control", "no-store");
    res.removeHeader("ETag");
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
}

export function createSharedCacheHeaders(opts: SharedCacheOptions) {
  const buildTag = TAGS.build(opts.buildId);

  function etagOf(c: Classified, url: string): string {
    const parts = [opts.buildId, opts.configId];
    if (c.depends !== "none") parts.push(String(opts.catalogVersion()));
    if (c.depends === "analysis" || c.depends === "tracks") parts.push(String(opts.analysisVersion?.() ?? 0));
    if (c.depends === "tracks") parts.push(opts.trackIndexVersion?.() ?? "");
    // the URL too: two pages never share a validator
    parts.push(url);
    return `W/"${crypto.hash("sha1", parts.join("|"), "base64url")}"`;
  }

  function middleware(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" && req.method !== "HEAD") {
      // ADR 0119: an answer to a POST is never stored by a shared cache
      forceNoStore(res);
      return next();
    }
    const target = new URL(req.originalUrl, "http://x");
    if (namesVisitorFile(target.pathname, target.searchParams)) {
      // a `like=` view of an uploaded reference names the visitor's file (issue #19): whatever
      // its render says (an unknown reference renders as a complete page), never shared
      forceNoStore(res);
      return next();
    }
    const c = classify(target.pathname, target.searchParams);
    if (!c) return next();
    const etag = etagOf(c, req.originalUrl);
    const tags = [buildTag, ...c.tags].join(" ");
    const inm = req.headers["if-none-match"];
    if (inm && inm.split(/\s*,\s*/).some((v) => v === etag || v === "*")) {
      // unchanged: answered without a cache lookup or a render (its cost is /healthz's)
      res.status(304);
      res.setHeader("ETag", etag);
      res.setHeader("Cache-Control", cacheControl(LIFETIMES[c.kind]));
      res.setHeader("Surrogate-Key", tags);
      res.vary("Accept-Encoding");
      return res.end();
    }
    // the headers are decided when they are written, from the status and what the route set
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      const own = String(res.getHeader("Cache-Control") ?? "");
      if (NO_STORE.test(own)) {
        res.removeHeader("ETag");
      } else if (status === 200) {
        res.removeHeader("Set-Cookie");
        res.setHeader("Cache-Control", cacheControl(LIFETIMES[c.kind]));
        res.setHeader("ETag", etag);
        res.setHeader("Surrogate-Key", tags);
      } else if (status === 404) {
        res.removeHeader("Set-Cookie");
        res.removeHeader("ETag");
        res.setHeader("Cache-Control", cacheControl(LIFETIMES.notFound));
        res.setHeader("Surrogate-Key", tags);
      } else if (status >= 500 || status === 429 || status === 503) {
        res.setHeader("Cache-Control", "no-store");
        res.removeHeader("ETag");
      }
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as typeof res.writeHead;
    next();
  }

  return { middleware, etagOf, buildTag };
}

/**
 * A short identity: of a build (the names of its hashed assets, which change with any change
 * of the code or styles), or of a text (the configuration).
 */
export function buildIdentity(dirOrText: string): string {
  let source = dirOrText;
  if (!dirOrText.startsWith("{")) {
    try {
      source = fs.readdirSync(path.join(dirOrText, "assets")).sort().join("\n");
    } catch {
      source = dirOrText;
    }
  }
  return crypto.hash("sha1", source, "hex").slice(0, 12);
}
