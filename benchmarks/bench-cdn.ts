/**
 * `npm run bench:cdn [-- --albums 25000 --requests 200000 --connections 64 --direct 20000 --down-seconds 60 --seed 7]`
 * Issue #30, ADR 0119: the site on a generated catalog with Varnish in front (the shipped VCL),
 * a seeded Zipf sample (s = 1.1) of item pages from the sitemap, story pages and catalog views,
 * replayed at N connections on a warm cache (each distinct URL asked once before, uncounted,
 * DESIGN.md §3d). Prints the offload (at the origin's CPU-free count: varnishstat's
 * MAIN.backend_req), req/s and p50/p99 through the cache and straight at the origin, origin CPU
 * seconds per 10,000 views, the time until a catalog change shows through the cache, and the
 * share of 200s while the origin is stopped. Every HTML body of every 50th request is checked:
 * its CSP holds the hash of each inline script.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { freePort, startSite } from "./lib/site-process.ts";
import { cpuSeconds } from "./lib/proc.ts";
import { renderVcl, varnishdArgs, varnishdPath } from "../commands/varnish.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values } = parseArgs({
  options: {
    albums: { type: "string", default: "25000" },
    requests: { type: "string", default: "200000" },
    connections: { type: "string", default: "64" },
    direct: { type: "string", default: "20000" },
    "down-seconds": { type: "string", default: "60" },
    seed: { type: "string", default: "7" },
  },
});
const ALBUMS = Number(values.albums);
const REQUESTS = Number(values.requests);
const CONNECTIONS = Number(values.connections);
const DIRECT = Number(values.direct);
const DOWN_SECONDS = Number(values["down-seconds"]);

const varnishd = varnishdPath();
if (!varnishd) {
  console.error("varnishd not found: apt-get install varnish varnish-modules");
  process.exit(1);
}

/** mulberry32: a seeded generator, so two runs replay the same sample */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function zipfSample(urls: string[], n: number, s: number, random: () => number): string[] {
  const weights = urls.map((_, i) => 1 / Math.pow(i + 1, s));
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) cumulative.push((total += w));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    out.push(urls[lo]!);
  }
  return out;
}

const agentFor = (connections: number) => new http.Agent({ keepAlive: true, maxSockets: connections });

function get(agent: http.Agent, port: number, url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: url, agent, headers: { "accept-encoding": "identity" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", () => resolve({ status: 0, headers: {}, body: "" }));
    });
    req.on("error", () => resolve({ status: 0, headers: {}, body: "" }));
  });
}

function cspMatches(csp: string, html: string): boolean {
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(attributes!) || /application\/(ld\+)?json/.test(attributes!)) continue;
    if (!scriptSrc.includes(`'sha256-${crypto.createHash("sha256").update(text!, "utf8").digest("base64")}'`)) return false;
  }
  return true;
}

async function replay(port: number, urls: string[], connections: number, check = false) {
  const agent = agentFor(connections);
  const latencies: number[] = [];
  let next = 0;
  let ok = 0;
  const statuses: Record<string, number> = {};
  const notStored: Record<string, number> = {};
  let cspChecked = 0;
  let cspBad = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < urls.length) {
        const i = next++;
        const t = performance.now();
        const res = await get(agent, port, urls[i]!);
        latencies.push(performance.now() - t);
        if (res.status === 200) ok++;
        if (res.status !== 200 && !statuses[res.status] && process.env.BENCH_CDN_DEBUG) console.log(res.status, urls[i], res.headers["retry-after"], res.body.slice(0, 300).replace(/\s+/g, " "));
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (/no-store|private/.test(String(res.headers["cache-control"]))) {
          const kind = urls[i]!.split("?")[0]!.split("/").slice(0, 3).join("/");
          notStored[kind] = (notStored[kind] ?? 0) + 1;
        }
        if (check && i % 50 === 0 && /text\/html/.test(String(res.headers["content-type"]))) {
          cspChecked++;
          if (!cspMatches(String(res.headers["content-security-policy"] ?? ""), res.body)) cspBad++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { n: urls.length, ok, statuses, notStored, rps: urls.length / seconds, p50: q(0.5), p99: q(0.99), cspChecked, cspBad };
}

/** The origin's CPU, its cluster's workers included (NaN off Linux). */
const originCpu = (pid: number) => cpuSeconds(pid, { tree: true }) ?? NaN;

function backendRequests(workDir: string): number {
  const out = spawnSync("varnishstat", ["-n", workDir, "-1", "-f", "MAIN.backend_req"], { encoding: "utf8" });
  return Number(/MAIN\.backend_req\s+(\d+)/.exec(out.stdout)?.[1] ?? NaN);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cdn-"));
  const sources = path.join(dir, "sources");
  console.log(`generating ${ALBUMS} albums in ${dir}`);
  await writeSampleSources(sources, { albums: ALBUMS, force: true });
  const albumsFile = path.join(sources, "merged.json");
  const originPort = await freePort();
  const cachePort = await freePort();
  const workDir = path.join(dir, "varnishd");
  const vclFile = path.join(dir, "default.vcl");
  fs.writeFileSync(vclFile, renderVcl(`127.0.0.1:${originPort}`, []));
  const cache = spawn(varnishd!, varnishdArgs({ listen: `127.0.0.1:${cachePort}`, vclFile, workDir, storage: "malloc,512m" }), { stdio: "ignore" });
  const siteOptions = {
    port: originPort,
    env: { ALBUMS_URL: albumsFile, CATALOG_REFRESH_SECONDS: "5", CACHE_PURGE_URL: `http://127.0.0.1:${cachePort}/`, LOG_LEVEL: "silent", RENDER_RATE_LIMIT: "1000000", SKIP_BUILD: "1" },
  };
  let site = await startSite(siteOptions);
  try {
    // ready (the catalog index built): before that the site answers 503
    const agent = agentFor(8);
    for (let i = 0; i < 6000 && (await get(agent, originPort, "/readyz")).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    // the URLs: item pages from the sitemap, the story pages, catalog views
    const index = (await get(agent, originPort, "/sitemap.xml")).body;
    const files = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    const pages = new Set<string>();
    for (const file of files.filter((f) => f.endsWith(".xml"))) {
      for (const m of (await get(agent, originPort, file)).body.matchAll(/<loc>([^<]+)<\/loc>/g)) pages.add(new URL(m[1]!).pathname);
    }
    if (!files.some((f) => f.endsWith(".xml"))) for (const f of files) pages.add(f);
    const genres = ["", "Jazz", "Rock", "Pop", "Classical", "Holidays", "Hip-Hop", "Electronic", "Country", "Blues"];
    const views: string[] = [];
    for (const genre of genres) for (let page = 1; page <= 200 && views.length < 2000; page++) views.push(`/catalog?${new URLSearchParams({ ...(genre ? { genre } : {}), page: String(page) })}`);
    const random = rng(Number(values.seed));
    const urls = [...pages, ...views];
    // shuffled once so popularity is not the sitemap's order
    for (let i = urls.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [urls[i], urls[j]] = [urls[j]!, urls[i]!];
    }
    const sample = zipfSample(urls, REQUESTS, 1.1, random);
    const distinct = [...new Set(sample)];
    console.log(`${urls.length} URLs (${pages.size} from the sitemap, ${views.length} catalog views); sample ${REQUESTS}, ${distinct.length} distinct (cold ceiling ${(100 * (1 - distinct.length / REQUESTS)).toFixed(1)} %)`);
    // warm: every distinct URL once, uncounted
    await replay(cachePort, distinct, CONNECTIONS);
    const before = { backend: backendRequests(workDir), cpu: originCpu(site.child.pid!) };
    const through = await replay(cachePort, sample, CONNECTIONS, true);
    const after = { backend: backendRequests(workDir), cpu: originCpu(site.child.pid!) };
    const originRequests = after.backend - before.backend;
    const directSample = sample.slice(0, DIRECT);
    const cpuDirect0 = originCpu(site.child.pid!);
    const direct = await replay(originPort, directSample, CONNECTIONS);
    const cpuDirect = originCpu(site.child.pid!) - cpuDirect0;

    // the origin stopped: what share is still answered 200 (the sample's first 20,000, re-warmed)
    const downSample = sample.slice(0, 20_000);
    await replay(cachePort, [...new Set(downSample)], CONNECTIONS);
    await site.stop();
    const downStart = performance.now();
    // the down sample replayed again and again for --down-seconds
    const down = { n: 0, ok: 0, statuses: {} as Record<string, number> };
    do {
      const round = await replay(cachePort, downSample, CONNECTIONS);
      down.n += round.n;
      down.ok += round.ok;
      for (const [k, v] of Object.entries(round.statuses)) down.statuses[k] = (down.statuses[k] ?? 0) + v;
    } while ((performance.now() - downStart) / 1000 < DOWN_SECONDS);
    const never = await get(agent, cachePort, `/catalog?q=never-asked-${Date.now()}`);
    const downTook = (performance.now() - downStart) / 1000;

    // the origin back (a fresh process on the same port), before the change below: the down
    // phase measures grace on the catalog that was cached, not on 404s of URLs the change moved
    site = await startSite(siteOptions);
    for (let i = 0; i < 6000 && (await get(agent, originPort, "/readyz")).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));

    // a catalog change: the time until /catalog through the cache shows it
    // (every album's artist: an album's id follows its artist and title, so the item URLs move;
    // this is why the origin-down phase runs before it)
    const albums = JSON.parse(fs.readFileSync(albumsFile, "utf8")) as { artist: string }[];
    for (const album of albums) album.artist = `${album.artist} Changed`;
    fs.writeFileSync(`${albumsFile}.tmp`, JSON.stringify(albums));
    const changedAt = performance.now();
    fs.renameSync(`${albumsFile}.tmp`, albumsFile);
    let visibleS = NaN;
    for (let i = 0; i < 1200; i++) {
      if ((await get(agent, cachePort, "/catalog")).body.includes(" Changed")) {
        visibleS = (performance.now() - changedAt) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }

    const rows: [string, string][] = [
      ["requests (through the cache, warm)", String(through.n)],
      ["origin requests (varnishstat MAIN.backend_req)", String(originRequests)],
      ["offload", `${(100 * (1 - originRequests / through.n)).toFixed(2)} % (cold ceiling ${(100 * (1 - distinct.length / REQUESTS)).toFixed(1)} %)`],
      ["through the cache: req/s, p50, p99", `${through.rps.toFixed(0)}, ${through.p50.toFixed(2)} ms, ${through.p99.toFixed(2)} ms`],
      [`straight at the origin (${direct.n} requests): req/s, p50, p99`, `${direct.rps.toFixed(0)}, ${direct.p50.toFixed(2)} ms, ${direct.p99.toFixed(2)} ms`],
      ["origin CPU s per 10,000 views: through the cache / without", `${(((after.cpu - before.cpu) / through.n) * 10_000).toFixed(2)} / ${((cpuDirect / direct.n) * 10_000).toFixed(2)}`],
      ["a catalog change visible through the cache after", `${visibleS.toFixed(1)} s (sync every 5 s)`],
      [`origin down: answered 200 (${down.n} requests, ${downTook.toFixed(1)} s)`, `${((100 * down.ok) / down.n).toFixed(2)} %; a never-asked URL: ${never.status}`],
      ["statuses through the cache / origin down", `${JSON.stringify(through.statuses)} / ${JSON.stringify(down.statuses)}`],
      ["answers marked no-store (by path)", JSON.stringify(through.notStored)],
      ["HTML bodies checked for CSP hashes / mismatches", `${through.cspChecked} / ${through.cspBad}`],
    ];
    console.log(`\nbench:cdn — ${ALBUMS} albums, ${CONNECTIONS} connections, Zipf s=1.1, seed ${values.seed} (machine shared with other work)\n`);
    for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
    agent.destroy();
  } finally {
    await site.stop().catch(() => undefined);
    cache.kill("SIGTERM");
    await new Promise((r) => cache.once("exit", r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
