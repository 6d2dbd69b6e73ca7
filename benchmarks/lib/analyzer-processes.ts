import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { chordsInKey, drumPattern, mix, PITCH_CLASSES } from "../../app/.server/catalog/sample/synth.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";
import { encodeWav, encodeWithFfmpeg } from "./encode-audio.ts";

// Analyzer processes on machines that hold no audio (issue #42 "Analysis as jobs", ADR 0158),
// shared by tests/integration/analysis-kill.test.ts and benchmarks/bench-analyzers.ts: a media
// host serving synthesised tracks over HTTP (an absolute MEDIA_URL, as object storage), the
// tracks queued in PostgreSQL as the catalog walk queues them, and `npm run analyzer` processes,
// each with an empty DATA_DIR of its own, so every byte it analyses comes from MEDIA_URL.

const projectRoot = path.resolve(import.meta.dirname, "../..");
const projectNode = path.join(projectRoot, "node_modules/.bin/node");
/**
 * A track of `seconds`: drums and chords at a tempo and key of its own; a 22.05 kHz WAV (quick
 * to make and to analyse: the tests), or a 44.1 kHz MP3 as a catalog serves (the bench).
 */
export function synthTrack(i: number, seconds: number, opts: { mp3?: boolean } = {}): Buffer {
  const rate = opts.mp3 ? 44_100 : 22_050;
  const key = `${PITCH_CLASSES[i % 12]} ${i % 2 ? "minor" : "major"}`;
  const signal = mix(drumPattern({ bpm: 84 + ((i * 7) % 70), seconds, sampleRate: rate, seed: i + 1 }), chordsInKey({ key, seconds, sampleRate: rate }));
  const wav = encodeWav([signal], rate);
  return Buffer.from(opts.mp3 ? encodeWithFfmpeg(wav, "mp3") : wav);
}

export interface ServedGet {
  key: string;
  /** when the last byte was handed to the socket (Date.now()) */
  at: number;
}

export interface MediaHost {
  /** the MEDIA_URL the analyzers use */
  base: string;
  /** every complete GET, in order */
  gets: ServedGet[];
  close(): Promise<void>;
}

/**
 * An HTTP media host for `files` (key → bytes), answering HEAD and GET with a length and an ETag.
 * `slow` keys are sent in two halves `pauseMs` apart (a slow download).
 */
export async function startMediaHost(files: ReadonlyMap<string, Buffer>, opts: { slow?: ReadonlySet<string>; pauseMs?: number } = {}): Promise<MediaHost> {
  const gets: ServedGet[] = [];
  const etags = new Map([...files].map(([key, body]) => [key, `"${crypto.createHash("sha1").update(body).digest("hex").slice(0, 16)}"`]));
  const server = http.createServer((req, res) => {
    const key = decodeURIComponent(new URL(req.url!, "http://host").pathname.replace(/^\/media\//, ""));
    const body = files.get(key);
    if (!body || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "audio/wav", "content-length": body.length, etag: etags.get(key) });
    if (req.method === "HEAD") return void res.end();
    const done = () => gets.push({ key, at: Date.now() });
    if (!opts.slow?.has(key)) return void res.end(body, done);
    const half = body.length >> 1;
    res.write(body.subarray(0, half));
    setTimeout(() => res.end(body.subarray(half), done), opts.pauseMs ?? 5_000);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/media/`,
    gets,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Queues `keys` for analysis on `databaseUrl`, as the catalog walk does (AnalysisStore.reconcile),
 * due at `dueAt` (default now): analyzers started before it all begin at that moment.
 */
export async function queueTracks(databaseUrl: string, keys: readonly string[], dueAt = Date.now()): Promise<void> {
  const store = await openAnalysisStore({ DATABASE_URL: databaseUrl, DATA_DIR: os.tmpdir() }, { max: 1 });
  try {
    await store.reconcile(
      keys.map((key) => ({ key, identity: "size=?" })),
      dueAt,
    );
  } finally {
    await store.close();
  }
}

export interface AnalyzerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** the last 20 kB it printed */
  log(): string;
  /** resolves when it has logged "analyzer started" (at LOG_LEVEL info, the default here); rejects if it exits first */
  started: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (a clean stop), and its DATA_DIR removed */
  stop(): Promise<void>;
}

/** `npm run analyzer` with an empty DATA_DIR of its own: no audio but what MEDIA_URL serves. */
export function spawnAnalyzer(env: { DATABASE_URL: string; MEDIA_URL: string } & Record<string, string>): AnalyzerProcess {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "analyzer-machine-"));
  const child = spawn(projectNode, ["commands/analyzer.ts"], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: undefined, DATA_DIR: dataDir, ANALYSIS_CONCURRENCY: "1", LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_SECONDS: "5", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  let onStarted: () => void;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const append = (d: Buffer) => {
    log = (log + d).slice(-20_000);
    if (log.includes('"analyzer started"')) onStarted();
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  void exited.then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    child,
    pid: child.pid!,
    log: () => log,
    started: Promise.race([started, exited.then(() => Promise.reject(new Error(`the analyzer exited before it started:\n${log}`)))]),
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
