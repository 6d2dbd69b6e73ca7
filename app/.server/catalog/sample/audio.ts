import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sourceWorkerFile } from "../../worker-file.ts";
import { clipKey } from "./generate.ts";
import { SAMPLE_AUDIO_KBPS, SAMPLE_AUDIO_RATE, SAMPLE_TRACKS } from "./tracks.ts";
import type { AudioWorkerData, AudioWorkerMessage } from "./audio-worker.ts";
import { SAMPLE_AUDIO_MTIME } from "./sample-analysis.ts";

/**
 * The sample audio is synthesised and encoded in a worker thread (audio-worker.ts), so the
 * first `npm start` serves its first page while the MP3s are still being written (issue #9:
 * within 20 s; the encoding alone takes ~15 s of one core).
 */

/**
 * The worker is a plain .ts module Node loads by path (type stripping), found from this
 * module's directory upwards: app/.server/catalog/sample/ from source, build/server/ in the
 * Vite SSR bundle, which does not contain it (the same arrangement as the analysis worker,
 * app/.server/analysis/pool.ts).
 */
export function audioWorkerFilename(from = import.meta.dirname): string {
  return sourceWorkerFile(path.join("app", ".server", "catalog", "sample", "audio-worker.ts"), from);
}

/**
 * The pieces are the same bytes for every DATA_DIR (seeded synthesis, fixed encoder settings),
 * so they are also kept in the project's `node_modules/.cache`: a second data folder (a test's
 * or a benchmark's server, a reset `./data`) copies them instead of spending ~15 s of CPU
 * encoding them again. The folder is named by a hash of what the bytes depend on; anything
 * that changes the synthesis should change SAMPLE_TRACKS, the rate or the bitrate, or bump
 * CACHE_GENERATION. Without a writable node_modules the cache is simply not used.
 */
// 2: the pieces are families.ts's (issue #19); a change to families.ts's synthesis bumps it too (3: a pad under the house stabs)
const CACHE_GENERATION = 3;

export function sampleAudioCacheDir(): string | undefined {
  // SAMPLE_AUDIO_CACHE: "off", or another folder for the cache (tests)
  const setting = process.env.SAMPLE_AUDIO_CACHE;
  if (setting === "off") return undefined;
  let root: string;
  try {
    root = setting ? path.resolve(setting) : path.join(path.resolve(path.dirname(audioWorkerFilename()), "../../../.."), "node_modules", ".cache", "sample-audio");
  } catch {
    return undefined;
  }
  const hash = crypto
    .createHash("sha256")
    .update(JSON.stringify({ CACHE_GENERATION, SAMPLE_TRACKS, SAMPLE_AUDIO_RATE, SAMPLE_AUDIO_KBPS }))
    .digest("hex")
    .slice(0, 12);
  return path.join(root, hash);
}

/** Copies the pieces the cache holds into `mediaDir`, each atomically; returns the ones it had. */
function copyFromCache(cacheDir: string | undefined, mediaDir: string, indexes: number[]): Set<number> {
  const copied = new Set<number>();
  if (!cacheDir) return copied;
  for (const index of indexes) {
    const key = clipKey(index + 1);
    const cached = path.join(cacheDir, key);
    if (!fs.existsSync(cached)) continue;
    const tmp = path.join(mediaDir, `${key}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`);
    try {
      fs.mkdirSync(mediaDir, { recursive: true });
      fs.copyFileSync(cached, tmp);
      // the identity the shipped analysis is stored under (sample-analysis.ts)
      fs.utimesSync(tmp, SAMPLE_AUDIO_MTIME, SAMPLE_AUDIO_MTIME);
      fs.renameSync(tmp, path.join(mediaDir, key));
      copied.add(index);
    } catch {
      fs.rmSync(tmp, { force: true });
    }
  }
  return copied;
}

/** Audio being written, by media directory: one run per directory at a time. */
const running = new Map<string, Promise<number>>();

export interface SampleAudioOptions {
  /** rewrite files that already exist */
  force?: boolean;
  /**
   * Don't keep the process alive for it (the server: a shutdown must not wait for the encoder;
   * files are written atomically, so a stopped run leaves none half-written). A script that
   * awaits the result keeps the default.
   */
  background?: boolean;
  /** called after each file is written */
  onFile?: (key: string) => void;
}

/**
 * Writes the sample pieces missing from `mediaDir` (all of them with `force`), shortest first
 * so most album tracks can play soon after a first start. Resolves to the number written.
 */
export function writeSampleAudio(mediaDir: string, opts: SampleAudioOptions = {}): Promise<number> {
  const current = running.get(mediaDir);
  if (current) return current;
  const missing = SAMPLE_TRACKS.map((track, index) => ({ index, seconds: track.seconds }))
    .filter(({ index }) => opts.force || !fs.existsSync(path.join(mediaDir, clipKey(index + 1))))
    .sort((a, b) => a.seconds - b.seconds)
    .map(({ index }) => index);
  const cacheDir = sampleAudioCacheDir();
  const copied = opts.force ? new Set<number>() : copyFromCache(cacheDir, mediaDir, missing);
  for (const index of copied) opts.onFile?.(clipKey(index + 1));
  const tracks = missing.filter((index) => !copied.has(index));
  if (!tracks.length) return Promise.resolve(copied.size);
  const run = new Promise<number>((resolve, reject) => {
    const worker = new Worker(audioWorkerFilename(), {
      workerData: { mediaDir, tracks, cacheDir } satisfies AudioWorkerData,
      // one piece's PCM and MP3 at a time (audio-worker.ts): a small heap is plenty
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
    });
    if (opts.background) worker.unref();
    let written = copied.size;
    worker.on("message", (message: AudioWorkerMessage) => {
      written++;
      opts.onFile?.(message.written);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => (code === 0 ? resolve(written) : reject(new Error(`the sample audio worker exited with code ${code} after ${written} of ${tracks.length} files`))));
  }).finally(() => running.delete(mediaDir));
  running.set(mediaDir, run);
  return run;
}

/**
 * Settles when no sample audio is being written into `mediaDir` any more (at once when none
 * is): the analysis stage awaits it before reading the sample tracks, so it never measures a
 * file that is about to appear. It never rejects; a failed run was logged where it started.
 */
export async function sampleAudioReady(mediaDir: string): Promise<void> {
  await running.get(mediaDir)?.catch(() => undefined);
}
