// `npm run bench:lighthouse [-- --routes /,/mission --runs 1 --out /tmp/lh --through-varnish]`
//
// Starts the built site the way `npm start` does (building first when the build is stale),
// on a free port with a throw-away DATA_DIR, and runs Lighthouse (mobile emulation, simulated
// throttling: Lighthouse's defaults) on every route of product-rules §2 plus a 404 path, in Debian's
// Chromium (CHROME_PATH, default /usr/bin/chromium). Prints one table row per route:
// the four category scores, LCP, TBT, CLS and the JavaScript bytes transferred.
// Goal (issue #2): performance ≥ 98, accessibility / best practices / SEO 100.
// --through-varnish puts the shipped Varnish (ADR 0119) in front and audits the pages it serves.
// Nothing is asserted: it prints what it measured. With --runs N the median run (by
// performance score) of each route is shown.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, startSite } from "./lib/site-process.ts";
import { renderVcl, varnishdArgs, varnishdPath } from "../commands/varnish.ts";
import { SITE_PAGE_PATHS } from "../app/lib/static-pages.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

export const ROUTES = [...SITE_PAGE_PATHS, "/this-page-does-not-exist"];

// DESIGN.md §5: no internet on the machine; these flags stop Chromium from trying.
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

const { values } = parseArgs({
  options: {
    routes: { type: "string" },
    runs: { type: "string", default: "1" },
    out: { type: "string" },
    "through-varnish": { type: "boolean", default: false },
  },
});
const routes = values.routes ? values.routes.split(",").map((r) => r.trim()) : ROUTES;
const runs = Math.max(1, Number(values.runs) || 1);

interface Row {
  route: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsBytes: number;
  failing: string[];
}

async function startServer() {
  const port = await freePort();
  if (!values["through-varnish"]) {
    const baseURL = `http://127.0.0.1:${port}`;
    // Canonical links must point at the origin Lighthouse loads, or the SEO audit fails.
    const site = await startSite({ port, env: { SITE_URL: baseURL, LOG_LEVEL: "warn" } });
    return { baseURL, stop: site.stop };
  }
  // the origin behind the shipped Varnish: the public origin (SITE_URL) is the cache's
  const varnishd = varnishdPath();
  if (!varnishd) throw new Error("varnishd not found: apt-get install varnish varnish-modules");
  const cachePort = await freePort();
  const baseURL = `http://127.0.0.1:${cachePort}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lighthouse-varnish-"));
  const vclFile = path.join(dir, "default.vcl");
  fs.writeFileSync(vclFile, renderVcl(`127.0.0.1:${port}`, []));
  const site = await startSite({ port, env: { SITE_URL: baseURL, LOG_LEVEL: "warn" } });
  const cache = spawn(varnishd, varnishdArgs({ listen: `127.0.0.1:${cachePort}`, vclFile, workDir: path.join(dir, "varnishd") }), { stdio: "ignore" });
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${baseURL}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseURL,
    stop: async () => {
      cache.kill("SIGTERM");
      await new Promise((r) => cache.once("exit", r));
      fs.rmSync(dir, { recursive: true, force: true });
      await site.stop();
    },
  };
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

function toRow(route: string, lhr: Lhr): Row {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const summary = lhr.audits["resource-summary"]?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined;
  const jsBytes = summary?.items?.find((i) => i.resourceType === "script")?.transferSize ?? 0;
  // Audits that cost points (score < 1 with a weight in a category), for the notes below.
  const failing = new Set<string>();
  for (const category of Object.values(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) failing.add(`${category.id}:${ref.id}`);
    }
  }
  return {
    route,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: numeric("largest-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    jsBytes,
    failing: [...failing].filter((f) => !f.startsWith("performance:")),
  };
}

function printTable(rows: Row[]) {
  const header = ["route", "perf", "a11y", "BP", "SEO", "LCP ms", "TBT ms", "CLS", "JS KiB"];
  const lines = rows.map((r) => [
    r.route,
    String(r.performance),
    String(r.accessibility),
    String(r.bestPractices),
    String(r.seo),
    r.lcpMs.toFixed(0),
    r.tbtMs.toFixed(0),
    r.cls.toFixed(3),
    (r.jsBytes / 1024).toFixed(1),
  ]);
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i]!.length)));
  const fmt = (l: string[]) => `| ${l.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|")}|`);
  for (const l of lines) console.log(fmt(l));
  const notes = rows.filter((r) => r.failing.length);
  if (notes.length) {
    console.log("\nAudits below 100 outside performance:");
    for (const r of notes) console.log(`  ${r.route}: ${r.failing.join(", ")}`);
  }
}

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: CHROME_FLAGS,
});
const rows: Row[] = [];
try {
  // Warm-up: what a visitor meets on a running site, and Chromium itself. Each route is asked
  // once (the page cache stores a page at its second ask, server/page-admission.ts) and then
  // loaded whole, once, in this Chromium with Lighthouse's emulation (an SEO-only run): the
  // second ask stores the page, and the page's own requests are answered once, so the cover
  // thumbnails `/img` encodes on a first request (ADR 0053) are in its disk cache, as they are
  // on a site that has served the page before. Without it the first measured run of a route
  // met a throw-away DATA_DIR's empty thumbnail cache: on `/catalog` the 11 covers took up to
  // 1.1 s each (0.1–0.2 s warm) while the server encoded them beside Chromium on the same cores,
  // and such first runs read a median of 77 (11 of them) where warm runs read 88 (75) (ADR 0150,
  // amended 2026-11-29, seventh session); with --runs 3 the median was then the lower of the
  // two others. The first Lighthouse run of a fresh Chromium
  // 156 also loses its navigationStart trace event (NO_NAVSTART): these runs take that too.
  for (const route of routes) {
    await fetch(server.baseURL + route).then((r) => r.arrayBuffer());
    await lighthouse(server.baseURL + route, { port: chrome.port, logLevel: "silent", onlyCategories: ["seo"], ignoreStatusCode: true });
  }
  console.log(`Lighthouse ${runs} run(s) per route against ${server.baseURL} (mobile emulation)\n`);
  for (const route of routes) {
    const results: Row[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(server.baseURL + route, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
        // The 404 route answers 404 on purpose; audit it anyway.
        ignoreStatusCode: true,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${route}`);
      if (values.out) {
        fs.mkdirSync(values.out, { recursive: true });
        const name = route === "/" ? "home" : route.slice(1).replaceAll("/", "_");
        fs.writeFileSync(path.join(values.out, `${name}-${i + 1}.json`), JSON.stringify(result.lhr));
      }
      results.push(toRow(route, result.lhr));
    }
    results.sort((a, b) => a.performance - b.performance);
    const median = results[Math.floor(results.length / 2)]!;
    rows.push(median);
    process.stderr.write(`  ${route}: ${median.performance}/${median.accessibility}/${median.bestPractices}/${median.seo}\n`);
  }
} finally {
  chrome.kill();
  await server.stop();
}
console.log("");
printTable(rows);
