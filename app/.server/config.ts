import path from "node:path";
import { z } from "zod";

// DESIGN.md §2: configuration comes from the environment and is validated at start-up.
// A bad value stops the server with a message that names the variable.

const emptyToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url().optional());
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const booleanFlag = (defaultValue: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(["true", "false", "1", "0", "yes", "no"])
      .default(defaultValue ? "true" : "false")
      .transform((v) => v === "true" || v === "1" || v === "yes"),
  );
/** A file path or an http(s) URL. */
const source = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .refine((v) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^https?:\/\//i.test(v), {
      message: "must be a file path or an http(s) URL",
    })
    .optional(),
);
const email = z.email();

export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: port.default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    SITE_URL: optionalUrl,
    /** ADR 0119: where purges go after a change (a Varnish with deploy/varnish/default.vcl); unset: none */
    CACHE_PURGE_URL: optionalUrl,
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
    /**
     * Issue #42, ADR 0149: the most PostgreSQL connections one process's shared pool opens (the
     * outbox, the analysis results, the reference files and both rate limits share it); the
     * track index's build worker adds BUILD_WORKER_CONNECTIONS (1) while it reads the figures.
     */
    DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(100).default(10),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Express `trust proxy`: "true", "false", a hop count, or a comma-separated list of subnets. */
    TRUST_PROXY: z.string().default("loopback"),

    // Catalog sources (issue: catalog)
    ALBUMS_URL: source,
    CHANNELS_URL: source,
    FILMS_URL: source,
    FILM_API_URL: optionalUrl,
    FILM_API_EMAIL: optionalString,
    FILM_API_PASSWORD: optionalString,
    MUSIC_API_URL: optionalUrl,
    MUSIC_API_USERNAME: optionalString,
    MUSIC_API_PASSWORD: optionalString,
    MUSIC_API_CLIENT_ID: optionalString,
    MUSIC_API_CLIENT_SECRET: optionalString,
    MUSIC_API_SCOPE: optionalString,
    MUSIC_API_GRANT_TYPE: z.string().default("password"),
    MUSIC_API_APP_SOURCE: optionalString,
    MUSIC_API_EXCLUDED_USER_IDS: z
      .string()
      .default("")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    MEDIA_URL: z.string().min(1).default("/media"),
    FILM_MEDIA_URL: z.string().min(1).default("/media"),
    CATALOG_REFRESH_SECONDS: positiveInt.default(900),
    /**
     * Issue #42, ADR 0157: with DATABASE_URL, one process of the cluster syncs the upstreams and
     * publishes the snapshots in PostgreSQL; every other machine serves them. false: every
     * machine syncs for itself, as before (a roll-out beside an earlier release).
     */
    CATALOG_CLUSTER_SYNC: booleanFlag(true),
    /** How long the cluster's sync lease lasts unrenewed: a dead holder is replaced within it (ADR 0157). */
    CATALOG_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
    /** The largest published catalog snapshot (all its files) a machine publishes or takes (ADR 0157). */
    CATALOG_SNAPSHOT_MAX_BYTES: positiveInt.default(1024 * 1024 * 1024),
    /** Enables the Channels tab of the catalog, which the spec ships disabled ("Soon!"). */
    CATALOG_CHANNELS_ENABLED: booleanFlag(false),

    // Leads (issue: contact and licensing)
    MAIL_TRANSPORT: z.enum(["file", "smtp", "ses"]).default("file"),
    MAIL_FROM: email.default("no-reply@example.com"),
    CONTACT_TO: email.default("hello@example.com"),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
        .optional(),
    ),
    SES_REGION: z.string().min(1).default("us-east-1"),
    SES_ENDPOINT: optionalUrl,
    SES_IDENTITY_POOL_ID: optionalString,
    /** Accepted form submissions per client IP per window. */
    LEADS_RATE_LIMIT: positiveInt.default(10),
    LEADS_RATE_WINDOW_SECONDS: positiveInt.default(600),
    /** Delivery attempts before a lead's e-mail is marked failed. */
    OUTBOX_MAX_ATTEMPTS: positiveInt.default(8),
    /** How long a worker holds a message it is delivering; a crashed worker's messages are retried after it. */
    OUTBOX_LEASE_SECONDS: positiveInt.default(120),
    /** Run the outbox delivery worker inside the web server. */
    OUTBOX_WORKER: booleanFlag(true),
    /** Per-attempt timeout of a mail send (connect, greeting, socket, request); kept well under the lease. */
    MAIL_TIMEOUT_SECONDS: positiveInt.default(20),
    /** IPv6 clients are counted per network of this prefix length (a /64 is one subscriber). */
    LEADS_RATE_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(64),
    /** A receipt e-mail to the visitor once a lead is stored (issue #11, DESIGN.md §3b, ADR 0095). */
    LEAD_RECEIPTS: booleanFlag(true),
    /** Days after delivery a lead keeps its personal data; then it is erased (issue #16, ADR 0107). */
    LEAD_RETENTION_DAYS: positiveInt.default(365),

    // Audio analysis (issue #9, ADR 0091)
    /** Tracks analysed at once, each in its own worker thread (1 suits 2 cores: the pages keep the other). */
    ANALYSIS_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
    /**
     * How long an analyzer's claim on a track holds without a renewal (issue #42, ADR 0158): the
     * analyzer renews its claims every third of it while it works, so a long track is never taken
     * from a live analyzer, and a killed analyzer's track is claimed again once this has passed.
     */
    ANALYSIS_LEASE_SECONDS: z.coerce.number().int().min(3).max(86_400).default(120),

    // Search by a reference file (issue #19, DESIGN.md §3c)
    /** Largest upload to /catalog/sounds-like, counted on the bytes received (this route only; every other keeps BODY_LIMIT_BYTES). */
    UPLOAD_LIMIT_BYTES: positiveInt.default(20 * 1024 * 1024),
    /** Days a reference's fingerprint is kept (its audio never is); its URL then says it has expired. */
    REFERENCE_TTL_DAYS: positiveInt.default(30),
    /** CPU seconds a reference file's decoding and analysis may use (400 past it); twice this on the clock, the machine is too busy (503, ADR 0141). */
    REFERENCE_ANALYSIS_TIMEOUT_SECONDS: positiveInt.default(20),
    /** Reference uploads accepted per client per window (the store the form rate limit uses). */
    REFERENCE_RATE_LIMIT: positiveInt.default(10),
    REFERENCE_RATE_WINDOW_SECONDS: positiveInt.default(3600),
    /**
     * Files refused for what they are (not audio, empty, silent, too short, a start past the end)
     * per client per REFERENCE_RATE_WINDOW_SECONDS: counted apart from REFERENCE_RATE_LIMIT, so a
     * few wrong files do not lock a buyer out, and still bounded, so a flood of them stops (issue #41, ADR 0144).
     */
    REFERENCE_REFUSED_RATE_LIMIT: positiveInt.default(40),
    /** Analyse tracks inside the web server's syncing process; false when `npm run analyzer` does it. */
    ANALYSIS_WORKER: booleanFlag(true),

    // Resource bounds (issue #7): every one has a safe default.
    /** Largest request body read, counted on the bytes actually received (chunked or not). */
    BODY_LIMIT_BYTES: positiveInt.default(64 * 1024),
    /** How much of an oversized body is read and thrown away so the client can read the 413. */
    BODY_DRAIN_LIMIT_BYTES: z.coerce.number().int().min(0).default(1024 * 1024),
    /** Longest request target (path and query), in bytes: longer ones get 414. */
    URL_LIMIT_BYTES: positiveInt.default(4096),
    /** Most query parameters (repeats included) in one request: more get 414. */
    QUERY_PARAMS_LIMIT: positiveInt.default(64),
    /** Bytes of thumbnails kept in DATA_DIR/cache/img; least recently used files go first. */
    IMG_CACHE_MAX_BYTES: positiveInt.default(512 * 1024 * 1024),
    /** Thumbnails encoded at once; further requests wait (briefly) or get 503. */
    IMG_CONCURRENCY: positiveInt.default(2),
    /** Largest source image, in pixels (sharp limitInputPixels). */
    IMG_MAX_INPUT_PIXELS: positiveInt.default(40_000_000),
    /** Bytes of catalog match lists and derived filter options kept in memory. */
    CATALOG_CACHE_MAX_BYTES: positiveInt.default(64 * 1024 * 1024),
    /** Bytes of rendered pages (static and catalog, with their brotli and gzip variants) kept in memory. */
    PAGE_CACHE_MAX_BYTES: positiveInt.default(32 * 1024 * 1024),
    /** Catalog pages asked once that are remembered, so a second ask within the page's window stores it (issue #18, ADR 0085). */
    PAGE_CACHE_SEEN_MAX_KEYS: positiveInt.default(65_536),
    /** Uncached renders per client per window; past it 429 (issue #18, ADR 0085). Cached pages and files are never counted. */
    RENDER_RATE_LIMIT: positiveInt.default(600),
    RENDER_RATE_WINDOW_SECONDS: positiveInt.default(60),
    /** Bytes of gzipped sitemap files kept in memory (issue #11, ADR 0097); an evicted file is built again. */
    SITEMAP_CACHE_MAX_BYTES: positiveInt.default(16 * 1024 * 1024),
    /** Largest upstream catalog response body. */
    UPSTREAM_MAX_BYTES: positiveInt.default(256 * 1024 * 1024),
    /** Per-request timeout for upstream catalog reads. */
    UPSTREAM_TIMEOUT_SECONDS: positiveInt.default(30),
    /** A sync whose list shrank by more than this share of the snapshot is held back (0-1). */
    CATALOG_MAX_SHRINK: z.coerce.number().min(0).max(1).default(0.5),
    /** On SIGTERM: how long in-flight requests and the current delivery may take. */
    SHUTDOWN_TIMEOUT_SECONDS: positiveInt.default(10),
    /**
     * Server processes sharing the port (node:cluster, server.ts; ADR 0081). One of them syncs
     * the catalog and runs the outbox worker; the others serve its snapshots.
     */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),

    // Metrics (issue #31, DESIGN.md §3d, ADR 0120): the Prometheus exposition on its own listener
    /** Port of the metrics listener (GET /metrics); unset: no listener and no metrics kept. Never the public port. */
    METRICS_PORT: z.preprocess(emptyToUndefined, port.optional()),
    /** Address the metrics listener binds; loopback by default (the exposition is for the machine's scraper). */
    METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  })
  .superRefine((c, ctx) => {
    if (c.MAIL_TRANSPORT === "smtp" && !c.SMTP_URL) {
      ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required when MAIL_TRANSPORT=smtp" });
    }
    const film = [c.FILM_API_URL, c.FILM_API_EMAIL, c.FILM_API_PASSWORD];
    if (film.some(Boolean) && !film.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: ["FILM_API_URL"],
        message: "FILM_API_URL, FILM_API_EMAIL and FILM_API_PASSWORD must be set together",
      });
    }
    if (c.MAIL_TIMEOUT_SECONDS * 2 >= c.OUTBOX_LEASE_SECONDS) {
      // A send must end (success or timeout) well inside the lease, or a second worker could
      // claim the message mid-send and deliver it twice.
      ctx.addIssue({
        code: "custom",
        path: ["MAIL_TIMEOUT_SECONDS"],
        message: "must be less than half of OUTBOX_LEASE_SECONDS",
      });
    }
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT !== 0 && c.METRICS_PORT === c.PORT) {
      // the exposition is never served on the public port (issue #31)
      ctx.addIssue({ code: "custom", path: ["METRICS_PORT"], message: "must differ from PORT: metrics are never served on the public port" });
    }
    if (c.MUSIC_API_URL && !(c.MUSIC_API_USERNAME && c.MUSIC_API_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: ["MUSIC_API_URL"],
        message: "MUSIC_API_USERNAME and MUSIC_API_PASSWORD are required with MUSIC_API_URL",
      });
    }
  });

export type Config = z.output<typeof configSchema> & {
  SITE_URL: string;
  DATA_DIR: string;
};

export class ConfigError extends Error {
  readonly issues: { variable: string; message: string }[];
  constructor(issues: { variable: string; message: string }[]) {
    super(
      "Invalid configuration:\n" + issues.map((i) => `  ${i.variable}: ${i.message}`).join("\n"),
    );
    this.name = "ConfigError";
    this.issues = issues;
  }
}

/** Parses the environment. Throws a ConfigError naming each bad variable. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? "environment"),
        message: issue.message,
      })),
    );
  }
  const c = result.data;
  return {
    ...c,
    DATA_DIR: path.resolve(c.DATA_DIR),
    SITE_URL: (c.SITE_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, ""),
  };
}

/** Express's `trust proxy` value from TRUST_PROXY. */
export function trustProxySetting(value: string): boolean | number | string {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}
