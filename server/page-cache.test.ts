import { afterEach, describe, expect, it } from "vitest";
import { createPageCache, createPageStore, documentBytes } from "./page-cache.ts";
import { get, serve } from "../tests/support/page-cache-server.ts";
import { utf8Bytes } from "./utf8.ts";
import { deferHydration } from "../app/.server/defer-hydration.ts";

/** A static page as React Router renders it: inline scripts at the end. */
function html(path: string, n: number): string {
  const content = Array.from({ length: 300 }, (_, i) => `<p>Paragraph ${i} of ${path}, the same words again and again.</p>`).join("");
  return `<!DOCTYPE html><html><body><main data-render="${n}">${content}</main><script>window.x=1</script><script type="module">import("/a.js")</script></body></html>`;
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function staticSite(opts: { ttlMs?: number; status?: number; maxBytes?: number } = {}) {
  const renders: string[] = [];
  const store = createPageStore({ maxBytes: opts.maxBytes ?? 32 * 1024 * 1024 });
  const cache = createPageCache({
    store,
    ttlMs: opts.ttlMs ?? 60_000,
    isCacheable: (p) => p === "/mission" || p === "/board",
    render: async (path) => {
      renders.push(path);
      await new Promise((r) => setTimeout(r, 20));
      return new Response(html(path, renders.length), { status: opts.status ?? 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
    },
  });
  const site = await serve(cache.middleware);
  closeServer = site.close;
  return { ...site, renders, store };
}


describe("static page cache", () => {
  it("renders a page once, then answers from memory with the same bytes (no per-response nonce, ADR 0119)", async () => {
    const site = await staticSite();
    const a = await get(`${site.base}/mission`, { "accept-encoding": "br, gzip" });
    const b = await get(`${site.base}/mission`, { "accept-encoding": "br, gzip" });
    expect([a.headers["x-page-cache"], b.headers["x-page-cache"]]).toEqual(["MISS", "HIT"]);
    expect(site.renders).toEqual(["/mission"]);
    expect(a.text).not.toContain("nonce");
    expect(b.raw.equals(a.raw)).toBe(true);
  });

  it("sends brotli, gzip or identity by Accept-Encoding, decoded to the same page, compressed once", async () => {
    const site = await staticSite();
    const identity = await get(`${site.base}/mission`);
    const br = await get(`${site.base}/mission`, { "accept-encoding": "gzip, deflate, br" });
    const gzip = await get(`${site.base}/mission`, { "accept-encoding": "gzip" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    for (const answer of [identity, br, gzip]) {
      expect(answer.headers.vary).toContain("Accept-Encoding");
      // the length is that of the bytes sent: nothing compressed them a second time
      expect(Number(answer.headers["content-length"])).toBe(answer.raw.length);
      expect(answer.text).toBe(identity.text);
    }
    expect(br.raw.length).toBeLessThan(gzip.raw.length);
    expect(gzip.raw.length).toBeLessThan(identity.raw.length / 5);
  });

  it("answers HEAD with the headers of the page and no body", async () => {
    const site = await staticSite();
    const head = await get(`${site.base}/board`, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
  });

  it("shares one render between identical concurrent misses", async () => {
    const site = await staticSite();
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(`${site.base}/board`)));
    expect(site.renders).toEqual(["/board"]);
    expect(answers.every((a) => a.status === 200 && a.text.includes('data-render="1"'))).toBe(true);
  });

  it("renders again after the time to live", async () => {
    const site = await staticSite({ ttlMs: 50 });
    await get(`${site.base}/mission`);
    await new Promise((r) => setTimeout(r, 80));
    const again = await get(`${site.base}/mission`);
    expect(again.headers["x-page-cache"]).toBe("MISS");
    expect(site.renders).toHaveLength(2);
  });

  it("keeps no page that is not a 200: the ordinary handler answers", async () => {
    const site = await staticSite({ status: 500 });
    const a = await get(`${site.base}/mission`);
    const b = await get(`${site.base}/mission`);
    expect([a.text, b.text]).toEqual(["ordinary render", "ordinary render"]);
    expect(site.renders).toHaveLength(2);
  });

  it("leaves other paths, query strings and non-GET methods to the ordinary handler", async () => {
    const site = await staticSite();
    for (const [url, method] of [["/contact", "GET"], ["/mission?x=1", "GET"], ["/mission", "POST"]] as const) {
      expect((await get(`${site.base}${url}`, {}, method)).headers["x-ordinary"]).toBe("yes");
    }
    expect(site.renders).toEqual([]);
  });

  it("holds no more bytes than its budget", async () => {
    const site = await staticSite({ maxBytes: 30_000 });
    await get(`${site.base}/mission`);
    await get(`${site.base}/board`);
    const usage = site.store.usage();
    expect(usage.bytes).toBeLessThanOrEqual(30_000);
    expect(usage.entries).toBe(1);
  });

  it("sends a document rendered in parts (doctype, deferred hydration) as the same bytes as the whole string", () => {
    const page = (body: string) =>
      `<html><head><link rel="icon" href="/i.svg"/><link rel="modulepreload" href="/assets/a.js"/></head>` +
      `<body>${body}<script>window.__reactRouterContext = {"n":1};</script>` +
      `<script type="module" async="">import "/assets/a.js";</script></body></html>`;
    const bodies = ["<p>Title (A–Z) “blue”</p>", "<p>plain</p>", `<link rel="stylesheet" href="/late.css"/><p>é</p>`, "<p>lone \ud800</p>"];
    for (const body of bodies) {
      const parts = ["<!DOCTYPE html>", ...deferHydration(page(body))];
      expect(parts.length).toBeGreaterThan(2);
      const whole = parts.join("");
      expect(documentBytes(parts).equals(documentBytes(whole))).toBe(true);
      expect(documentBytes(whole).equals(Buffer.from(whole, "utf8"))).toBe(true);
    }
  });

  it("encodes text as UTF-8 whatever V8 holds it as, a lone surrogate as U+FFFD", () => {
    for (const text of ["plain ASCII", "Latin-1: café ©", "Title (A–Z) “blue” 日本語 🎵", "lone \ud800 surrogate", ""]) {
      expect(utf8Bytes(text).equals(Buffer.from(text, "utf8"))).toBe(true);
    }
  });
});
