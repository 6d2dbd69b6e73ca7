import ipaddr from "ipaddr.js";
import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * Issue #16: logs never hold a visitor's personal data. Whatever a log call is given, pino
 * rewrites these fields (at the top of the line and two levels down) before the line is written.
 */
const REDACTED = "[redacted]";

/** Fields a visitor types or that name them: replaced whole. */
const PERSONAL_FIELDS = [
  // the lead forms' fields (app/content/contact.ts) and the mail built from them
  "name",
  "email",
  "phone",
  "company",
  "subject",
  "description",
  "tracks",
  "replyTo",
  "to",
  "recipient",
  "text",
  "html",
  // whole records that carry them
  "lead",
  "values",
  "fields",
  "formData",
  "body",
  "mail",
];

/** A client's address: logged as its network (an IPv4 /24, an IPv6 /48), never whole. */
const ADDRESS_FIELDS = ["ip", "ips", "clientIp", "client_ip", "remoteAddress", "x-forwarded-for", "x-real-ip", "forwarded"];

/** Request targets: the query's values that could be typed by a visitor are removed. */
const URL_FIELDS = ["url", "originalUrl"];

/** Free text that is ours but may quote a visitor's address (an SMTP 550 names the recipient). */
const ERROR_TEXT_FIELDS = ["reason"];

/** Query parameters whose values are the site's own vocabulary or ids, never a visitor's words. */
const LOGGED_QUERY_PARAMS = new Set([
  "tab",
  "type",
  "view",
  "genre",
  "sub",
  "subs",
  "category",
  "country",
  "lang",
  "page",
  "sort",
  "bpm",
  "duration",
  "key",
  "like",
  "item",
  "items",
  "w",
  "src",
  "_routes",
]);

const EMAIL_PATTERN = /[^\s<>"'(),;:@[\]]+@[^\s<>"'(),;:@[\]]+\.[a-z]{2,}/gi;

/** A text with every e-mail address in it replaced (error messages, failure reasons). */
export function withoutEmailAddresses(text: string): string {
  return text.replace(EMAIL_PATTERN, "[e-mail]");
}

/** 203.0.113.77 → 203.0.113.0/24; 2001:db8:1:2::5 → 2001:db8:1::/48; anything else → [redacted]. */
export function loggableNetwork(address: unknown): string {
  if (typeof address !== "string") return REDACTED;
  // a network already truncated (a log line passes here once per rule that matches) keeps its prefix
  const [host = "", bits] = address.trim().split("/");
  if (!ipaddr.isValid(host)) return REDACTED;
  let parsed = ipaddr.parse(host);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const prefix = Math.min(parsed.kind() === "ipv4" ? 24 : 48, bits === undefined ? 128 : Number(bits) || 0);
  const bytes = parsed.toByteArray();
  const masked = bytes.map((b, i) => (i * 8 + 8 <= prefix ? b : i * 8 >= prefix ? 0 : b & (0xff << (8 - (prefix % 8)))));
  return `${ipaddr.fromByteArray(masked).toString()}/${prefix}`;
}

/**
 * A request target as the logs keep it: the path, and the query with only the values of
 * LOGGED_QUERY_PARAMS (the contact page's `tracks=`, a search's `q=` and anything unknown become
 * `[redacted]`).
 */
export function loggableUrl(url: unknown): unknown {
  if (typeof url !== "string") return url;
  const q = url.indexOf("?");
  if (q === -1) return url;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const kept = query
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq === -1 ? pair : pair.slice(0, eq);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        name = "";
      }
      return LOGGED_QUERY_PARAMS.has(name) ? pair : `${rawName}=${REDACTED}`;
    });
  return `${url.slice(0, q)}?${kept.join("&")}`;
}

/** The last key of a redacted path (the first may be pino's wildcard symbol). */
const lastKey = (path: readonly unknown[]) => String(path[path.length - 1]);

/** Secrets: dropped from the line (a field whose value is undefined is not written). */
const SECRET_PATHS = ["req.headers.cookie", "req.headers.authorization", "*.password", "*.token"];
const SECRET_FIELDS = new Set(["cookie", "authorization", "password", "token"]);

function censor(value: unknown, path: readonly unknown[]): unknown {
  const key = lastKey(path);
  if (SECRET_FIELDS.has(key)) return undefined;
  // Inside an error, a field such as `name` or `to` is the library's, not the visitor's: its
  // text is kept, with any e-mail address removed.
  if (path.some((p) => p === "err" || p === "error" || p === "cause")) {
    return typeof value === "string" ? withoutEmailAddresses(value) : value;
  }
  if (ADDRESS_FIELDS.includes(key)) return Array.isArray(value) ? value.map(loggableNetwork) : loggableNetwork(value);
  if (URL_FIELDS.includes(key)) return loggableUrl(value);
  if (ERROR_TEXT_FIELDS.includes(key)) return typeof value === "string" ? withoutEmailAddresses(value) : value;
  return REDACTED;
}

const FIELDS = new Set([...PERSONAL_FIELDS, ...ADDRESS_FIELDS, ...URL_FIELDS, ...ERROR_TEXT_FIELDS]);

/**
 * The paths pino's redaction rewrites: every field at the top of a line (child bindings
 * included), the secrets, and what the serializers make (pino-http's `req`, the error
 * serializer's text). Fields further down are found by `scrubLogCall`, which looks inside plain
 * objects only. Redaction paths with wildcards cost on every line whether they match or not
 * (measured on a request line: 97 paths with `*.key` and `*.*.key` took it from 1.6 to 65 µs);
 * paths without one cost next to nothing.
 */
export const REDACTED_PATHS = [
  ...SECRET_PATHS,
  ...[...FIELDS].map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : `["${k}"]`)),
  // a visitor's message at the top of a line (pino's own message is `msg`)
  "message",
  "req.url",
  'req.headers["x-forwarded-for"]',
  "req.remoteAddress",
  // the error serializer's text, which a mail server's answer may fill with an address
  "err.message",
  "err.stack",
];

const isPlain = (value: unknown): value is Record<string, unknown> | unknown[] => {
  if (Array.isArray(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * The fields of FIELDS inside the plain objects and arrays of a log call, down to `depth` levels
 * (copies; the caller's objects are left as they are). Errors, requests and other class
 * instances are the serializers' business.
 */
function scrubNested(value: unknown, path: readonly string[], depth: number): unknown {
  if (depth === 0 || !isPlain(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = scrubNested(item, path, depth - 1);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const next = FIELDS.has(key) || (key === "message" && path.at(-1) === "data") ? censor(item, [...path, key]) : scrubNested(item, [...path, key], depth - 1);
    if (next !== item) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}

/**
 * pino's `formatters.log`: the fields inside the plain objects of one log call, three levels
 * down (the top level is redaction's, which also covers child bindings).
 */
function scrubLogCall(obj: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(obj)) {
    if (FIELDS.has(key)) continue;
    const item = obj[key];
    const next = scrubNested(item, [key], 3);
    if (next !== item) (copy ??= { ...obj })[key] = next;
  }
  return copy ?? obj;
}

/** One structured JSON logger for the whole server (pino). */
export function createLogger(level: string = process.env.LOG_LEVEL ?? "info", destination?: DestinationStream): Logger {
  const options = { level, base: { service: "site" }, redact: { paths: REDACTED_PATHS, censor }, formatters: { log: scrubLogCall } };
  return destination ? pino(options, destination) : pino(options);
}
