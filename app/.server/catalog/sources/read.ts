import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { PayloadError, UpstreamError } from "../errors.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, requestJson, requestJsonStream } from "../http.ts";
import { jsonEvents, MalformedJsonError, type JsonStreamOptions } from "../json-stream.ts";
import { withRetry, type RetryOptions } from "../retry.ts";

/** ALBUMS_URL / CHANNELS_URL / FILMS_URL: a file path or an http(s) URL (DESIGN.md §2). */
export function isHttpSource(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** A file source's path (a plain path or a file:// URL). */
export function sourceFile(location: string): string {
  return path.resolve(location.startsWith("file://") ? new URL(location).pathname : location);
}

/**
 * A file source's size and mtime as `size:mtimeMs`, recorded with its snapshot so an unchanged
 * file is not parsed again (ADR 0050). Undefined over HTTP, or when the file cannot be stat'ed
 * (the read then reports why).
 */
export async function fileStamp(location: string): Promise<string | undefined> {
  if (isHttpSource(location)) return undefined;
  const stat = await fs.stat(sourceFile(location)).catch(() => undefined);
  return stat ? `${stat.size}:${stat.mtimeMs}` : undefined;
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
    throw readFailure(error, file, timeoutMs);
  }
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new PayloadError(`Malformed JSON in ${file}`, file);
  }
}

/**
 * Bytes read at a time from a streamed file. Every token of a chunk is an object until the
 * chunk is parsed: 64 KB chunks keep that garbage young (1 MB chunks grew the heap by 100 MB
 * at 250,000 albums, ADR 0082).
 */
export const READ_CHUNK_BYTES = 64 * 1024;

/** An http(s) upstream answered 304 to the validator held (issue #42): the data served is current. */
export const NOT_MODIFIED: unique symbol = Symbol("not modified");

/**
 * A JSON document over HTTP asked with the validator of the copy held (issue #42): undefined
 * when the upstream answers 304, else the document and its own validator (ETag or Last-Modified).
 */
export async function readHttpJsonIfChanged(location: string, validator: string | undefined, opts: ReadSourceOptions = {}): Promise<{ raw: unknown; stamp?: string } | undefined> {
  const res = await withRetry(() => requestJson(location, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, validator }), opts.retry);
  return res.notModified ? undefined : { raw: res.body, stamp: res.validator };
}

/** One entry of a streamed list: a value to validate, or an item skipped for its size. */
export type ListEntry = { value: unknown } | { oversized: true };

/**
 * Streams the list a file or http(s) source holds into `build`, one entry at a time, within
 * the same caps as readJsonSource (ADR 0082): the document is never held whole. Over HTTP
 * each retry calls `build` afresh, so it must build into something new each time. Not a list:
 * a PayloadError; text that is not JSON or is cut short: a PayloadError for a file, a
 * retryable UpstreamError over HTTP (a truncated body can be transient), as readJsonSource.
 */
export async function readJsonList<R>(
  location: string,
  opts: ReadSourceOptions & Pick<JsonStreamOptions, "maxItemChars"> & { validator?: string },
  build: (entries: AsyncIterable<ListEntry>, stamp: string | undefined) => Promise<R>,
): Promise<R | typeof NOT_MODIFIED> {
  if (isHttpSource(location)) {
    return withRetry(async () => {
      const body = await requestJsonStream(location, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, validator: opts.validator });
      // issue #42: the upstream says the list held is current (304): nothing downloaded or parsed
      if (body.notModified) return NOT_MODIFIED;
      try {
        return await build(listEntries(body.chunks, body.source, opts), body.validator);
      } catch (error) {
        if (error instanceof MalformedJsonError) {
          throw new UpstreamError(`Malformed JSON from ${body.source}`, { source: body.source, status: body.status, retryable: true, cause: error });
        }
        throw error;
      } finally {
        await body.chunks.return(undefined);
      }
    }, opts.retry);
  }
  const file = sourceFile(location);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const size = await fs.stat(file).then(
    (stat) => stat.size,
    (error: Error) => {
      throw new UpstreamError(`Cannot read ${file}: ${error.message}`, { source: file, retryable: false, cause: error });
    },
  );
  // refused before reading: a multi-gigabyte file never reaches memory
  if (size > maxBytes) throw tooLargeFile(file, maxBytes);
  const stream = fsSync.createReadStream(file, { highWaterMark: READ_CHUNK_BYTES, signal: AbortSignal.timeout(timeoutMs) });
  async function* bytes(): AsyncGenerator<Uint8Array> {
    let total = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.byteLength;
        // it may have grown since the stat
        if (total > maxBytes) throw tooLargeFile(file, maxBytes);
        yield chunk;
      }
    } catch (error) {
      throw readFailure(error, file, timeoutMs);
    }
  }
  try {
    return await build(listEntries(bytes(), file, opts), await fileStamp(location));
  } catch (error) {
    if (error instanceof MalformedJsonError) throw new PayloadError(`Malformed JSON in ${file}`, file);
    throw error;
  } finally {
    stream.destroy();
  }
}

async function* listEntries(chunks: AsyncIterable<Uint8Array>, source: string, opts: Pick<JsonStreamOptions, "maxItemChars">): AsyncGenerator<ListEntry> {
  let list = true;
  for await (const event of jsonEvents(chunks, { maxItemChars: opts.maxItemChars })) {
    // not a list: read on to the end first, so that text cut short is reported as malformed
    if (event.kind === "start") list = event.type === "array";
    else if (event.kind === "item") yield { value: event.value };
    else if (event.kind === "oversized") yield { oversized: true };
  }
  if (!list) throw new PayloadError(`expected a list from ${source}`, source);
}

/** A file read's fault as an UpstreamError (a timeout says so). */
function readFailure(error: unknown, file: string, timeoutMs: number): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
  const message = timedOut ? `Reading ${file} timed out after ${timeoutMs / 1000} s` : `Cannot read ${file}: ${(error as Error).message}`;
  return new UpstreamError(message, { source: file, retryable: false, cause: error });
}

function tooLargeFile(file: string, maxBytes: number): UpstreamError {
  return new UpstreamError(`${file} is too large: over UPSTREAM_MAX_BYTES (${maxBytes} bytes)`, { source: file, retryable: false });
}
