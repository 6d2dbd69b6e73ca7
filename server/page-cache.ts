import type { NextFunction, Request, Response } from "express";

/**
 * ADR 0002. Static pages are rendered once and kept in memory for a short time instead of
 * being prerendered at build time: prerendered HTML could not carry a per-response CSP
 * nonce. The cached HTML holds NONCE_PLACEHOLDER, replaced by each response's own nonce.
 */
export const NONCE_PLACEHOLDER = "cspNoncePlaceholder00000";

interface Entry {
  expires: number;
  status: number;
  contentType: string;
  body: string;
}

export interface PageCacheOptions {
  ttlMs: number;
  isCacheable: (path: string) => boolean;
  /** Renders a path to a full HTML response, with NONCE_PLACEHOLDER as the nonce. */
  render: (path: string) => Promise<globalThis.Response>;
}

export function createPageCache(opts: PageCacheOptions) {
  const entries = new Map<string, Promise<Entry | null>>();

  async function fill(path: string): Promise<Entry | null> {
    const response = await opts.render(path);
    if (response.status !== 200) return null;
    return {
      expires: Date.now() + opts.ttlMs,
      status: response.status,
      contentType: response.headers.get("content-type") ?? "text/html; charset=utf-8",
      body: await response.text(),
    };
  }

  async function lookup(path: string): Promise<{ entry: Entry | null; hit: boolean }> {
    const pending = entries.get(path);
    if (pending) {
      const entry = await pending;
      if (entry && entry.expires > Date.now()) return { entry, hit: true };
    }
    const next = fill(path).catch(() => null);
    entries.set(path, next);
    const entry = await next;
    if (!entry) entries.delete(path);
    return { entry, hit: false };
  }

  function middleware(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.originalUrl !== req.path || !opts.isCacheable(req.path)) return next();
    if (!req.accepts("html")) return next();
    lookup(req.path)
      .then(({ entry, hit }) => {
        if (!entry) return next();
        res.status(entry.status);
        res.setHeader("Content-Type", entry.contentType);
        res.setHeader("Cache-Control", "no-cache");
        res.setHeader("X-Page-Cache", hit ? "HIT" : "MISS");
        res.send(entry.body.replaceAll(NONCE_PLACEHOLDER, String(res.locals.nonce)));
      })
      .catch(next);
  }

  return { middleware, clear: () => entries.clear() };
}
