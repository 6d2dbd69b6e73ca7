import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import pino from "pino";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClusterCounts, sumSnapshots } from "./metrics-cluster.ts";
import { createSiteMetrics, METHODS, routeKind, ROUTES, type SiteMetrics } from "./metrics.ts";
import type { CatalogSourceStatus } from "../app/.server/catalog/service.ts";

// Issue #31, ADR 0120: the request metrics' labels stay a small fixed set whatever the URLs,
// and a cluster's sum neither loses nor doubles a replaced worker's counts.

const logger = pino({ level: "silent" });

function siteMetrics(status: CatalogSourceStatus[] = []): SiteMetrics {
  return createSiteMetrics({
    config: { CATALOG_REFRESH_SECONDS: 900 },
    logger,
    catalog: { status: () => status, snapshot: () => ({ version: 7 }) as never },
    leads: { outbox: () => Promise.reject(new Error("no outbox here")), worker: undefined },
    analyzer: () => undefined,
    reportsStores: false,
  });
}

/** A histogram's values carry the name of their series (`_bucket`, `_count`, `_sum`). */
const metricName = (v: object) => (v as { metricName?: string }).metricName;

/** The label values of the request histogram's series. */
async function requestSeries(registry: Registry) {
  const [metric] = (await registry.getMetricsAsJSON()).filter((m) => m.name === "http_server_request_duration_seconds");
  return metric!.values.filter((v) => metricName(v) === "http_server_request_duration_seconds_count");
}

describe("the route label (issue #31)", () => {
  it("names each kind of page the site serves", () => {
    expect(
      ["/catalog", "/catalog.data", "/catalog/albums/a1/slug", "/catalog/sounds-like", "/mission", "/", "/contact", "/img", "/assets/x-1.js", "/media/cover.webp", "/favicon.ico", "/sitemap.xml", "/sitemaps/albums-1.xml", "/healthz", "/shortlist", "/nope"].map(routeKind),
    ).toEqual(["catalog", "data", "item", "sounds_like", "story", "story", "form", "img", "static", "static", "static", "sitemap", "sitemap", "health", "other", "other"]);
  });

  describe("over HTTP", () => {
    let server: http.Server;
    let metrics: SiteMetrics;
    let base: string;
    beforeAll(async () => {
      metrics = siteMetrics();
      const app = express();
      app.get("/mission", (_req, res) => void res.setHeader("X-Page-Cache", "HIT").send("story"));
      app.post("/contact", (_req, res) => void res.status(429).send("Too many"));
      app.get("/shortlist", (_req, res) => void res.status(429).send("Too many"));
      app.post("/catalog/sounds-like", (req, res) => void (req.query.ok ? res.redirect(303, "/catalog?like=r1") : res.status(415).send("Not audio")));
      app.use((_req, res) => void res.status(404).send("Not found"));
      server = await new Promise<http.Server>((resolve) => {
        // as server/app.ts wires it: the HTTP server's handler marks the arrival before Express,
        // and the end of the response is recorded (there from pino-http's end callback)
        const s = http.createServer((req, res) => {
          metrics.arrive(req, res);
          res.on("close", () => metrics.record(res));
          app(req, res);
        });
        s.listen(0, "127.0.0.1", () => resolve(s));
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("keeps 2,000 junk URLs and odd methods to a bounded set of series, counting every request", async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "PROPFIND", "MKCOL", "PURGE", "SEARCH"];
      let seed = 31;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const junk = (i: number) => {
        const bytes = Array.from({ length: 1 + Math.floor(random() * 40) }, () => Math.floor(32 + random() * 95));
        const segment = encodeURIComponent(String.fromCharCode(...bytes));
        const shapes = [`/${segment}`, `/catalog/${segment}/${i}`, `/catalog?q=${segment}&page=${i}`, `/${segment}.data`, `/assets/${segment}.js`, `/img?w=${i}&src=${segment}`, `/x/${i}/${segment}?${segment}=${i}`];
        return shapes[i % shapes.length]!;
      };
      const ask = (method: string, path: string) =>
        new Promise<void>((resolve, reject) => {
          const req = http.request(base + path, { method, agent }, (res) => {
            res.resume();
            res.on("end", resolve);
          });
          req.on("error", reject);
          req.end();
        });
      for (let i = 0; i < 2000; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => ask(methods[(i + j) % methods.length]!, junk(i + j))));
      }
      agent.destroy();

      const series = await requestSeries(metrics.registry);
      const routes = new Set(series.map((v) => String(v.labels.route)));
      const seenMethods = new Set(series.map((v) => String(v.labels.method)));
      for (const route of routes) expect(ROUTES).toContain(route);
      for (const method of seenMethods) expect([...METHODS, "OTHER"]).toContain(method);
      expect(seenMethods).toContain("OTHER");
      // one series per method, route kind and status: here 8 methods × a few kinds × one status
      expect(series.length).toBeLessThanOrEqual(8 * ROUTES.length);
      expect(series.reduce((n, v) => n + v.value, 0)).toBe(2000);
    });

    it("counts a page cache hit from the answer's X-Page-Cache", async () => {
      await (await fetch(`${base}/mission`)).text();
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/^page_cache_hits_total\{route="story"\} 1$/m);
      expect(text).toMatch(/^http_server_request_duration_seconds_count\{method="GET",route="story",status="200"\} 1$/m);
    });

    it("counts 429s by the limit that refused them, and reference uploads by outcome", async () => {
      const post = (path: string) => fetch(base + path, { method: "POST", redirect: "manual" }).then((r) => r.text());
      await post("/contact");
      await (await fetch(`${base}/shortlist?items=a`)).text();
      await post("/catalog/sounds-like?ok=1");
      await post("/catalog/sounds-like");
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/^rate_limit_refusals_total\{limit="leads"\} 1$/m);
      expect(text).toMatch(/^rate_limit_refusals_total\{limit="renders"\} 1$/m);
      expect(text).toMatch(/^rate_limit_refusals_total\{limit="references"\} 0$/m);
      expect(text).toMatch(/^reference_uploads_total\{outcome="accepted"\} 1$/m);
      expect(text).toMatch(/^reference_uploads_total\{outcome="refused"\} 1$/m);
    });
  });
});

describe("a cluster's sum (issue #31, ADR 0120)", () => {
  /** A worker's registry: one counter, one histogram, one gauge. */
  function worker() {
    const registry = new Registry();
    const requests = new Counter({ name: "requests_total", help: "h", labelNames: ["route"], registers: [registry] });
    const duration = new Histogram({ name: "duration_seconds", help: "h", buckets: [0.1, 1], registers: [registry] });
    const held = new Gauge({ name: "held_bytes", help: "h", registers: [registry] });
    return { registry, requests, duration, held, snapshot: () => registry.getMetricsAsJSON() };
  }
  const valueOf = async (registry: Registry, name: string, labels: Record<string, string> = {}) => {
    const metric = (await registry.getMetricsAsJSON()).find((m) => m.values.some((v) => (metricName(v) ?? m.name) === name));
    const found = metric?.values.find((v) => (metricName(v) ?? metric.name) === name && Object.entries(labels).every(([k, x]) => String(v.labels[k]) === x));
    return found?.value;
  };

  it("sums the workers, keeps a replaced worker's counters, and never counts them twice", async () => {
    const primary = new Registry();
    const counts = createClusterCounts();
    const a = worker();
    const b = worker();
    a.requests.inc({ route: "story" }, 5);
    a.duration.observe(0.05);
    a.held.set(100);
    b.requests.inc({ route: "story" }, 3);
    b.duration.observe(0.5);
    b.held.set(50);
    counts.update(1, await a.snapshot(), false);
    counts.update(2, await b.snapshot(), false);
    const sum = async () => sumSnapshots(await primary.getMetricsAsJSON(), await counts.snapshots());

    expect(await valueOf(await sum(), "requests_total", { route: "story" })).toBe(8);
    expect(await valueOf(await sum(), "duration_seconds_count")).toBe(2);
    expect(await valueOf(await sum(), "held_bytes")).toBe(150);

    // worker 1 is killed; its last snapshot is retired, and a late message from it is ignored
    await counts.retire(1);
    counts.update(1, await a.snapshot(), true);
    await counts.retire(1);
    expect(await valueOf(await sum(), "requests_total", { route: "story" })).toBe(8);
    expect(await valueOf(await sum(), "duration_seconds_bucket", { le: "0.1" })).toBe(1);
    expect(await valueOf(await sum(), "duration_seconds_count")).toBe(2);
    // a gauge goes with its process
    expect(await valueOf(await sum(), "held_bytes")).toBe(50);

    // its replacement starts from zero and adds to the total
    const c = worker();
    c.requests.inc({ route: "story" }, 2);
    counts.update(3, await c.snapshot(), false);
    expect(await valueOf(await sum(), "requests_total", { route: "story" })).toBe(10);
    await counts.retire(3);
    await counts.retire(2);
    expect(await valueOf(await sum(), "requests_total", { route: "story" })).toBe(10);
    expect(await valueOf(await sum(), "duration_seconds_count")).toBe(2);
  });
});

describe("counts read at scrape time", () => {
  it("turns the catalog's status into items, sync timestamps and failures", async () => {
    const status: CatalogSourceStatus[] = [
      { name: "albums", location: "x", ok: true, count: 300, lastSuccessAt: "2026-11-26T20:00:00.000Z", failedSyncs: 0 },
      { name: "films", location: "y", ok: false, count: 30, failedSyncs: 2 },
    ];
    const metrics = siteMetrics(status);
    let text = await metrics.registry.metrics();
    expect(text).toMatch(/^catalog_items\{kind="albums"\} 300$/m);
    expect(text).toMatch(new RegExp(`^catalog_last_successful_sync_timestamp_seconds\\{source="albums"\\} ${Date.parse("2026-11-26T20:00:00Z") / 1000}$`, "m"));
    expect(text).not.toMatch(/catalog_last_successful_sync_timestamp_seconds\{source="films"\}/);
    expect(text).toMatch(/^catalog_sync_failures_total\{source="films"\} 2$/m);
    status[1]!.failedSyncs = 3;
    text = await metrics.registry.metrics();
    expect(text).toMatch(/^catalog_sync_failures_total\{source="films"\} 3$/m);
    expect(text).toMatch(/^catalog_snapshot_version 7$/m);
  });
});
