import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable, pipeline } from "node:stream";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderArtwork } from "../app/.server/catalog/sample/media.ts";
import { thumbnailUrl } from "../app/lib/catalog/media.ts";
import { captureLogger } from "../tests/fakes/log-capture.ts";
import { createImageHandler, negotiateFormat, type ImageHandlerOptions } from "./images.ts";

type SiteConfig = ImageHandlerOptions["config"];

const listen = (server: http.Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

const servers: http.Server[] = [];
const tempDirs: string[] = [];

/** An Express app with the /img handler on loopback, as server/app.ts mounts it. */
async function startSite(config: Partial<SiteConfig> & { DATA_DIR: string }, options: Partial<ImageHandlerOptions> = {}) {
  const app = express();
  const { logger } = captureLogger();
  const full: SiteConfig = {
    MEDIA_URL: "/media",
    FILM_MEDIA_URL: "/media",
    IMG_CACHE_MAX_BYTES: 512 * 1024 * 1024,
    IMG_CONCURRENCY: 2,
    IMG_MAX_INPUT_PIXELS: 40_000_000,
    ...config,
  };
  app.get("/img", createImageHandler({ config: full, logger, ...options }));
  const server = http.createServer(app);
  servers.push(server);
  const url = await listen(server);
  return (pathAndQuery: string, accept = "image/avif,image/webp,*/*") => fetch(`${url}${pathAndQuery}`, { headers: { Accept: accept } });
}

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "images-"));
  fs.mkdirSync(path.join(dir, "media"));
  tempDirs.push(dir);
  return dir;
}

const cacheFiles = (dataDir: string): string[] => {
  const dir = path.join(dataDir, "cache", "img");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};
const cacheBytes = (dataDir: string): number =>
  cacheFiles(dataDir).reduce((sum, name) => sum + fs.statSync(path.join(dataDir, "cache", "img", name)).size, 0);

/** A PNG whose header declares width × height, with a tiny (invalid) body: what a bomb looks like to a header reader. */
function declaredPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(Buffer.alloc(1024))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

let cover: Buffer;
let dataDir: string;
let get: Awaited<ReturnType<typeof startSite>>;
let mediaUrl: string;
let mediaHits = 0;
let hugeBodyFinished: boolean | undefined;

beforeAll(async () => {
  cover = await renderArtwork(1);
  dataDir = tempDataDir();
  fs.writeFileSync(path.join(dataDir, "media", "cover-01.webp"), cover);
  fs.writeFileSync(path.join(dataDir, "media", "not-an-image.webp"), "hello");
  fs.writeFileSync(path.join(dataDir, "secret.txt"), "do not serve");
  // 3000 × 3000 blank pixels: a 9-megapixel source, small as a PNG
  fs.writeFileSync(
    path.join(dataDir, "media", "huge.png"),
    await sharp({ create: { width: 3000, height: 3000, channels: 3, background: "#000" } }).png().toBuffer(),
  );
  fs.writeFileSync(path.join(dataDir, "media", "bomb.png"), declaredPng(100_000, 100_000));
  fs.writeFileSync(
    path.join(dataDir, "media", "tall.png"),
    await sharp({ create: { width: 100, height: 3000, channels: 3, background: "#468" } }).png().toBuffer(),
  );

  // a storage host (FILM_MEDIA_URL) on another origin
  const mediaHost = http.createServer((req, res) => {
    mediaHits++;
    if (req.url === "/films/poster.webp") {
      res.writeHead(200, { "Content-Type": "image/webp" });
      return res.end(cover);
    }
    if (req.url === "/films/endless.webp") {
      // endless and chunked (no Content-Length): only counting the bytes read can stop it
      res.writeHead(200, { "Content-Type": "image/webp" });
      res.on("close", () => (hugeBodyFinished = res.writableFinished));
      const chunk = Buffer.alloc(64 * 1024);
      const body = Readable.from((function* () {
        for (;;) yield chunk;
      })());
      return pipeline(body, res, () => undefined);
    }
    res.writeHead(404).end();
  });
  servers.push(mediaHost);
  mediaUrl = await listen(mediaHost);

  get = await startSite({ DATA_DIR: dataDir, FILM_MEDIA_URL: `${mediaUrl}/films`, IMG_MAX_INPUT_PIXELS: 4_000_000 });
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

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
    const cached = cacheFiles(dataDir);
    expect(cached.some((f) => f.endsWith(".webp"))).toBe(true);
    const again = await get(thumbnailUrl("/media/cover-01.webp", 240), "image/webp");
    expect(again.status).toBe(200);
    expect(cacheFiles(dataDir)).toEqual(cached);
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

describe("GET /img: the cache key is the canonical source (issue #7)", () => {
  it("100 cache-busting variants of one src write at most one new cache file", async () => {
    const before = cacheFiles(dataDir);
    const variants = (i: number) => [
      `/img?w=480&src=/media/cover-01.webp%3Fv%3D${i}`, // src = /media/cover-01.webp?v=i
      thumbnailUrl(`/media/cover-01.webp?v=${i}#x${i}`, 480),
      thumbnailUrl(`/media/./x/../cover-01.webp?cb=${i}`, 480),
      thumbnailUrl(`/media/%63over-01.webp?${i}`, 480),
      // %3F decoded into the key: another file name, which does not exist
      thumbnailUrl(`/media/cover-01.webp%3Fv%3D${i}`, 480),
    ];
    const statuses: number[] = [];
    const bodies = new Set<string>();
    for (let i = 0; i < 20; i++) {
      for (const url of variants(i)) {
        const res = await get(url);
        statuses.push(res.status);
        const body = Buffer.from(await res.arrayBuffer());
        if (res.status === 200) bodies.add(body.toString("base64"));
      }
    }
    expect(statuses).toHaveLength(100);
    expect(new Set(statuses)).toEqual(new Set([200, 404]));
    expect(bodies.size).toBe(1);
    expect(cacheFiles(dataDir).filter((f) => !before.includes(f)).length).toBeLessThanOrEqual(1);
  });

  it("a remote source is keyed and fetched without its query: one fetch, one file", async () => {
    const before = cacheFiles(dataDir);
    const hits = mediaHits;
    for (let i = 0; i < 20; i++) {
      const res = await get(thumbnailUrl(`${mediaUrl}/films/poster.webp?v=${i}`, 640));
      expect(res.status).toBe(200);
      const again = await get(thumbnailUrl(`${mediaUrl}/films/%70oster.webp#${i}`, 640));
      expect(again.status).toBe(200);
    }
    // an encoded ? may be read as a query by the storage host: refused before any fetch
    for (const src of [`${mediaUrl}/films/poster.webp%3Fv%3D1`, `${mediaUrl}/films/poster.webp%3f`]) {
      const res = await get(thumbnailUrl(src, 640));
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/encoded \?/);
    }
    expect(mediaHits - hits).toBe(1);
    expect(cacheFiles(dataDir).filter((f) => !before.includes(f)).length).toBe(1);
  });
});

describe("GET /img: sources are bounded (issue #7)", () => {
  it("a source over IMG_MAX_INPUT_PIXELS: 413 with the reason, nothing cached", async () => {
    const before = cacheFiles(dataDir);
    for (const src of ["/media/huge.png", "/media/bomb.png"]) {
      const res = await get(thumbnailUrl(src, 160));
      expect(res.status).toBe(413);
      expect(await res.text()).toMatch(/more than 4000000 pixels/);
    }
    expect(cacheFiles(dataDir)).toEqual(before);
  });

  it("a tall source fits inside width × 2·width, and is never enlarged", async () => {
    const res = await get(thumbnailUrl("/media/tall.png", 160), "image/webp");
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta.height).toBeLessThanOrEqual(320);
    expect(meta.width).toBeLessThanOrEqual(100);
  });

  it("an endless remote body is cut off at 25 MB while streaming: 413", async () => {
    const res = await get(thumbnailUrl(`${mediaUrl}/films/endless.webp`, 160));
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/too large/);
    await expect.poll(() => hugeBodyFinished).toBe(false);
  });

  it("odd or hostile queries get 4xx with a plain reason, never 5xx", async () => {
    const src = encodeURIComponent("/media/cover-01.webp");
    const queries = [
      `w=160&w=240&src=${src}`,
      `w[]=160&src=${src}`,
      `w=160&src=${src}&src=${src}`,
      `w=160&src=${"a".repeat(10_000)}`,
      `w=160&src=/media/${"a".repeat(3000)}.webp`,
      `w=160&src=/media/${"a/".repeat(600)}`,
      `w=160&src=/media/cover-01.webp%00`,
      `w=160&src=/media/cover-01.webp%2500.png`,
      `w=160&src=%00`,
      `w=%00&src=${src}`,
      `w=Infinity&src=${src}`,
      `w=-160&src=${src}`,
      `w=160&src=/media/%zz`,
      `w=160&src=${encodeURIComponent("/media/%zz")}`,
      `w=160&src=${encodeURIComponent("/media/%E0%A4%A")}`,
      `w=160&src=/media/`,
      `w=160&src=/media`,
      `w=160&src=/media/..`,
      `w=160&src=${encodeURIComponent("/media/..%2F..%2Fetc%2Fpasswd")}`,
      `w=160&src=${encodeURIComponent(`${mediaUrl}/films/..%2F..%2Fsecret`)}`,
      `w=160&src=${encodeURIComponent(`${mediaUrl}/films/%zz`)}`,
      `w=160&src=${encodeURIComponent(`${mediaUrl}/films/a%00.webp`)}`,
      `w=160&src=${encodeURIComponent("http://[::1")}`,
      `w=160&src=${encodeURIComponent("javascript:alert(1)")}`,
      `w=160&src=${encodeURIComponent("\\\\evil.example\\a.png")}`,
      `w=160&src=${encodeURIComponent("/\\evil.example/a.png")}`,
    ];
    for (const query of queries) {
      const res = await get(`/img?${query}`);
      expect({ query: query.slice(0, 80), status: res.status }).toEqual({ query: query.slice(0, 80), status: expect.toSatisfy((s: number) => s >= 400 && s < 500) });
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect((await res.text()).length).toBeGreaterThan(0);
    }
  });
});

describe("GET /img: the cache's bytes are bounded (IMG_CACHE_MAX_BYTES)", () => {
  let dir: string;
  let size: number;
  const letters = ["a", "b", "c", "d", "e", "f"];
  const thumb = (letter: string) => thumbnailUrl(`/media/${letter}.webp`, 160);

  beforeAll(async () => {
    dir = tempDataDir();
    // identical sources under different names: identical thumbnail sizes, distinct cache entries
    for (const letter of letters) fs.writeFileSync(path.join(dir, "media", `${letter}.webp`), cover);
    const probe = tempDataDir();
    fs.writeFileSync(path.join(probe, "media", "a.webp"), cover);
    const res = await (await startSite({ DATA_DIR: probe }))(thumb("a"), "image/webp");
    size = (await res.arrayBuffer()).byteLength;
  });

  /** Requests one thumbnail and returns the cache file it added (if any). */
  const request = async (site: Awaited<ReturnType<typeof startSite>>, letter: string) => {
    const before = cacheFiles(dir);
    const res = await site(thumb(letter), "image/webp");
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return cacheFiles(dir).filter((f) => !before.includes(f))[0];
  };

  it("evicts the least recently used file, and a restart keeps the bound and the order", async () => {
    const bound = Math.floor(size * 3.5);
    const site = await startSite({ DATA_DIR: dir, IMG_CACHE_MAX_BYTES: bound });
    const a = await request(site, "a");
    const b = await request(site, "b");
    const c = await request(site, "c");
    expect([a, b, c].every(Boolean)).toBe(true);
    expect(await request(site, "a")).toBeUndefined(); // a hit: a is now the most recent
    const d = await request(site, "d");
    expect(cacheFiles(dir)).toEqual([a, c, d].sort());
    expect(cacheBytes(dir)).toBeLessThanOrEqual(bound);

    // restart: a new handler indexes the directory (oldest mtime first): c is now the oldest
    const restarted = await startSite({ DATA_DIR: dir, IMG_CACHE_MAX_BYTES: bound });
    const e = await request(restarted, "e");
    expect(cacheFiles(dir)).toEqual([a, d, e].sort());
    expect(cacheBytes(dir)).toBeLessThanOrEqual(bound);

    // restart with a lower bound: trimmed to the newest file before the first answer
    const smaller = await startSite({ DATA_DIR: dir, IMG_CACHE_MAX_BYTES: Math.floor(size * 1.5) });
    expect(await request(smaller, "e")).toBeUndefined();
    expect(cacheFiles(dir)).toEqual([e]);
  });

  it("many thumbnails never take the directory over the bound", async () => {
    const many = tempDataDir();
    for (const letter of letters) fs.writeFileSync(path.join(many, "media", `${letter}.webp`), cover);
    const bound = 24 * 1024;
    const site = await startSite({ DATA_DIR: many, IMG_CACHE_MAX_BYTES: bound });
    let served = 0;
    for (const letter of letters.slice(0, 3)) {
      for (const w of [96, 160, 240, 320] as const) {
        for (const accept of ["image/avif", "image/webp", "*/*"]) {
          const res = await site(thumbnailUrl(`/media/${letter}.webp`, w), accept);
          expect(res.status).toBe(200);
          served += (await res.arrayBuffer()).byteLength;
          expect(cacheBytes(many)).toBeLessThanOrEqual(bound);
        }
      }
    }
    expect(served).toBeGreaterThan(2 * bound); // eviction did happen
    expect(cacheFiles(many).every((f) => /^[0-9a-f]{64}\.(avif|webp|jpeg)$/.test(f))).toBe(true);
  });
});

describe("GET /img: encodes at once are bounded (IMG_CONCURRENCY)", () => {
  let dir: string;
  const sources = Array.from({ length: 8 }, (_, i) => `/media/c${i}.webp`);

  beforeAll(() => {
    dir = tempDataDir();
    for (const src of sources) fs.writeFileSync(path.join(dir, src), cover);
  });

  it("with IMG_CONCURRENCY=1, 24 distinct concurrent requests: one encode at a time, all answered", async () => {
    let most = 0;
    let encodes = 0;
    const site = await startSite({ DATA_DIR: dir, IMG_CONCURRENCY: 1 }, { onEncode: (running) => void ((most = Math.max(most, running)), encodes++) });
    const urls = sources.flatMap((src) => ([96, 160, 240] as const).map((w) => thumbnailUrl(src, w)));
    const statuses = await Promise.all(urls.map(async (url) => (await site(url)).status));
    expect(statuses).toEqual(urls.map(() => 200));
    expect(encodes).toBe(24);
    expect(most).toBe(1);
  });

  it("beyond the waiting room: 503 with Retry-After and a reason, the rest served", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstRunning = new Promise<void>((resolve) => (started = resolve));
    let most = 0;
    let first = true;
    const site = await startSite(
      { DATA_DIR: dir, IMG_CONCURRENCY: 1 },
      {
        maxWaiting: 4,
        // the first encode is held until every request beyond 1 running + 4 waiting was refused
        onEncode: async (running) => {
          most = Math.max(most, running);
          if (first) {
            first = false;
            started();
            await gate;
          }
        },
      },
    );
    const urls = sources.flatMap((src) => ([480, 640] as const).map((w) => thumbnailUrl(src, w))).concat(thumbnailUrl(sources[0], 960));
    const identical = thumbnailUrl(sources[0], 480); // joins an existing job: never refused
    let refused = 0;
    const ask = async (url: string) => {
      const res = await site(url);
      const answer = { status: res.status, retryAfter: res.headers.get("retry-after"), text: res.status === 200 ? "" : await res.text() };
      if (res.status === 503 && ++refused === urls.length - 5) release();
      return answer;
    };
    // The first URL's encode runs before the others are sent: concurrent connections reach the
    // server in no set order, and were the first URL to arrive sixth, it and its identical twin
    // would both be refused (a CI run saw 13 refusals for 12).
    const running = ask(urls[0]);
    await firstRunning;
    const answers = await Promise.all([running, ...[...urls.slice(1), identical].map(ask)]);
    const byStatus = (status: number) => answers.filter((a) => a.status === status);
    expect(byStatus(503)).toHaveLength(urls.length - 5);
    expect(byStatus(200)).toHaveLength(6);
    expect(byStatus(503).every((a) => a.retryAfter === "2" && /try again/.test(a.text))).toBe(true);
    expect(most).toBe(1);
  });
});
