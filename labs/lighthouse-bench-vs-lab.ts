// `node labs/lighthouse-bench-vs-lab.ts [--route /catalog] [--runs 3] [--configs bench,lab,bench+perf-only,bench+proxy] [--warm-fetch] [--warm-page]`
//
// Issue #41, ADR 0150 (amended 2026-11-29, seventh session): why `bench:lighthouse` and
// `labs/lighthouse-ab.ts` read different scores for the same page. Both start the site the same
// way (benchmarks/lib/site-process.ts) and Chromium with the same flags; this lab runs one
// Lighthouse (mobile, simulated throttling) per configuration, alternated run by run on one
// server and one Chromium, where a configuration is `bench` (the page straight from the site,
// the four categories bench:lighthouse asks for) or `lab` (through a loopback proxy that
// recompresses with brotli, performance only, as lighthouse-ab.ts), or `bench` with one of the
// lab's ways: `+perf-only`, `+proxy`. `--warm-fetch` fetches the route once before, as
// bench:lighthouse's warm-up did; `--warm-page` loads the route once in Chromium before. Prints each run's score, FCP, LCP, TBT, Lighthouse's
// benchmarkIndex, and from the trace the main thread's tasks after the first contentful paint
// that are 12.5 ms or longer in wall time (what the simulator multiplies by 4 past 50 ms), named by
// their longest child event. LAB_TRACE_DIR=<folder> keeps each run's trace and report.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, startSite } from "../benchmarks/lib/site-process.ts";
import { recompressingProxy } from "./lib/recompressing-proxy.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values } = parseArgs({
  options: {
    route: { type: "string", default: "/catalog" },
    runs: { type: "string", default: "3" },
    configs: { type: "string", default: "bench,lab" },
    "warm-fetch": { type: "boolean", default: false },
    "warm-page": { type: "boolean", default: false },
  },
});

interface Config {
  proxy: boolean;
  perfOnly: boolean;
}
function parseConfig(name: string): Config {
  const parts = name.split("+");
  const base = parts[0] === "lab" ? { proxy: true, perfOnly: true } : parts[0] === "bench" ? { proxy: false, perfOnly: false } : null;
  if (!base) throw new Error(`unknown configuration ${name}: bench or lab, then +perf-only, +all-categories, +proxy, +direct`);
  for (const part of parts.slice(1)) {
    if (part === "perf-only") base.perfOnly = true;
    else if (part === "all-categories") base.perfOnly = false;
    else if (part === "proxy") base.proxy = true;
    else if (part === "direct") base.proxy = false;
    else throw new Error(`unknown toggle ${part}`);
  }
  return base;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { navigationId?: string } };
}

/** The main thread's tasks after FCP of 12.5 ms or more (wall), each as `wall/cpu name`. */
function longTasks(events: TraceEvent[]) {
  const fcp = events.find((e) => e.name === "firstContentfulPaint");
  if (!fcp) return "no FCP in the trace";
  const onMain = events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === "X").sort((a, b) => a.ts - b.ts);
  const tasks = onMain.filter((e) => e.name === "RunTask" && e.ts >= fcp.ts && (e.dur ?? 0) >= 12_500);
  return tasks
    .map((t) => {
      const end = t.ts + (t.dur ?? 0);
      const children = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts < end && e.name !== "RunTask");
      const top = children.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
      return `${Math.round((t.dur ?? 0) / 1000)}/${Math.round((t.tdur ?? 0) / 1000)} ${top?.name ?? "?"}`;
    })
    .join(", ");
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const site = await startSite({ port, env: { SITE_URL: origin, LOG_LEVEL: "warn" } });

const configs = values.configs.split(",").map((name) => ({ name: name.trim(), ...parseConfig(name.trim()) }));
// lighthouse-ab.ts's proxy with no rewrite: the site's answers read whole, text recompressed with brotli
const theProxy = configs.some((c) => c.proxy) ? await recompressingProxy(origin) : undefined;
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  if (values["warm-fetch"]) await fetch(origin + values.route).then((r) => r.arrayBuffer());
  // --warm-page: the route itself loaded once in this Chromium (a Lighthouse SEO run, the same
  // emulation), so the server has met every request of the page (its covers' thumbnails) before
  await lighthouse(origin + (values["warm-page"] ? values.route : "/"), { port: chrome.port, logLevel: "silent", onlyCategories: ["seo"] });
  for (let i = 0; i < Math.max(1, Number(values.runs) || 1); i++) {
    for (const c of configs) {
      const base = c.proxy ? theProxy!.url : origin;
      const result = await lighthouse(base + values.route, {
        port: chrome.port,
        logLevel: "error",
        onlyCategories: c.perfOnly ? ["performance"] : ["performance", "accessibility", "best-practices", "seo"],
      });
      if (!result) throw new Error("Lighthouse returned nothing");
      const ms = (id: string) => Math.round(result.lhr.audits[id]?.numericValue ?? NaN);
      const score = Math.round((result.lhr.categories.performance?.score ?? 0) * 100);
      const events = (result.artifacts.Trace?.traceEvents ?? []) as unknown as TraceEvent[];
      if (process.env.LAB_TRACE_DIR) {
        const name = `${c.name}-${values.route.replaceAll("/", "_")}-${i + 1}`;
        fs.writeFileSync(path.join(process.env.LAB_TRACE_DIR, `${name}.json`), JSON.stringify(events));
        fs.writeFileSync(path.join(process.env.LAB_TRACE_DIR, `${name}.lhr.json`), JSON.stringify(result.lhr));
      }
      console.log(
        `run ${i + 1} ${c.name.padEnd(22)} ${score} FCP ${ms("first-contentful-paint")} LCP ${ms("largest-contentful-paint")} TBT ${ms("total-blocking-time")} bi ${Math.round(result.lhr.environment.benchmarkIndex)} | ${longTasks(events)}`,
      );
    }
  }
} finally {
  chrome.kill();
  theProxy?.close();
  await site.stop();
}
