import fs from "node:fs/promises";
import path from "node:path";
import { PayloadError, UpstreamError } from "./errors.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, requestJson } from "./http.ts";
import { withRetry, type RetryOptions } from "./retry.ts";

/** ALBUMS_URL / CHANNELS_URL / FILMS_URL: a file path or an http(s) URL (DESIGN.md §2). */
export function isHttpSource(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** A file source's path (a plain path or a file:// URL). */
export function sourceFile(location: string): string {
  return path.resolve(location.startsWith("file://") ? new URL(location).pathname : location);
}

export interface ReadSourceOptions {
  /** deadline of one read (UPSTREAM_TIMEOUT_SECONDS) */
  timeoutMs?: number;
  /** largest document read (UPSTREAM_MAX_BYTES), for files as for http(s) */
  maxBytes?: number;
  retry?: RetryOptions;
}

/** Reads a JSON document from a file or over HTTP (with retries), within the size and time caps. */
export async function readJsonSource(location: string, opts: ReadSourceOptions = {}): Promise<unknown> {
  if (isHttpSource(location)) {
    return withRetry(async () => (await requestJson(location, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes })).body, opts.retry);
  }
  const file = sourceFile(location);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let bytes: Buffer;
  try {
    // refused before reading: a multi-gigabyte file never reaches memory
    const { size } = await fs.stat(file);
    if (size > maxBytes) throw tooLargeFile(file, maxBytes);
    bytes = await fs.readFile(file, { signal: AbortSignal.timeout(timeoutMs) });
    // it may have grown between the stat and the read
    if (bytes.byteLength > maxBytes) throw tooLargeFile(file, maxBytes);
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const message = timedOut ? `Reading ${file} timed out after ${timeoutMs / 1000} s` : `Cannot read ${file}: ${(error as Error).message}`;
    throw new UpstreamError(message, { source: file, retryable: false, cause: error });
  }
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new PayloadError(`Malformed JSON in ${file}`, file);
  }
}

function tooLargeFile(file: string, maxBytes: number): UpstreamError {
  return new UpstreamError(`${file} is too large: over UPSTREAM_MAX_BYTES (${maxBytes} bytes)`, { source: file, retryable: false });
}
