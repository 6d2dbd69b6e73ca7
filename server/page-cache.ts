import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { encodeBody, negotiateEncoding, precompress, type CompressOptions, type PrecompressedBody } from "./precompressed.ts";
import { responseText, type DocumentParts } from "../app/.server/rendered-document.ts";
import { utf16ToUtf8 } from "./utf8.ts";

/**
 * ADR 0002, ADR 0080, ADR 0119. Rendered pages are kept in memory, compressed once (brotli,
 * gzip, server/precompressed.ts): since ADR 0119 a page carries no per-response nonce (its CSP
 * allows its inline scripts by hash), so every response sends the same stored bytes and
 * headers, and a shared cache in front may store them too.
 */

/** One rendered page as the cache keeps it. */
export interface CachedPage {
  status: number;
  /** response headers to send again (not the length, the encoding, nor hop-by-hop ones) */
  headers: ReadonlyArray<readonly [string, string]>;
  body: PrecompressedBody;
  /** what the page was rendered from (the catalog version), checked by the cache's owner */
  tag?: unknown;
}

/** Headers that describe one transfer, not the page. Set-Cookie never reaches the cache. */
const NOT_KEPT = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date", "etag", "set-cookie", "vary"]);

/**
 * Only a complete, public 200 is kept: not an error, a redirect or a 404, not an answer that
 * sets a cookie, and not one its route marked `no-store` or `private` (the catalog marks a
 * page whose data was not all there, ADR 0080).
 */
export function isCacheableResponse(response: globalThis.Response): boolean {
  if (response.status !== 200) return false;
  if (response.headers.has("set-cookie") || response.headers.has("content-encoding")) return false;
  const cacheControl = (response.headers.get("cache-control") ?? "").toLowerCase();
  return !/(^|[\s,])(no-store|private)\b/.test(cacheControl);
}

/**
 * The bytes of a rendered document as sent: its parts (app/.server/rendered-document.ts) in
 * UTF-8, each encoded where it lies, never joined as one string first (a page V8 holds
 * two-byte would be copied whole, issue #18).
 */
export function documentBytes(doc: string | DocumentParts): Buffer {
  const parts = typeof doc === "string" ? [doc] : doc;
  return utf16ToUtf8(Buffer.from(parts.join(""), "utf16le"), () => Buffer.from(parts.join(""), "utf8"));
}

/** Reads a rendered response whole and compresses it (off the event loop). */
export async function toCachedPage(response: globalThis.Response, opts: CompressOptions = {}, tag?: unknown): Promise<CachedPage> {
  const type = response.headers.get("content-type") ?? "";
  const text = /^text\/html/i.test(type) ? await responseText(response) : await response.text();
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    if (!NOT_KEPT.has(name.toLowerCase())) headers.push([name, value]);
  });
  return { status: response.status, headers, body: await precompress(text, "", opts), tag };
}

/**
 * Sends a cached page: brotli, gzip or identity by Accept-Encoding, Content-Length set. Content-Encoding is set here, so the `compression`
 * middleware leaves the body alone ("already encoded").
 */
export function sendCachedPage(req: Request, res: Response, page: CachedPage, hit: boolean) {
  const encoding = negotiateEncoding(req.headers["accept-encoding"], page.body);
  const body = encodeBody(page.body, encoding, "");
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("X-Page-Cache", hit ? "HIT" : "MISS");
  res.vary("Accept-Encoding");
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

export type Lookup =
  | { kind: "hit" | "miss"; page: CachedPage }
  /** the render's own answer, not cacheable: only the request that rendered it gets it */
  | { kind: "uncached"; response: globalThis.Response }
  /** a cacheable render not admitted to the cache (FillOptions.admit): sent once, not stored */
  | { kind: "once"; response: globalThis.Response }
  /** render it the ordinary way (a concurrent render was not cacheable, or failed) */
  | { kind: "pass" };

export interface PageStoreOptions {
  /** PAGE_CACHE_MAX_BYTES: every page's parts and compressed variants count */
  maxBytes: number;
  compress?: CompressOptions;
  /** told when a render fails (the request is then rendered the ordinary way) */
  onError?: (error: unknown, key: string) => void;
}

export interface FillOptions {
  /** how long the page may be served (ms) */
  ttlMs: number;
  /** stored with the page; `isValid` compares it on every hit */
  tag?: unknown;
  /** a hit on a page for which this is false is a miss (and the page is dropped) */
  isValid?: (page: CachedPage) => boolean;
  /** asked after the render: false keeps the page from the cache (it is still sent) */
  keep?: (page: CachedPage) => boolean;
  /** how hard to compress (a few static pages: the best; many catalog pages: fast) */
  compress?: CompressOptions;
  /**
   * Asked on a miss, before the render: false sends the render as it comes, not stored and not
   * compressed for the cache (the admission rule, server/page-admission.ts, issue #18).
   */
  admit?: () => boolean;
}

/**
 * The rendered pages of the process, least recently used first out, bounded by bytes.
 * Identical concurrent misses share one render: the first request renders, the others wait
 * for its page.
 */
export function createPageStore(opts: PageStoreOptions) {
  const cache = new LRUCache<string, CachedPage>({
    maxSize: opts.maxBytes,
    // UTF-16 key, the page's buffers, and the headers
    sizeCalculation: (page, key) => key.length * 2 + page.body.bytes + page.headers.reduce((n, [k, v]) => n + (k.length + v.length) * 2, 0) + 128,
  });
  const rendering = new Map<string, Promise<CachedPage | null>>();

  async function lookup(key: string, render: () => Promise<globalThis.Response>, fill: FillOptions): Promise<Lookup> {
    const cached = cache.get(key);
    if (cached) {
      if (!fill.isValid || fill.isValid(cached)) return { kind: "hit", page: cached };
      cache.delete(key);
    }
    const pending = rendering.get(key);
    if (pending) {
      const page = await pending.catch(() => null);
      return page ? { kind: "miss", page } : { kind: "pass" };
    }
    if (fill.admit && !fill.admit()) {
      try {
        const response = await render();
        return { kind: isCacheableResponse(response) ? "once" : "uncached", response };
      } catch (error) {
        opts.onError?.(error, key);
        return { kind: "pass" };
      }
    }
    let uncached: globalThis.Response | undefined;
    const next = (async () => {
      const response = await render();
      if (!isCacheableResponse(response)) {
        uncached = response;
        return null;
      }
      const page = await toCachedPage(response, fill.compress ?? opts.compress, fill.tag);
      // a page larger than the whole budget is simply not kept
      if (!fill.keep || fill.keep(page)) cache.set(key, page, { ttl: fill.ttlMs });
      return page;
    })();
    rendering.set(key, next);
    try {
      const page = await next;
      if (page) return { kind: "miss", page };
      return { kind: "uncached", response: uncached! };
    } catch (error) {
      opts.onError?.(error, key);
      return { kind: "pass" };
    } finally {
      rendering.delete(key);
    }
  }

  return {
    lookup,
    /** whether `key` would be answered from the cache now (issue #18: a hit is never budgeted) */
    holds: (key: string, isValid?: (page: CachedPage) => boolean) => {
      const page = cache.peek(key);
      return page !== undefined && (!isValid || isValid(page));
    },
    /** drops every page whose key starts with `prefix` (all of them without one) */
    clear(prefix = "") {
      if (!prefix) return cache.clear();
      for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
    },
    usage: () => ({ entries: cache.size, bytes: cache.calculatedSize, maxBytes: opts.maxBytes }),
  };
}

export type PageStore = ReturnType<typeof createPageStore>;

export interface PageCacheOptions {
  store: PageStore;
  ttlMs: number;
  isCacheable: (path: string) => boolean;
  /** Renders a path to a full HTML response. */
  render: (path: string) => Promise<globalThis.Response>;
}

/** Static pages (app/lib/static-pages.ts): the same HTML for everyone, for `ttlMs` (ADR 0002). */
export function createPageCache(opts: PageCacheOptions) {
  function middleware(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.originalUrl !== req.path || !opts.isCacheable(req.path)) return next();
    if (!req.accepts("html")) return next();
    opts.store
      // a handful of pages, compressed once a minute: worth brotli's best (~50 ms each)
      .lookup(`static|${req.path}`, () => opts.render(req.path), { ttlMs: opts.ttlMs, compress: { brotliQuality: 11, gzipLevel: 9 } })
      .then(async (found) => {
        if (found.kind === "hit" || found.kind === "miss") {
          // a deploy or a content change shows on the next visit: browsers revalidate
          res.setHeader("Cache-Control", "no-cache");
          return sendCachedPage(req, res, found.page, found.kind === "hit");
        }
        // a static page that is not a 200 (a render fault): the ordinary handler answers
        if (found.kind === "uncached" || found.kind === "once") await found.response.body?.cancel();
        next();
      })
      .catch(next);
  }

  return { middleware, clear: () => opts.store.clear("static|") };
}
