import { Readable } from "node:stream";
import zlib from "node:zlib";
import { LRUCache } from "lru-cache";
import type { CatalogIndex } from "./catalog/index.ts";
import { itemPagePath } from "../lib/catalog/item-url.ts";
import { SITE_PAGE_PATHS, SOUND_SEARCH_PATH } from "../lib/static-pages.ts";
import type { Config } from "./config.ts";

/**
 * sitemap.xml (issue #11, ADR 0097): every page of product-rules §2 with a fixed path, then every item
 * page (albums, singles, films). The sitemap protocol allows 50,000 URLs a file: above that,
 * `/sitemap.xml` is a sitemap index naming `/sitemaps/1.xml`, `/sitemaps/2.xml`, … of at most
 * 50,000 URLs each, each with the catalog's `lastmod`.
 *
 * Each file is built once per catalog version, written through gzip a thousand URLs at a
 * time (never one string of every URL), and kept gzipped in an LRU bounded by bytes
 * (SITEMAP_CACHE_MAX_BYTES): 250,000 albums are about 6 files of ~1 MB. A file evicted by the
 * bound is built again when asked for. Item URLs carry no `lastmod`: we do not know when an
 * item changed, only when the catalog did, and a date on every URL that moves at each sync
 * would tell search engines nothing true.
 */
export const SITEMAP_MAX_URLS = 50_000;
/** URLs written to gzip at once. */
const CHUNK_URLS = 1000;

export interface SitemapOptions {
  /** public origin (SITE_URL), without a trailing slash */
  siteUrl: string;
  /** the fixed-path pages, first in the first file */
  pagePaths: readonly string[];
  /** bytes of gzipped files kept (SITEMAP_CACHE_MAX_BYTES) */
  maxCacheBytes: number;
  /** URLs a file holds (the protocol's 50,000; tests use a small one) */
  maxUrls?: number;
}

/** A sitemap document, gzipped. */
export interface SitemapDocument {
  gzip: Buffer;
  /** the catalog version it was built from */
  version: number;
}

/** `&`, `<`, `>`, quotes: a `<loc>` is XML text. */
function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** Gzips text produced a piece at a time; resolves with the whole compressed buffer. */
function gzipPieces(pieces: Iterable<string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gzip = zlib.createGzip({ level: 6 });
    const out: Buffer[] = [];
    gzip.on("data", (chunk: Buffer) => out.push(chunk));
    gzip.on("end", () => resolve(Buffer.concat(out)));
    gzip.on("error", reject);
    Readable.from(pieces, { objectMode: false }).on("error", reject).pipe(gzip);
  });
}

/** The sitemaps of the album index's item pages; one set per site, built in createServices. */
export function createSitemaps(index: Pick<CatalogIndex, "itemPages" | "version" | "updatedAt">, opts: SitemapOptions) {
  const maxUrls = opts.maxUrls ?? SITEMAP_MAX_URLS;
  const origin = opts.siteUrl.replace(/\/+$/, "");
  const cache = new LRUCache<string, SitemapDocument>({ maxSize: opts.maxCacheBytes, sizeCalculation: (d) => d.gzip.length + 64 });
  /** builds under way, so concurrent misses share one */
  const building = new Map<string, Promise<SitemapDocument>>();

  const layout = () => {
    const items = index.itemPages();
    const total = opts.pagePaths.length + items.length;
    return { index, items, total, files: Math.max(1, Math.ceil(total / maxUrls)) };
  };

  /** `<url>` lines of positions [start, end) of the whole list, CHUNK_URLS at a time. */
  function* urlset(l: ReturnType<typeof layout>, start: number, end: number): Generator<string> {
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    const pages = opts.pagePaths.length;
    for (let from = start; from < end; from += CHUNK_URLS) {
      let piece = "";
      for (let i = from; i < Math.min(end, from + CHUNK_URLS); i++) {
        let path: string;
        if (i < pages) path = opts.pagePaths[i]!;
        else {
          const item = l.items.at(i - pages);
          path = itemPagePath(item.kind, item.id, item.name);
        }
        piece += `  <url><loc>${xmlEscape(origin + path)}</loc></url>\n`;
      }
      yield piece;
    }
    yield "</urlset>\n";
  }

  function* sitemapIndex(files: number, lastmod: string): Generator<string> {
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    for (let n = 1; n <= files; n++) {
      yield `  <sitemap><loc>${xmlEscape(`${origin}/sitemaps/${n}.xml`)}</loc>${lastmod ? `<lastmod>${xmlEscape(lastmod)}</lastmod>` : ""}</sitemap>\n`;
    }
    yield "</sitemapindex>\n";
  }

  function cached(name: string, version: number, build: () => Iterable<string>): Promise<SitemapDocument> {
    const key = `${version}|${name}`;
    const hit = cache.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = building.get(key);
    if (!pending) {
      pending = gzipPieces(build())
        .then((gzip) => {
          const doc = { gzip, version };
          // kept only while it is the current catalog's (a sync during the build makes it stale)
          if (index.version === version) cache.set(key, doc);
          return doc;
        })
        .finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  }

  return {
    /**
     * `/sitemap.xml`: the urlset of every URL while they fit one file, else the index of the
     * files. `name` "index" or a file number (1-based); null for a number past the last file.
     */
    document(name: "root" | number): Promise<SitemapDocument> | null {
      const l = layout();
      const version = l.index.version;
      // entries of an older catalog are never served again: drop them at the first sight of a new one
      for (const key of cache.keys()) if (!key.startsWith(`${version}|`)) cache.delete(key);
      if (name === "root") {
        if (l.files === 1) return cached("root", version, () => urlset(l, 0, l.total));
        const lastmod = l.index.updatedAt ? new Date(l.index.updatedAt).toISOString() : "";
        return cached("root", version, () => sitemapIndex(l.files, lastmod));
      }
      if (!Number.isInteger(name) || name < 1 || name > l.files || l.files === 1) return null;
      return cached(String(name), version, () => urlset(l, (name - 1) * maxUrls, Math.min(l.total, name * maxUrls)));
    },
    /** what the cache holds (the bound's test, an operator's figure) */
    usage: () => ({ entries: cache.size, bytes: cache.calculatedSize }),
  };
}

export type Sitemaps = ReturnType<typeof createSitemaps>;

/**
 * The fixed-path pages the sitemap lists: product-rules §2's, and the search by a file of one's own
 * (issue #41: a buyer who searches for "find music by sound" should find it). It is not among
 * SITE_PAGE_PATHS, which also drives the story-page cache and the Lighthouse bench.
 */
export const SITEMAP_PAGE_PATHS: readonly string[] = [...SITE_PAGE_PATHS, SOUND_SEARCH_PATH];

/** The site's sitemaps: its fixed-path pages and item pages, at SITE_URL, bounded by SITEMAP_CACHE_MAX_BYTES. */
export function siteSitemaps(index: Pick<CatalogIndex, "itemPages" | "version" | "updatedAt">, config: Pick<Config, "SITE_URL" | "SITEMAP_CACHE_MAX_BYTES">): Sitemaps {
  return createSitemaps(index, { siteUrl: config.SITE_URL, pagePaths: SITEMAP_PAGE_PATHS, maxCacheBytes: config.SITEMAP_CACHE_MAX_BYTES });
}

/**
 * The HTTP answer for a sitemap document: the gzipped bytes as they are kept when the client
 * takes gzip (every search engine does), else decompressed as a stream.
 */
export function sitemapResponse(doc: SitemapDocument, acceptEncoding: string | null): Response {
  const headers = new Headers({
    "Content-Type": "application/xml; charset=utf-8",
    "Cache-Control": "public, max-age=3600",
    Vary: "Accept-Encoding",
  });
  if (/\bgzip\b/i.test(acceptEncoding ?? "") && !/\bgzip\s*;\s*q=0(\.0*)?\b/i.test(acceptEncoding ?? "")) {
    headers.set("Content-Encoding", "gzip");
    headers.set("Content-Length", String(doc.gzip.length));
    return new Response(new Uint8Array(doc.gzip), { headers });
  }
  // 256 KB chunks: with gunzip's default 16 KB, the web stream's per-chunk cost made a 50,000-URL
  // file take 17 ms (p50) and up to 160 ms; with 256 KB, 7 ms and 17 ms (ADR 0097)
  const body = Readable.toWeb(Readable.from([doc.gzip]).pipe(zlib.createGunzip({ chunkSize: 256 * 1024 }))) as ReadableStream<Uint8Array>;
  return new Response(body, { headers });
}
