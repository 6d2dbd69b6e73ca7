import { UpstreamError } from "./errors.ts";

/**
 * product-rules §7 "General request behaviour", on the server with Node's fetch:
 * - Accept: application/json; Content-Type: application/json for a JSON body, form bodies are
 *   form-urlencoded; "Authorization: Bearer {token}" when a call needs it;
 * - caches bypassed, redirects followed;
 * - the body is parsed as JSON only when the response says it is JSON;
 * - a non-OK status raises the response's message, or "Request failed".
 * Unlike the spec's client, a failure is thrown as a typed UpstreamError (the sync logs it and
 * keeps the last snapshot) instead of resolving to null.
 *
 * Bounds (issue #7, UPSTREAM_MAX_BYTES / UPSTREAM_TIMEOUT_SECONDS): one deadline covers the
 * whole exchange (redirects, headers and body), and the body is counted as it streams in, so
 * a huge or endless answer is cut off at the cap instead of filling memory.
 */
export interface RequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  bearer?: string;
  /** deadline for the whole request: redirects, headers and body */
  timeoutMs?: number;
  /** largest body read; a larger one is refused */
  maxBytes?: number;
  /**
   * Issue #42: the validator of the copy held (httpStamp: `etag:…` or `last-modified:…`), sent as
   * If-None-Match or If-Modified-Since; a 304 then answers `notModified` with no body read.
   */
  validator?: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** Redirects followed before giving up (browsers allow 20; an API needs one or two). */
export const MAX_REDIRECTS = 5;

/**
 * Headers that may follow a redirect to another origin. Everything else — Authorization,
 * the film provider's Access-Key, cookies, and any custom header that might carry a secret —
 * is dropped, so a compromised or misconfigured upstream cannot collect our tokens by
 * redirecting us to a host it controls.
 */
const CROSS_ORIGIN_SAFE_HEADERS = new Set(["accept", "content-type", "user-agent"]);

export interface JsonResponse {
  status: number;
  body: unknown;
  /** the upstream answered 304 to `validator`: the copy held is current (no body) */
  notModified?: boolean;
  /** the answer's validator (httpStamp), when the upstream gave one */
  validator?: string;
}

/**
 * Issue #42 "One sync per cluster": an answer's change stamp, recorded with its snapshot as a
 * file's size:mtime is (ADR 0050), so the next sync asks with it and a 304 costs no download,
 * parse or hash. The strong or weak ETag first (RFC 9110 §13.1.2: If-None-Match wins over
 * If-Modified-Since), else Last-Modified; undefined when the upstream gives neither.
 */
export function httpStamp(headers: Headers): string | undefined {
  const etag = headers.get("etag");
  if (etag) return `etag:${etag}`;
  const modified = headers.get("last-modified");
  return modified ? `last-modified:${modified}` : undefined;
}

/** The conditional request header for a stamp httpStamp made (nothing for a file's size:mtime). */
function conditionalHeaders(validator: string | undefined): Record<string, string> {
  if (validator?.startsWith("etag:")) return { "If-None-Match": validator.slice("etag:".length) };
  if (validator?.startsWith("last-modified:")) return { "If-Modified-Since": validator.slice("last-modified:".length) };
  return {};
}

interface Exchange {
  res: Response;
  /** the URL as logged (no credentials) */
  source: string;
  maxBytes: number;
  deadline: AbortController;
  /** ends the deadline: call once the body is read (or given up) */
  done(): void;
}

/**
 * Sends the request and follows redirects, within the one deadline; the body is left to read.
 * A body over the cap by its declared length is refused here.
 */
async function exchange(url: string, opts: RequestOptions): Promise<Exchange> {
  let headers: Record<string, string> = { Accept: "application/json", ...conditionalHeaders(opts.validator), ...opts.headers };
  let body: string | undefined;
  if (opts.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.json);
  }
  if (opts.bearer) headers.Authorization = `Bearer ${opts.bearer}`;
  let method = opts.method ?? (body === undefined ? "GET" : "POST");

  const source = redact(url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new UpstreamError(`Request timed out after ${timeoutMs / 1000} s: ${source}`, { source })), timeoutMs);
  const done = () => clearTimeout(timer);

  try {
    let res: Response;
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      res = await fetch(current, { method, headers, body, cache: "no-store", redirect: "manual", signal: deadline.signal });
      if (!isRedirect(res.status)) break;
      await res.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new UpstreamError(`Too many redirects from ${source}`, { source, status: res.status, retryable: false });
      const next = redirectTarget(current, res.headers.get("location"), source, res.status);
      // 303, and 301/302 after a POST, continue as a GET without the body (as fetch does)
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
        headers = withoutHeader(headers, "content-type");
      }
      if (next.origin !== current.origin) {
        // a 307/308 would send the body again, and a login body holds the password
        if (body !== undefined) {
          throw new UpstreamError(`Refused a redirect of a request body to another origin: ${source} -> ${redact(next.toString())}`, {
            source,
            status: res.status,
            retryable: false,
          });
        }
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => CROSS_ORIGIN_SAFE_HEADERS.has(name.toLowerCase())));
      }
      current = next;
    }
    const declared = Number(res.headers.get("content-length") ?? NaN);
    if (declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge(source, maxBytes, res.status);
    }
    return { res, source, maxBytes, deadline, done };
  } catch (error) {
    done();
    throw failure(error, deadline, source);
  }
}

/** The deadline's own error when it fired; an UpstreamError as is; anything else wrapped. */
function failure(error: unknown, deadline: AbortController, source: string): UpstreamError {
  if (deadline.signal.aborted && deadline.signal.reason instanceof UpstreamError) return deadline.signal.reason;
  if (error instanceof UpstreamError) return error;
  return new UpstreamError(`Request failed: ${source}: ${describe(error)}`, { source, cause: error });
}

/** Parses a body as the response says: JSON when it says JSON, else the text. */
function parseBody(res: Response, bytes: Buffer): { parsed: unknown; malformed: boolean; isJson: boolean } {
  const text = bytes.toString("utf8");
  const isJson = isJsonResponse(res);
  if (isJson && text.trim() !== "") {
    try {
      return { parsed: JSON.parse(text), malformed: false, isJson };
    } catch {
      return { parsed: text, malformed: true, isJson };
    }
  }
  return { parsed: isJson ? null : text, malformed: false, isJson };
}

const isJsonResponse = (res: Response) => /[/+]json\b/i.test(res.headers.get("content-type") ?? "");

/** A non-OK status raises the response's message, or "Request failed" (product-rules §7). */
function statusError(res: Response, source: string, parsed: unknown, malformed: boolean): UpstreamError {
  const message =
    !malformed && parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
      ? (parsed as { message: string }).message
      : "Request failed";
  return new UpstreamError(message, { source, status: res.status });
}

function notJson(res: Response, source: string): UpstreamError {
  return new UpstreamError(`Expected JSON from ${source}, got ${res.headers.get("content-type") ?? "no content type"}`, {
    source,
    status: res.status,
    retryable: false,
  });
}

export async function requestJson(url: string, opts: RequestOptions = {}): Promise<JsonResponse> {
  const { res, source, maxBytes, deadline, done } = await exchange(url, opts);
  if (res.status === 304 && opts.validator) {
    done();
    await res.body?.cancel().catch(() => undefined);
    return { status: 304, body: undefined, notModified: true, validator: opts.validator };
  }
  let bytes: Buffer;
  try {
    bytes = await readCapped(res, maxBytes, source);
  } catch (error) {
    throw failure(error, deadline, source);
  } finally {
    done();
  }
  const { parsed, malformed, isJson } = parseBody(res, bytes);
  if (!res.ok) throw statusError(res, source, parsed, malformed);
  // a truncated body can be transient: worth another try
  if (malformed) throw new UpstreamError(`Malformed JSON from ${source}`, { source, status: res.status, retryable: true });
  if (!isJson) throw notJson(res, source);
  return { status: res.status, body: parsed, validator: httpStamp(res.headers) };
}

export interface JsonBodyStream {
  status: number;
  source: string;
  /** the upstream answered 304 to `validator`: `chunks` is empty */
  notModified?: boolean;
  /** the answer's validator (httpStamp), when the upstream gave one */
  validator?: string;
  /** the body's bytes as they arrive, counted against the cap, within the one deadline */
  chunks: AsyncGenerator<Uint8Array>;
}

/**
 * Same request as requestJson, but an OK JSON body is handed over as it streams in, for a
 * caller that parses it as a stream (a 175 MB album list, ADR 0082). Status and content type
 * are checked first, as requestJson does; the deadline and the byte cap hold until the last
 * chunk. The caller must read `chunks` to the end or call its return().
 */
export async function requestJsonStream(url: string, opts: RequestOptions = {}): Promise<JsonBodyStream> {
  const { res, source, maxBytes, deadline, done } = await exchange(url, opts);
  if (res.status === 304 && opts.validator) {
    done();
    await res.body?.cancel().catch(() => undefined);
    return { status: 304, source, notModified: true, validator: opts.validator, chunks: (async function* () {})() };
  }
  if (!res.ok || !isJsonResponse(res)) {
    try {
      const bytes = await readCapped(res, maxBytes, source);
      const { parsed, malformed } = parseBody(res, bytes);
      throw res.ok ? notJson(res, source) : statusError(res, source, parsed, malformed);
    } catch (error) {
      throw failure(error, deadline, source);
    } finally {
      done();
    }
  }
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (!res.body) return;
    const reader = res.body.getReader();
    let total = 0;
    try {
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) return;
        total += value.byteLength;
        if (total > maxBytes) throw tooLarge(source, maxBytes, res.status);
        yield value;
      }
    } catch (error) {
      throw failure(error, deadline, source);
    } finally {
      done();
      await reader.cancel().catch(() => undefined);
    }
  }
  return { status: res.status, source, validator: httpStamp(res.headers), chunks: chunks() };
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The next URL of a redirect, or a refusal: no location, not http(s), or https → http. */
export function redirectTarget(from: URL, location: string | null, source: string, status: number): URL {
  const refuse = (why: string) => new UpstreamError(`Refused a redirect from ${source}: ${why}`, { source, status, retryable: false });
  if (!location) throw refuse("no Location");
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw refuse("an invalid Location");
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") throw refuse(`a ${next.protocol} Location`);
  // a downgrade would send the rest of the exchange in clear text
  if (from.protocol === "https:" && next.protocol === "http:") throw refuse("https to http");
  return next;
}

/** Reads the body, counting bytes as they arrive; over the cap the stream is cancelled. */
async function readCapped(res: Response, maxBytes: number, source: string): Promise<Buffer> {
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(source, maxBytes, res.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(source: string, maxBytes: number, status: number): UpstreamError {
  // the same upstream answers the same size again: not worth a retry
  return new UpstreamError(`Response too large from ${source}: over UPSTREAM_MAX_BYTES (${maxBytes} bytes)`, {
    source,
    status,
    retryable: false,
  });
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== name));
}

/** Joins a base URL and a product-rules §7 path ("login", "api/Genre/", …) as a directory-relative URL. */
export function apiUrl(base: string, path: string, query?: Record<string, string>): string {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  return url.toString();
}

/** URLs are logged; user info is not. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
