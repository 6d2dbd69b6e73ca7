import type { IncomingMessage, ServerResponse } from "node:http";
import { Counter, type Registry } from "prom-client";
import { isStaticPage } from "../app/lib/static-pages.ts";
import type { IncreaseSince } from "./metrics.ts";

/**
 * Issue #31, ADR 0120: the request hook of the site's metrics (server/metrics.ts): on a request's
 * path one histogram observation and, for the few answers that carry one, a counter (the page
 * cache's X-Page-Cache header, a 429, a reference upload), all read from the response when it
 * closes. Label values come from fixed lists (ROUTES, METHODS): a flood of unique URLs adds no
 * series.
 */

/** The route label: a kind of page, never the URL (issue #31). */
export const ROUTES = ["catalog", "item", "story", "form", "sounds_like", "data", "img", "static", "sitemap", "health", "other"] as const;
export type RouteKind = (typeof ROUTES)[number];
/** The method label; anything else is OTHER. */
export const METHODS = ["GET", "HEAD", "POST", "OPTIONS", "PUT", "PATCH", "DELETE"] as const;

/** The route label of a request path (before any rewrite by a handler). */
export function routeKind(path: string): RouteKind {
  if (path === "/catalog") return "catalog";
  if (path.endsWith(".data")) return "data";
  // DESIGN.md §3c: the reference-file form; every other path under /catalog/ is an item page (or its 404)
  if (path === "/catalog/sounds-like") return "sounds_like";
  if (path.startsWith("/catalog/")) return "item";
  if (path === "/img") return "img";
  if (isStaticPage(path)) return "story";
  if (path === "/contact") return "form";
  if (path === "/healthz" || path === "/readyz") return "health";
  if (path === "/sitemap.xml" || path === "/robots.txt" || path.startsWith("/sitemaps/")) return "sitemap";
  if (path.startsWith("/assets/") || path.startsWith("/media/") || path === "/sw.js" || STATIC_FILE.test(path)) return "static";
  return "other";
}
/** the build's public files (favicon.ico, icons, the manifest, logos): a name with an extension */
const STATIC_FILE = /^\/[\w./-]*\.(ico|png|svg|webp|avif|jpe?g|webmanifest|json|txt|xml|js|css|woff2?)$/i;

const methodLabel = (method: string) => ((METHODS as readonly string[]).includes(method) ? method : "OTHER");

/**
 * Seconds: a cached page answers in well under a millisecond, a render in 5–50 ms, a thumbnail
 * encode or a reference upload in seconds (issue #31: a few ms to several seconds).
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const REQUEST = Symbol("request facts for the metrics");
interface RequestFacts {
  started: number;
  method: string;
  route: RouteKind;
}

/**
 * The request histogram's counts, kept in plain arrays per (method, route, status) and handed to
 * prom-client as a metric object read at scrape time (the shape prom-client's own histograms give,
 * so its registry formats it and its AggregatorRegistry sums it). prom-client's `observe` checks
 * and hashes its label object on every call; here a request costs a string key, a map look-up
 * and a bucket search (ADR 0120).
 */
function requestDurations(name: string, help: string) {
  const series = new Map<string, { labels: { method: string; route: string; status: number }; buckets: Float64Array; sum: number; count: number }>();
  const bounds = DURATION_BUCKETS;
  return {
    observe(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${route} ${status}`;
      let s = series.get(key);
      if (!s) series.set(key, (s = { labels: { method, route, status }, buckets: new Float64Array(bounds.length), sum: 0, count: 0 }));
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      if (i < bounds.length) s.buckets[i]!++;
      s.sum += seconds;
      s.count++;
    },
    metric: {
      name,
      help,
      type: "histogram",
      aggregator: "sum",
      get() {
        const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
        for (const s of series.values()) {
          let cumulative = 0;
          bounds.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${name}_bucket` });
          });
          values.push({ labels: { le: "+Inf", ...s.labels }, value: s.count, metricName: `${name}_bucket` });
          values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` });
          values.push({ labels: { ...s.labels }, value: s.count, metricName: `${name}_count` });
        }
        return { name, help, type: "histogram", aggregator: "sum", values };
      },
    },
  };
}

/** The request families, registered in `registry`, and the hooks that feed them. */
export function requestMetrics(registry: Registry, since: IncreaseSince) {
  const registers = [registry];
  // ---- requests ---------------------------------------------------------------------------
  // OpenTelemetry's HTTP semantic conventions' name, in Prometheus form (issue #31)
  const duration = requestDurations("http_server_request_duration_seconds", "Time from a request's arrival to the end of its answer, by method, route kind (never the URL) and status code. 499: the client went away first.");
  registry.registerMetric(duration.metric as never);
  // counted per request in plain numbers, handed to prom-client at scrape time (see requestDurations)
  /** A counter by route kind whose counts the request path keeps in a plain map, read at scrape time. */
  const routeCounter = (name: string, help: string) => {
    const counts = new Map<RouteKind, number>();
    const counter: Counter<"route"> = new Counter({
      name,
      help,
      labelNames: ["route"],
      registers,
      collect() {
        for (const [route, n] of counts) counter.inc({ route }, since(counts, route, n));
      },
    });
    return counts;
  };
  const hits = routeCounter("page_cache_hits_total", "Pages answered from the page cache (X-Page-Cache: HIT), by route kind.");
  const misses = routeCounter("page_cache_misses_total", "Cacheable pages rendered because the page cache did not hold them (X-Page-Cache: MISS), by route kind.");
  const refusals = new Counter({
    name: "rate_limit_refusals_total",
    help: "Requests refused with 429 by a per-client limit: renders (the render budget, RENDER_RATE_LIMIT), leads (LEADS_RATE_LIMIT), references (REFERENCE_RATE_LIMIT).",
    labelNames: ["limit"],
    registers,
  });
  const uploads = new Counter({
    name: "reference_uploads_total",
    help: "Reference files posted to /catalog/sounds-like, by outcome: accepted, refused (not audio, damaged, silent, too long), too_large, rate_limited, busy (503), error.",
    labelNames: ["outcome"],
    registers,
  });
  const thumbnails = new Counter({ name: "thumbnail_encodes_total", help: "Thumbnails made (resized and encoded), not read from their disk cache.", registers });

  // every value of a small label set from the start, so that rate() and increase() see the first event
  for (const route of ["catalog", "item", "story", "data"] as const) {
    hits.set(route, 0);
    misses.set(route, 0);
  }
  for (const limit of ["renders", "leads", "references"]) refusals.inc({ limit }, 0);
  for (const outcome of ["accepted", "refused", "too_large", "rate_limited", "busy", "error"]) uploads.inc({ outcome }, 0);

  const uploadOutcome = (status: number) =>
    status === 303 ? "accepted" : status === 413 ? "too_large" : status === 429 ? "rate_limited" : status === 503 ? "busy" : status >= 500 ? "error" : "refused";
  // a post of a form or a file is counted by its own limit; any other 429 is the render budget's
  const limitOf = (route: RouteKind, method: string) =>
    method === "POST" && route === "form" ? "leads" : method === "POST" && route === "sounds_like" ? "references" : "renders";

  // The hot path (measured: a closure and prom-client's labelled observe per request cost several
  // microseconds on a cached page of ~60 us, ADR 0120): what the request's close needs is kept on
  // the response, and the request logger's end-of-response callback reads it (server/app.ts).
  function record(res: ServerResponse) {
    const facts = (res as ServerResponse & { [REQUEST]?: RequestFacts })[REQUEST];
    if (!facts) return;
    const status = res.writableFinished ? res.statusCode : 499;
    const { route, method } = facts;
    duration.observe(method, route, status, (performance.now() - facts.started) / 1000);
    const cache = res.getHeader("x-page-cache");
    if (cache === "HIT") hits.set(route, (hits.get(route) ?? 0) + 1);
    else if (cache === "MISS") misses.set(route, (misses.get(route) ?? 0) + 1);
    if (status === 429) refusals.inc({ limit: limitOf(route, method) });
    if (route === "sounds_like" && method === "POST") uploads.inc({ outcome: uploadOutcome(status) });
  }
  function arrive(req: IncomingMessage, res: ServerResponse) {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    (res as ServerResponse & { [REQUEST]?: RequestFacts })[REQUEST] = {
      started: performance.now(),
      method: methodLabel(req.method ?? "GET"),
      route: routeKind(query < 0 ? url : url.slice(0, query)),
    };
  }

  return { arrive, record, thumbnailEncoded: () => thumbnails.inc() };
}
