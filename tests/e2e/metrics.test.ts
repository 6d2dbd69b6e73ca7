import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer, type TestSmtpServer } from "../support/mail-peers.ts";
import { waitFor } from "../support/wait.ts";
import { freePort, startSite, type RunningSite } from "./support/server-process.ts";

/**
 * Issue #31, ADR 0120, on the built site as `npm start` runs it: the Prometheus exposition on
 * METRICS_PORT counts the traffic an operator would look for (requests per route and status, a
 * page cache hit, a lead's way through the outbox, a catalog sync's time), never on the public
 * port; a two-process cluster is one target that keeps a killed worker's counts; and the alert
 * rules (deploy/prometheus/alerts.yml) pass `promtool check rules` and use only metrics the
 * site exports.
 */

const root = path.resolve(import.meta.dirname, "../..");
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-metrics-"));
const clusterLog = path.join(logDir, "cluster.log");
let site: RunningSite;
let cluster: RunningSite;
let smtp: TestSmtpServer;
let metricsPort: number;
let clusterMetricsPort: number;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Scrape {
  text: string;
  contentType: string;
  samples: Sample[];
  /** family name → type, from the # TYPE lines */
  types: Map<string, string>;
}

async function scrape(port: number): Promise<Scrape> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return { text, contentType: res.headers.get("content-type") ?? "", samples, types };
}

/** The sum of a metric's samples whose labels include `labels`. */
function total(s: Scrape, name: string, labels: Record<string, string> = {}): number {
  return s.samples.filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v)).reduce((n, x) => n + x.value, 0);
}
const has = (s: Scrape, name: string, labels: Record<string, string> = {}) =>
  s.samples.some((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v));
const requests = (s: Scrape, labels: Record<string, string>) => total(s, "http_server_request_duration_seconds_count", labels);

/** One request on its own TCP connection (the cluster hands out connections in turn). */
function ask(base: string, pathname: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method: opts.method ?? "GET", agent: false, headers: { Connection: "close", ...opts.headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

type LogLine = { msg?: string; pid?: number; worker?: number; req?: { url?: string } };
const logLines = (): LogLine[] =>
  fs
    .readFileSync(clusterLog, "utf8")
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
const listening = () => logLines().filter((l) => l.msg === "server listening");

beforeAll(async () => {
  smtp = await startSmtpServer();
  [metricsPort, clusterMetricsPort] = [await freePort(), await freePort()];
  const common = { SKIP_BUILD: "1", LEADS_RATE_LIMIT: "1000", RENDER_RATE_LIMIT: "100000", LEAD_RECEIPTS: "false" };
  [site, cluster] = await Promise.all([
    startSite({
      output: { file: path.join(logDir, "site.log") },
      env: {
        ...common,
        LOG_LEVEL: "warn",
        METRICS_PORT: String(metricsPort),
        MAIL_TRANSPORT: "smtp",
        SMTP_URL: smtp.url,
        // a sync every 2 s: the test sees its timestamp move
        CATALOG_REFRESH_SECONDS: "2",
        // the analysis families carry values only where the analyzer runs
        ANALYSIS_WORKER: "true",
      },
      timeoutMs: 120_000,
    }),
    startSite({ output: { file: clusterLog }, env: { ...common, LOG_LEVEL: "info", WEB_CONCURRENCY: "2", METRICS_PORT: String(clusterMetricsPort) }, timeoutMs: 120_000 }),
  ]);
  await waitFor("both cluster processes to listen", () => listening().length === 2, 60_000);
}, 180_000);

afterAll(async () => {
  await Promise.all([site?.stop(), cluster?.stop()]);
  await smtp?.stop();
  if (!process.env.KEEP_E2E_DATA) fs.rmSync(logDir, { recursive: true, force: true });
});

describe("one server process with METRICS_PORT", () => {
  it("serves the exposition on its own port only: the public port answers 404 on /metrics", async () => {
    const s = await scrape(metricsPort);
    expect(s.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    // prom-client's runtime metrics
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_p99_seconds", "nodejs_gc_duration_seconds_count"]) {
      expect(has(s, name), name).toBe(true);
    }
    expect((await fetch(`${site.base}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/anything`)).status).toBe(404);
  });

  it("counts requests per route and status, and a page cache hit after a repeated page", async () => {
    const before = await scrape(metricsPort);
    for (let i = 0; i < 3; i++) expect(await ask(site.base, "/mission")).toBe(200);
    expect(await ask(site.base, "/catalog?genre=Jazz")).toBe(200);
    expect(await ask(site.base, `/catalog/albums/no-such-album-${crypto.randomUUID()}`)).toBe(404);
    expect(await ask(site.base, `/no-such-page-${crypto.randomUUID()}`)).toBe(404);
    const after = await scrape(metricsPort);
    const delta = (labels: Record<string, string>) => requests(after, labels) - requests(before, labels);
    expect(delta({ method: "GET", route: "story", status: "200" })).toBe(3);
    expect(delta({ method: "GET", route: "catalog", status: "200" })).toBe(1);
    expect(delta({ method: "GET", route: "item", status: "404" })).toBe(1);
    expect(delta({ method: "GET", route: "other", status: "404" })).toBe(1);
    // the static page is rendered once (a miss at most), then answered from memory
    expect(total(after, "page_cache_hits_total", { route: "story" }) - total(before, "page_cache_hits_total", { route: "story" })).toBeGreaterThanOrEqual(2);
    expect(total(after, "page_cache_stored_bytes")).toBeGreaterThan(0);
    // a catalog page asked once is sent, not stored (ADR 0085)
    expect(total(after, "page_cache_admission_decisions_total", { decision: "once" })).toBeGreaterThan(total(before, "page_cache_admission_decisions_total", { decision: "once" }));
  });

  it("follows a lead through the outbox: pending while the mail server refuses, then sent", async () => {
    const before = await scrape(metricsPort);
    smtp.rejectWith = { code: 451, message: "try again later" };
    const status = await ask(site.base, "/contact", {
      method: "POST",
      headers: { Origin: site.base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "contact",
        idempotencyKey: crypto.randomUUID(),
        website: "",
        name: "Metrics Visitor",
        email: "metrics@example.org",
        subject: "Counted",
        message: "Hello, this message is followed through the outbox by its metrics.",
      }).toString(),
    });
    expect(status).toBeLessThan(400);
    const waiting = await waitFor("the refused delivery to show", async () => {
      const s = await scrape(metricsPort);
      return total(s, "outbox_delivery_failures_total", { next: "retry" }) > total(before, "outbox_delivery_failures_total", { next: "retry" }) ? s : undefined;
    });
    expect(total(waiting, "outbox_messages", { status: "pending" })).toBe(1);
    expect(total(waiting, "outbox_oldest_pending_age_seconds")).toBeGreaterThan(0);
    expect(requests(waiting, { method: "POST", route: "form" }) - requests(before, { method: "POST", route: "form" })).toBe(1);

    smtp.rejectWith = undefined;
    // the retry comes after the worker's backoff (5 s ± 20 %)
    const sent = await waitFor("the lead to be delivered", async () => {
      const s = await scrape(metricsPort);
      return total(s, "outbox_messages", { status: "sent" }) === total(before, "outbox_messages", { status: "sent" }) + 1 ? s : undefined;
    }, 20_000, 250);
    expect(total(sent, "outbox_messages", { status: "pending" })).toBe(0);
    expect(total(sent, "outbox_oldest_pending_age_seconds")).toBe(0);
    expect(total(sent, "outbox_deliveries_total") - total(before, "outbox_deliveries_total")).toBe(1);
    expect(total(sent, "outbox_delivery_attempts_total") - total(before, "outbox_delivery_attempts_total")).toBe(2);
    expect(smtp.received.map((m) => m.subject)).toContain("Contact: Counted");
  }, 40_000);

  it("gives each source's last successful sync as a Unix time, moving with each sync", async () => {
    const first = await scrape(metricsPort);
    const at = total(first, "catalog_last_successful_sync_timestamp_seconds", { source: "albums" });
    expect(at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(at).toBeLessThanOrEqual(Date.now() / 1000);
    expect(total(first, "catalog_items", { kind: "albums" })).toBeGreaterThan(0);
    expect(total(first, "catalog_sync_interval_seconds")).toBe(2);
    await waitFor("the next sync", async () => total(await scrape(metricsPort), "catalog_last_successful_sync_timestamp_seconds", { source: "albums" }) > at, 10_000, 250);
  });
});

/** Metric names in a PromQL expression: identifiers that are not functions, keywords or label names. */
function metricNames(expr: string): string[] {
  const cleaned = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const keywords = new Set(["and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left", "group_right", "inf", "nan"]);
  return [...cleaned.matchAll(/[a-zA-Z_:][\w:]*(\s*\()?/g)].filter((m) => !m[1] && !keywords.has(m[0].toLowerCase())).map((m) => m[0]);
}

/** The `expr` of every rule in a rules file (inline, or a `>-`/`|` block). */
function ruleExpressions(file: string): string[] {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const exprs: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)expr:\s*(.*)$/.exec(lines[i]!);
    if (!m) continue;
    if (!/^[>|]/.test(m[2]!)) {
      exprs.push(m[2]!);
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === "" || lines[i + 1]!.search(/\S/) > m[1]!.length)) block.push(lines[++i]!.trim());
    exprs.push(block.join(" "));
  }
  return exprs;
}

describe("deploy/prometheus/alerts.yml", () => {
  const rules = path.join(root, "deploy/prometheus/alerts.yml");

  it("passes promtool check rules", (ctx) => {
    let promtool: string;
    try {
      promtool = execFileSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).trim();
    } catch {
      // outside CI a missing promtool skips with the reason; CI installs it (.ci/run) and must run it
      if (process.env.CI) throw new Error("promtool is missing: .ci/run installs Debian's prometheus package");
      console.log("skipped: promtool is not installed (Debian's prometheus package has it)");
      return ctx.skip();
    }
    const out = execFileSync(promtool, ["check", "rules", rules], { encoding: "utf8" });
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
  });

  it("uses only metrics the site exports, each with values in a scrape", async () => {
    const exprs = ruleExpressions(rules);
    expect(exprs.length).toBeGreaterThanOrEqual(7);
    const names = new Set(exprs.flatMap(metricNames));
    // the analysis counts are read from its store once the analyzer has started
    const s = await waitFor("the analysis counts", async () => {
      const x = await scrape(metricsPort);
      return has(x, "analysis_tracks") ? x : undefined;
    }, 30_000, 500);
    const missing = [...names].filter((name) => {
      const family = name.replace(/_(bucket|count|sum)$/, "");
      const declared = s.types.has(name) || s.types.get(family) === "histogram";
      return !declared || !has(s, name);
    });
    expect(missing).toEqual([]);
    // the rules name what the issue asks for
    for (const name of ["http_server_request_duration_seconds_count", "http_server_request_duration_seconds_bucket", "outbox_oldest_pending_age_seconds", "outbox_delivery_failures_total", "catalog_last_successful_sync_timestamp_seconds", "analysis_tracks", "process_start_time_seconds"]) {
      expect(names).toContain(name);
    }
  });
});

describe("WEB_CONCURRENCY=2: one target for the machine", () => {
  it("counts both processes' requests in one scrape, and keeps a killed worker's counts", async () => {
    const before = await scrape(clusterMetricsPort);
    // 32 connections: the kernel spreads them by a hash (SO_REUSEPORT, ADR 0121), not in turn
    const urls = Array.from({ length: 32 }, (_, i) => `/healthz?item=metrics-${crypto.randomUUID()}-${i}`);
    for (const url of urls) expect(await ask(cluster.base, url)).toBe(200);
    // both processes answered some of them (their pids on the request log lines)
    await waitFor("both processes' request lines", () => new Set(logLines().filter((l) => urls.includes(String(l.req?.url))).map((l) => l.pid)).size === 2);
    const health = { method: "GET", route: "health", status: "200" };
    const after = await scrape(clusterMetricsPort);
    expect(requests(after, health) - requests(before, health)).toBe(32);

    // the follower (worker 2) is killed without warning; the primary replaces it
    const follower = listening().find((l) => l.worker === 2)!;
    process.kill(follower.pid!, "SIGKILL");
    await waitFor("a replacement to listen", () => listening().length === 3, 60_000);
    const replaced = await scrape(clusterMetricsPort);
    expect(requests(replaced, health) - requests(before, health)).toBe(32);
    expect(total(replaced, "server_worker_restarts_total")).toBe(1);

    for (let i = 0; i < 4; i++) expect(await ask(cluster.base, "/healthz")).toBe(200);
    const later = await scrape(clusterMetricsPort);
    expect(requests(later, health) - requests(before, health)).toBe(36);
    // one process start time (the primary's), the machine's memory summed
    expect(later.samples.filter((x) => x.name === "process_start_time_seconds")).toHaveLength(1);
    expect(total(later, "process_resident_memory_bytes")).toBeGreaterThan(0);
  }, 90_000);

  it("gives the connections the workers hold open, and those moved to even them out", async () => {
    // six visitors keeping their connections alive (server/connection-balance.ts, ADR 0121)
    const agents = Array.from({ length: 6 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      const get = (agent: http.Agent) =>
        new Promise<number>((resolve, reject) => {
          http
            .get(`${cluster.base}/healthz`, { agent }, (res) => {
              res.resume();
              res.on("end", () => resolve(res.statusCode ?? 0));
            })
            .on("error", reject);
        });
      expect(await Promise.all(agents.map(get))).toEqual(Array(6).fill(200));
      const held = await waitFor("the six connections in a scrape", async () => {
        const s = await scrape(clusterMetricsPort);
        return total(s, "cluster_open_connections") >= 6 ? s : undefined;
      });
      expect(held.types.get("cluster_open_connections")).toBe("gauge");
      expect(held.types.get("cluster_connections_moved_total")).toBe("counter");
      expect(total(held, "cluster_connections_moved_total")).toBeGreaterThanOrEqual(0);
    } finally {
      for (const a of agents) a.destroy();
    }
    await waitFor("the connections to close", async () => total(await scrape(clusterMetricsPort), "cluster_open_connections") === 0);
  });
});
