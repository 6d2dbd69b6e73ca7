// `npm run bench:sitemap [-- --albums 250000 --requests 50]`
//
// Issue #11, ADR 0097: builds a sample catalog of 250,000 albums (the catalog-sync generator, as
// `npm run bench:catalog` does), starts the server on it (`node server.ts`), and measures over
// real HTTP, for /sitemap.xml (the index) and every /sitemaps/N.xml file:
// - the first answer (the file built: the item list walked, the XML written through gzip);
// - the answers from the cache, as a search engine asks (gzip), p50 / p95 / max;
// - the same without gzip (the kept bytes decompressed as a stream);
// - the bytes sent and the URLs each file holds;
// and the server's resident memory before and after. Nothing here asserts a time: it prints
// what it measured.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { cpuSeconds, rssBytes } from "./lib/proc.ts";
import { startSite } from "./lib/site-process.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values } = parseArgs({
  options: {
    albums: { type: "string", default: "250000" },
    requests: { type: "string", default: "50" },
  },
});
const albums = Math.max(1, Number(values.albums) || 250_000);
const requests = Math.max(5, Number(values.requests) || 50);

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

function get(url: string, headers: Record<string, string>): Promise<{ status: number; ms: number; body: Buffer; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks), encoding: res.headers["content-encoding"] }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

const rssOf = (pid: number): number => rssBytes(pid) ?? NaN;
/** CPU time of a process so far, in ms. */
const cpuMsOf = (pid: number): number => (cpuSeconds(pid) ?? NaN) * 1000;

async function settled(pid: number, maxMs = 180_000) {
  const deadline = Date.now() + maxMs;
  let last = cpuMsOf(pid);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = cpuMsOf(pid);
    if (now - last < 50) return;
    last = now;
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-sitemap-${albums}-`));
const dataDir = path.join(dir, "data");
const sourceDir = path.join(dir, "sources");
fs.mkdirSync(dataDir, { recursive: true });
console.log(`== ${albums.toLocaleString("en-US")} albums (${dir})`);
let started = performance.now();
await writeSampleSources(sourceDir, { albums, force: true });
console.log(`generated merged.json in ${((performance.now() - started) / 1000).toFixed(1)} s`);

started = performance.now();
const site = await startSite({
  dataDir,
  env: { LOG_LEVEL: "warn", OUTBOX_WORKER: "false", ALBUMS_URL: path.join(sourceDir, "merged.json"), CATALOG_REFRESH_SECONDS: "86400" },
  timeoutMs: 600_000,
});
const pid = site.child.pid!;
console.log(`server up in ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${mb(rssOf(pid))}`);
// The server builds the track index (issue #10) in the background after start: measure once its
// CPU time stops growing (2 s without more than 50 ms of it), so the figures are the sitemap's.
started = performance.now();
await settled(pid);
console.log(`server idle after another ${((performance.now() - started) / 1000).toFixed(1)} s, RSS ${mb(rssOf(pid))}`);

const gzip = { "accept-encoding": "gzip" };
try {
  const index = await get(`${site.base}/sitemap.xml`, gzip);
  const indexXml = zlib.gunzipSync(index.body).toString("utf8");
  const files = [...indexXml.matchAll(/<loc>[^<]*\/sitemaps\/(\d+)\.xml<\/loc>/g)].map((m) => `/sitemaps/${m[1]}.xml`);
  if (!files.length) throw new Error(`/sitemap.xml is not an index at ${albums} albums`);
  const rows: string[][] = [["file", "URLs", "gzip bytes", "first answer (build)", "cached gzip p50 / p95 / max", "cached, plain p50 / max"]];
  let slowest = 0;
  for (const file of ["/sitemap.xml", ...files]) {
    const first = file === "/sitemap.xml" ? index : await get(`${site.base}${file}`, gzip);
    if (first.status !== 200 || first.encoding !== "gzip") throw new Error(`${file}: ${first.status} ${first.encoding}`);
    const urls = (zlib.gunzipSync(first.body).toString("utf8").match(/<loc>/g) ?? []).length;
    const cached: number[] = [];
    for (let i = 0; i < requests; i++) cached.push((await get(`${site.base}${file}`, gzip)).ms);
    const plain: number[] = [];
    for (let i = 0; i < Math.ceil(requests / 5); i++) {
      const res = await get(`${site.base}${file}`, {});
      if (res.encoding) throw new Error(`${file}: encoded without Accept-Encoding`);
      plain.push(res.ms);
    }
    cached.sort((a, b) => a - b);
    plain.sort((a, b) => a - b);
    slowest = Math.max(slowest, cached.at(-1)!);
    rows.push([
      file,
      urls.toLocaleString("en-US"),
      first.body.length.toLocaleString("en-US"),
      ms(first.ms),
      `${ms(quantile(cached, 0.5))} / ${ms(quantile(cached, 0.95))} / ${ms(cached.at(-1)!)}`,
      `${ms(quantile(plain, 0.5))} / ${ms(plain.at(-1)!)}`,
    ]);
  }
  console.log(`\nSitemap at ${albums.toLocaleString("en-US")} albums, ${requests} cached requests per file over loopback (one at a time)\n`);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  rows.forEach((row, i) => {
    console.log(`| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(" | ")} |`);
    if (i === 0) console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  });
  console.log(`\nslowest cached answer of any file: ${ms(slowest)}; server RSS after: ${mb(rssOf(pid))}`);
} finally {
  await site.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
