import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSite, type RunningSite } from "./support/server-process.ts";
import { expectScriptsHashed } from "./support/csp.ts";

/**
 * Issue #18, ADR 0085, on the built site over loopback: a catalog page is stored only when it is
 * asked a second time; uncached renders are budgeted per client (RENDER_RATE_LIMIT per
 * RENDER_RATE_WINDOW_SECONDS), past it 429 with Retry-After and a plain reason; cached pages,
 * static pages and files answer whatever the budget. Clients are told apart by
 * X-Forwarded-For, which the server trusts from loopback (TRUST_PROXY's default).
 */
const LIMIT = 6;
let site: RunningSite;
let cluster: RunningSite | undefined;
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-render-budget-"));

const start = (env: Record<string, string>, name: string) =>
  startSite({
    output: { file: path.join(logDir, `${name}.log`) },
    env: { SKIP_BUILD: "1", LOG_LEVEL: "warn", ANALYSIS_WORKER: "false", RENDER_RATE_LIMIT: String(LIMIT), RENDER_RATE_WINDOW_SECONDS: "600", ...env },
    timeoutMs: 120_000,
  });

beforeAll(async () => {
  site = await start({}, "one");
}, 150_000);
afterAll(async () => {
  await site?.stop();
  await cluster?.stop();
  if (!process.env.KEEP_E2E_DATA) fs.rmSync(logDir, { recursive: true, force: true });
});

const get = (base: string, url: string, client: string, headers: Record<string, string> = {}) =>
  fetch(base + url, { headers: { "x-forwarded-for": client, ...headers } });

describe("catalog page admission (issue #18)", () => {
  it("answers a page asked once without storing it, stores it on the second ask, and serves the third from memory", async () => {
    const client = "198.51.100.1";
    const cacheOf = async (url: string) => {
      const res = await get(site.base, url, client);
      await res.arrayBuffer();
      expect(res.status, url).toBe(200);
      return res.headers.get("x-page-cache");
    };
    for (const url of ["/catalog?genre=Jazz&page=2", "/catalog.data?genre=Jazz&page=2", `/catalog/albums/${await firstAlbumId()}`]) {
      expect([await cacheOf(url), await cacheOf(url), await cacheOf(url)], url).toEqual(["MISS", "MISS", "HIT"]);
    }
  });

  it("sends an unstored page compressed as the client asked, with its scripts' hashes in its CSP", async () => {
    // a browser's header: brotli is preferred whatever the order
    const res = await get(site.base, "/catalog?q=admission+once", "198.51.100.2", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(res.headers.get("x-page-cache")).toBe("MISS");
    expect(res.headers.get("content-encoding")).toBe("br");
    // fetch decodes brotli: the page is whole and its scripts are allowed by their hashes
    const html = await res.text();
    expect(html).toContain("</html>");
    expect(expectScriptsHashed(res.headers.get("content-security-policy"), html)).toBeGreaterThan(0);
    const gzip = await get(site.base, "/catalog?q=admission+gzip", "198.51.100.2", { "accept-encoding": "gzip" });
    expect([gzip.headers.get("x-page-cache"), gzip.headers.get("content-encoding")]).toEqual(["MISS", "gzip"]);
    expect(await gzip.text()).toContain("</html>");
  });
});

async function firstAlbumId(): Promise<string> {
  const xml = await (await fetch(`${site.base}/sitemap.xml`)).text();
  return /\/catalog\/albums\/([^/<]+)/.exec(xml)![1]!;
}

describe("render budget (issue #18)", () => {
  it("refuses a client's uncached renders past the budget with 429, Retry-After and a reason, and still serves it cached pages, static pages and files", async () => {
    const client = "203.0.113.7";
    // a page stored for everyone by another client (asked twice), and an asset from the build
    for (let i = 0; i < 2; i++) await (await get(site.base, "/catalog?genre=Latin", "192.0.2.50")).arrayBuffer();
    const home = await (await get(site.base, "/", "192.0.2.50")).text();
    const asset = /(\/assets\/[^"]+\.js)"/.exec(home)![1]!;

    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await get(site.base, `/catalog?q=unique+${i}+${Date.now()}`, client);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(LIMIT).fill(200));

    const refused = await get(site.base, `/catalog?q=one+more+${Date.now()}`, client);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await refused.text()).toMatch(/^Too many requests: .*try again in \d+ s\.\n$/);
    // an item page, its .data and any other render (a 404) are renders too
    expect((await get(site.base, `/catalog/albums/${await firstAlbumId()}?from=%2Fcatalog%3Fpage%3D7`, client)).status).toBe(429);
    expect((await get(site.base, `/catalog.data?q=one+more+${Date.now()}`, client)).status).toBe(429);
    expect((await get(site.base, `/no-such-page-${Date.now()}`, client)).status).toBe(429);

    // never limited: a stored catalog page, a static page, a file, the health check
    const cached = await get(site.base, "/catalog?genre=Latin", client);
    expect([cached.status, cached.headers.get("x-page-cache")]).toEqual([200, "HIT"]);
    expect((await get(site.base, "/mission", client)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await get(site.base, asset, client)).status).toBe(200);
    expect((await get(site.base, "/healthz", client)).status).toBe(200);

    // another client is not affected; an IPv6 neighbour in the same /64 shares its network's budget
    expect((await get(site.base, `/catalog?q=someone+else+${Date.now()}`, "192.0.2.51")).status).toBe(200);
    for (let i = 0; i < LIMIT; i++) await (await get(site.base, `/catalog?q=v6+${i}+${Date.now()}`, "2001:db8:1:2::a")).arrayBuffer();
    expect((await get(site.base, `/catalog?q=v6+next+${Date.now()}`, "2001:db8:1:2::b")).status).toBe(429);
    expect((await get(site.base, `/catalog?q=v6+other+${Date.now()}`, "2001:db8:1:3::a")).status).toBe(200);
  });

  it("counts one budget across the processes of a cluster (WEB_CONCURRENCY=2)", { timeout: 150_000 }, async () => {
    cluster = await start({ WEB_CONCURRENCY: "2" }, "cluster");
    const statuses: number[] = [];
    // a new connection each time, so both processes answer some of them
    for (let i = 0; i < LIMIT * 2; i++) {
      statuses.push(await statusOnNewConnection(`${cluster.base}/catalog?q=cluster+${i}+${Date.now()}`, "203.0.113.99"));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT)).toEqual(Array(LIMIT).fill(429));
  });
});

/** GET on a connection of its own (no keep-alive agent), so the cluster's processes share the requests. */
function statusOnNewConnection(url: string, client: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { "x-forwarded-for": client } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      })
      .on("error", reject);
  });
}
