// `node labs/lighthouse-ab.ts [--routes /catalog,/partners/film] [--runs 3] [--variants plain,inline-css,cv,no-logos]`
//
// Issue #41, ADR 0160 (amended 2026-11-29): Lighthouse (mobile, simulated throttling, the same
// settings as bench:lighthouse) against the built site through loopback proxies that each rewrite
// the HTML one way, alternated run by run so that the machine's load falls on every variant alike.
// The proxies compress with brotli, as the site does. Variants:
//   plain       the page as served (the control: the same proxy, no change)
//   inline-css  the render-blocking stylesheet inlined as a <style> (style-src allows it)
//   cv          content-visibility: auto on the partner tiles after the eighth and on the footer
//   no-logos    the partner logos after the eighth not displayed (so not loaded)
// Prints each run's score, FCP, LCP, TBT and Speed Index. Nothing is kept in the product from it;
// it measured what ADR 0160's amendment reports.
import http from "node:http";
import zlib from "node:zlib";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, startSite } from "../benchmarks/lib/site-process.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

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
  "no-logos": async (html) => html.replace("</head>", "<style>ul[aria-label] > li:nth-child(n+9) img{display:none}</style></head>"),
};

const variants = values.variants.split(",").map((v) => v.trim());
for (const v of variants) if (!VARIANTS[v]) throw new Error(`unknown variant ${v}: ${Object.keys(VARIANTS).join(", ")}`);

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const site = await startSite({ port, env: { SITE_URL: origin, LOG_LEVEL: "warn" } });

/** One proxy per variant: the site's answers, the HTML rewritten, text compressed with brotli. */
async function proxy(rewrite: (html: string, origin: string) => Promise<string>) {
  const server = http.createServer(async (req, res) => {
    try {
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
        console.log(`run ${i + 1} ${route} ${p.variant.padEnd(10)} ${score} FCP ${ms("first-contentful-paint")} LCP ${ms("largest-contentful-paint")} TBT ${ms("total-blocking-time")} SI ${ms("speed-index")}`);
      }
    }
  }
} finally {
  chrome.kill();
  for (const p of proxies) p.close();
  await site.stop();
}
