import net from "node:net";
import pLimit from "p-limit";
import { createPrng, type Prng } from "../../app/.server/catalog/sample/prng.ts";

/**
 * Generated hostile and careless requests (issue #7 "A fuzz test in npm test"), shared by
 * tests/e2e/fuzz.test.ts and benchmarks/bench-resilience.ts. Every request is written byte for
 * byte on its own loopback socket (so malformed heads, odd methods and chunked bodies reach
 * the server unchanged) with `Connection: close`, and the answer is read until the server
 * closes. A socket error, or a close before a complete status line, is a connection reset:
 * the visitor got no answer at all.
 */

export const FUZZ_FAMILIES = ["catalog", "catalog-data", "img", "form", "path-method", "malformed", "upload"] as const;
export type FuzzFamily = (typeof FUZZ_FAMILIES)[number];

export interface FuzzRequest {
  family: FuzzFamily;
  /** A short description for failure messages (method, target, notable headers). */
  label: string;
  /** Request line and header lines, without the blank line that ends the head. */
  head: string;
  /** Body chunks (already framed when chunked). */
  body: Buffer[];
}

export interface FuzzOutcome {
  request: FuzzRequest;
  /** Status of the answer; undefined when none was read. */
  status?: number;
  /** The socket error (ECONNRESET, EPIPE, …) or "closed without an answer". */
  error?: string;
}

// The sample catalog's seeded PRNG (mulberry32): a failing run is replayed from its seed.
type Rng = Prng;

const PRINTABLE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.~!*'();:@&=+$,/?#[]%\"<>\\^`{|}";
const WORDS = ["pop", "rock", "jazz", "e", "love", "night", "Ünïcödé", "東京", "a b", "x".repeat(300), "%", "%zz", "'; DROP", "<script>"];

function junk(rng: Rng, max: number): string {
  const n = rng.int(0, max);
  let s = "";
  for (let i = 0; i < n; i++) s += PRINTABLE[rng.int(0, PRINTABLE.length - 1)];
  return s;
}

/** A query value: mostly plausible, sometimes broken percent-encoding or raw bytes. */
function queryValue(rng: Rng): string {
  switch (rng.int(0, 5)) {
    case 0:
      return encodeURIComponent(rng.pick(WORDS));
    case 1:
      return String(rng.int(-5, 100_000));
    case 2:
      return rng.pick(["%zz", "%", "%E0%A4%A", "%00", "%C0%AF", "%FF%FE", "..%2F..%2F"]);
    case 3:
      return encodeURIComponent(junk(rng, 40));
    default:
      return rng.pick(["music", "film", "singles", "channels", "compilations", "tracks", "Pop", "Rock", "1", "2"]);
  }
}

const CATALOG_KEYS = ["type", "genre", "sub", "category", "country", "lang", "subs", "q", "page", "item", "view", "bpm", "duration", "key", "sort", "_routes", "index", "tab"];

function catalogQuery(rng: Rng): string {
  const shape = rng.int(0, 19);
  // Very long query strings: past URL_LIMIT_BYTES, and past Node's 16 KB header limit.
  if (shape === 0) return `q=${"e%20".repeat(rng.pick([1500, 6000]))}`;
  // Many repeated parameters.
  if (shape === 1) return Array.from({ length: rng.pick([65, 200, 1000]) }, (_, i) => `sub=${i}`).join("&");
  const parts: string[] = [];
  const n = rng.int(0, 6);
  for (let i = 0; i < n; i++) parts.push(`${rng.chance(0.85) ? rng.pick(CATALOG_KEYS) : encodeURIComponent(junk(rng, 8))}=${queryValue(rng)}`);
  if (rng.chance(0.1)) parts.push(rng.pick(["&&&", "=", "==x", "q", "page=1&page=2&page=x"]));
  return parts.join("&");
}

const MEDIA = ["cover-01.webp", "cover-02.webp", "film-portrait-01.webp"];
const WIDTHS = ["96", "160", "240", "320", "480", "640", "960"];

function imgTarget(rng: Rng): string {
  const w = rng.chance(0.8) ? rng.pick(WIDTHS) : queryValue(rng);
  let src: string;
  switch (rng.int(0, 7)) {
    case 0:
    case 1:
    case 2:
      src = encodeURIComponent(`/media/${rng.pick(MEDIA)}`);
      break;
    case 3:
      src = encodeURIComponent(`/media/${rng.pick(MEDIA)}?v=${rng.int(0, 1_000_000)}`);
      break;
    case 4:
      src = encodeURIComponent(rng.pick(["/media/../../etc/passwd", "/media/%2e%2e/x", "//evil.example/x.png", "http://169.254.169.254/latest", "file:///etc/passwd", "/media/", "/media/missing.webp", "/etc/passwd"]));
      break;
    case 5:
      src = queryValue(rng);
      break;
    case 6:
      src = `/media/${rng.pick(MEDIA)}%00`;
      break;
    default:
      src = "";
  }
  const parts = [`w=${w}`, `src=${src}`];
  if (rng.chance(0.1)) parts.push(`w=${rng.pick(WIDTHS)}`);
  return `/img?${(rng.chance(0.5) ? parts.reverse() : parts).join("&")}`;
}

const FORM_CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded;charset=UTF-8",
  "multipart/form-data; boundary=fuzzboundary",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "text/plain",
  "application/json",
  "application/octet-stream",
  "",
  "garbage/;;;",
  "application/x-www-form-urlencoded; charset=utf-16",
];

function formFields(rng: Rng): Record<string, string> {
  const size = rng.chance(0.15) ? rng.pick([70_000, 150_000, 400_000]) : rng.int(0, 3000);
  const kind = rng.chance(0.5) ? "contact" : "licensing";
  const fields: Record<string, string> = {
    intent: rng.chance(0.9) ? kind : junk(rng, 12),
    idempotencyKey: rng.chance(0.9) ? `fuzz-${rng.int(0, 1e9)}-${rng.int(0, 1e9)}` : junk(rng, 80),
    website: rng.chance(0.9) ? "" : "http://spam.example",
    name: rng.chance(0.8) ? "Fuzz Visitor" : junk(rng, 200),
    email: rng.chance(0.8) ? `fuzz${rng.int(0, 999)}@example.org` : junk(rng, 60),
  };
  const text = "Hello, I would like to talk about distribution. ".repeat(Math.ceil(size / 48)).slice(0, size);
  if (kind === "contact") Object.assign(fields, { subject: junk(rng, 30) || "Hello", message: text });
  else Object.assign(fields, { company: "Fuzz Ltd", projectType: junk(rng, 10), budget: "x", timeline: "y", description: text, tracks: junk(rng, 50) });
  for (let i = rng.int(0, 3); i > 0; i--) fields[junk(rng, 10)] = junk(rng, 100);
  return fields;
}

function encodeForm(rng: Rng, contentType: string, fields: Record<string, string>): Buffer {
  if (contentType.startsWith("multipart") && rng.chance(0.8)) {
    const parts = Object.entries(fields).map(
      ([k, v]) => `--fuzzboundary\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "")}"\r\n\r\n${v}\r\n`,
    );
    let body = parts.join("") + "--fuzzboundary--\r\n";
    if (rng.chance(0.2)) body = body.slice(0, rng.int(0, body.length)); // truncated multipart
    return Buffer.from(body);
  }
  if (contentType === "application/json") return Buffer.from(JSON.stringify(fields));
  if (rng.chance(0.1)) return Buffer.from(junk(rng, 500));
  return Buffer.from(new URLSearchParams(fields).toString());
}

/** Frames a body: declared with Content-Length, or chunked in random chunk sizes. */
function frame(rng: Rng, headers: string[], body: Buffer, forceChunked?: boolean): Buffer[] {
  if (forceChunked ?? rng.chance(0.4)) {
    headers.push("Transfer-Encoding: chunked");
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; ) {
      const size = Math.min(body.length - at, rng.int(1, 32_768));
      chunks.push(Buffer.from(`${size.toString(16)}\r\n`), body.subarray(at, at + size), Buffer.from("\r\n"));
      at += size;
    }
    chunks.push(Buffer.from("0\r\n\r\n"));
    return chunks;
  }
  headers.push(`Content-Length: ${body.length}`);
  return [body];
}

/**
 * A reference-file upload (issue #19, POST /catalog/sounds-like): not audio, empty, a PNG
 * named .mp3, an MP3 header over junk, a WAV header declaring an absurd length, a file over
 * the limit, odd or truncated multipart, odd start and end, other fields. Never a 5xx.
 */
function uploadBody(rng: Rng): { contentType: string; body: Buffer } {
  const file = (): Buffer => {
    switch (rng.int(0, 6)) {
      case 0:
        return Buffer.alloc(0);
      case 1:
        return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(junk(rng, 3000))]);
      case 2:
        return Buffer.concat([Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00"), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.from(junk(rng, 5000))]);
      case 3: {
        // a WAV header declaring an absurd length (4 GB of 8 kHz mono), then a few samples
        const h = Buffer.alloc(44 + 800);
        h.write("RIFF", 0, "ascii");
        h.writeUInt32LE(0xfffffff0, 4);
        h.write("WAVEfmt ", 8, "ascii");
        h.writeUInt32LE(16, 16);
        h.writeUInt16LE(1, 20);
        h.writeUInt16LE(1, 22);
        h.writeUInt32LE(8000, 24);
        h.writeUInt32LE(16000, 28);
        h.writeUInt16LE(2, 32);
        h.writeUInt16LE(16, 34);
        h.write("data", 36, "ascii");
        h.writeUInt32LE(0xffffffd0, 40);
        return h;
      }
      case 4:
        return Buffer.alloc(rng.pick([21 * 1024 * 1024, 200_000]), 1);
      default:
        return Buffer.from(junk(rng, rng.int(1, 4000)));
    }
  };
  const boundary = rng.chance(0.9) ? "fuzzupload" : "";
  const field = rng.chance(0.85) ? "audio" : rng.pick(["file", "", "audio\"x"]);
  const parts = [
    `--fuzzupload\r\nContent-Disposition: form-data; name="${field}"; filename="${rng.pick(["a.mp3", "cover.png.mp3", "", "../../etc/passwd", junk(rng, 40).replace(/["\r\n]/g, "")])}"\r\nContent-Type: ${rng.pick(["audio/mpeg", "image/png", "application/octet-stream"])}\r\n\r\n`,
  ];
  let body = Buffer.concat([Buffer.from(parts[0]), file(), Buffer.from("\r\n")]);
  for (const name of rng.chance(0.5) ? ["start", "end"] : []) {
    body = Buffer.concat([body, Buffer.from(`--fuzzupload\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${rng.pick(["0", "30", "-5", "1e309", "NaN", "abc", "99999999", junk(rng, 100)])}\r\n`)]);
  }
  body = Buffer.concat([body, Buffer.from("--fuzzupload--\r\n")]);
  if (rng.chance(0.15)) body = body.subarray(0, rng.int(0, body.length)); // truncated
  const contentType = rng.chance(0.9) ? `multipart/form-data; boundary=${boundary}` : rng.pick(["application/x-www-form-urlencoded", "text/plain", "multipart/mixed; boundary=fuzzupload"]);
  return { contentType, body };
}

const PAGES = ["/", "/catalog", "/mission", "/board", "/innovation", "/ai-brands", "/investors", "/podcasts", "/partners", "/web3", "/contact", "/privacy", "/terms", "/healthz", "/sw.js", "/robots.txt", "/sitemap.xml", "/offline.html"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "get", "CONNECT", "FOO", "M-SEARCH", "PURGE"];

function oddPath(rng: Rng): string {
  switch (rng.int(0, 11)) {
    case 0:
      return rng.pick(PAGES);
    case 1:
      return `${rng.pick(PAGES)}.data`;
    case 2:
      return rng.pick(["/%zz", "/%", "/%00", "/..%2f..%2fetc/passwd", "/media/../../etc/passwd", "/assets/../../package.json", "//evil.example/", "/\\evil", "/;x", "/catalog/", "/a//b", "/_root.data", "/.data", "/catalog.data.data"]);
    case 3:
      return `/${"a/".repeat(rng.int(1, 3000))}`;
    case 4:
      return `/${encodeURIComponent(junk(rng, 60))}`;
    case 5:
      return `/assets/${junk(rng, 20).replace(/[ #?%]/g, "")}.js`;
    case 6:
      return `/media/${rng.pick(MEDIA)}`;
    case 7:
      return rng.pick(["*", "http://127.0.0.1/", "http://evil.example/catalog", "example.org:443", "/?" + "x".repeat(20_000)]);
    case 8:
      return `/partners/${encodeURIComponent(junk(rng, 20))}`;
    case 9:
      return `/web3/${rng.pick(["%zz", "..", "x".repeat(2000)])}`;
    default:
      return `/${junk(rng, 30).replace(/[ #?]/g, "")}`;
  }
}

function malformed(rng: Rng, host: string): { head: string; body: Buffer[]; label: string } {
  const target = rng.pick(["/", "/catalog", "/contact", "/img?w=96&src=%2Fmedia%2Fcover-01.webp", "/mission"]);
  const line = `GET ${target} HTTP/1.1`;
  const cases: Array<() => { head: string; body?: Buffer[]; label: string }> = [
    () => ({ head: `${line}\r\nHost: %zz`, label: "Host: %zz" }),
    () => ({ head: `${line}\r\nHost: ${rng.pick(["", "a b", "[::1", "::", "@", "x:99999", "x:-1", "%", "é.example", "\\"])}`, label: "odd Host" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nX-Forwarded-Proto: ${rng.pick(["\\", "", "ht tp", "javascript", "https,http", "%", "::"])}`, label: "X-Forwarded-Proto" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nX-Forwarded-Host: ${rng.pick(["%zz", "\\", "a b", "evil.example:abc", "[", ":::"])}`, label: "X-Forwarded-Host" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nX-Forwarded-For: ${rng.pick(["not-an-ip", "::::", "1.2.3.4, junk", "", "999.1.1.1"])}`, label: "X-Forwarded-For" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nX-Big: ${"h".repeat(rng.pick([17_000, 40_000]))}`, label: "oversized header" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\n${Array.from({ length: 2500 }, (_, i) => `X-H${i}: v`).join("\r\n")}`, label: "many headers" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nBad Header: x`, label: "space in header name" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nNoColon`, label: "header without colon" }),
    () => ({ head: `GET ${target} HTTP/9.9\r\nHost: ${host}`, label: "HTTP/9.9" }),
    () => ({ head: `GET ${target}\r\nHost: ${host}`, label: "no version" }),
    () => ({ head: `${junk(rng, 40).replace(/[\r\n]/g, "")}\r\nHost: ${host}`, label: "junk request line" }),
    () => ({ head: `POST /contact HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${rng.pick(["abc", "-1", "1, 2", "99999999999999999999"])}`, label: "bad Content-Length" }),
    () => ({ head: `POST /contact HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked`, body: [Buffer.from("0\r\n\r\n")], label: "CL and TE" }),
    () => ({ head: `POST /contact HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked`, body: [Buffer.from(rng.pick(["zz\r\nabc\r\n0\r\n\r\n", "3;" + "e".repeat(20_000) + "\r\nabc\r\n0\r\n\r\n"]))], label: "bad chunked framing" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nAccept: ${rng.pick(["*/*;q=abc", "image/avif;q=-1", ",,,", "text/html;q=0"])}\r\nAccept-Encoding: ${rng.pick(["gzip;q=x", "br, zstd, *", "identity;q=0"])}`, label: "odd Accept" }),
    () => ({ head: `GET /assets/${rng.pick(["x.js", "../x"])} HTTP/1.1\r\nHost: ${host}\r\nRange: ${rng.pick(["bytes=abc", "bytes=5-1", "bytes=0-0,0-0,0-0", "lines=1-2"])}\r\nIf-Modified-Since: ${junk(rng, 20).replace(/[\r\n]/g, "")}`, label: "odd Range" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nCookie: ${junk(rng, 300).replace(/[\r\n]/g, "")}`, label: "junk cookie" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x`, label: "websocket upgrade" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nExpect: ${rng.pick(["100-continue", "nonsense"])}`, label: "Expect" }),
    () => ({ head: `${line}\r\nHost: ${host}\r\nX-Nul: a\u0000b`, label: "NUL in header" }),
  ];
  const c = rng.pick(cases)();
  return { head: c.head, body: c.body ?? [], label: c.label };
}

export interface GenerateOptions {
  /** host:port the requests name in Host (the server under test). */
  host: string;
}

/** `count` requests spread evenly over the families, reproducible from `seed`. */
export function* generateFuzzRequests(seed: number, count: number, opts: GenerateOptions): Generator<FuzzRequest> {
  const rng = createPrng(seed);
  const { host } = opts;
  for (let i = 0; i < count; i++) {
    const family = FUZZ_FAMILIES[i % FUZZ_FAMILIES.length];
    const headers = [`Host: ${host}`];
    let method = "GET";
    let target = "/";
    let body: Buffer[] = [];
    switch (family) {
      case "catalog":
        target = `/catalog?${catalogQuery(rng)}`;
        if (rng.chance(0.3)) headers.push("Accept: text/html");
        break;
      case "catalog-data":
        // React Router 8 single fetch: GET /catalog.data?… for the catalog loader.
        target = `/catalog.data?${catalogQuery(rng)}`;
        break;
      case "img":
        target = imgTarget(rng);
        headers.push(`Accept: ${rng.pick(["image/avif,image/webp,*/*", "image/webp", "*/*", "image/jpeg"])}`);
        break;
      case "form": {
        method = "POST";
        target = rng.pick(["/contact", "/contact", "/contact?tab=licensing", "/contact.data", "/catalog", "/", "/mission.data", "/img?w=96&src=x"]);
        const contentType = rng.pick(FORM_CONTENT_TYPES);
        if (contentType) headers.push(`Content-Type: ${contentType}`);
        if (rng.chance(0.7)) headers.push(`Origin: http://${host}`);
        else if (rng.chance(0.5)) headers.push(`Origin: ${rng.pick(["http://evil.example", "null", "%zz"])}`);
        body = frame(rng, headers, encodeForm(rng, contentType, formFields(rng)));
        break;
      }
      case "path-method": {
        method = rng.pick(METHODS);
        target = oddPath(rng);
        if (rng.chance(0.2)) body = frame(rng, headers, Buffer.from(junk(rng, 2000)));
        break;
      }
      case "upload": {
        method = "POST";
        target = rng.chance(0.9) ? "/catalog/sounds-like" : rng.pick(["/catalog/sounds-like/", "/catalog/sounds-like.data", "/catalog/sounds-like?x=1"]);
        const upload = uploadBody(rng);
        headers.push(`Content-Type: ${upload.contentType}`);
        if (rng.chance(0.8)) headers.push(`Origin: http://${host}`);
        body = frame(rng, headers, upload.body);
        break;
      }
      case "malformed": {
        const m = malformed(rng, host);
        yield { family, label: m.label, head: `${m.head}\r\nConnection: close`, body: m.body };
        continue;
      }
    }
    headers.push("Connection: close");
    const label = `${method} ${target.length > 120 ? `${target.slice(0, 120)}…(${target.length} bytes)` : target}`;
    yield { family, label, head: `${method} ${target} HTTP/1.1\r\n${headers.join("\r\n")}`, body };
  }
}

/** Sends one request on a fresh socket and reads the status line of the answer. */
export function sendRaw(port: number, request: FuzzRequest, timeoutMs = 30_000): Promise<FuzzOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    let received = "";
    let settled = false;
    const finish = (outcome: Omit<FuzzOutcome, "request">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ request, ...outcome });
    };
    // The final status: interim 1xx answers (100 Continue) come first.
    const statusOf = () => {
      for (const m of received.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3})/g)) if (!m[1].startsWith("1")) return Number(m[1]);
      return undefined;
    };
    const timer = setTimeout(() => finish({ status: statusOf(), error: statusOf() ? undefined : "no answer in time" }), timeoutMs);
    socket.on("connect", () => {
      socket.write(`${request.head}\r\n\r\n`);
      for (const chunk of request.body) socket.write(chunk);
    });
    socket.on("data", (chunk: Buffer) => {
      if (received.length < 4096) received += chunk.toString("latin1");
    });
    socket.on("error", (error: NodeJS.ErrnoException) => finish({ status: statusOf(), error: error.code ?? error.message }));
    socket.on("end", () => {
      const status = statusOf();
      finish(status ? { status } : { error: "closed without an answer" });
    });
  });
}

export interface FuzzTotals {
  seed: number;
  count: number;
  byFamily: Record<string, Record<string, number>>;
  byStatus: Record<string, number>;
  serverErrors: FuzzOutcome[];
  resets: FuzzOutcome[];
}

/** Runs `count` generated requests against 127.0.0.1:port, `concurrency` at a time. */
export async function runFuzz(opts: {
  port: number;
  seed: number;
  count: number;
  concurrency?: number;
  /** Only these families (the others are generated but not sent, so a seed replays the same requests). */
  families?: readonly FuzzFamily[];
}): Promise<FuzzTotals> {
  const { port, seed, count } = opts;
  const limit = pLimit(opts.concurrency ?? 16);
  const totals: FuzzTotals = { seed, count, byFamily: {}, byStatus: {}, serverErrors: [], resets: [] };
  const tasks: Promise<void>[] = [];
  for (const request of generateFuzzRequests(seed, count, { host: `127.0.0.1:${port}` })) {
    if (opts.families && !opts.families.includes(request.family)) continue;
    tasks.push(
      limit(async () => {
        const outcome = await sendRaw(port, request);
        const key = outcome.error ? "reset" : String(outcome.status);
        totals.byStatus[key] = (totals.byStatus[key] ?? 0) + 1;
        const family = (totals.byFamily[request.family] ??= {});
        family[key] = (family[key] ?? 0) + 1;
        if (outcome.error) totals.resets.push(outcome);
        else if ((outcome.status ?? 0) >= 500) totals.serverErrors.push(outcome);
      }),
    );
  }
  await Promise.all(tasks);
  return totals;
}

/** Totals as printable lines: per family and per status. */
export function formatTotals(t: FuzzTotals): string {
  const statuses = [...new Set(Object.values(t.byFamily).flatMap((f) => Object.keys(f)))].sort();
  const rows = [["family", ...statuses, "total"].join("\t")];
  for (const [family, counts] of Object.entries(t.byFamily)) {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    rows.push([family, ...statuses.map((s) => String(counts[s] ?? 0)), String(total)].join("\t"));
  }
  rows.push(["all", ...statuses.map((s) => String(t.byStatus[s] ?? 0)), String(t.count)].join("\t"));
  return `fuzz seed ${t.seed}: ${t.byStatus ? Object.values(t.byStatus).reduce((a, b) => a + b, 0) : 0} requests, ${t.serverErrors.length} answers >= 500, ${t.resets.length} resets\n${rows.join("\n")}`;
}
