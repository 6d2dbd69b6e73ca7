import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import pLimit from "p-limit";
import type { Request, Response } from "express";
import { LRUCache } from "lru-cache";
import { documentBytes } from "./page-cache.ts";
import { brotliCompress, brotliParams } from "./precompressed.ts";
import { responseDocument, responseText } from "../app/.server/rendered-document.ts";

/**
 * Issue #18, ADR 0085: which rendered catalog pages are worth storing. Most long-tail URLs (a
 * search with a typo, a tempo range nobody typed before, an item page a crawler visits once)
 * are never asked again, and storing a page costs more than sending it: brotli and gzip of
 * the whole page in parts around the nonce (server/precompressed.ts), against one fast
 * compression of the response. So a page is stored only when it is asked a second time
 * within `windowMs` (the cache entry's own lifetime): the first ask is remembered here, as a
 * hash of its key, and answered without being stored ("seen once", a doorkeeper as in
 * TinyLFU).
 *
 * Bounded: at most `maxKeys` keys (PAGE_CACHE_SEEN_MAX_KEYS), the least recently seen
 * forgotten first (lru-cache), each for `windowMs`. A forgotten key only costs its page one
 * more uncached render. A key is kept as the first 52 bits of its SHA-1 (a number), so a long
 * URL does not grow the set: 65,536 keys hold about 6.6 MB of heap (measured; 10.6 MB as strings); two keys sharing
 * a hash would let the second be stored on its first ask, which costs nothing but that page's
 * compression.
 */
export interface PageAdmission {
  /** True when `key` was asked before within the window (store its page); else remembers it. */
  admit(key: string): boolean;
  /** keys remembered now */
  size(): number;
  readonly maxKeys: number;
}

export function createPageAdmission(opts: { maxKeys: number; windowMs: number }): PageAdmission {
  const seen = new LRUCache<number, true>({ max: opts.maxKeys, ttl: opts.windowMs, ttlAutopurge: false });
  return {
    admit(key) {
      const hash = Number.parseInt(crypto.hash("sha1", key, "hex").slice(0, 13), 16);
      if (seen.get(hash)) return true;
      seen.set(hash, true);
      return false;
    },
    size: () => seen.size,
    maxKeys: opts.maxKeys,
  };
}

/**
 * Sends a page the cache did not store: read whole (a cacheable page is complete, and React
 * renders the document whole anyway), and compressed once in the encoding the client prefers at a fast setting (brotli 3, gzip 3:
 * about 0.3 ms for a 40–60 KB page, 8–9 KB out, against 1.8 ms for brotli 5 and gzip 6 in
 * parts around the nonce, and a check decode, when a page is stored). Content-Encoding is set
 * here, so the `compression` middleware leaves it alone.
 */
export async function sendUnstoredPage(req: Request, res: Response, response: globalThis.Response, opts: { offThread?: boolean } = {}) {
  // the same document a stored page sends (page-cache.ts); a `.data` answer (1–10 KB, Latin-1 as a rule) is encoded the direct way
  const raw = /^text\/html/i.test(response.headers.get("content-type") ?? "")
    ? documentBytes(await responseDocument(response))
    : Buffer.from(await responseText(response), "utf8");
  // br over gzip whatever their order (browsers send "gzip, deflate, br, zstd"), as the cached
  // pages are negotiated (server/precompressed.ts negotiateEncoding)
  const accepted = raw.length < MIN_COMPRESS_BYTES ? "identity" : req.acceptsEncodings("br") ? "br" : req.acceptsEncodings("gzip") ? "gzip" : "identity";
  const body = accepted === "identity" ? raw : await encodeFirstAsk(raw, accepted, opts.offThread ?? false);
  res.status(response.status);
  response.headers.forEach((value, name) => {
    if (!SENT_HERE.has(name.toLowerCase())) res.setHeader(name, value);
  });
  res.setHeader("X-Page-Cache", "MISS");
  res.vary("Accept-Encoding");
  if (accepted === "br" || accepted === "gzip") res.setHeader("Content-Encoding", accepted);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}

const gzip = promisify(zlib.gzip);
/** first asks' encoders in flight (their own two: a stored page's precompression is slower, precompressed.ts) */
const compressing = pLimit(2);

/**
 * A first ask's body at a fast setting (brotli 3, gzip 3): a third of a millisecond. `offThread`
 * (one server process, ADR 0115): on the thread pool, two at a time (each encoder holds native
 * memory: one per connection at 64 connections held 1.4 GB, ADR 0080), so the event loop renders
 * the next page meanwhile on a core it would not use. In a cluster every core has a process: on
 * the event loop.
 */
function encodeFirstAsk(raw: Buffer, encoding: "br" | "gzip", offThread: boolean): Buffer | Promise<Buffer> {
  if (encoding === "br") {
    const options = { params: brotliParams(FIRST_ASK_BROTLI_QUALITY, raw.length) };
    return offThread ? compressing(() => brotliCompress(raw, options)) : zlib.brotliCompressSync(raw, options);
  }
  return offThread ? compressing(() => gzip(raw, FIRST_ASK_GZIP)) : zlib.gzipSync(raw, FIRST_ASK_GZIP);
}

/** a first ask's brotli: fast, for one response (stored catalog pages use 5, server/catalog-page-cache.ts) */
const FIRST_ASK_BROTLI_QUALITY = 3;
const FIRST_ASK_GZIP = { level: 3 };
/** below this a compressed body is hardly smaller (the compression middleware's own threshold) */
const MIN_COMPRESS_BYTES = 1024;
const SENT_HERE = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "vary"]);
