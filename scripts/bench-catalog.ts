// `npm run bench:catalog [-- --sizes 25000,250000 --requests 300]`
//
// Builds sample catalogs of 25,000 and 250,000 albums (about 10 tracks each) with the
// catalog-sync generator and, for each, measures in one run:
// - the time to build the catalog index (in process, through the real CatalogService);
// - the in-process query time of filtered catalog pages (p50 / p95, cold first hits too);
// - the server time of a filtered catalog response over real HTTP against a started server
//   (`node server.ts`), for the HTML page and for the `.data` payload of a client navigation;
// - the bytes sent for that page (gzip, as served) next to merged.json, and the ratio;
// - the server's memory (RSS) and the in-process heap held by the snapshot + index.
// Nothing here asserts a time: it prints what it measured.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import zlib from "node:zlib";
import { parseConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { startCatalog } from "../app/.server/catalog/service.ts";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { createCatalogIndex } from "../app/.server/catalog/index.ts";
import { parseCatalogState } from "../app/lib/catalog/url-state.ts";
import { startSite } from "../tests/e2e/support/server-process.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "25000,250000" },
    requests: { type: "string", default: "300" },
    keep: { type: "boolean", default: false },
  },
});
const sizes = values.sizes.split(",").map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0);
const requests = Math.max(20, Number(values.requests) || 300);

/** The headline request: a filtered page of music, as a visitor would open it. */
const HEADLINE = "genre=Jazz&sub=Oldies+Jazz&page=2";
/** A spread of filtered views, so the timings are not one cached key. */
const FILTERED = [
  HEADLINE,
  "genre=Latin&sub=Mexican",
  "genre=African&sub=Ghana&page=2",
  "genre=Children&sub=Religion&sub=Christian+Holidays",
  "genre=House&sub=Afro+House&page=3",
  "genre=Relaxing",
  "genre=Jazz&q=blue",
  "genre=Occasion&sub=New+Year&page=2",
];

// A collectable heap for the memory figure, without asking for `node --expose-gc`.
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), p95: quantile(s, 0.95), max: s[s.length - 1] };
};
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1e3).toFixed(1)} kB`;

/** GET over a fresh loopback request; returns time to the last byte and the bytes received. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number; bytes: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, bytes: body.length, body });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kbs = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kbs * 1024;
}

function startServer(dataDir: string, env: Record<string, string>) {
  return startSite({ dataDir, env: { LOG_LEVEL: "warn", OUTBOX_WORKER: "false", ...env }, timeoutMs: 600_000 });
}

interface Row {
  albums: number;
  mergedBytes: number;
  mergedGzip: number;
  indexBuildMs: number;
  inProcess: ReturnType<typeof stats>;
  coldMax: number;
  heapMb: number;
  httpHtml: ReturnType<typeof stats>;
  httpData: ReturnType<typeof stats>;
  htmlGzip: number;
  dataGzip: number;
  dataRaw: number;
  serverRss: number;
  firstRequestMs: number;
}

async function benchSize(albums: number): Promise<Row> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-catalog-${albums}-`));
  const dataDir = path.join(dir, "data");
  const sourceDir = path.join(dir, "sources");
  fs.mkdirSync(dataDir, { recursive: true });
  console.log(`\n== ${albums.toLocaleString("en-US")} albums (${dir})`);
  let started = performance.now();
  await writeSampleSources(sourceDir, { albums, force: true });
  const merged = path.join(sourceDir, "merged.json");
  const mergedBytes = fs.statSync(merged).size;
  const mergedGzip = zlib.gzipSync(fs.readFileSync(merged), { level: 6 }).length;
  console.log(`generated merged.json ${mb(mergedBytes)} (gzip ${mb(mergedGzip)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // ---- in process: the real service reading the file, then the index over its snapshot
  const env = { DATA_DIR: dataDir, ALBUMS_URL: merged, LOG_LEVEL: "silent", CATALOG_REFRESH_SECONDS: "86400" };
  const config = parseConfig(env);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  started = performance.now();
  const service = await startCatalog({ config, logger: createLogger("silent"), refresh: false });
  const syncMs = performance.now() - started;
  const index = createCatalogIndex(service);
  started = performance.now();
  index.query(parseCatalogState(new URLSearchParams("")));
  const indexBuildMs = performance.now() - started;
  console.log(`service start (sample sources + read + validate ${service.snapshot().albums.length.toLocaleString("en-US")} albums) ${ms(syncMs)}; index build ${ms(indexBuildMs)}`);

  const cold: number[] = [];
  for (const q of FILTERED) {
    const t = performance.now();
    index.query(parseCatalogState(new URLSearchParams(q)));
    cold.push(performance.now() - t);
  }
  const samples: number[] = [];
  for (let i = 0; i < requests * 4; i++) {
    const q = FILTERED[i % FILTERED.length];
    const t = performance.now();
    const state = parseCatalogState(new URLSearchParams(q));
    index.query(state);
    index.musicLevels(state.filters.genres, state.filters.subGenres);
    samples.push(performance.now() - t);
  }
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  await service.close();

  // ---- over HTTP: a started server reading the same merged.json
  started = performance.now();
  const site = await startServer(dataDir, { ALBUMS_URL: merged, CATALOG_REFRESH_SECONDS: "86400" });
  const { child, base } = site;
  console.log(`server up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const gzip = { "accept-encoding": "gzip" };
  const first = await get(`${base}/catalog?${HEADLINE}`, gzip);
  // Warm-up (JIT, the per-filter caches, background sample-media generation) is not measured.
  for (let i = 0; i < FILTERED.length * 5; i++) {
    await get(`${base}/catalog?${FILTERED[i % FILTERED.length]}`, gzip);
    await get(`${base}/catalog.data?${FILTERED[i % FILTERED.length]}`, gzip);
  }
  const htmlTimes: number[] = [];
  const dataTimes: number[] = [];
  let htmlGzip = 0;
  let dataGzip = 0;
  for (let i = 0; i < requests; i++) {
    const q = FILTERED[i % FILTERED.length];
    const html = await get(`${base}/catalog?${q}`, gzip);
    const data = await get(`${base}/catalog.data?${q}`, gzip);
    if (html.status !== 200 || data.status !== 200) throw new Error(`unexpected status ${html.status}/${data.status} for ${q}`);
    htmlTimes.push(html.ms);
    dataTimes.push(data.ms);
    if (q === HEADLINE) {
      htmlGzip = html.bytes;
      dataGzip = data.bytes;
    }
  }
  const dataRaw = (await get(`${base}/catalog.data?${HEADLINE}`)).bytes;
  const serverRss = rssOf(child.pid!);
  await site.stop();
  if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });

  return {
    albums,
    mergedBytes,
    mergedGzip,
    indexBuildMs,
    inProcess: stats(samples),
    coldMax: Math.max(...cold),
    heapMb,
    httpHtml: stats(htmlTimes),
    httpData: stats(dataTimes),
    htmlGzip,
    dataGzip,
    dataRaw,
    serverRss,
    firstRequestMs: first.ms,
  };
}

const rows: Row[] = [];
for (const n of sizes) rows.push(await benchSize(n));

const table: [string, ...string[]][] = [
  ["albums", ...rows.map((r) => r.albums.toLocaleString("en-US"))],
  ["merged.json (raw / gzip)", ...rows.map((r) => `${mb(r.mergedBytes)} / ${mb(r.mergedGzip)}`)],
  ["index build", ...rows.map((r) => ms(r.indexBuildMs))],
  ["query in process p50 / p95", ...rows.map((r) => `${ms(r.inProcess.p50)} / ${ms(r.inProcess.p95)}`)],
  ["query in process, cold first hit (max)", ...rows.map((r) => ms(r.coldMax))],
  ["HTTP .data p50 / p95", ...rows.map((r) => `${ms(r.httpData.p50)} / ${ms(r.httpData.p95)}`)],
  ["HTTP HTML p50 / p95", ...rows.map((r) => `${ms(r.httpHtml.p50)} / ${ms(r.httpHtml.p95)}`)],
  ["first request after start", ...rows.map((r) => ms(r.firstRequestMs))],
  ["page bytes: .data gzip (raw)", ...rows.map((r) => `${kb(r.dataGzip)} (${kb(r.dataRaw)})`)],
  ["page bytes: HTML gzip", ...rows.map((r) => kb(r.htmlGzip))],
  ["merged.json gzip ÷ .data gzip", ...rows.map((r) => `${Math.round(r.mergedGzip / r.dataGzip).toLocaleString("en-US")}×`)],
  ["merged.json raw ÷ .data raw", ...rows.map((r) => `${Math.round(r.mergedBytes / r.dataRaw).toLocaleString("en-US")}×`)],
  ["merged.json gzip ÷ HTML gzip", ...rows.map((r) => `${Math.round(r.mergedGzip / r.htmlGzip).toLocaleString("en-US")}×`)],
  ["server RSS after the run", ...rows.map((r) => mb(r.serverRss))],
  ["heap held by snapshot + index (in process)", ...rows.map((r) => `${r.heapMb.toFixed(0)} MB`)],
];
const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
console.log(`\nFiltered page: /catalog?${HEADLINE} (${requests} HTML + ${requests} .data requests over loopback, ${FILTERED.length} filtered views in rotation)\n`);
for (const [i, row] of table.entries()) {
  console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c])).join(" | ")} |`);
  if (i === 0) console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
}
