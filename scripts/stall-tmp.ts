import fs from "node:fs"; import os from "node:os"; import path from "node:path";
import autocannon from "autocannon";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { startSite } from "./lib/site-process.ts";
import { itemWalk, sitemapPaths } from "./lib/long-tail.ts";
const albums = Number(process.argv[2] ?? 25000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stall-"));
await writeSampleSources(dir, { albums, seed: 20240105, force: true });
const site = await startSite({ env: { NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS ?? "", LOG_LEVEL: "info", ALBUMS_URL: path.join(dir, "merged.json"), RENDER_RATE_LIMIT: "100000000" }, output: { file: "/tmp/stall-server.log" }, timeoutMs: 600_000 });
const items = itemWalk(await sitemapPaths(site.base));
const t0 = performance.now(); const slow: string[] = [];
let stop = false;
const poll = (async () => { while (!stop) {
  const a = performance.now(); await (await fetch(site.base + "/healthz")).text(); const d = performance.now() - a;
  if (d > 300) slow.push(`${((a - t0) / 1000).toFixed(1)}s: ${d.toFixed(0)} ms`);
  await new Promise((r) => setTimeout(r, 20)); } })();
const r = await autocannon({ url: site.base, connections: 64, duration: 20, requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: items.next() }) }], headers: { "accept-encoding": "br, gzip" } });
stop = true; await poll;
console.log(r.requests.average, r.latency.p50, r.latency.p99);
console.log(slow.join("\n") || "no stall > 300 ms");

await site.stop();
