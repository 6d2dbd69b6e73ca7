import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderArtwork } from "../app/.server/catalog/sample/media.ts";
import { thumbnailUrl } from "../app/lib/catalog/media.ts";
import { captureLogger } from "../tests/fakes/log-capture.ts";
import { createImageHandler, negotiateFormat } from "./images.ts";

let dataDir: string;
let site: http.Server;
let siteUrl: string;
let mediaHost: http.Server;
let mediaUrl: string;
let mediaHits = 0;

const listen = (server: http.Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "images-"));
  fs.mkdirSync(path.join(dataDir, "media"));
  const cover = await renderArtwork(1);
  fs.writeFileSync(path.join(dataDir, "media", "cover-01.webp"), cover);
  fs.writeFileSync(path.join(dataDir, "media", "not-an-image.webp"), "hello");
  fs.writeFileSync(path.join(dataDir, "secret.txt"), "do not serve");

  // a storage host (FILM_MEDIA_URL) on another origin
  mediaHost = http.createServer((req, res) => {
    mediaHits++;
    if (req.url === "/films/poster.webp") {
      res.writeHead(200, { "Content-Type": "image/webp" });
      return res.end(cover);
    }
    res.writeHead(404).end();
  });
  mediaUrl = await listen(mediaHost);

  const app = express();
  const { logger } = captureLogger();
  app.get("/img", createImageHandler({ config: { DATA_DIR: dataDir, MEDIA_URL: "/media", FILM_MEDIA_URL: `${mediaUrl}/films` }, logger }));
  site = http.createServer(app);
  siteUrl = await listen(site);
});

afterAll(async () => {
  await new Promise((r) => site.close(r));
  await new Promise((r) => mediaHost.close(r));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (pathAndQuery: string, accept = "image/avif,image/webp,*/*") =>
  fetch(`${siteUrl}${pathAndQuery}`, { headers: { Accept: accept } });

describe("negotiateFormat", () => {
  it("prefers AVIF, then WebP, then JPEG", () => {
    expect(negotiateFormat("image/avif,image/webp,image/apng,*/*;q=0.8")).toBe("avif");
    expect(negotiateFormat("image/webp,*/*")).toBe("webp");
    expect(negotiateFormat("*/*")).toBe("jpeg");
    expect(negotiateFormat(undefined)).toBe("jpeg");
    expect(negotiateFormat("image/avif;q=0,image/webp")).toBe("webp");
  });
});

describe("GET /img", () => {
  it.each([
    ["image/avif,image/webp,*/*", "image/avif", "heif"],
    ["image/webp,*/*", "image/webp", "webp"],
    ["*/*", "image/jpeg", "jpeg"],
  ])("Accept %s → %s, resized to the width asked", async (accept, type, sharpFormat) => {
    const res = await get(thumbnailUrl("/media/cover-01.webp", 160), accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("vary")).toMatch(/Accept/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.format).toBe(sharpFormat);
    expect(meta.width).toBe(160);
  });

  it("caches results on disk", async () => {
    await get(thumbnailUrl("/media/cover-01.webp", 240), "image/webp");
    const cached = fs.readdirSync(path.join(dataDir, "cache", "img"));
    expect(cached.some((f) => f.endsWith(".webp"))).toBe(true);
    const again = await get(thumbnailUrl("/media/cover-01.webp", 240), "image/webp");
    expect(again.status).toBe(200);
  });

  it("fetches from the configured media host, once", async () => {
    const before = mediaHits;
    const src = `${mediaUrl}/films/poster.webp`;
    expect((await get(thumbnailUrl(src, 320))).status).toBe(200);
    expect((await get(thumbnailUrl(src, 320))).status).toBe(200);
    expect(mediaHits - before).toBe(1);
  });

  it("refuses other hosts (no SSRF) with a reason", async () => {
    for (const src of ["http://169.254.169.254/latest/meta-data/", "http://example.com/a.jpg", "file:///etc/passwd", "//evil.example/a.png"]) {
      const res = await get(`/img?w=160&src=${encodeURIComponent(src)}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/media/);
    }
  });

  it("refuses paths outside the media directory", async () => {
    for (const src of ["/media/..%2Fsecret.txt", "/media/../secret.txt", "/secret.txt", "/media/%2e%2e%2fsecret.txt"]) {
      const res = await get(`/img?w=160&src=${encodeURIComponent(src)}`);
      expect(res.status).toBe(400);
    }
  });

  it("refuses widths other than the thumbnail widths", async () => {
    for (const w of ["123", "", "abc", "10000"]) {
      const res = await get(`/img?w=${w}&src=${encodeURIComponent("/media/cover-01.webp")}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/^w must be one of 96, 160/);
    }
  });

  it("404 for a missing image, 422 for a file that is not an image, 400 without src", async () => {
    expect((await get(thumbnailUrl("/media/nope.webp", 96))).status).toBe(404);
    expect((await get(thumbnailUrl(`${mediaUrl}/films/missing.webp`, 96))).status).toBe(404);
    expect((await get(thumbnailUrl("/media/not-an-image.webp", 96))).status).toBe(422);
    expect((await get("/img?w=96")).status).toBe(400);
  });
});
