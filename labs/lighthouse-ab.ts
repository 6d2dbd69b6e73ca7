// `node labs/lighthouse-ab.ts [--routes /catalog,/partners/film] [--runs 3] [--variants plain,inline-css,cv,no-logos,sprite,sprite-12,sprite-24,eager-low]`
//
// Issue #41, ADR 0160 (amended 2026-11-29): Lighthouse (mobile, simulated throttling, the same
// settings as bench:lighthouse) against the built site through loopback proxies that each rewrite
// the HTML one way, alternated run by run so that the machine's load falls on every variant alike.
// The proxies compress with brotli, as the site does. Variants:
//   plain       the page as served (the control: the same proxy, no change)
//   inline-css  the render-blocking stylesheet inlined as a <style> (style-src allows it)
//   cv          content-visibility: auto on the partner tiles after the eighth and on the footer
//   no-logos    the partner logos after the eighth not displayed (so not loaded)
//   sprite      every partner logo of a directory cut from one WebP sprite (400×200 cells, six
//               columns) through its own <img alt> in a clipping box, so they all arrive at once
//   sprite-12, sprite-24   the same from sprites of 12 or 24 logos each
//   eager-low   the partner logos loaded eagerly at low priority (no loading="lazy")
//   png-favicon the favicon linked as a PNG instead of the SVG
//   a+b         variant a, then b (sprite-12+png-favicon)
// Prints each run's score, FCP, LCP, TBT and Speed Index, and from the run's trace the page's
// main thread: its CPU time from navigation on (`cpu`), the simulated TBT from thread time (each
// top-level task after FCP, CPU time × 4, less 50 ms: `tTBT`), the same from wall time as
// Lighthouse's simulator reads it (`wTBT`), and the frames painted after FCP (`paints`).
// LAB_TRACE_DIR=<folder> also writes each run's trace there.
// Nothing is kept in the product from it; it measured what ADR 0160's amendments report.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import zlib from "node:zlib";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, startSite } from "../benchmarks/lib/site-process.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";
import { filmPartners, musicPartners } from "../app/content/partners.ts";

helpFromHeader(import.meta.filename);

const { values } = parseArgs({
  options: {
    routes: { type: "string", default: "/catalog,/partners/film" },
    runs: { type: "string", default: "3" },
    variants: { type: "string", default: "plain,inline-css" },
  },
});

const VARIANTS: Record<string, (html: string, origin: string) => Promise<string>> = {
  plain: async (html) => html,
  "inline-css": async (html, origin) => {
    const link = html.match(/<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"[^>]*>/);
    if (!link) return html;
    const css = await (await fetch(origin + link[1])).text();
    return html.replace(link[0], `<style>${css}</style>`);
  },
  cv: async (html) =>
    html.replace(
      "</head>",
      "<style>ul[aria-label] > li:nth-child(n+9){content-visibility:auto;contain-intrinsic-size:auto 100px} footer{content-visibility:auto;contain-intrinsic-size:auto 600px}</style></head>",
    ),
  sprite: (html) => spriteVariant(html, 1000),
  "sprite-12": (html) => spriteVariant(html, 12),
  "sprite-24": (html) => spriteVariant(html, 24),
  // the favicon as a PNG: Chromium renders an SVG favicon as an SVG document on the page's main
  // thread after the first paint (two of them, 15–80 ms of wall time each on this machine)
  "png-favicon": async (html) =>
    html.replace(/<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml"\/>/, '<link rel="icon" href="/icons/icon-192.png" type="image/png" sizes="192x192"/>'),
  "eager-low": async (html) => html.replace(/(<img src="\/assets\/dsps\/[^"]+") ([^>]*?)loading="lazy"/g, '$1 fetchpriority="low" $2'),
  "no-logos": async (html) => html.replace("</head>", "<style>ul[aria-label] > li:nth-child(n+9) img{display:none}</style></head>"),
};

const variants = values.variants.split(",").map((v) => v.trim());
for (const v of variants) {
  for (const part of v.split("+")) if (!VARIANTS[part]) throw new Error(`unknown variant ${part}: ${Object.keys(VARIANTS).join(", ")}`);
  const parts = v.split("+").map((part) => VARIANTS[part]!);
  VARIANTS[v] ??= async (html, origin) => {
    for (const rewrite of parts) html = await rewrite(html, origin);
    return html;
  };
}

const SPRITE_COLUMNS = 6;
const SPRITE_URL = (category: string, size: number, chunk: number) => `/assets/dsps/lab-sprite-${category}-${size}-${chunk}.webp`;
const spriteFiles = new Map<string, Buffer>();

/** WebPs of a directory's logos, `size` logos each, 400×200 cells in six columns (cached in the temp folder). */
async function sprites(category: "music" | "film", size: number) {
  const partners = category === "music" ? musicPartners : filmPartners;
  const [w, h] = [400, 200];
  for (let chunk = 0; chunk * size < partners.length; chunk++) {
    const file = path.join(os.tmpdir(), `lab-logo-sprite-${category}-${partners.length}-${size}-${chunk}.webp`);
    if (!fs.existsSync(file)) {
      const logos = partners.slice(chunk * size, (chunk + 1) * size);
      const tiles = await Promise.all(
        logos.map(async (p, i) => ({
          input: await sharp(path.join(import.meta.dirname, "../public", p.logo)).resize(w, h).png().toBuffer(),
          left: (i % SPRITE_COLUMNS) * w,
          top: Math.floor(i / SPRITE_COLUMNS) * h,
        })),
      );
      const canvas = { width: SPRITE_COLUMNS * w, height: Math.ceil(logos.length / SPRITE_COLUMNS) * h, channels: 4 as const, background: { r: 0, g: 0, b: 0, alpha: 0 } };
      fs.writeFileSync(file, await sharp({ create: canvas }).composite(tiles).webp({ quality: 80, effort: 6 }).toBuffer());
    }
    spriteFiles.set(SPRITE_URL(category, size, chunk), fs.readFileSync(file));
  }
}
for (const v of variants) {
  for (const part of v.split("+")) {
    const size = part === "sprite" ? 1000 : Number(/^sprite-(\d+)$/.exec(part)?.[1] ?? 0);
    if (size) for (const category of ["music", "film"] as const) await sprites(category, size);
  }
}

/** The page with every logo cut from its directory's sprites, `size` logos a sprite. */
async function spriteVariant(html: string, size: number) {
  const index = { music: 0, film: 0 };
  return html
    .replace(
      "</head>",
      `<style>.lg-cell{position:relative;display:block;aspect-ratio:2/1;overflow:hidden;border-radius:14px}.lg-cell>img{position:absolute;max-width:none;width:${SPRITE_COLUMNS * 100}%;height:auto}</style></head>`,
    )
    .replace(/<img src="\/assets\/dsps\/(music|film)\/[^"]+\.png"([^>]*?) width="200" height="100"([^>]*?) class="[^"]*"\/>/g, (_, category: "music" | "film", before: string, after: string) => {
      const i = index[category]++;
      const total = (category === "music" ? musicPartners : filmPartners).length;
      const chunk = Math.floor(i / size);
      const rows = Math.ceil(Math.min(size, total - chunk * size) / SPRITE_COLUMNS);
      const j = i % size;
      return `<span class="lg-cell"><img src="${SPRITE_URL(category, size, chunk)}"${before} width="${SPRITE_COLUMNS * 200}" height="${rows * 100}"${after} style="left:${-(j % SPRITE_COLUMNS) * 100}%;top:${-Math.floor(j / SPRITE_COLUMNS) * 100}%"/></span>`;
    });
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { frames?: Array<{ processId?: number; parent?: string }> } };
}

/** The page's main thread read from the trace: CPU time, thread-time and wall-time TBT after FCP. */
function threadTime(events: TraceEvent[]) {
  // the renderer's main thread is the one that marked the first contentful paint
  const fcpMark = events.find((e) => e.name === "firstContentfulPaint");
  if (!fcpMark) return "no FCP in the trace";
  const onMain = events.filter((e) => e.pid === fcpMark.pid && e.tid === fcpMark.tid);
  const navigationId = (fcpMark.args as { data?: { navigationId?: string } } | undefined)?.data?.navigationId;
  const navigationStart =
    onMain.find((e) => e.name === "navigationStart" && (e.args as { data?: { navigationId?: string } } | undefined)?.data?.navigationId === navigationId)?.ts ?? 0;
  const tasks = onMain.filter((e) => e.ph === "X" && e.name === "RunTask" && e.ts >= navigationStart);
  const cpu = tasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0) / 1000;
  const after = tasks.filter((t) => t.ts >= fcpMark.ts);
  const tbt = (ms: (t: TraceEvent) => number) => Math.round(after.reduce((sum, t) => sum + Math.max(0, ms(t) * 4 - 50), 0));
  const tTBT = tbt((t) => (t.tdur ?? 0) / 1000);
  const wTBT = tbt((t) => (t.dur ?? 0) / 1000);
  const paints = onMain.filter((e) => e.name === "Paint" && e.ts >= fcpMark.ts).length;
  return `cpu ${Math.round(cpu)} tTBT ${tTBT} wTBT ${wTBT} paints ${paints}`;
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const site = await startSite({ port, env: { SITE_URL: origin, LOG_LEVEL: "warn" } });

/** One proxy per variant: the site's answers, the HTML rewritten, text compressed with brotli. */
async function proxy(rewrite: (html: string, origin: string) => Promise<string>) {
  const server = http.createServer(async (req, res) => {
    try {
      const sprite = spriteFiles.get(req.url ?? "");
      if (sprite) {
        res.writeHead(200, { "content-type": "image/webp", "cache-control": "public, max-age=86400" }).end(sprite);
        return;
      }
      const upstream = await fetch(origin + req.url, { headers: { "accept-encoding": "identity", accept: req.headers.accept ?? "*/*" } });
      const type = upstream.headers.get("content-type") ?? "";
      let body: Buffer = Buffer.from(await upstream.arrayBuffer());
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!["content-length", "content-encoding", "transfer-encoding", "connection", "etag"].includes(name)) headers[name] = value;
      });
      if (type.includes("text/html")) body = Buffer.from(await rewrite(body.toString(), origin));
      if (/text|css|javascript|json|svg/.test(type) && /br/.test(String(req.headers["accept-encoding"] ?? ""))) {
        body = zlib.brotliCompressSync(body);
        headers["content-encoding"] = "br";
      }
      res.writeHead(upstream.status, headers).end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  const p = await freePort();
  await new Promise<void>((resolve) => server.listen(p, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${p}`, close: () => server.close() };
}

const proxies = await Promise.all(variants.map(async (v) => ({ variant: v, ...(await proxy(VARIANTS[v]!)) })));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  // as bench:lighthouse: a first run warms Chromium (its first trace can lose navigationStart)
  await lighthouse(proxies[0]!.url + "/", { port: chrome.port, logLevel: "silent", onlyCategories: ["seo"] });
  for (let i = 0; i < Math.max(1, Number(values.runs) || 1); i++) {
    for (const route of values.routes.split(",").map((r) => r.trim())) {
      for (const p of proxies) {
        const result = await lighthouse(p.url + route, { port: chrome.port, logLevel: "error", onlyCategories: ["performance"] });
        if (!result) throw new Error(`Lighthouse returned nothing for ${route}`);
        const audits = result.lhr.audits;
        const ms = (id: string) => Math.round(audits[id]?.numericValue ?? NaN);
        const score = Math.round((result.lhr.categories.performance?.score ?? 0) * 100);
        const events = (result.artifacts.Trace?.traceEvents ?? []) as unknown as TraceEvent[];
        if (process.env.LAB_TRACE_DIR) {
          fs.writeFileSync(path.join(process.env.LAB_TRACE_DIR, `${p.variant}-${route.replaceAll("/", "_")}-${i + 1}.json`), JSON.stringify(events));
        }
        const trace = threadTime(events);
        console.log(
          `run ${i + 1} ${route} ${p.variant.padEnd(22)} ${score} FCP ${ms("first-contentful-paint")} LCP ${ms("largest-contentful-paint")} TBT ${ms("total-blocking-time")} SI ${ms("speed-index")} | ${trace}`,
        );
      }
    }
  }
} finally {
  chrome.kill();
  for (const p of proxies) p.close();
  await site.stop();
}
