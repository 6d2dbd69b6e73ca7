import crypto from "node:crypto";
import type { Stats } from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { UpstreamError } from "../../catalog/errors.ts";
import { MAX_REDIRECTS, redact, redirectTarget } from "../../catalog/http.ts";
import { mediaUrl } from "../../catalog/media-url.ts";
import { AnalysisError } from "../analyze.ts";

/**
 * Where a track's audio is, and what identifies its bytes (ADR 0091). A key resolves as the
 * site links it (mediaUrl, product-rules §7 "Media"): under a relative MEDIA_URL (the default /media)
 * it is a file in DATA_DIR/media, which the server serves; under an absolute MEDIA_URL, or as
 * an absolute key, it is a URL on the media host. The identity is what says "the same audio"
 * without reading it: size and mtime of a file, size and ETag (else Last-Modified) of a URL.
 */

export type AudioSource = { kind: "file"; file: string } | { kind: "url"; url: string };

export function audioSource(key: string, opts: { mediaUrl: string; mediaDir: string }): AudioSource {
  const url = mediaUrl(key, opts.mediaUrl);
  if (/^https?:\/\//i.test(url)) return { kind: "url", url };
  const dir = path.resolve(opts.mediaDir);
  const file = path.resolve(dir, key);
  // a key is the catalog's, not ours: one that climbs out of the media folder reads nothing
  if (!file.startsWith(dir + path.sep)) throw new AnalysisError("unreadable", `the key ${JSON.stringify(key)} is outside the media folder`);
  return { kind: "file", file };
}

export function fileIdentity(stat: Pick<Stats, "size" | "mtimeMs">): string {
  return `size=${stat.size};mtime=${Math.trunc(stat.mtimeMs)}`;
}

/** Size and ETag, else Last-Modified; a host that sends neither is identified by size alone. */
export function httpIdentity(headers: Headers): string {
  const size = headers.get("content-length") ?? "?";
  const etag = headers.get("etag");
  if (etag) return `size=${size};etag=${etag}`;
  const modified = headers.get("last-modified");
  return modified ? `size=${size};modified=${modified}` : `size=${size}`;
}

export interface RemoteOptions {
  /** one deadline for the whole exchange: redirects, headers and body (UPSTREAM_TIMEOUT_SECONDS) */
  timeoutMs: number;
  /** largest body read (UPSTREAM_MAX_BYTES) */
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * A HEAD or GET on the media host, redirects followed as the catalog's reads follow them
 * (catalog/http.ts redirectTarget: no downgrade, no other scheme, at most MAX_REDIRECTS), within
 * one deadline. Its body is left to the caller; `done` ends the deadline.
 */
async function request(url: string, method: "HEAD" | "GET", opts: RemoteOptions) {
  const source = redact(url);
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
  let current = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(current, { method, headers: { Accept: "audio/*, */*" }, cache: "no-store", redirect: "manual", signal });
      if (![301, 302, 303, 307, 308].includes(res.status)) {
        if (!res.ok) {
          await res.body?.cancel().catch(() => undefined);
          throw new UpstreamError(`${method} ${source} answered ${res.status}`, { source, status: res.status });
        }
        return { res, source, signal };
      }
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new UpstreamError(`Too many redirects from ${source}`, { source, status: res.status });
      current = redirectTarget(current, res.headers.get("location"), source, res.status);
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    const why = deadline.aborted ? `timed out after ${opts.timeoutMs / 1000} s` : (error as Error).message;
    throw new UpstreamError(`${method} ${source} failed: ${why}`, { source, cause: error });
  }
}

/** The identity of a file or URL, or undefined when it cannot be had now (missing, unreachable). */
export async function identify(source: AudioSource, opts: RemoteOptions): Promise<string | undefined> {
  try {
    if (source.kind === "file") {
      const stat = await fsp.stat(source.file);
      return stat.isFile() ? fileIdentity(stat) : undefined;
    }
    const { res } = await request(source.url, "HEAD", opts);
    return httpIdentity(res.headers);
  } catch {
    return undefined;
  }
}

/**
 * Downloads a URL into `dir`, counting bytes as they arrive (a body over `maxBytes` is cut
 * off, whatever its Content-Length said), so the main thread holds one chunk at a time and the
 * analysis worker reads the file. Returns the file and the identity the GET answered with.
 */
export async function download(url: string, dir: string, opts: RemoteOptions): Promise<{ file: string; identity: string }> {
  const { res, source } = await request(url, "GET", opts);
  const file = path.join(dir, `${crypto.randomUUID()}.audio`);
  let written = 0;
  try {
    if (Number(res.headers.get("content-length") ?? 0) > opts.maxBytes) {
      throw new AnalysisError("too-large", `${source} is ${res.headers.get("content-length")} bytes, over UPSTREAM_MAX_BYTES (${opts.maxBytes})`);
    }
    await fsp.mkdir(dir, { recursive: true });
    const handle = await fsp.open(file, "w");
    try {
      for await (const chunk of res.body ?? []) {
        written += chunk.byteLength;
        if (written > opts.maxBytes) throw new AnalysisError("too-large", `${source} is over UPSTREAM_MAX_BYTES (${opts.maxBytes} bytes)`);
        await handle.write(chunk);
      }
    } finally {
      await handle.close();
    }
  } catch (error) {
    await res.body?.cancel().catch(() => undefined);
    await fsp.rm(file, { force: true });
    if (error instanceof AnalysisError) throw error;
    throw new UpstreamError(`GET ${source} stopped: ${(error as Error).message}`, { source, cause: error });
  }
  return { file, identity: httpIdentity(res.headers) };
}
