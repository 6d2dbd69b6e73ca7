import fs from "node:fs/promises";
import path from "node:path";
import { PayloadError, UpstreamError } from "./errors.ts";
import { requestJson } from "./http.ts";
import { withRetry, type RetryOptions } from "./retry.ts";

/** ALBUMS_URL / CHANNELS_URL / FILMS_URL: a file path or an http(s) URL (DESIGN.md §2). */
export function isHttpSource(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Reads a JSON document from a file or over HTTP (with retries). */
export async function readJsonSource(
  location: string,
  opts: { timeoutMs?: number; retry?: RetryOptions } = {},
): Promise<unknown> {
  if (isHttpSource(location)) {
    return withRetry(async () => (await requestJson(location, { timeoutMs: opts.timeoutMs })).body, opts.retry);
  }
  const file = path.resolve(location.startsWith("file://") ? new URL(location).pathname : location);
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    throw new UpstreamError(`Cannot read ${file}: ${(error as Error).message}`, { source: file, retryable: false, cause: error });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new PayloadError(`Malformed JSON in ${file}`, file);
  }
}
