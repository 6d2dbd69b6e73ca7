// `npm run bench:catalog [-- --sizes 25000,250000 --requests 300 --dump DIR --in-process]`
//
// Builds sample catalogs of 25,000 and 250,000 albums (about 10 tracks each) with the
// catalog-sync generator and, for each, measures in one run:
// - the time to build the catalog index (in process, through the real CatalogService);
// - the in-process query time of filtered catalog pages (p50 / p95, cold first hits too);
// - the server time of a filtered catalog response over real HTTP against a started server
//   (`node server.ts`), for the HTML page and for the `.data` payload of a client navigation;
// - the bytes sent for that page (gzip, as served) next to merged.json, and the ratio;
// - the server's resident memory (issue #8, ADR 0082), read from /proc/<pid>/status: after
//   start-up, after the first page, after a load burst (32 concurrent clients: filtered pages,
//   searches, album sheets, HTML and .data), settled (5 s idle), and the peak (VmHWM, reset
//   first through /proc/<pid>/clear_refs) while the server re-syncs a changed merged.json on
//   its own periodic sync and rebuilds its index, the old one serving meanwhile;
// - the in-process heap held by the snapshot + index.
// - the track view and the catalog search (issue #10), over the same catalog with every track
//   given its own audio key and ~90 % of them a synthetic analysis result seeded into the
//   data folder's analysis store: the track index's build time and added memory (in process),
//   the p50 / p95 of track views (tempo, length, key and genre filters, orders, pages; each
//   first hit, i.e. uncached, and repeated), of track searches (typos, prefixes, several
//   words), and of the album view's search before (substring) and after (the catalog search);
//   then over HTTP against the started server: the first track page after start (before the
//   album pages above are measured: it waits for the track index's build), track views
//   and searches (.data, each URL once, so no page cache hit), the server's RSS after them.
// `--dump DIR` also saves the HTML of 20 catalog URLs (nonces blanked), so two builds can be
// compared byte for byte. `--in-process` stops after the in-process part (the track index and
// the searches: issue #41's before/after of the search, ADR 0142) and prints its figures.
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
import { createServices } from "../app/.server/services.ts";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { parseCatalogState } from "../app/lib/catalog/url-state.ts";
import { startSite } from "./lib/site-process.ts";
import { trackQueryOf } from "../app/lib/catalog/url-state.ts";
import type { TracksState } from "../app/lib/catalog/types.ts";
import { ALBUM_SEARCHES, seedAnalysis, TRACK_SEARCHES, trackViews } from "./lib/bench-tracks.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "25000,250000" },
    requests: { type: "string", default: "300" },
    keep: { type: "boolean", default: false },
    dump: { type: "string" },
    "in-process": { type: "boolean", default: false },
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

/** A process's resident memory (VmRSS) or its peak since the last reset (VmHWM), in bytes. */
function memOf(pid: number, field: "VmRSS" | "VmHWM" = "VmRSS"): number {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    throw new Error(`the server (pid ${pid}) is gone`);
  }
  const kbs = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kbs * 1024;
}

/**
 * Peak resident memory of `pid` while `during` runs: VmHWM after resetting it (Linux
 * clear_refs "5"), and, where that reset is refused, the highest VmRSS sampled every 50 ms.
 */
async function peakDuring(pid: number, during: () => Promise<void>): Promise<number> {
  let sampled = memOf(pid);
  let resettable = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    resettable = false;
  }
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, memOf(pid));
    } catch {
      // the server is gone: `during` fails on its next request
    }
  }, 50);
  try {
    await during();
  } finally {
    clearInterval(timer);
  }
  return Math.max(sampled, resettable ? memOf(pid, "VmHWM") : 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `clients` loops over `urls` until `total` requests are answered; throws on a non-200. */
async function burst(urls: string[], total: number, clients: number, headers: Record<string, string>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < total; i = next++) {
        const res = await get(urls[i % urls.length], headers);
        if (res.status !== 200) throw new Error(`unexpected status ${res.status} for ${urls[i % urls.length]}`);
      }
    }),
  );
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
  firstRequestMs: number;
  rss: { startup: number; firstPage: number; afterLoad: number; settled: number; syncPeak: number; afterSync: number };
  syncMs: number;
  tracks: TrackFigures;
}

interface TrackFigures {
  count: number;
  analysed: number;
  seedMs: number;
  buildWallMs: number;
  tableMs: number;
  figuresMs: number;
  addedMb: number;
  searchMb: number;
  viewCold: ReturnType<typeof stats>;
  viewWarm: ReturnType<typeof stats>;
  searchCold: ReturnType<typeof stats>;
  searchWarm: ReturnType<typeof stats>;
  albumSearchBefore: ReturnType<typeof stats>;
  albumSearchAfter: ReturnType<typeof stats>;
  albumHitsBefore: number;
  albumHitsAfter: number;
  httpFirstMs: number;
  httpView: ReturnType<typeof stats>;
  httpSearch: ReturnType<typeof stats>;
  rssAfter: number;
}

const tracksState = (q: string) => parseCatalogState(new URLSearchParams(q)) as TracksState;

/** Times `run` over `items`, each once (first hits), then `rounds` more times (repeats). */
async function coldWarm(items: string[], rounds: number, run: (item: string) => unknown) {
  const cold: number[] = [];
  for (const item of items) {
    const t = performance.now();
    await run(item);
    cold.push(performance.now() - t);
  }
  const warm: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const item of items) {
      const t = performance.now();
      await run(item);
      warm.push(performance.now() - t);
    }
  }
  return { cold: stats(cold), warm: stats(warm) };
}

async function benchSize(albums: number): Promise<Row | null> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-catalog-${albums}-`));
  const dataDir = path.join(dir, "data");
  const sourceDir = path.join(dir, "sources");
  fs.mkdirSync(dataDir, { recursive: true });
  console.log(`\n== ${albums.toLocaleString("en-US")} albums (${dir})`);
  let started = performance.now();
  await writeSampleSources(sourceDir, { albums, force: true, distinctAudio: true });
  const merged = path.join(sourceDir, "merged.json");
  const mergedBytes = fs.statSync(merged).size;
  const mergedGzip = zlib.gzipSync(fs.readFileSync(merged), { level: 6 }).length;
  console.log(`generated merged.json ${mb(mergedBytes)} (gzip ${mb(mergedGzip)}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // ---- in process: the real service reading the file, then the index over its snapshot
  const env = { DATA_DIR: dataDir, ALBUMS_URL: merged, LOG_LEVEL: "silent", CATALOG_REFRESH_SECONDS: "86400", ANALYSIS_WORKER: "false" };
  const config = parseConfig(env);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  started = performance.now();
  // as the server builds them (the composition root), but nothing warmed: each build is timed here
  const services = await createServices({ config, logger: createLogger("silent"), roles: { catalog: true, catalogIndex: false }, catalog: { refresh: false } });
  const service = services.catalog!;
  const { catalogIndex: index, tracks: trackIndex } = services.indexes!;
  const syncMs = performance.now() - started;
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
    if (state.view === "albums") index.musicLevels(state.genre, state.subGenres);
    samples.push(performance.now() - t);
  }
  // album sheets for the load burst and the page comparison (ids are stable: ADR 0060)
  const sheetIds = index
    .query(parseCatalogState(new URLSearchParams("genre=Jazz")))
    .items.slice(0, 4)
    .map((card) => card.id);
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

  // ---- the track view and the search (issue #10), in process
  started = performance.now();
  const seeded = seedAnalysis(dataDir, albums);
  const seedMs = performance.now() - started;
  console.log(`seeded ${seeded.toLocaleString("en-US")} analysis results in ${ms(seedMs)}`);
  const searchQuery = (q: string) => parseCatalogState(new URLSearchParams({ q }));
  let albumHitsBefore = 0;
  const albumBefore = await coldWarm(ALBUM_SEARCHES, 5, (q) => (albumHitsBefore += index.query(searchQuery(q)).total));
  const heapUsed = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  const beforeTracks = heapUsed();
  started = performance.now();
  // as the server builds it: the first full read of the figures in the build worker (ADR 0100, amended)
  await trackIndex.ready();
  const buildWallMs = performance.now() - started;
  const trackStats = trackIndex.stats()!;
  // the heap's growth and the index's typed arrays by its own count: most come from its build
  // worker, and process.memoryUsage().arrayBuffers does not count a transferred buffer
  const addedMb = (heapUsed() - beforeTracks + trackStats.arrayBytes + trackStats.searchBytes) / 1e6;
  console.log(
    `track index: ${trackStats.tracks.toLocaleString("en-US")} tracks (${trackStats.analysed.toLocaleString("en-US")} analysed), built in ${ms(buildWallMs)} ` +
      `(work: table + search ${ms(trackStats.buildMs)}, figures ${ms(trackStats.figuresMs)}), ${addedMb.toFixed(0)} MB added`,
  );
  const views = trackViews(Math.max(60, requests));
  const view = await coldWarm(views, 3, (q) => trackIndex.query(trackQueryOf(tracksState(q))));
  const searches = await coldWarm(TRACK_SEARCHES, 10, (q) => trackIndex.query(trackQueryOf(tracksState(`view=tracks&q=${encodeURIComponent(q)}`))));
  let albumHitsAfter = 0;
  const albumAfter = await coldWarm(ALBUM_SEARCHES, 5, (q) => (albumHitsAfter += index.query(searchQuery(q)).total));
  const { searchBytes } = trackIndex.stats()!;
  await services.close();
  if (values["in-process"]) {
    const p = (x: ReturnType<typeof stats>) => `${ms(x.p50)} / ${ms(x.p95)}`;
    console.log(`track view p50 / p95 first hits ${p(view.cold)}, repeated ${p(view.warm)}`);
    console.log(`track search p50 / p95 first hits ${p(searches.cold)}, repeated ${p(searches.warm)}`);
    console.log(`album search p50 / p95 first hits ${p(albumAfter.cold)}, ${(albumHitsAfter / (ALBUM_SEARCHES.length * 6)).toFixed(0)} albums a search; search ${(searchBytes / 1e6).toFixed(1)} MB`);
    if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }

  // ---- over HTTP: a started server reading the same merged.json, re-syncing it every 2 s
  // (a stat while it is unchanged), so that the re-sync below runs the server's own sync path
  started = performance.now();
  const site = await startServer(dataDir, { ALBUMS_URL: merged, CATALOG_REFRESH_SECONDS: "2" });
  const { child, base } = site;
  const pid = child.pid!;
  console.log(`server up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const rss = { startup: memOf(pid), firstPage: 0, afterLoad: 0, settled: 0, syncPeak: 0, afterSync: 0 };
  // The track index is built in the background at start (seconds at 2.5 million tracks); the
  // first track page waits for it. Measured first, so the album pages below are not measured
  // while it builds.
  const trackStarted = performance.now();
  const firstTracks = await get(`${base}/catalog.data?type=music&view=tracks`);
  if (firstTracks.status !== 200) throw new Error(`track view answered ${firstTracks.status}`);
  const httpFirstMs = performance.now() - trackStarted;
  const gzip = { "accept-encoding": "gzip" };
  const first = await get(`${base}/catalog?${HEADLINE}`, gzip);
  rss.firstPage = memOf(pid);

  if (values.dump) {
    const dumpDir = path.join(values.dump, String(albums));
    fs.mkdirSync(dumpDir, { recursive: true });
    const pages = [
      "",
      "page=2",
      ...FILTERED,
      "q=love",
      "q=love&page=2",
      "genre=Latin&sub=Mexican&page=3",
      "type=film",
      "type=singles",
      "type=singles&genre=Pop",
      "type=channels",
      ...sheetIds.slice(0, 3).map((id) => `genre=Jazz&item=${id}`),
    ];
    for (const [n, q] of pages.entries()) {
      const page = await get(`${base}/catalog?${q}`);
      // the CSP nonce differs on every response
      const html = page.body.toString("utf8").replace(/nonce="[^"]*"/g, 'nonce=""').replace(/"nonce":"[^"]*"/g, '"nonce":""');
      fs.writeFileSync(path.join(dumpDir, `${String(n).padStart(2, "0")}.html`), `<!-- /catalog?${q} ${page.status} -->\n${html}`);
    }
    console.log(`saved ${pages.length} catalog pages in ${dumpDir}`);
  }

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

  // a load burst: 32 clients over filtered pages, searches (each a new match list) and sheets
  const mix = [...FILTERED, ...["love", "blue", "night", "gold", "sun", "e"].map((w) => `q=${w}`), ...sheetIds.map((id) => `genre=Jazz&item=${id}`)];
  const burstUrls = mix.flatMap((q) => [`${base}/catalog?${q}`, `${base}/catalog.data?${q}`]);
  await burst(burstUrls, requests * 4, 32, gzip);
  rss.afterLoad = memOf(pid);
  await sleep(5000);
  rss.settled = memOf(pid);

  const timed = async (urls: string[]) => {
    const times: number[] = [];
    for (const u of urls) {
      const res = await get(u, gzip);
      if (res.status !== 200) throw new Error(`unexpected status ${res.status} for ${u}`);
      times.push(res.ms);
    }
    return stats(times);
  };
  // other views than in process (seed 11): each URL once, so the page cache never answers
  const httpView = await timed(trackViews(Math.max(60, requests), 11).map((q) => `${base}/catalog.data?${q}`));
  const httpSearch = await timed(
    [...TRACK_SEARCHES, ...TRACK_SEARCHES.map((q) => `${q} ${q.slice(0, 3)}`)].map((q) => `${base}/catalog.data?type=music&view=tracks&q=${encodeURIComponent(q)}`),
  );
  const rssAfterTracks = memOf(pid);

  // re-sync: merged.json rewritten with other albums; the server's periodic sync reads it
  // while the old index serves, then the first page after it builds the new index
  // the page's albums, without the catalog's updatedAt (it moves with every change of any source)
  const albumsShown = async () => {
    const page = await get(`${base}/catalog.data?${HEADLINE}`);
    return page.status === 200 ? page.body.toString("utf8").replace(/"updatedAt","[^"]*"/, "") : "";
  };
  const before = await albumsShown();
  started = performance.now();
  rss.syncPeak = await peakDuring(pid, async () => {
    await writeSampleSources(sourceDir, { albums, seed: 20261122, force: true, distinctAudio: true });
    const deadline = Date.now() + 600_000;
    for (;;) {
      const shown = await albumsShown();
      if (shown && shown !== before) break;
      if (Date.now() > deadline) throw new Error("the server did not pick up the changed merged.json");
      await sleep(250);
    }
  });
  const resyncMs = performance.now() - started;
  rss.afterSync = memOf(pid);
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
    firstRequestMs: first.ms,
    rss,
    syncMs: resyncMs,
    tracks: {
      count: trackStats.tracks,
      analysed: trackStats.analysed,
      seedMs,
      buildWallMs,
      tableMs: trackStats.buildMs,
      figuresMs: trackStats.figuresMs,
      addedMb,
      searchMb: searchBytes / 1e6,
      viewCold: view.cold,
      viewWarm: view.warm,
      searchCold: searches.cold,
      searchWarm: searches.warm,
      albumSearchBefore: albumBefore.cold,
      albumSearchAfter: albumAfter.cold,
      albumHitsBefore: albumHitsBefore / (ALBUM_SEARCHES.length * 6),
      albumHitsAfter: albumHitsAfter / (ALBUM_SEARCHES.length * 6),
      httpFirstMs,
      httpView,
      httpSearch,
      rssAfter: rssAfterTracks,
    },
  };
}

const rows: Row[] = [];
for (const n of sizes) {
  const row = await benchSize(n);
  if (row) rows.push(row);
}
if (!rows.length) process.exit(0);

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
  ["server RSS after start-up", ...rows.map((r) => mb(r.rss.startup))],
  ["server RSS after the first page", ...rows.map((r) => mb(r.rss.firstPage))],
  ["server RSS after a load burst (32 clients)", ...rows.map((r) => mb(r.rss.afterLoad))],
  ["server RSS settled (5 s idle)", ...rows.map((r) => mb(r.rss.settled))],
  ["server RSS peak during a re-sync + index rebuild", ...rows.map((r) => mb(r.rss.syncPeak))],
  ["server RSS after the re-sync", ...rows.map((r) => mb(r.rss.afterSync))],
  ["re-sync until the new page is served", ...rows.map((r) => `${(r.syncMs / 1000).toFixed(1)} s`)],
  ["heap held by snapshot + index (in process)", ...rows.map((r) => `${r.heapMb.toFixed(0)} MB`)],
];
const p = (x: ReturnType<typeof stats>) => `${ms(x.p50)} / ${ms(x.p95)}`;
table.push(
  ["tracks (analysed)", ...rows.map((r) => `${r.tracks.count.toLocaleString("en-US")} (${r.tracks.analysed.toLocaleString("en-US")})`)],
  ["analysis results seeded in", ...rows.map((r) => `${(r.tracks.seedMs / 1000).toFixed(1)} s`)],
  ["track index build, wall (work: table + search / figures)", ...rows.map((r) => `${(r.tracks.buildWallMs / 1000).toFixed(1)} s (${(r.tracks.tableMs / 1000).toFixed(1)} / ${(r.tracks.figuresMs / 1000).toFixed(1)} s)`)],
  ["track index added memory (of it, search)", ...rows.map((r) => `${r.tracks.addedMb.toFixed(0)} MB (${r.tracks.searchMb.toFixed(0)} MB)`)],
  ["track view in process p50 / p95, first hits", ...rows.map((r) => p(r.tracks.viewCold))],
  ["track view in process p50 / p95, repeated", ...rows.map((r) => p(r.tracks.viewWarm))],
  ["track search in process p50 / p95, first hits", ...rows.map((r) => p(r.tracks.searchCold))],
  ["track search in process p50 / p95, repeated", ...rows.map((r) => p(r.tracks.searchWarm))],
  ["album search p50 / p95 first hits: substring (before)", ...rows.map((r) => `${p(r.tracks.albumSearchBefore)}, ${r.tracks.albumHitsBefore.toFixed(0)} albums a search`)],
  ["album search p50 / p95 first hits: catalog search (after)", ...rows.map((r) => `${p(r.tracks.albumSearchAfter)}, ${r.tracks.albumHitsAfter.toFixed(0)} albums a search`)],
  ["HTTP first track page after start (waits for the build)", ...rows.map((r) => ms(r.tracks.httpFirstMs))],
  ["HTTP track view .data p50 / p95 (uncached)", ...rows.map((r) => p(r.tracks.httpView))],
  ["HTTP track search .data p50 / p95 (uncached)", ...rows.map((r) => p(r.tracks.httpSearch))],
  ["server RSS after the track views", ...rows.map((r) => mb(r.tracks.rssAfter))],
);
const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
console.log(`\nFiltered page: /catalog?${HEADLINE} (${requests} HTML + ${requests} .data requests over loopback, ${FILTERED.length} filtered views in rotation)\n`);
for (const [i, row] of table.entries()) {
  console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c])).join(" | ")} |`);
  if (i === 0) console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
}
