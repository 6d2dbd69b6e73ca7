import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../app/.server/config.ts";
import { createLogger } from "../app/.server/logger.ts";
import { createSoundsLike, referenceSeed, type SoundsLikeService } from "../app/.server/sounds-like/service.ts";
import { drumPattern, encodeWav, encodeWithFfmpeg } from "../tests/support/synth.ts";
import { requestGuard } from "./request-guard.ts";
import { isSoundsLikeUpload, parseSection, soundsLikeUpload } from "./sounds-like.ts";

// Issue #19 "Search by a reference file": a real Express app on loopback with the request
// gate, the upload route, a real worker pool and a real SQLite store. Every refusal is a 4xx
// with its reason (the page renders it; here a handler reports it), never a 5xx; the gate's
// 64 KB limit stays for every other route; the visitor's audio is never left on disk.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sounds-like-data-"));
const config = parseConfig({ DATA_DIR: dataDir, UPLOAD_LIMIT_BYTES: String(2 * 1024 * 1024), REFERENCE_RATE_LIMIT: "8", REFERENCE_REFUSED_RATE_LIMIT: "12", LOG_LEVEL: "silent" });
const logger = createLogger("silent");
let service: SoundsLikeService;
let server: http.Server;
let base: string;

/** The upload route on a real Express app on loopback, as server/app.ts mounts it. */
async function serve(of: SoundsLikeService): Promise<{ server: http.Server; base: string }> {
  const app = express();
  app.set("trust proxy", "loopback");
  app.use(requestGuard({ bodyLimitBytes: 64 * 1024, drainLimitBytes: 1024 * 1024, urlLimitBytes: 4096, queryParamsLimit: 64 }, { streamed: isSoundsLikeUpload }));
  app.use((req, _res, next) => ((req as unknown as { log: unknown }).log = logger, next()));
  app.use(soundsLikeUpload({ service: () => of }));
  // stands in for the page: what the route's loader would render, with its status
  app.get("/catalog/sounds-like", (_req, res) => {
    const error = res.locals.uploadError as { status: number; message: string } | undefined;
    res.status(error?.status ?? 200).json({ error: error?.message ?? null });
  });
  app.post("/contact", (req, res) => res.json({ bytes: (req.body as Buffer).length }));
  const listening = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => listening.once("listening", resolve));
  return { server: listening, base: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  service = createSoundsLike(config, logger);
  ({ server, base } = await serve(service));
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await service.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let clients = 0;
const uploadDirs = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("sounds-like-") && !d.startsWith("sounds-like-data-"));

async function upload(file: { name: string; bytes: Uint8Array; type?: string } | null, fields: Record<string, string> = {}, to = base, client?: string) {
  const form = new FormData();
  if (file) form.append("audio", new Blob([Buffer.from(file.bytes)], { type: file.type ?? "audio/mpeg" }), file.name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  // each case its own client (X-Forwarded-For, trusted from loopback), so the budgets of one do not spill into another
  const headers = { "x-forwarded-for": client ?? `192.0.2.${(clients = (clients % 250) + 1)}` };
  const res = await fetch(`${to}/catalog/sounds-like`, { method: "POST", body: form, redirect: "manual", headers });
  const body = res.headers.get("content-type")?.includes("json") ? ((await res.json()) as { error: string | null }) : null;
  return { status: res.status, location: res.headers.get("location"), error: body?.error ?? null, retryAfter: res.headers.get("retry-after") };
}

describe("POST /catalog/sounds-like", () => {
  const before = uploadDirs();

  it("analyses an MP3 in the worker pool, keeps only its fingerprint and answers 303 to its like= view", { timeout: 60_000 }, async () => {
    const mp3 = encodeWithFfmpeg(encodeWav([drumPattern({ bpm: 120, seconds: 20 })]), "mp3");
    const r = await upload({ name: "temp track.mp3", bytes: mp3 }, { start: "2", end: "18" });
    expect(r.status).toBe(303);
    expect(r.location).toMatch(/^\/catalog\?type=music&view=tracks&like=ref-[A-Za-z0-9_-]{22}$/);
    const id = new URL(r.location!, base).searchParams.get("like")!;
    const seed = await referenceSeed(service, id);
    expect(seed.status).toBe("ready");
    expect(seed.label).toBe("temp track.mp3");
    expect(seed.sounding?.bpm).toBe(120);
    // expired after REFERENCE_TTL_DAYS
    expect((await referenceSeed(service, id, Date.now() + (config.REFERENCE_TTL_DAYS + 1) * 86_400_000)).status).toBe("expired");
    expect((await referenceSeed(service, "ref-AAAAAAAAAAAAAAAAAAAAAA")).status).toBe("unknown");
  });

  it("refuses a PNG named .mp3 with 415, an empty file with 400, no file with 400, a file over the limit with 413", { timeout: 60_000 }, async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(2000).fill(7)]);
    const notAudio = await upload({ name: "cover.mp3", bytes: png });
    expect(notAudio.status).toBe(415);
    expect(notAudio.error).toMatch(/not audio we can read/);
    const empty = await upload({ name: "empty.mp3", bytes: new Uint8Array(0) });
    expect([empty.status, empty.error]).toEqual([400, "The file is empty. Choose an audio file to compare."]);
    expect((await upload(null, { start: "1" })).status).toBe(400);
    const big = await upload({ name: "big.wav", bytes: new Uint8Array(3 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(big.error).toMatch(/the limit is 2 MB/);
  });

  it("refuses a truncated file, a cut-off form and a section that is not one with 400", { timeout: 60_000 }, async () => {
    const wav = encodeWav([drumPattern({ bpm: 100, seconds: 8 })]);
    expect((await upload({ name: "cut.wav", bytes: wav.subarray(0, wav.length / 2), type: "audio/wav" })).status).toBe(400);
    expect((await upload({ name: "a.wav", bytes: wav, type: "audio/wav" }, { start: "9", end: "3" })).status).toBe(400);
    // a multipart body whose closing boundary never comes
    const status = await new Promise<number>((resolve) => {
      const body = `--xyz\r\nContent-Disposition: form-data; name="audio"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\nID3abc`;
      const req = http.request(`${base}/catalog/sounds-like`, { method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=xyz", "Content-Length": Buffer.byteLength(body) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.end(body);
    });
    expect(status).toBe(400);
    // the same cut short inside a file the route skips (a second file, a field named otherwise):
    // once it crashed the process (an unhandled 'error' on the skipped stream)
    for (const skipped of [`name="other"; filename="b.mp3"`, `name="audio"; filename="a.mp3"\r\n\r\nID3abc\r\n--xyz\r\nContent-Disposition: form-data; name="audio"; filename="b.mp3"`]) {
      const body = `--xyz\r\nContent-Disposition: form-data; ${skipped}\r\nContent-Type: audio/mpeg\r\n\r\nID3abc`;
      const res = await fetch(`${base}/catalog/sounds-like`, { method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=xyz" }, body });
      expect(res.status).toBe(400);
    }
    expect((await fetch(`${base}/catalog/sounds-like`)).status).toBe(200);
    expect(parseSection("abc", undefined)).toMatch(/seconds/);
    expect(parseSection(undefined, undefined)).toEqual({ fromSeconds: 0, toSeconds: 180 });
  });

  it("keeps the 64 KB gate for every other route, and leaves no upload on disk", async () => {
    const res = await fetch(`${base}/contact`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a".repeat(70_000) });
    expect(res.status).toBe(413);
    expect(uploadDirs().filter((d) => !before.includes(d))).toEqual([]);
  });

  it("answers a start past the end with the file's length, not 'truncated or damaged' (issue #41)", { timeout: 60_000 }, async () => {
    const wav = encodeWav([drumPattern({ bpm: 100, seconds: 8 })]);
    const past = await upload({ name: "a.wav", bytes: wav, type: "audio/wav" }, { start: "9" });
    expect([past.status, past.error]).toEqual([400, "The file is 0:08 long; choose a start before 0:08."]);
    const mp3 = encodeWithFfmpeg(encodeWav([drumPattern({ bpm: 120, seconds: 30 })]), "mp3");
    const pastMp3 = await upload({ name: "a.mp3", bytes: mp3 }, { start: "45", end: "60" });
    expect([pastMp3.status, pastMp3.error]).toEqual([400, "The file is 0:30 long; choose a start before 0:30."]);
    // a start one second before the end leaves too little to compare, and says so
    const late = await upload({ name: "a.wav", bytes: wav, type: "audio/wav" }, { start: "7" });
    expect([late.status, late.error]).toEqual([400, "The part from 0:07 to the end of the file is 0:01 long: choose a start at least 3 seconds before the end."]);
    const short = await upload({ name: "blip.wav", bytes: encodeWav([drumPattern({ bpm: 120, seconds: 1 })]), type: "audio/wav" });
    expect([short.status, short.error]).toEqual([400, "The file is 0:01 long: we need at least 3 seconds of it to compare."]);
  });

  it("keeps what it heard with the reference: the file's length, the part compared, tempo, key and a waveform (issue #41)", { timeout: 60_000 }, async () => {
    const mp3 = encodeWithFfmpeg(encodeWav([drumPattern({ bpm: 120, seconds: 20 })]), "mp3");
    const r = await upload({ name: "heard.mp3", bytes: mp3 }, { start: "2", end: "12" });
    expect(r.status).toBe(303);
    const seed = await referenceSeed(service, new URL(r.location!, base).searchParams.get("like")!);
    const heard = seed.heard!;
    // the file's length from its header (the decoding stopped at the section's end), the part compared as asked
    expect(Math.round(heard.fileSeconds)).toBe(20);
    expect([heard.fromSeconds, Math.round(heard.toSeconds)]).toEqual([2, 12]);
    expect(heard.bpm).toBe(120);
    expect(heard.peaks).toHaveLength(100);
    expect(Math.max(...heard.peaks)).toBe(100);
    // the whole file, without a section: its decoded length
    const whole = await upload({ name: "whole.wav", bytes: encodeWav([drumPattern({ bpm: 100, seconds: 8 })]), type: "audio/wav" });
    const wholeSeed = await referenceSeed(service, new URL(whole.location!, base).searchParams.get("like")!);
    expect([wholeSeed.heard?.fromSeconds, wholeSeed.heard?.fileSeconds, wholeSeed.heard?.toSeconds]).toEqual([0, 8, 8]);
  });

  it("does not count files refused for what they are against REFERENCE_RATE_LIMIT, but stops them at REFERENCE_REFUSED_RATE_LIMIT (issue #41, ADR 0144)", { timeout: 90_000 }, async () => {
    const client = "198.51.100.41";
    const good = { name: "good.wav", bytes: encodeWav([drumPattern({ bpm: 100, seconds: 4 })]), type: "audio/wav" };
    const png = { name: "cover.mp3", bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(2000).fill(7)]) };
    const bad = [png, { name: "e.mp3", bytes: new Uint8Array(0) }, { name: "blip.wav", bytes: encodeWav([drumPattern({ bpm: 120, seconds: 1 })]), type: "audio/wav" }];
    // 11 wrong files (the refused budget is 12), then the eight good ones REFERENCE_RATE_LIMIT allows: all compared
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await upload(bad[i % bad.length], {}, base, client)).status);
    expect(statuses.every((s) => s === 400 || s === 415)).toBe(true);
    for (let i = 0; i < 8; i++) expect((await upload(good, {}, base, client)).status).toBe(303);
    // the ninth good file: the compared budget is spent
    const ninth = await upload(good, {}, base, client);
    expect(ninth.status).toBe(429);
    expect(ninth.error).toMatch(/^You have sent 8 files to compare within 1 hour, the most we take from one visitor\. Please try again in \d+ minutes\.$/);
    expect(Number(ninth.retryAfter)).toBeGreaterThan(0);

    // another client: twelve wrong files spend the refused budget; then every file is refused before it is read, good or not
    const flood = "198.51.100.42";
    for (let i = 0; i < 12; i++) expect([400, 415]).toContain((await upload(bad[i % bad.length], {}, base, flood)).status);
    for (const file of [png, good]) {
      const r = await upload(file, {}, base, flood);
      expect(r.status).toBe(429);
      expect(r.error).toMatch(/^12 files sent from your connection within 1 hour could not be used, so uploads from it are paused\./);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
  });

  it("closes a request declaring a body over the limit without reading it, after a readable 413", async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () => {
        socket.write(`POST /catalog/sounds-like HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`);
      });
      let text = "";
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1.1 (413|429)/);
  });
});

describe("a machine too busy to analyse in time (ADR 0141)", () => {
  // REFERENCE_ANALYSIS_TIMEOUT_SECONDS=1: one second of the analysis thread's own CPU time, two
  // on the clock. Busy threads at normal priority on every core (and one more) leave the
  // analysis thread, at the lowest priority (issue #9), a few milliseconds a second: it cannot
  // finish in two seconds, whatever the file.
  const busyConfig = parseConfig({ DATA_DIR: dataDir, UPLOAD_LIMIT_BYTES: String(2 * 1024 * 1024), REFERENCE_ANALYSIS_TIMEOUT_SECONDS: "1", LOG_LEVEL: "silent" });

  it("answers 503 with Retry-After, not the visitor's file at fault (400), and keeps nothing", { timeout: 60_000 }, async (ctx) => {
    if (!(await threadsCanLowerTheirPriority())) {
      console.log("skipped: a thread cannot lower its priority here (os.setPriority), so the analysis is not starved");
      ctx.skip();
    }
    const mp3 = encodeWithFfmpeg(encodeWav([drumPattern({ bpm: 120, seconds: 20 })]), "mp3");
    const busyService = createSoundsLike(busyConfig, logger);
    const { server: busyServer, base: busyBase } = await serve(busyService);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const hogs = Array.from({ length: Math.min(os.availableParallelism() + 1, 33) }, () => new Worker("const s = new Int32Array(require('node:worker_threads').workerData); while (Atomics.load(s, 0) === 0) {}", { eval: true, workerData: stop.buffer }));
    try {
      const before = uploadDirs();
      const r = await upload({ name: "busy.mp3", bytes: mp3 }, {}, busyBase);
      expect([r.status, r.error, r.retryAfter]).toEqual([503, "Every analysis slot is busy right now. Please send the file again in a few seconds.", "10"]);
      expect(uploadDirs().filter((d) => !before.includes(d))).toEqual([]);
    } finally {
      Atomics.store(stop, 0, 1);
      await Promise.all(hogs.map((w) => new Promise((resolve) => w.once("exit", resolve))));
      busyServer.closeAllConnections();
      busyServer.close();
      await busyService.close();
    }
  });
});

/** Whether a worker thread may raise its own nice value (the analysis worker's os.setPriority). */
async function threadsCanLowerTheirPriority(): Promise<boolean> {
  const probe = new Worker("const os = require('node:os'); try { os.setPriority(0, 19); require('node:worker_threads').parentPort.postMessage(os.getPriority(0) === 19); } catch { require('node:worker_threads').parentPort.postMessage(false); }", { eval: true });
  const [ok] = (await once(probe, "message")) as [boolean];
  await probe.terminate();
  return ok;
}
