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

  it("changes the version when the asset list or the offline page changes, and only then", () => {
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
