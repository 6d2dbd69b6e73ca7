import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverLogLines, url } from "./support/browser.ts";
import { expectScriptsHashed } from "./support/csp.ts";
import { STATIC_PAGE_PATHS } from "../../app/lib/static-pages.ts";

describe("server foundation", () => {
  it("runs in production mode when started as npm start does, and says so in its start-up log", () => {
    const listening = serverLogLines().filter((line) => line.msg === "server listening");
    expect(listening.length).toBeGreaterThan(0);
    expect(listening.map((line) => line.nodeEnv)).toEqual(listening.map(() => "production"));
  });

  it("answers GET /healthz with 200", async () => {
    const res = await fetch(url("/healthz"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("sends the security headers and a hash-based CSP without unsafe-inline scripts (ADR 0119)", async () => {
    const res = await fetch(url("/mission"));
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("permissions-policy")).toContain("camera=()");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    // every inline script of the page is allowed by its hash
    expect(expectScriptsHashed(csp, await res.text())).toBeGreaterThan(0);
  });

  it("sends every response of a cached page the same bytes and CSP", async () => {
    const a = await fetch(url("/board"));
    const b = await fetch(url("/board"));
    expect(b.headers.get("x-page-cache")).toBe("HIT");
    expect(b.headers.get("content-security-policy")).toBe(a.headers.get("content-security-policy"));
    const html = await b.text();
    expect(html).toBe(await a.text());
    expectScriptsHashed(b.headers.get("content-security-policy"), html);
  });

  it("sends HSTS only for requests that arrived over HTTPS through the trusted proxy", async () => {
    const res = await fetch(url("/healthz"), { headers: { "X-Forwarded-Proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it("compresses HTML and caches hashed assets immutably", async () => {
    const res = await fetch(url("/"), { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const html = await res.text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)![0];
    const assetRes = await fetch(url(asset));
    expect(assetRes.status).toBe(200);
    expect(assetRes.headers.get("cache-control")).toContain("immutable");
    expect(assetRes.headers.get("cache-control")).toContain("max-age=31536000");

    // fixed-name files under public/assets/<folder>/ must be able to change
    const logo = await fetch(url("/assets/board/" + fs.readdirSync(path.resolve(import.meta.dirname, "../../public/assets/board"))[0]));
    expect(logo.status).toBe(200);
    expect(logo.headers.get("cache-control")).not.toContain("immutable");
    expect(logo.headers.get("cache-control")).toContain("max-age=86400");
  });

  it("answers an unknown asset with 404, not the app", async () => {
    const res = await fetch(url("/assets/does-not-exist.js"));
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/at \w+ \(/);
  });

  it("redirects /aibrands to /ai-brands and /team to /board with 301, storable by a shared cache (DESIGN.md §3, deviation 3)", async () => {
    for (const [from, to] of [["/aibrands", "/ai-brands"], ["/team", "/board"], ["/team/", "/board"]]) {
      const res = await fetch(url(from), { redirect: "manual" });
      expect(res.status, from).toBe(301);
      expect(res.headers.get("location"), from).toBe(to);
      expect(res.headers.get("cache-control"), from).toMatch(/public.*s-maxage=\d+/);
    }
    // issue #41: the footer's "Our Team" lands on the board page
    const followed = await fetch(url("/team"));
    expect(followed.status).toBe(200);
    expect(new URL(followed.url).pathname).toBe("/board");
  });

  it("makes each story page's .data storable and validated like its HTML (issue #42, DESIGN.md §3d)", async () => {
    const dataUrl = (page: string) => (page === "/" ? "/_.data" : `${page}.data`);
    for (const page of STATIC_PAGE_PATHS) {
      const html = await fetch(url(page));
      const data = await fetch(url(dataUrl(page)));
      expect(data.status, page).toBe(200);
      expect(data.headers.get("cache-control"), page).toBe(html.headers.get("cache-control"));
      expect(data.headers.get("cache-control"), page).toMatch(/^public, .*s-maxage=[1-9]/);
      expect(data.headers.get("surrogate-key"), page).toBe(html.headers.get("surrogate-key"));
      expect(data.headers.get("set-cookie"), page).toBeNull();
      const etag = data.headers.get("etag");
      expect(etag, page).toMatch(/^W\//);
      expect(etag, page).not.toBe(html.headers.get("etag")); // two answers never share a validator
      const again = await fetch(url(dataUrl(page)), { headers: { "If-None-Match": etag! } });
      expect(again.status, page).toBe(304);
      // a client navigation names the loaders it needs: the same page, its own validator
      const routes = await fetch(url(`${dataUrl(page)}?_routes=root`));
      expect(routes.headers.get("cache-control"), page).toBe(html.headers.get("cache-control"));
      expect((await fetch(url(`${dataUrl(page)}?_routes=root`), { headers: { "If-None-Match": routes.headers.get("etag")! } })).status, page).toBe(304);
    }
    // Home shows featured albums: a catalog change purges its HTML and its .data
    expect((await fetch(url("/_.data"))).headers.get("surrogate-key")).toMatch(/\bcatalog\b/);
    // the contact form's data holds fresh form keys: never stored
    expect((await fetch(url("/contact.data"))).headers.get("cache-control")).toMatch(/no-store/);
  });

  it("serves robots.txt and a sitemap listing every page", async () => {
    const robots = await (await fetch(url("/robots.txt"))).text();
    expect(robots).toContain("Sitemap: ");
    const sitemap = await (await fetch(url("/sitemap.xml"))).text();
    for (const p of ["/", "/catalog", "/mission", "/board", "/innovation", "/ai-brands", "/investors", "/podcasts", "/partners", "/web3", "/contact", "/privacy", "/terms"]) {
      expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+:\\d+${p.replace("/", "\\/")}</loc>`));
    }
  });

  it("stops with a message naming the variable when the configuration is bad", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const run = spawnSync(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "not-a-port", SKIP_BUILD: "1" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("PORT:");
  });
});
