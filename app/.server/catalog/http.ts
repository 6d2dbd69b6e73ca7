import { UpstreamError } from "./errors.ts";

/**
 * Spec §7 "General request behaviour", on the server with Node's fetch:
 * - Accept: application/json; Content-Type: application/json for a JSON body, form bodies are
 *   form-urlencoded; "Authorization: Bearer {token}" when a call needs it;
 * - caches bypassed, redirects followed;
 * - the body is parsed as JSON only when the response says it is JSON;
 * - a non-OK status raises the response's message, or "Request failed".
 * Unlike the spec's client, a failure is thrown as a typed UpstreamError (the sync logs it and
 * keeps the last snapshot) instead of resolving to null, and every call has a timeout.
 */
export interface RequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  bearer?: string;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

export interface JsonResponse {
  status: number;
  body: unknown;
}

export async function requestJson(url: string, opts: RequestOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  let body: string | undefined;
  if (opts.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.json);
  }
  if (opts.bearer) headers.Authorization = `Bearer ${opts.bearer}`;

  const source = redact(url);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: opts.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      cache: "no-store",
      redirect: "follow",
      signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new UpstreamError(timedOut ? `Request timed out: ${source}` : `Request failed: ${source}: ${describe(error)}`, {
      source,
      cause: error,
    });
  }

  const isJson = /[/+]json\b/i.test(res.headers.get("content-type") ?? "");
  let parsed: unknown = text;
  let malformed = false;
  if (isJson && text.trim() !== "") {
    try {
      parsed = JSON.parse(text);
    } catch {
      malformed = true;
    }
  } else if (isJson) parsed = null;

  if (!res.ok) {
    const message =
      !malformed && parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
        ? (parsed as { message: string }).message
        : "Request failed";
    throw new UpstreamError(message, { source, status: res.status });
  }
  // a truncated body can be transient: worth another try
  if (malformed) throw new UpstreamError(`Malformed JSON from ${source}`, { source, status: res.status, retryable: true });
  if (!isJson) {
    throw new UpstreamError(`Expected JSON from ${source}, got ${res.headers.get("content-type") ?? "no content type"}`, {
      source,
      status: res.status,
      retryable: false,
    });
  }
  return { status: res.status, body: parsed };
}

/** Joins a base URL and a spec §7 path ("login", "api/Genre/", …) as a directory-relative URL. */
export function apiUrl(base: string, path: string, query?: Record<string, string>): string {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  return url.toString();
}

/** URLs are logged; user info is not. */
function redact(url: string): string {
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
