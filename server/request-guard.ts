import { STATUS_CODES, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import type { Config } from "../app/.server/config.ts";

/**
 * The first gate of every request (issue #7 "No 5xx and no dropped connections from bad
 * input"). Before any route sees a request, it checks the method, the request target, the
 * Host and X-Forwarded-Proto the page URL is built from, the form content type, and reads
 * the body itself, counting the bytes actually received (the same limit for chunked and
 * declared bodies). Whatever it refuses gets a short plain-text reason with a 4xx, and the
 * client is allowed to read it: the refused body is drained up to a bound first, and beyond
 * that bound the connection is closed gently after the answer rather than reset.
 *
 * Downstream handlers find the body in `req.body` (a Buffer) and the request's absolute URL
 * in `res.locals.requestUrl`; server/react-router-handler.ts hands both to React Router.
 */

export interface RequestLimits {
  /** Largest body kept, in bytes actually read (BODY_LIMIT_BYTES). */
  bodyLimitBytes: number;
  /** How much of a refused body is read and thrown away before answering (BODY_DRAIN_LIMIT_BYTES). */
  drainLimitBytes: number;
  /** Longest request target, path and query (URL_LIMIT_BYTES). */
  urlLimitBytes: number;
  /** Most query parameters, repeats included (QUERY_PARAMS_LIMIT). */
  queryParamsLimit: number;
}

export function requestLimits(
  config: Pick<Config, "BODY_LIMIT_BYTES" | "BODY_DRAIN_LIMIT_BYTES" | "URL_LIMIT_BYTES" | "QUERY_PARAMS_LIMIT">,
): RequestLimits {
  return {
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    drainLimitBytes: config.BODY_DRAIN_LIMIT_BYTES,
    urlLimitBytes: config.URL_LIMIT_BYTES,
    queryParamsLimit: config.QUERY_PARAMS_LIMIT,
  };
}

/** Every page and file is read with GET/HEAD; the two forms post. Nothing else is served. */
export const ALLOWED_METHODS = ["GET", "HEAD", "POST"] as const;
/** What an HTML form (and React Router's `.data` form posts) sends. */
const FORM_CONTENT_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
/**
 * After answering a body we stopped reading, the socket is half-closed and left open this
 * long before it is destroyed: closing it at once with unread bytes makes the kernel send a
 * reset, which can reach the client before it has read the answer (the "lingering close"
 * web servers do).
 */
const LINGER_MS = 2_000;
const EMPTY = Buffer.alloc(0);

/** 65536 → "64 KB": the limit as a visitor reads it. */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} bytes`;
}

export interface Refusal {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

/** Sends a refusal as short plain text, readable by any client. */
export function sendRefusal(res: Response, { status, reason, headers }: Refusal) {
  const body = `${reason}\n`;
  res.status(status);
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("Cache-Control", "no-store");
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/**
 * The absolute URL React Router is given, from the protocol (X-Forwarded-Proto from a
 * trusted proxy) and the Host (X-Forwarded-Host from a trusted proxy). The Express adapter
 * concatenated these into `new URL(…)` unchecked, so `Host: %zz` or `X-Forwarded-Proto: \`
 * threw and became a 500.
 */
export function requestUrl(req: Request): URL | Refusal {
  const protocol = req.protocol.toLowerCase();
  if (protocol !== "http" && protocol !== "https") {
    return { status: 400, reason: "Bad request: X-Forwarded-Proto must be http or https" };
  }
  // Express's req.host: X-Forwarded-Host from a trusted proxy (its first entry), else Host.
  const authority = (req.host ?? "").trim();
  const bad: Refusal = { status: 400, reason: "Bad request: the Host (or X-Forwarded-Host) header is not a host name" };
  if (/[\s/\\?#@]/.test(authority)) return bad;
  try {
    const origin = new URL(`${protocol}://${authority || "localhost"}`);
    if (!origin.hostname) return bad;
    return new URL(`${origin.origin}${req.originalUrl}`);
  } catch {
    return bad;
  }
}

/** The checks that need only the request head. */
export function checkHead(req: Request, limits: RequestLimits): Refusal | URL {
  if (!(ALLOWED_METHODS as readonly string[]).includes(req.method)) {
    return {
      status: 405,
      reason: `Method not allowed: this site answers ${ALLOWED_METHODS.join(", ")}`,
      headers: { Allow: ALLOWED_METHODS.join(", ") },
    };
  }
  const target = req.originalUrl;
  if (Buffer.byteLength(target) > limits.urlLimitBytes) {
    return { status: 414, reason: `URI too long: the limit is ${limits.urlLimitBytes} bytes` };
  }
  // Absolute-form ("GET http://host/…") and asterisk-form targets are for proxies.
  if (!target.startsWith("/")) return { status: 400, reason: "Bad request: the request target must be a path" };
  const query = target.indexOf("?");
  if (query !== -1) {
    let params = 0;
    for (const part of target.slice(query + 1).split("&")) if (part) params++;
    if (params > limits.queryParamsLimit) {
      return { status: 414, reason: `Too many query parameters: the limit is ${limits.queryParamsLimit}` };
    }
  }
  const url = requestUrl(req);
  if (!(url instanceof URL)) return url;
  if (req.method === "POST") {
    const type = (req.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (!FORM_CONTENT_TYPES.has(type)) {
      return {
        status: 415,
        reason: "Unsupported media type: send forms as application/x-www-form-urlencoded or multipart/form-data",
      };
    }
  }
  return url;
}

type BodyRead =
  | { kind: "read"; body: Buffer; overLimit: boolean }
  | { kind: "stopped" } // more than the drain bound: the rest is still unread
  | { kind: "aborted" }; // the client went away

const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

/**
 * Reads the body, keeping at most `keep` bytes and reading at most `stopAfter` bytes in all.
 * Counting what arrives is what bounds a chunked body: its size is known only at the end.
 */
function readBody(req: IncomingMessage, keep: number, stopAfter: number): Promise<BodyRead> {
  if (!hasBody(req)) return Promise.resolve({ kind: "read", body: EMPTY, overLimit: false });
  // A declared length past the drain bound would be refused anyway: read none of it.
  if (Number(req.headers["content-length"] ?? 0) > stopAfter) return Promise.resolve({ kind: "stopped" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (result: BodyRead) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onAbort);
      req.off("close", onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= keep) chunks.push(chunk);
      else chunks.length = 0;
      if (received > stopAfter) {
        req.pause();
        done({ kind: "stopped" });
      }
    };
    const onEnd = () =>
      done(received > keep ? { kind: "read", body: EMPTY, overLimit: true } : { kind: "read", body: Buffer.concat(chunks, received), overLimit: false });
    const onAbort = () => done({ kind: "aborted" });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onAbort);
    req.once("close", onAbort);
  });
}

/**
 * Answers with `Connection: close` and, instead of Node's immediate destroy after the answer,
 * half-closes the socket and destroys it after LINGER_MS (or when the client closes), without
 * reading any more of the body.
 */
export function closeGentlyAfterResponse(req: Request, res: Response) {
  res.setHeader("Connection", "close");
  // Keep Node from draining the rest itself after the answer (it does for unread bodies).
  req.pause();
  req.read(0);
  const socket = req.socket as Duplex & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    destroyAfterLinger(socket);
  };
}

/** Destroys the socket LINGER_MS from now, unless the client closes it first. */
function destroyAfterLinger(socket: Duplex) {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/**
 * The Express middleware: first in the chain, after the request log and security headers.
 * `streamed` names the one request whose body the gate leaves unread, after its head passed
 * every check: the reference-file upload (server/sounds-like.ts, issue #19), which streams
 * its multipart body itself under UPLOAD_LIMIT_BYTES. Every other body stays bounded here.
 */
export function requestGuard(limits: RequestLimits, opts: { streamed?: (req: Request) => boolean } = {}) {
  const stopAfter = Math.max(limits.bodyLimitBytes, limits.drainLimitBytes);
  return async (req: Request, res: Response, next: NextFunction) => {
    const head = checkHead(req, limits);
    const refused = head instanceof URL ? undefined : head;
    if (!refused && opts.streamed?.(req)) {
      res.locals.requestUrl = head;
      req.body = EMPTY;
      return next();
    }
    // A refused request's body is read only to be thrown away.
    const read = await readBody(req, refused ? 0 : limits.bodyLimitBytes, stopAfter);
    if (read.kind === "aborted") return;
    let refusal = refused;
    if (!refusal && (read.kind === "stopped" || read.overLimit)) {
      refusal = { status: 413, reason: `Request body too large: this site accepts at most ${formatBytes(limits.bodyLimitBytes)}. Please shorten your message.` };
    }
    if (refusal) {
      if (read.kind === "stopped") closeGentlyAfterResponse(req, res);
      return sendRefusal(res, refusal);
    }
    res.locals.requestUrl = head;
    req.body = read.kind === "read" ? read.body : EMPTY;
    next();
  };
}

/** A raw answer on a socket whose request could not be parsed, then a gentle close. */
function answerOnSocket(socket: Duplex, status: number, reason: string, drainLimitBytes: number) {
  const body = `${reason}\n`;
  const allow = status === 405 ? `Allow: ${ALLOWED_METHODS.join(", ")}\r\n` : "";
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${allow}Content-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
  // Node keeps feeding what still arrives to the failed parser, which throws it away; stop
  // after the drain bound or LINGER_MS, whichever comes first.
  const started = (socket as Duplex & { bytesRead?: number }).bytesRead ?? 0;
  destroyAfterLinger(socket);
  socket.on("data", () => {
    if (((socket as Duplex & { bytesRead?: number }).bytesRead ?? 0) - started > drainLimitBytes) socket.destroy();
  });
}

const PARSE_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "Request header fields too large (the request line and headers are limited to 16 KB)"],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Request body too large: chunk extensions are too long"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request timeout: the request took too long to arrive"],
};

/**
 * docs/product-rules.md "Every refusal is a 4xx with a reason". Server-level answers for what never becomes an Express request: unparsable HTTP (Node's
 * default answers it but then destroys the socket at once, so a client still sending reads a
 * reset) and CONNECT (which Node drops without a word when nobody listens for it).
 */
export function answerUnparsableRequests(server: Server, limits: RequestLimits) {
  const answered = new WeakSet<Duplex>();
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return; // the failed parser reports every later chunk again
    answered.add(socket);
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason] = PARSE_ERRORS[error.code ?? ""] ?? [400, "Bad request: the request is not valid HTTP/1.1"];
    answerOnSocket(socket, status, reason, limits.drainLimitBytes);
  });
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => {
    answered.add(socket);
    answerOnSocket(socket, 405, `Method not allowed: this site answers ${ALLOWED_METHODS.join(", ")}`, limits.drainLimitBytes);
  });
}
