// `node labs/lighthouse-ab.ts [--routes /catalog,/partners/film] [--runs 3] [--variants plain,inline-css,cv,no-logos,sprite,sprite-12,sprite-24,eager-low,png-favicon,png32-favicon,no-favicon,prefetch-after-load,no-latin-ext,no-sw,sw-at-load,svg-favicon,no-svg-icon,svg-icon,prefetch-idle,no-prefetch]`
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
//   png-favicon the favicon linked as a PNG instead of the SVG (the 192 px icon)
//   png32-favicon  the favicon linked as a 32×32 PNG drawn from favicon.svg
//   no-favicon  a diagnostic: the favicon link an empty data: URL (what the favicon costs at most)
//   prefetch-after-load  ADR 0160's module prefetch after the load event instead of the first paint
//   prefetch-idle  the same prefetch after the load event, at the main thread's next idle moment
//   no-prefetch a diagnostic: no module prefetch at all
//   no-latin-ext a diagnostic: /catalog's only letters outside Inter's Latin subset replaced
//   no-sw       a diagnostic: /sw.js answers 404 (no service worker install during the run)
//   sw-at-load  the service worker registered at the load event (as before the sixth session)
//   svg-favicon the favicon linked as favicon.svg (for a build that links favicon.ico)
//   no-svg-icon the web manifest without its SVG icon (Chromium's install check fetches it)
//   svg-icon    the web manifest with favicon.svg first (for a build that no longer lists it)
//   a+b         variant a, then b (sprite-12+png-favicon)
// Prints each run's score, FCP, LCP, TBT and Speed Index, and from the run's trace the page's
// main thread: its CPU time from navigation on (`cpu`), the simulated TBT from thread time (each
// top-level task after FCP, CPU time × 4, less 50 ms: `tTBT`), the same from wall time as
// Lighthouse's simulator reads it (`wTBT`), and the frames painted after FCP (`paints`).
// LAB_TRACE_DIR=<folder> also writes each run's trace and Lighthouse report (`.lhr.json`) there.
// Nothing is kept in the product from it; it measured what ADR 0160's amendments report.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, startSite } from "../benchmarks/lib/site-process.ts";
import { recompressingProxy } from "./lib/recompressing-proxy.ts";
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
  // issue #41 (ADR 0150, amended 2026-11-29, sixth session): a 32×32 raster of the same mark,
  // drawn from public/favicon.svg when the lab starts, served by the proxy
  "png32-favicon": async (html) =>
    html.replace(/<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml"\/>/, '<link rel="icon" href="/lab-favicon-32.png" type="image/png" sizes="32x32"/>'),
  // ADR 0160's loader prefetches the framework modules at the first paint; on /catalog the cover
  // often paints after that, and Lighthouse's LCP graph counts every request sent before it
  // (144 KB of modules): here the prefetch waits for the load event and the frame after it.
  // The proxy drops this variant's CSP header (the loader's hash changes).
  "prefetch-after-load": async (html) =>
    html.replace(
      'function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}',
      'function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}if(D.readyState!=="complete"){W.addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(painted)})});return}',
    ),
  // issue #41 (ADR 0150, amended 2026-11-29, seventh session): the prefetch waits for the load
  // event and then for an idle moment of the main thread (requestIdleCallback, at most 3 s),
  // not for the first paint, when the first frames' compositing shares the cores with it
  "prefetch-idle": async (html) =>
    html.replace(
      'function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}',
      'function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}if(!W.__lh){W.__lh=1;var R=function(){W.requestIdleCallback?W.requestIdleCallback(painted,{timeout:3000}):setTimeout(painted,200)};if(D.readyState==="complete")R();else W.addEventListener("load",R);return}',
    ),
  // a diagnostic: no module prefetch at all (what the prefetch's task costs at most)
  "no-prefetch": async (html) => html.replace('function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}var f=', 'function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}var f=[],f0='),
  // a diagnostic, not a candidate: the sample catalog's one title in Twi ("Akwaaba Me Dɔ Wo Ɔdɔ")
  // is the only text of /catalog outside Inter's Latin subset, so it alone loads the 86 KB
  // latin-ext font (at the highest priority, before the largest paint); here its two letters become o/O
  "no-latin-ext": async (html) => html.replaceAll("ɔ", "o").replaceAll("Ɔ", "O"),
  // a diagnostic: the proxy answers 404 for /sw.js, so the service worker's install (which
  // precaches every hashed asset right after the load on document pages) does not run
  "no-sw": async (html) => html,
  // the reverse of ADR 0150's sixth-session change on document pages: the service worker
  // registered at the load event again, not at the first interaction (CSP header dropped)
  "sw-at-load": async (html) =>
    html.replace("</body>", '<script>addEventListener("load",function(){navigator.serviceWorker.register("/sw.js",{scope:"/"})})</script></body>'),
  // the reverse of what the site now links (ADR 0150, amended): the SVG favicon instead of favicon.ico
  "svg-favicon": async (html) => html.replace(/<link rel="icon" href="\/favicon\.ico"[^>]*\/>/, '<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>'),
  // a diagnostic, not a candidate: no favicon at all (an empty data: URL), the floor of what the favicon costs
  "no-favicon": async (html) => html.replace(/<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml"\/>/, '<link rel="icon" href="data:,"/>'),
  "eager-low": async (html) => html.replace(/(<img src="\/assets\/dsps\/[^"]+") ([^>]*?)loading="lazy"/g, '$1 fetchpriority="low" $2'),
  "no-logos": async (html) => html.replace("</head>", "<style>ul[aria-label] > li:nth-child(n+9) img{display:none}</style></head>"),
};

interface WebManifest {
  icons: { src: string; sizes: string; type: string }[];
}
/** Variants that also rewrite the web manifest (the proxy applies them to /manifest.webmanifest). */
const MANIFEST_VARIANTS: Record<string, (manifest: WebManifest) => WebManifest> = {
  // Chromium fetches a manifest icon after the load (its install check) and prefers the scalable
  // one: favicon.svg, drawn as an SVG document on the page's main thread like the linked favicon
  "no-svg-icon": (manifest) => ({ ...manifest, icons: manifest.icons.filter((icon) => icon.type !== "image/svg+xml") }),
  // the reverse, for a build whose manifest no longer lists it
  "svg-icon": (manifest) => ({ ...manifest, icons: [{ src: "/favicon.svg", sizes: "any", type: "image/svg+xml" }, ...manifest.icons.filter((icon) => icon.type !== "image/svg+xml")] }),
};
VARIANTS["no-svg-icon"] = async (html) => html;
VARIANTS["svg-icon"] = async (html) => html;

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
spriteFiles.set(
  "/lab-favicon-32.png",
  await sharp(path.join(import.meta.dirname, "../public/favicon.svg"), { density: 288 }).resize(32, 32).png({ compressionLevel: 9 }).toBuffer(),
);
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
function proxy(rewrite: (html: string, origin: string) => Promise<string>, variant: string) {
  const manifestRewrites = variant.split("+").flatMap((part) => MANIFEST_VARIANTS[part] ?? []);
  return recompressingProxy(origin, {
    answer(req, res) {
      if (req.url === "/sw.js" && variant.split("+").includes("no-sw")) {
        res.writeHead(404).end();
        return true;
      }
      const sprite = spriteFiles.get(req.url ?? "");
      if (!sprite) return false;
      res.writeHead(200, { "content-type": req.url?.endsWith(".png") ? "image/png" : "image/webp", "cache-control": "public, max-age=86400" }).end(sprite);
      return true;
    },
    async change(req, type, body, headers) {
      if (type.includes("text/html")) body = Buffer.from(await rewrite(body.toString(), origin));
      if (variant.split("+").some((part) => ["prefetch-after-load", "prefetch-idle", "no-prefetch", "sw-at-load"].includes(part))) delete headers["content-security-policy"];
      if (req.url === "/manifest.webmanifest" && manifestRewrites.length) {
        let manifest = JSON.parse(body.toString()) as WebManifest;
        for (const change of manifestRewrites) manifest = change(manifest);
        body = Buffer.from(JSON.stringify(manifest));
      }
      return body;
    },
  });
}

const proxies = await Promise.all(variants.map(async (v) => ({ variant: v, ...(await proxy(VARIANTS[v]!, v)) })));
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
});
try {
  // as bench:lighthouse: each route loaded once before (the server's page cache and cover
  // thumbnails, as on a site that served the page before: ADR 0150, amended 2026-11-29, seventh
  // session), which also warms Chromium (its first trace can lose navigationStart)
  for (const route of values.routes.split(",").map((r) => r.trim())) {
    await fetch(origin + route).then((r) => r.arrayBuffer());
    await lighthouse(proxies[0]!.url + route, { port: chrome.port, logLevel: "silent", onlyCategories: ["seo"] });
  }
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
          fs.writeFileSync(path.join(process.env.LAB_TRACE_DIR, `${p.variant}-${route.replaceAll("/", "_")}-${i + 1}.lhr.json`), JSON.stringify(result.lhr));
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
