import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { drumPattern, encodeWav } from "../support/synth.ts";
import { startAnalyzer, type Analyzer } from "../../app/.server/analysis/stage/analyzer.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";
import type { AnalysisStore } from "../../app/.server/analysis/stage/store.ts";
import { catalogWith, countingPool, walkAndDrain } from "../support/analysis-stage.ts";

/**
 * Audio on an object-storage host (an absolute MEDIA_URL; ADR 0091): the walk identifies each
 * file with a HEAD (size and ETag), the analysis downloads it within UPSTREAM_MAX_BYTES, and a
 * host that refuses a file has it recorded as failed, never blocking the others.
 */

const beat = (seconds: number) => Buffer.from(encodeWav([drumPattern({ bpm: 120, seconds, sampleRate: 22_050 })], 22_050));
const files = new Map<string, { body: Buffer; etag: string }>();
const requests: string[] = [];
let host: http.Server;
let base: string;

beforeAll(async () => {
  host = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const file = files.get(decodeURIComponent(req.url!.replace(/^\/audio\//, "")));
    if (req.url === "/audio/moved.wav") {
      res.writeHead(302, { location: "/audio/a.wav" }).end();
      return;
    }
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "audio/wav", "content-length": file.body.length, etag: file.etag });
    res.end(req.method === "HEAD" ? undefined : file.body);
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}/audio/`;
});
afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

let dataDir: string;
let store: AnalysisStore;
let analyzer: Analyzer;
let pool: ReturnType<typeof countingPool>;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-remote-"));
  files.clear();
  requests.length = 0;
  // a small byte cap, so one file of the host is over it
  const config = parseConfig({ DATA_DIR: dataDir, MEDIA_URL: base, UPSTREAM_MAX_BYTES: "300000", LOG_LEVEL: "silent" });
  store = await openAnalysisStore(config);
  pool = countingPool();
  analyzer = startAnalyzer({ config, logger: createLogger("silent"), store, pool });
});
afterEach(async () => {
  await analyzer.stop({ deadlineMs: 3_000 });
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("analysis of audio on a media host", () => {
  it("downloads within the byte cap, records what the host refuses, and re-analyses a file whose ETag changed", async () => {
    files.set("a.wav", { body: beat(3), etag: '"a1"' });
    files.set("big.wav", { body: beat(8), etag: '"b1"' }); // 8 s at 22.05 kHz 16-bit: 353 KB, over the cap
    const data = catalogWith(["a.wav", "big.wav", "gone.wav", "moved.wav"]);
    await walkAndDrain(analyzer, data);

    // one HEAD per key, and one more for the redirect's target
    expect(requests.filter((r) => r.startsWith("HEAD"))).toHaveLength(5);
    const summary = await store.summary({ now: Date.now() });
    expect(summary).toMatchObject({ done: 2, failed: 2 });
    const reasons = Object.fromEntries(summary.failures.map((f) => [f.key, f.reason]));
    expect(reasons["big.wav"]).toMatch(/^too-large: .*over UPSTREAM_MAX_BYTES \(300000/);
    expect(reasons["gone.wav"]).toMatch(/^unreachable: GET .*gone\.wav answered 404/);
    // the redirect is followed to the file it names
    expect((await store.results(["moved.wav"]))[0].analysis.durationSeconds).toBe(3);
    // downloads are removed once analysed
    expect(fs.readdirSync(path.join(dataDir, "cache", "analysis")).flatMap((d) => fs.readdirSync(path.join(dataDir, "cache", "analysis", d)))).toEqual([]);

    // the same ETag: nothing is fetched again but the HEADs
    requests.length = 0;
    await walkAndDrain(analyzer, data);
    expect(requests.every((r) => r.startsWith("HEAD"))).toBe(true);

    // a new object under the key: a new ETag
    files.set("a.wav", { body: beat(4), etag: '"a2"' });
    await walkAndDrain(analyzer, data);
    expect((await store.results(["a.wav"]))[0].analysis.durationSeconds).toBe(4);
    expect((await store.results(["moved.wav"]))[0].analysis.durationSeconds).toBe(4);
    // a.wav and moved.wav (its redirect names the same object) once more each
    expect(pool.inputs.length).toBe(4);
  });
});
