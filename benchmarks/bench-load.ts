// `npm run bench:load`: throughput and latency of the built site under load, with autocannon on
// the same machine. One table per run: 1 and 2 server processes (WEB_CONCURRENCY), with the
// 300-album sample and with 250,000 albums. Rows: /healthz (the reference), /mission (a cached
// story page), a catalog mix of 50 URLs (40 filter and page views, 10 searches), the same mix as
// `.data`, a warm /img thumbnail, contact posts, and the long tail (issue #18, benchmarks/lib/long-tail.ts:
// every request a URL never asked before, seeded): searches of one or two words drawn as the
// catalog uses them, rare ones too, half with a typo (issue #32), track-view tempo and
// length ranges and searches sorted by tempo (HTML and `.data`), album and single pages in sitemap
// order, and `like=` views. Each row gives req/s, mean, p50 and p99 latency and p99 ÷ mean,
// errors (non-2xx answers and socket errors), the ratio of its req/s to /healthz in the same
// run, and the server's CPU per answer (its processes' user + system time over the row, /proc, Linux
// only). Absolute req/s are noisy on a shared machine (autocannon shares the two cores with the
// server): the ratios and the CPU per answer are what to compare (ADR 0120: the metrics' cost).
//
//   npm run bench:load [-- --connections 64 --duration 10 --processes 1,2 --albums 300,250000
//                          --only healthz,mission,mix,data,img,contact,tail,tail-data,items,like
//                          --profile DIR --latencies FILE --warm 2
//                          --node-args=--max-semi-space-size=16]
//
// `--profile DIR`: the server runs with `--cpu-prof` (one .cpuprofile per server process in DIR,
// written when it stops) and benchmarks/lib/loop-probe.mjs, and each row gets the event loop's
// delay (p50/p99/max) and the GC's pauses printed under the table (issue #32). Profiling costs
// throughput: compare profiled runs with profiled runs.
// `--latencies FILE`: every answer's latency, as tab-separated lines (row, ms since the row's
// start, the connection's number in the order of their first answers, latency ms), so the slowest
// 1 % can be placed in time and by connection (issue #32); and this process's own GC pauses over
// 10 ms (row "client GC: <row>", ms since the row's start, -1, the pause), as a pause of the
// load generator's delays every answer it was due to read then; a line "# <row> started at <epoch ms>" each row.
//
// `--node-args=...` (space-separated, one argument): flags for the server's node (its cluster's workers inherit them), to measure a
// V8 setting such as the young generation's size (ADR 0121) before it is made the default.
//
// `--warm SECONDS` (default 2): before each row, the same load for that long, unmeasured, on
// connections of its own (its URLs are drawn from the row's generator, so the measured ones are
// still new), then a wait until the server is idle (the warm-up's last requests rendered). The warm-up at start asks over one keep-alive connection, which a cluster gives to
// one process: the others met each row's kind of page cold, and their first seconds (V8 still
// compiling that path, a batch of 32 requests rendered at a fraction of the speed) were the p99
// of a cluster's rows (ADR 0121, amended). `--warm 0` measures the cold start.
//
// It measures; it asserts nothing.
import type { EventEmitter } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PerformanceObserver } from "node:perf_hooks";
import autocannon from "autocannon";
import { startAnalysedSite } from "./lib/analysed-site.ts";
import { cpuSeconds, descendants as descendantPids } from "./lib/proc.ts";
import { catalogMix } from "./lib/catalog-mix.ts";
import { asDataUrl, catalogWords, itemWalk, likeSeeds, likeViews, searchMix, sitemapPaths, type UrlGenerator } from "./lib/long-tail.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    connections: { type: "string", default: "64" },
    duration: { type: "string", default: "10" },
    processes: { type: "string", default: "1,2" },
    albums: { type: "string", default: "300,250000" },
    only: { type: "string", default: "healthz,mission,mix,data,img,contact,tail,tail-data,items,like" },
    profile: { type: "string" },
    latencies: { type: "string" },
    "node-args": { type: "string", default: "" },
    warm: { type: "string", default: "2" },
  },
});
const CONNECTIONS = Number(flags.connections);
const DURATION = Number(flags.duration);
const WARM = Number(flags.warm);
const PROCESSES = flags.processes.split(",").map(Number);
const ALBUMS = flags.albums.split(",").map(Number);
const ONLY = new Set(flags.only.split(","));
const PROFILE = flags.profile === undefined ? undefined : path.resolve(flags.profile);
const probeFile = PROFILE && path.join(PROFILE, "loop-probe.jsonl");
if (PROFILE) fs.mkdirSync(PROFILE, { recursive: true });

const asData = (url: string) => url.replace(/^\/catalog/, "/catalog.data");

interface Row {
  name: string;
  perSecond: number;
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  /** the server's CPU time per answer, µs (undefined off Linux) */
  cpuPerAnswer: number | undefined;
  /** with --profile: the loop's delay and the GC's pauses over the row, one line per server process */
  probe?: string[];
}

/** What honourConnectionClose reaches of autocannon's client (autocannon 9, lib/httpClient.js). */
interface ClientInternals {
  _doRequest(...args: unknown[]): unknown;
  _resetConnection(): void;
}

/**
 * autocannon writes a connection's next request as soon as an answer ends, whatever the answer
 * said: after `Connection: close` that request goes to a socket the server is closing, and its
 * queue keeps it, so every later latency of that client is timed from the lost request's start
 * (measured: a row's mean 40 % over Little's law). A real client (a browser, undici, Varnish)
 * opens a new connection for its next request instead, and so does this: the cluster's workers
 * ask clients to reconnect to even out their connections (server/connection-balance.ts, ADR 0121).
 * The reconnection's time is in that next request's latency, as it is for a real client.
 */
function honourConnectionClose(client: autocannon.Client) {
  const internals = client as unknown as ClientInternals;
  let closing = false;
  (client as unknown as EventEmitter).on("headers", (info: { shouldKeepAlive?: boolean }) => {
    if (info.shouldKeepAlive === false) closing = true;
  });
  const doRequest = internals._doRequest;
  internals._doRequest = function (this: ClientInternals, ...args: unknown[]) {
    if (!closing) return doRequest.apply(this, args);
    // the answer that said close has been recorded; a fresh connection sends the next request
    closing = false;
    this._resetConnection();
  };
}

async function load(site: { base: string; child: { pid?: number } }, name: string, given: Partial<autocannon.Options>): Promise<Row> {
  const pid = site.child.pid!;
  const opts: Partial<autocannon.Options> = { ...given, setupClient: honourConnectionClose };
  if (WARM > 0) {
    await autocannon({ url: site.base, connections: CONNECTIONS, duration: WARM, ...opts });
    await settled(pid);
    if (probeFile) await probeRow(pid);
  }
  const cpuBefore = cpuSeconds(pid, { tree: true });
  // the promise autocannon returns is also its event emitter (autocannon/lib/init.js)
  const run = autocannon({ url: site.base, connections: CONNECTIONS, duration: DURATION, ...opts }) as unknown as Promise<autocannon.Result> & EventEmitter;
  const latencies: string[] = [];
  let gcPauses: PerformanceObserver | undefined;
  if (flags.latencies) {
    const started = performance.now();
    // the row's start on the wall clock, to line answers up with a server-side probe's timestamps
    latencies.push(`# ${name}\tstarted at\t${Date.now()}`);
    const connections = new Map<object, number>();
    run.on("response", (client: object, _status: number, _bytes: number, ms: number) => {
      let n = connections.get(client);
      if (n === undefined) connections.set(client, (n = connections.size));
      latencies.push(`${name}\t${(performance.now() - started).toFixed(1)}\t${n}\t${ms.toFixed(1)}`);
    });
    gcPauses = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.duration > 10) latencies.push(`client GC: ${name}\t${(e.startTime - started).toFixed(1)}\t-1\t${e.duration.toFixed(1)}`);
      }
    });
    gcPauses.observe({ entryTypes: ["gc"] });
  }
  const result = await run;
  gcPauses?.disconnect();
  if (flags.latencies) fs.appendFileSync(flags.latencies, latencies.join("\n") + "\n");
  const cpuAfter = cpuSeconds(pid, { tree: true });
  const answers = result.requests.total;
  return {
    probe: probeFile ? await probeRow(pid) : undefined,
    cpuPerAnswer: cpuBefore === undefined || cpuAfter === undefined || !answers ? undefined : ((cpuAfter - cpuBefore) / answers) * 1e6,
    name,
    perSecond: result.requests.average,
    mean: result.latency.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * Waits until the server's processes are all but idle (under a fifth of a core over 100 ms; at
 * most 5 s). When the warm-up's load generator stops, the requests it had in flight are still
 * rendered, for nobody: up to a batch per process (~190 ms at 250,000 albums, traced), which the
 * measured row's first answers waited behind (ADR 0121, amended 2026-11-27).
 */
async function settled(pid: number) {
  const deadline = Date.now() + 5_000;
  let before = cpuSeconds(pid, { tree: true });
  while (before !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuSeconds(pid, { tree: true });
    if (now === undefined || now - before < 0.02) return;
    before = now;
  }
}

/** Asks the server's processes for their loop delay and GC pauses since the last ask (benchmarks/lib/loop-probe.mjs). */
async function probeRow(pid: number): Promise<string[]> {
  const before = fs.existsSync(probeFile!) ? fs.readFileSync(probeFile!, "utf8").split("\n").filter(Boolean).length : 0;
  const pids = [pid, ...descendantPids(pid)];
  for (const p of pids) process.kill(p, "SIGUSR2");
  const deadline = Date.now() + 10_000;
  let lines: string[] = [];
  while (Date.now() < deadline) {
    lines = fs.existsSync(probeFile!) ? fs.readFileSync(probeFile!, "utf8").split("\n").filter(Boolean).slice(before) : [];
    if (lines.length >= pids.length) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return lines.map((line) => {
    const { pid: p, delayMs: d, gc } = JSON.parse(line) as { pid: number; delayMs: Record<string, number>; gc: Record<string, { count: number; totalMs: number; longestMs: number }> };
    const pauses = Object.entries(gc).map(([kind, g]) => `${kind} ${g.count}× ${g.totalMs.toFixed(0)} ms (longest ${g.longestMs.toFixed(1)})`).join(", ");
    return `pid ${p}: loop delay p50 ${d.p50} ms, p99 ${d.p99} ms, max ${d.max} ms; GC ${pauses || "none"}`;
  });
}

async function runOnce(albums: number, processes: number): Promise<Row[]> {
  const env: Record<string, string> = {
    LOG_LEVEL: "warn",
    WEB_CONCURRENCY: String(processes),
    LEADS_RATE_LIMIT: "100000000",
    // every request comes from 127.0.0.1: the per-client budget of uncached renders would
    // measure the refusal, not the render
    RENDER_RATE_LIMIT: "100000000",
  };
  const nodeArgs = [
    ...flags["node-args"].split(/\s+/).filter(Boolean),
    ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE}`, "--import", path.resolve(import.meta.dirname, "lib/loop-probe.mjs")] : []),
  ];
  if (probeFile) env.LOOP_PROBE_FILE = probeFile;
  const { site, albumsFile, stop } = await startAnalysedSite(albums, env, { nodeArgs });
  try {
    const mix = catalogMix();
    // Warm every URL (and the thumbnail), unmeasured: twice, as a catalog page is stored on its
    // second ask (issue #18, ADR 0085).
    for (const url of [...mix, ...mix.map(asData), "/mission"]) for (let i = 0; i < 2; i++) await (await fetch(site.base + url)).arrayBuffer();
    const html = await (await fetch(`${site.base}/catalog`)).text();
    const img = /src="(\/img\?[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? "/img?w=320&src=%2Fmedia%2Fcover-1.webp";
    await (await fetch(site.base + img, { headers: { Accept: "image/avif,image/webp" } })).arrayBuffer();

    // the long tail's sources, read as a crawler (the sitemap, the track view's links) and from
    // the generated catalog (the words of its titles)
    const words = await catalogWords(albumsFile);
    const items = ONLY.has("items") ? await sitemapPaths(site.base) : [];
    const seeds = ONLY.has("like") ? await likeSeeds(site.base) : [];
    const fresh = (urls: UrlGenerator, map: (url: string) => string = (u) => u): autocannon.Request[] => [
      { method: "GET", setupRequest: (req) => ({ ...req, path: map(urls.next()) }) },
    ];
    const br = { "accept-encoding": "br, gzip" };

    const rows: Row[] = [];
    rows.push(await load(site, "/healthz", { requests: [{ path: "/healthz" }] }));
    if (ONLY.has("mission")) rows.push(await load(site, "/mission", { requests: [{ path: "/mission" }], headers: br }));
    if (ONLY.has("mix")) rows.push(await load(site, "catalog mix (50 URLs, HTML)", { requests: mix.map((p) => ({ path: p })), headers: br }));
    if (ONLY.has("data")) rows.push(await load(site, "catalog mix (50 URLs, .data)", { requests: mix.map((p) => ({ path: asData(p) })), headers: br }));
    if (ONLY.has("tail")) rows.push(await load(site, "long tail: searches, ranges, tempo sort (HTML)", { requests: fresh(searchMix(words, 18)), headers: br }));
    if (ONLY.has("tail-data")) rows.push(await load(site, "long tail: searches, ranges, tempo sort (.data)", { requests: fresh(searchMix(words, 19), asDataUrl), headers: br }));
    if (ONLY.has("items")) rows.push(await load(site, `long tail: item pages in sitemap order (${items.length} in the sitemap)`, { requests: fresh(itemWalk(items)), headers: br }));
    if (ONLY.has("like")) rows.push(await load(site, `long tail: like= views (${seeds.length} seeds)`, { requests: fresh(likeViews(seeds)), headers: br }));
    if (ONLY.has("img")) rows.push(await load(site, "warm /img", { requests: [{ path: img }], headers: { accept: "image/avif,image/webp" } }));
    let n = 0;
    if (ONLY.has("contact")) rows.push(
      await load(site, "contact posts", {
        requests: [
          {
            method: "POST",
            path: "/contact",
            setupRequest: (req) => {
              n++;
              return {
                ...req,
                headers: { ...req.headers, "content-type": "application/x-www-form-urlencoded", origin: site.base },
                body: new URLSearchParams({
                  intent: "contact",
                  idempotencyKey: crypto.randomUUID(),
                  website: "",
                  name: `Load Visitor ${n}`,
                  email: `load${n}@example.org`,
                  subject: `Load test ${n}`,
                  message: "A realistic message of a few sentences about distributing an EP.",
                }).toString(),
              };
            },
          },
        ],
      }),
    );
    return rows;
  } finally {
    await stop();
  }
}

const tables: string[] = [];
for (const albums of ALBUMS) {
  for (const processes of PROCESSES) {
    console.error(`bench:load: ${albums} albums, ${processes} process(es)…`);
    const rows = await runOnce(albums, processes);
    const reference = rows[0].perSecond || 1;
    const lines = [
      `\n${albums.toLocaleString("en-US")} albums, WEB_CONCURRENCY=${processes}, ${CONNECTIONS} connections, ${DURATION} s per row, ${os.cpus().length} CPU(s)\n`,
      // p99 ÷ mean: how much longer the slowest 1 % wait than the mean (issue #32: under 3)
      "| what | req/s | × healthz | mean ms | p50 ms | p99 ms | p99 ÷ mean | errors | server CPU µs/answer |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.name} | ${r.perSecond.toFixed(0)} | ${(r.perSecond / reference).toFixed(3)} | ${r.mean.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p99 / (r.mean || 1)).toFixed(1)} | ${r.errors} | ${r.cpuPerAnswer === undefined ? "n/a" : r.cpuPerAnswer.toFixed(0)} |`,
      ),
    ];
    for (const r of rows) if (r.probe) lines.push(`\n${r.name}:`, ...r.probe.map((p) => `  ${p}`));
    tables.push(lines.join("\n"));
    console.log(lines.join("\n"));
  }
}
