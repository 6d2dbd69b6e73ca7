import crypto from "node:crypto";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Request, Response } from "express";
import pLimit from "p-limit";
import sharp from "sharp";
import type { Config } from "../app/.server/config.ts";
import type { Logger } from "../app/.server/logger.ts";
import { THUMBNAIL_WIDTHS } from "../app/lib/catalog/media.ts";
import { FailureLog } from "../app/.server/failure-log.ts";
import { ThumbnailDiskCache } from "./image-cache.ts";

/**
 * GET /img?w=<width>&src=<media URL>: catalog thumbnails, resized on the server and sent as
 * AVIF or WebP when the browser accepts them (JPEG otherwise), cached on disk and in HTTP
 * (issue #3 "Beyond the spec"; the URL contract is app/lib/catalog/media.ts; ADR 0053).
 *
 * The source is either a same-origin `/media/<key>` path, read straight from DATA_DIR/media,
 * or an absolute URL on the MEDIA_URL or FILM_MEDIA_URL origin. Nothing else is fetched, so
 * the endpoint cannot be used to reach other hosts (no SSRF).
 *
 * Open-internet bounds (issue #7):
 * - the cache key is the canonical source (the real file, or the media URL's origin and decoded
 *   path) + width + format. A query or fragment on `src` is ignored: it never selected anything
 *   (only the path is read), so `?v=1`, `?v=2`, … are one thumbnail, encoded once. An encoded
 *   `%3F` in a /media path is part of the file name, so it names another file (404 unless it
 *   exists); in a media-host URL it is refused (400), since that host may read it as a query;
 * - the cache's bytes are bounded, least recently used first out (server/image-cache.ts);
 * - IMG_CONCURRENCY encodes run at once and MAX_WAITING more may wait; beyond that, 503 with
 *   Retry-After (load shedding; identical requests share one job and take no place);
 * - the input's pixels (IMG_MAX_INPUT_PIXELS) and bytes (25 MB, counted while streaming) are
 *   capped (413), and the output fits inside width × 2·width, never enlarged.
 * Bad input of any shape answers 4xx with a short plain reason, never 500.
 */

export type ImageFormat = "avif" | "webp" | "jpeg";
const CONTENT_TYPES: Record<ImageFormat, string> = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg" };
const MAX_SOURCE_BYTES = 25 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 10_000;
/** Longer `src` values are not media URLs this site makes (and URL_LIMIT_BYTES caps the line). */
const MAX_SRC_LENGTH = 2048;
/** Requests that may wait for an encode slot; with 2 slots at ~50–200 ms each, a few seconds. */
const MAX_WAITING = 64;
const RETRY_AFTER_SECONDS = 2;

/** AVIF when accepted, else WebP when accepted, else JPEG. */
export function negotiateFormat(accept: string | undefined): ImageFormat {
  const types = (accept ?? "")
    .toLowerCase()
    .split(",")
    .map((part) => {
      const [type, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { type: type.trim(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((t) => t.q > 0)
    .map((t) => t.type);
  if (types.includes("image/avif")) return "avif";
  if (types.includes("image/webp")) return "webp";
  return "jpeg";
}

class ImageRequestError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** `key` is the canonical source the cache is keyed on; `file`/`url` is what is read. */
type ImageSource = { kind: "file"; file: string; key: string } | { kind: "remote"; url: string; key: string };

export interface ImageHandlerOptions {
  config: Pick<Config, "DATA_DIR" | "MEDIA_URL" | "FILM_MEDIA_URL" | "IMG_CACHE_MAX_BYTES" | "IMG_CONCURRENCY" | "IMG_MAX_INPUT_PIXELS">;
  logger: Logger;
  /** Requests allowed to wait for an encode slot before 503 (default 64). */
  maxWaiting?: number;
  /** Called as each encode starts, with the number running (this one included); tests use it. */
  onEncode?: (running: number) => void | Promise<void>;
}

const NOT_MEDIA = "src must be a /media/ path or a URL on a media host";

function decodePath(encoded: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    throw new ImageRequestError(400, "src is not a valid URL path");
  }
  if (decoded.includes("\0")) throw new ImageRequestError(400, "src is not a valid URL path");
  return decoded;
}

/** Resolves a `src` to the canonical source the cache is keyed on, or refuses it with a 4xx. */
async function resolveSource(src: string, media: { dir: string; root: () => Promise<string>; origins: ReadonlySet<string> }): Promise<ImageSource> {
  const mediaDir = media.dir;
  const allowedOrigins = media.origins;
  if (src.startsWith("/") && !src.startsWith("//")) {
    // only the path selects the file: a query or fragment is dropped here, not keyed on
    const rawPath = src.split(/[?#]/, 1)[0];
    if (!rawPath.startsWith("/media/")) throw new ImageRequestError(400, NOT_MEDIA);
    const key = decodePath(rawPath.slice("/media/".length));
    const file = path.resolve(mediaDir, key);
    if (!key || !file.startsWith(mediaDir + path.sep)) throw new ImageRequestError(400, "src must stay inside the media directory");
    // the real path is the canonical source: `a/../b`, `./b` and `%62` all name one file
    let real: string;
    try {
      real = await fsp.realpath(file);
    } catch {
      throw new ImageRequestError(404, "image not found");
    }
    const root = await media.root();
    if (!real.startsWith(root + path.sep)) throw new ImageRequestError(400, "src must stay inside the media directory");
    return { kind: "file", file: real, key: `file:${path.relative(root, real)}` };
  }
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    throw new ImageRequestError(400, NOT_MEDIA);
  }
  if (!/^https?:$/.test(url.protocol) || !allowedOrigins.has(url.origin) || url.username || url.password) {
    throw new ImageRequestError(400, "src host is not a configured media host (MEDIA_URL, FILM_MEDIA_URL)");
  }
  // canonical: origin + decoded path (storage hosts decode it the same way); no query
  const decoded = decodePath(url.pathname);
  // A `%3F` decodes to `?`: S3 reads it as part of the key, a naive file server as the start
  // of a query. Which one this host does is unknown here, so the key could name one image
  // many times: refused. (A local /media path has no such doubt: its key is the real file.)
  if (decoded.includes("?")) throw new ImageRequestError(400, "src path must not contain an encoded ?");
  if (decoded.split("/").some((segment) => segment === "." || segment === "..")) {
    throw new ImageRequestError(400, "src must not contain . or .. segments");
  }
  return { kind: "remote", url: `${url.origin}${url.pathname}`, key: `remote:${url.origin}${decoded}` };
}

/** A source's bytes: a local file, or a media host's answer read within MAX_SOURCE_BYTES. */
async function loadSource(source: ImageSource): Promise<Buffer> {
  if (source.kind === "file") {
    try {
      const stat = await fsp.stat(source.file);
      if (!stat.isFile()) throw new ImageRequestError(404, "image not found");
      if (stat.size > MAX_SOURCE_BYTES) throw new ImageRequestError(413, "source image is too large");
      return await fsp.readFile(source.file);
    } catch (error) {
      if (error instanceof ImageRequestError) throw error;
      throw new ImageRequestError(404, "image not found");
    }
  }
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
  let res: globalThis.Response;
  try {
    // redirects are not followed: a media host must not bounce us to another host
    res = await fetch(source.url, { redirect: "manual", signal });
  } catch {
    throw new ImageRequestError(502, "media host did not answer");
  }
  try {
    if (res.status === 404 || res.status === 403) throw new ImageRequestError(404, "image not found");
    if (!res.ok || !res.body) throw new ImageRequestError(502, `media host answered ${res.status}`);
    if (Number(res.headers.get("content-length") ?? 0) > MAX_SOURCE_BYTES) throw new ImageRequestError(413, "source image is too large");
    // counted while reading: a chunked or lying body stops at the cap, not after it is all in memory
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    try {
      for await (const chunk of res.body) {
        bytes += chunk.byteLength;
        if (bytes > MAX_SOURCE_BYTES) throw new ImageRequestError(413, "source image is too large");
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof ImageRequestError) throw error;
      throw new ImageRequestError(502, "media host stopped answering");
    }
    return Buffer.concat(chunks, bytes);
  } finally {
    // frees the connection of a refused or cut-short answer (no-op once the body is read)
    abort.abort();
  }
}

/** A thumbnail of `input`, `width` wide, refused past `maxPixels` before any pixel is decoded. */
async function render(input: Buffer, width: number, format: ImageFormat, maxPixels: number): Promise<Buffer> {
  // the header only: a decompression bomb is refused before any pixel is decoded
  const meta = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!meta?.width || !meta.height) throw new ImageRequestError(422, "source is not a supported image");
  if (meta.width * meta.height > maxPixels) throw new ImageRequestError(413, `source image has more than ${maxPixels} pixels`);
  try {
    // a tall source must not become a tall thumbnail: fit inside width × 2·width
    const image = sharp(input, { limitInputPixels: maxPixels })
      .rotate()
      .resize({ width, height: width * 2, fit: "inside", withoutEnlargement: true });
    if (format === "avif") return await image.avif({ quality: 50, effort: 2 }).toBuffer();
    if (format === "webp") return await image.webp({ quality: 75 }).toBuffer();
    return await image.flatten({ background: "#111111" }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
  } catch (error) {
    if (/pixel limit/i.test(String((error as Error)?.message))) {
      throw new ImageRequestError(413, `source image has more than ${maxPixels} pixels`);
    }
    throw new ImageRequestError(422, "source is not a supported image");
  }
}


export function createImageHandler({ config, logger, maxWaiting = MAX_WAITING, onEncode }: ImageHandlerOptions) {
  // One libvips thread per encode, so IMG_CONCURRENCY encodes use at most that many cores
  // (libvips defaults to a thread per core for each image: one AVIF encode took 1.5 cores).
  sharp.concurrency(1);
  const mediaDir = path.resolve(config.DATA_DIR, "media");
  const cache = new ThumbnailDiskCache(path.resolve(config.DATA_DIR, "cache", "img"), config.IMG_CACHE_MAX_BYTES, logger);
  const maxPixels = config.IMG_MAX_INPUT_PIXELS;
  const allowedOrigins = new Set<string>();
  for (const base of [config.MEDIA_URL, config.FILM_MEDIA_URL]) {
    if (/^https?:\/\//i.test(base)) allowedOrigins.add(new URL(base).origin);
  }
  const inFlight = new Map<string, Promise<Buffer>>();
  // Each encode also uses libuv's thread pool (4 threads by default, shared with fs and dns):
  // keep IMG_CONCURRENCY below it so thumbnails never starve the rest of the server.
  const limit = pLimit(config.IMG_CONCURRENCY);
  let running = 0;

  let realMediaDir: string | undefined;
  const mediaRoot = async () => (realMediaDir ??= await fsp.realpath(mediaDir).catch(() => undefined)) ?? mediaDir;

  /** Loads and encodes in an encode slot, so waiting requests hold no source bytes. */
  const encode = (source: ImageSource, width: number, format: ImageFormat) =>
    limit(async () => {
      running++;
      try {
        await onEncode?.(running);
        return await render(await loadSource(source), width, format, maxPixels);
      } finally {
        running--;
      }
    });

  const writeFailures = new FailureLog(logger, { level: "warn", message: "thumbnails cannot be cached on disk; answering them uncached" });

  const thumbnail = async (source: ImageSource, width: number, format: ImageFormat): Promise<{ name: string; body: Buffer }> => {
    const name = `${crypto.createHash("sha256").update(`${source.key}\u0000${width}\u0000${format}`).digest("hex")}.${format}`;
    const cached = await cache.read(name);
    if (cached) return { name, body: cached };
    let job = inFlight.get(name);
    if (!job) {
      if (limit.pendingCount >= maxWaiting) throw new ImageRequestError(503, "too many thumbnails are being made; try again in a few seconds");
      job = encode(source, width, format)
        .then(async (output) => {
          try {
            await cache.write(name, output);
            writeFailures.succeeded();
          } catch (error) {
            // a full or read-only disk costs the cache, not the answer (and no partial file
            // is left: writeFileAtomic removes its temp file; issue #15)
            writeFailures.failed(error);
          }
          return output;
        })
        .finally(() => inFlight.delete(name));
      inFlight.set(name, job);
    }
    return { name, body: await job };
  };

  return async function imageHandler(req: Request, res: Response) {
    res.setHeader("Vary", "Accept");
    try {
      const w = Number(req.query.w);
      if (typeof req.query.w !== "string" || !(THUMBNAIL_WIDTHS as readonly number[]).includes(w)) {
        throw new ImageRequestError(400, `w must be one of ${THUMBNAIL_WIDTHS.join(", ")}`);
      }
      const src = req.query.src;
      if (typeof src !== "string" || !src) throw new ImageRequestError(400, "src is required, once");
      if (src.length > MAX_SRC_LENGTH) throw new ImageRequestError(400, "src is too long");
      await cache.ready;
      const source = await resolveSource(src, { dir: mediaDir, root: mediaRoot, origins: allowedOrigins });
      const format = negotiateFormat(req.get("accept"));
      const { name, body } = await thumbnail(source, w, format);
      res.setHeader("Cache-Control", "public, max-age=86400");
      // The cache file's name is a hash of source, width and format: a validator for free,
      // instead of Express hashing every answer's bytes.
      res.setHeader("ETag", `"${name.slice(0, 32)}-${body.length.toString(36)}"`);
      res.type(CONTENT_TYPES[format]);
      res.send(body);
    } catch (error) {
      if (error instanceof ImageRequestError) {
        res.setHeader("Cache-Control", "no-store");
        if (error.status === 503) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
        res.status(error.status).type("text/plain").send(error.message);
        return;
      }
      logger.error({ err: error }, "thumbnail failed");
      res.status(500).type("text/plain").setHeader("Cache-Control", "no-store").send("Internal server error");
    }
  };
}
