import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startSite, type RunningSite } from "./support/server-process.ts";
import { renderVcl, varnishdArgs, varnishdPath } from "../../commands/varnish.ts";
import { waitFor } from "../support/wait.ts";
import { parseEml } from "../support/mail-peers.ts";
import { writeSampleSources } from "../../app/.server/catalog/sample/ensure.ts";

// Issue #30, ADR 0119: the site behind a real Varnish (deploy/varnish/default.vcl), started
// here on free loopback ports. Skipped with a reason when varnishd is missing outside CI.
const varnishd = varnishdPath();
if (!varnishd && process.env.CI === "true") throw new Error("varnishd is missing: .ci/run installs varnish varnish-modules");
if (!varnishd) console.warn("varnish.test.ts skipped: varnishd is missing (apt-get install varnish varnish-modules)");

let origin: RunningSite;
let cache: ChildProcess;
let cacheBase: string;
let cachePort: number;
let workDir: string;
let albumsFile: string;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function request(pathname: string, opts: { method?: string; headers?: Record<string, string>; body?: string; from?: string; port?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: opts.port ?? cachePort, path: pathname, method: opts.method ?? "GET", headers: opts.headers, localAddress: opts.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

async function startVarnish(backendPort: number) {
  const vclFile = path.join(workDir, "default.vcl");
  fs.writeFileSync(vclFile, renderVcl(`127.0.0.1:${backendPort}`, []));
  cache = spawn(varnishd!, varnishdArgs({ listen: `127.0.0.1:${cachePort}`, vclFile, workDir: path.join(workDir, "varnishd"), storage: "malloc,64m" }), {
    stdio: "ignore",
  });
}

function contactForm(subject: string): string {
  return new URLSearchParams({
    intent: "contact",
    idempotencyKey: crypto.randomUUID(),
    website: "",
    name: "Cache Visitor",
    email: "visitor@example.org",
    subject,
    message: "Hello, this message goes through the shared cache in front of the site.",
  }).toString();
}

const post = (subject: string, from?: string) =>
  request("/contact", {
    method: "POST",
    from,
    body: contactForm(subject),
    headers: { Origin: cacheBase, "Content-Type": "application/x-www-form-urlencoded" },
  });

describe.skipIf(!varnishd)("behind Varnish (deploy/varnish/default.vcl)", () => {
  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "varnish-test-"));
    // the album list is read from a file the test changes; the site syncs it every second
    await writeSampleSources(path.join(workDir, "sources"), { albums: 40, force: true });
    albumsFile = path.join(workDir, "sources", "merged.json");
    const originPort = await freePort();
    cachePort = await freePort();
    cacheBase = `http://127.0.0.1:${cachePort}`;
    await startVarnish(originPort);
    origin = await startSite({
      port: originPort,
      env: {
        SKIP_BUILD: "1",
        LEADS_RATE_LIMIT: "25",
        MAIL_TRANSPORT: "file",
        ALBUMS_URL: albumsFile,
        CATALOG_REFRESH_SECONDS: "1",
        CACHE_PURGE_URL: `${cacheBase}/`,
      },
    });
    await waitFor("varnishd answers", async () => (await request("/healthz").catch(() => null))?.status === 200 || undefined, 60_000);
  }, 300_000);
  afterAll(async () => {
    if (cache && cache.exitCode === null) {
      const exited = new Promise((resolve) => cache.once("exit", resolve));
      cache.kill("SIGTERM");
      await exited;
    }
    await origin?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it("stores public pages with their lifetimes, ETag and tags, and serves the second ask from the cache", async () => {
    for (const [pathname, sMaxage, tag] of [
      ["/mission", 3600, "pages"],
      // issue #42: a story page's .data (a client navigation) like its HTML
      ["/board.data", 3600, "pages"],
      ["/catalog", 600, "catalog"],
      ["/catalog?view=tracks", 600, "analysis"],
      ["/sitemap.xml", 3600, "catalog"],
      ["/robots.txt", 3600, "pages"],
    ] as const) {
      const first = await request(pathname);
      const second = await request(pathname);
      expect(first.status, pathname).toBe(200);
      expect(first.headers["cache-control"], pathname).toMatch(new RegExp(`^public, max-age=\\d+, s-maxage=${sMaxage}, stale-while-revalidate=\\d+, stale-if-error=\\d+$`));
      expect(first.headers.etag, pathname).toMatch(/^W\//);
      expect(first.headers["surrogate-key"], pathname).toContain(tag);
      expect(first.headers["set-cookie"], pathname).toBeUndefined();
      expect(second.headers["x-cache"], pathname).toBe("HIT");
      expect(second.text, pathname).toBe(first.text);
    }
  });

  it.each(["/contact", "/contact?tab=licensing&tracks=Song", "/catalog?view=tracks&like=ref-0123456789abcdef"])(
    "never stores %s (a fresh form key per render, or the visitor's own input or file)",
    async (pathname) => {
      const first = await request(pathname);
      const second = await request(pathname);
      for (const answer of [first, second]) {
        expect(answer.headers["cache-control"], pathname).toMatch(/no-store|private/);
        expect(answer.headers["x-cache"], pathname).toBe("MISS");
        expect(answer.headers.etag, pathname).toBeUndefined();
      }
    },
  );

  it("sends a browser's pages and scripts compressed, and a client that takes no encoding plain text", async () => {
    // a browser's header (br and gzip): normalised to br, Varnish gunzipped everything (ADR 0119)
    const browser = { "Accept-Encoding": "gzip, deflate, br" };
    const page = await request("/mission", { headers: browser });
    expect(page.headers["content-encoding"]).toBe("gzip");
    const script = /\/assets\/[^"]+\.js/.exec((await request("/catalog")).text)![0];
    expect((await request(script, { headers: browser })).headers["content-encoding"]).toBe("gzip");
    const plain = await request("/mission");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toContain("</html>");
  });

  it("answers a conditional request 304 at the origin without a render", async () => {
    const page = await request("/mission", { port: origin.port });
    const etag = String(page.headers.etag);
    const again = await request("/mission", { port: origin.port, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers["x-page-cache"]).toBeUndefined(); // not even the in-process cache was asked
    expect(again.headers.etag).toBe(etag);
  });

  it.each([
    ["X-Forwarded-Host", "evil.example"],
    ["X-Forwarded-Proto", "gopher"],
    ["X-Forwarded-Port", "6666"],
    ["X-Original-URL", "/evil-path"],
    ["X-Rewrite-URL", "/evil-path"],
    ["X-Host", "evil.example"],
    ["Forwarded", "host=evil.example;proto=gopher"],
  ])("a request with %s cannot poison the stored page", async (header, value) => {
    const pathname = `/board?poison=${encodeURIComponent(header)}`;
    const poisoned = await request(pathname, { headers: { [header]: value } });
    const clean = await request(pathname);
    for (const answer of [poisoned, clean]) {
      expect(answer.text).not.toContain("evil");
      expect(answer.text).not.toContain("gopher");
      expect(answer.text).not.toContain("6666");
    }
    expect(clean.text).toBe(poisoned.text);
  });

  it("never stores an answer to a POST", async () => {
    const first = await post("Never stored 1");
    const second = await post("Never stored 2");
    for (const answer of [first, second]) {
      expect(answer.headers["cache-control"]).toMatch(/no-store|private/);
      expect(answer.headers["x-cache"]).toBe("MISS");
    }
  });

  it("counts the real client behind the cache: one client's rate limit is not another's, whatever X-Forwarded-For it sends", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await post(`Limited ${i}`, "127.0.0.2")).status);
    expect(statuses).toContain(429);
    // a client's own X-Forwarded-For changes nothing
    const spoofed = await request("/contact", {
      method: "POST",
      from: "127.0.0.2",
      body: contactForm("Spoofed"),
      headers: { Origin: cacheBase, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "203.0.113.9" },
    });
    expect(spoofed.status).toBe(429);
    const other = await post("Another client", "127.0.0.3");
    expect(other.status).not.toBe(429);
    expect(other.status).toBeLessThan(400);
  });

  it("stores and delivers 20 leads posted through the cache exactly once each", async () => {
    const subjects = Array.from({ length: 20 }, (_, i) => `Through the cache #${i}.`);
    const answers = await Promise.all(subjects.map((subject) => post(subject, "127.0.0.4")));
    for (const answer of answers) expect(answer.status).toBeLessThan(400);
    const delivered = async () => {
      const dir = path.join(origin.dataDir, "mail");
      if (!fs.existsSync(dir)) return [];
      const found: string[] = [];
      for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(".eml"))) found.push(String((await parseEml(fs.readFileSync(path.join(dir, f)))).subject));
      return found.filter((s) => s.includes("Through the cache"));
    };
    await waitFor("20 leads delivered", async () => ((await delivered()).length >= 20 ? true : undefined), 60_000);
    const found = await delivered();
    for (const subject of subjects) expect(found.filter((s) => s.includes(subject)), subject).toHaveLength(1);
    expect(found).toHaveLength(20);
  });

  it("shows a synced change through the cache: the site purges the catalog's pages after the sync", async () => {
    const before = await request("/catalog");
    expect((await request("/catalog")).headers["x-cache"]).toBe("HIT");
    expect(before.text).not.toContain("Renamed Qx");
    const albums = JSON.parse(fs.readFileSync(albumsFile, "utf8")) as { name: string }[];
    for (const album of albums) album.name = `${album.name} Renamed Qx`;
    fs.writeFileSync(`${albumsFile}.tmp`, JSON.stringify(albums));
    fs.renameSync(`${albumsFile}.tmp`, albumsFile);
    // s-maxage is 600 s: only the purge makes the new titles show within this wait
    await waitFor("the new titles through the cache", async () => ((await request("/catalog")).text.includes("Renamed Qx") ? true : undefined), 30_000);
  });

  it("soft-purges by tag from loopback only through PURGE", async () => {
    await request("/partners");
    expect((await request("/partners")).headers["x-cache"]).toBe("HIT");
    const purge = await request("/", { method: "PURGE", headers: { "xkey-softpurge": "pages" } });
    expect(purge.status).toBe(200);
    // the stale copy may be served once while it refreshes; then a fresh one
    await waitFor("a fresh copy after the purge", async () => Number((await request("/partners")).headers.age ?? 0) === 0 || undefined, 10_000);
  });

  it("serves stored pages and story pages' .data while the origin is down, and a plain 503 for one never asked", async () => {
    await request("/mission");
    // issue #42: client-side navigation between story pages asks their .data
    const data = { "/mission.data": await request("/mission.data"), "/_.data": await request("/_.data") };
    for (const [pathname, answer] of Object.entries(data)) expect(answer.status, pathname).toBe(200);
    await origin.stop();
    await waitFor("the origin seen down", async () => (await request("/never-asked-before-" + Date.now())).status === 503 || undefined, 20_000);
    const stored = await request("/mission");
    expect(stored.status).toBe(200);
    expect(stored.text).toContain("<html");
    for (const [pathname, before] of Object.entries(data)) {
      const answer = await request(pathname);
      expect(answer.status, pathname).toBe(200);
      expect(answer.text, pathname).toBe(before.text);
    }
    expect((await request("/board.data?_routes=never-asked")).status).toBe(503);
  });
});
