import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listBuiltAssets, serviceWorkerHandler, serviceWorkerManifest, serviceWorkerSource } from "./service-worker.ts";

function fakeBuild(files: string[]): string {
  const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "sw-build-"));
  for (const file of files) {
    const full = path.join(clientDir, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, file);
  }
  return clientDir;
}

describe("service worker manifest", () => {
  it("precaches the hashed top-level assets and the offline page, not sub-folders or maps", () => {
    const dir = fakeBuild([
      "assets/entry.client-AbC123.js",
      "assets/root-Xy9.css",
      "assets/entry.client-AbC123.js.map",
      "assets/dsps/music/some-partner.png",
      "offline.html",
    ]);
    expect(listBuiltAssets(dir)).toEqual(["/assets/entry.client-AbC123.js", "/assets/root-Xy9.css"]);
    expect(serviceWorkerManifest(dir).precache).toEqual([
      "/assets/entry.client-AbC123.js",
      "/assets/root-Xy9.css",
      "/offline.html",
    ]);
  });

  it("changes the version when the asset list, the offline page or the worker's code changes, and only then", () => {
    const a = serviceWorkerManifest(fakeBuild(["assets/a-1.js", "offline.html"]));
    const same = serviceWorkerManifest(fakeBuild(["assets/a-1.js", "offline.html"]));
    const newAsset = serviceWorkerManifest(fakeBuild(["assets/a-2.js", "offline.html"]));
    const dir = fakeBuild(["assets/a-1.js", "offline.html"]);
    fs.writeFileSync(path.join(dir, "offline.html"), "<p>new offline copy</p>");
    const newOffline = serviceWorkerManifest(dir);
    expect(same.version).toBe(a.version);
    expect(newAsset.version).not.toBe(a.version);
    expect(newOffline.version).not.toBe(a.version);
  });

  it("copes with a missing build (empty asset list)", () => {
    const manifest = serviceWorkerManifest(path.join(os.tmpdir(), "no-such-build-dir"));
    expect(manifest.precache).toEqual(["/offline.html"]);
  });

  it("generates a script that parses and embeds the version and list", () => {
    const source = serviceWorkerSource({ version: "abc123", precache: ["/assets/x.js", "/offline.html"] });
    expect(() => new vm.Script(source)).not.toThrow();
    expect(source).toContain('const VERSION = "abc123"');
    expect(source).toContain('const PRECACHE = ["/assets/x.js","/offline.html"]');
  });
});

/**
 * The generated worker, run in a vm with a minimal browser around it: a Cache Storage kept in
 * maps, `fetch` answered by the test (or failing, for offline), Node's Request and Response.
 */
function runWorker(precache: string[] = ["/offline.html"]) {
  const stores = new Map<string, Map<string, Response>>();
  const key = (r: Request | string) => (typeof r === "string" ? new URL(r, ORIGIN).href : r.url);
  const cacheObject = (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name)!;
    return {
      put: async (req: Request | string, res: Response) => void store.set(key(req), res),
      match: async (req: Request | string) => store.get(key(req))?.clone(),
      delete: async (req: Request | string) => store.delete(key(req)),
      keys: async () => [...store.keys()].map((u) => new Request(u)),
      addAll: async (reqs: Array<Request | string>) => {
        for (const r of reqs) store.set(key(r), new Response(`precached ${key(r)}`, { headers: { "content-type": "text/html" } }));
      },
    };
  };
  const caches = {
    open: async (name: string) => cacheObject(name),
    match: async (req: Request | string, opts: { cacheName?: string } = {}) => {
      const names = opts.cacheName ? [opts.cacheName] : [...stores.keys()];
      for (const n of names) {
        const hit = stores.get(n)?.get(key(req));
        if (hit) return hit.clone();
      }
      return undefined;
    },
    keys: async () => [...stores.keys()],
    delete: async (name: string) => stores.delete(name),
  };
  const listeners = new Map<string, (event: unknown) => void>();
  let network: ((req: Request) => Response) | undefined;
  const sandbox = {
    self: {
      location: { origin: ORIGIN },
      addEventListener: (type: string, fn: (event: unknown) => void) => listeners.set(type, fn),
      skipWaiting: async () => {},
      clients: { claim: async () => {} },
    },
    caches,
    fetch: async (req: Request) => {
      if (!network) throw new TypeError("Failed to fetch"); // offline
      return network(req);
    },
    // In a worker, relative URLs resolve against its location.
    Request: class extends Request {
      constructor(input: string | Request, init?: RequestInit) {
        super(typeof input === "string" ? new URL(input, ORIGIN) : input, init);
      }
    },
    Response,
    URL,
    Promise,
  };
  vm.runInNewContext(serviceWorkerSource({ version: "test", precache }), sandbox);
  const settle = () => new Promise((r) => setTimeout(r, 10));
  return {
    stores,
    online(handler: (req: Request) => Response) {
      network = handler;
    },
    offline() {
      network = undefined;
    },
    async install() {
      let done: Promise<unknown> = Promise.resolve();
      listeners.get("install")!({ waitUntil: (p: Promise<unknown>) => (done = p) });
      await done;
    },
    /** A navigation to `path`: what the page shows (the body), or undefined when the worker stays out. */
    async navigate(path: string): Promise<string | undefined> {
      let answer: Promise<Response> | undefined;
      const request = new Request(new URL(path, ORIGIN));
      Object.defineProperty(request, "mode", { value: "navigate" });
      listeners.get("fetch")!({ request, respondWith: (p: Promise<Response>) => (answer = p) });
      if (!answer) return undefined;
      const body = await (await answer).text();
      await settle(); // the worker stores its copy after answering
      return body;
    },
  };
}
const ORIGIN = "https://site.example";
const page = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });

describe("the generated worker, offline", () => {
  it("keeps an ordinary page and shows it offline", async () => {
    const sw = runWorker();
    await sw.install();
    sw.online(() => page("<h1>Mission</h1>"));
    expect(await sw.navigate("/mission")).toBe("<h1>Mission</h1>");
    sw.offline();
    expect(await sw.navigate("/mission")).toBe("<h1>Mission</h1>");
  });

  it("never keeps /contact (its form key): offline it shows the offline page, not a stale form", async () => {
    const sw = runWorker();
    await sw.install();
    let key = 0;
    // even without no-store, the contact page is network-only
    sw.online(() => page(`<form><input name="idempotencyKey" value="key-${++key}"></form>`));
    expect(await sw.navigate("/contact")).toContain("key-1");
    expect(await sw.navigate("/contact?tab=licensing&tracks=Engines")).toContain("key-2");
    expect(await sw.navigate("/contact")).toContain("key-3"); // a fresh key each time
    const kept = [...sw.stores.values()].flatMap((m) => [...m.keys()]);
    expect(kept.filter((u) => u.includes("/contact"))).toEqual([]);
    sw.offline();
    expect(await sw.navigate("/contact")).toBe(`precached ${ORIGIN}/offline.html`);
    expect(await sw.navigate("/contact?tab=licensing")).toBe(`precached ${ORIGIN}/offline.html`);
  });

  it("drops a copy of /contact an older worker kept, and never serves it", async () => {
    const sw = runWorker();
    await sw.install();
    const pages = [...sw.stores.keys()].find((n) => n.startsWith("pages-")) ?? "pages-test";
    sw.stores.set(pages, new Map([[`${ORIGIN}/contact`, page('<input name="idempotencyKey" value="used-key">')]]));
    sw.offline();
    expect(await sw.navigate("/contact")).toBe(`precached ${ORIGIN}/offline.html`);
    sw.online(() => page('<input name="idempotencyKey" value="fresh">', { "cache-control": "no-store" }));
    expect(await sw.navigate("/contact")).toContain("fresh");
    expect(sw.stores.get(pages)!.has(`${ORIGIN}/contact`)).toBe(false);
  });

  it("never keeps any page the server sends with Cache-Control: no-store", async () => {
    const sw = runWorker();
    await sw.install();
    sw.online(() => page("<h1>Personal</h1>", { "cache-control": "private, no-store" }));
    expect(await sw.navigate("/shortlist")).toBe("<h1>Personal</h1>");
    sw.offline();
    expect(await sw.navigate("/shortlist")).toBe(`precached ${ORIGIN}/offline.html`);
  });
});

describe("GET /sw.js", () => {
  let base = "";
  let close = () => {};
  let dir = "";
  beforeAll(async () => {
    dir = fakeBuild(["assets/entry-1.js", "offline.html"]);
    const app = express();
    app.get("/sw.js", serviceWorkerHandler(dir));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it("is JavaScript, never cached without revalidation, and allowed to control the whole site", async () => {
    const res = await fetch(`${base}/sw.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("service-worker-allowed")).toBe("/");
    const body = await res.text();
    expect(body).toContain("/assets/entry-1.js");
    expect(body).toContain(`Version ${serviceWorkerManifest(dir).version}`);
  });

  it("answers a revalidation with 304 while the build is unchanged", async () => {
    const first = await fetch(`${base}/sw.js`);
    const etag = first.headers.get("etag")!;
    const again = await fetch(`${base}/sw.js`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });
});
