import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { clipKey } from "./generate.ts";
import { SAMPLE_TRACKS } from "./tracks.ts";
import type { AudioWorkerData, AudioWorkerMessage } from "./audio-worker.ts";

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
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "app", ".server", "catalog", "sample", "audio-worker.ts");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`sample audio worker not found above ${from} (app/.server/catalog/sample/audio-worker.ts)`);
  }
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
  const tracks = SAMPLE_TRACKS.map((track, index) => ({ index, seconds: track.seconds }))
    .filter(({ index }) => opts.force || !fs.existsSync(path.join(mediaDir, clipKey(index + 1))))
    .sort((a, b) => a.seconds - b.seconds)
    .map(({ index }) => index);
  if (!tracks.length) return Promise.resolve(0);
  const run = new Promise<number>((resolve, reject) => {
    const worker = new Worker(audioWorkerFilename(), {
      workerData: { mediaDir, tracks } satisfies AudioWorkerData,
      // one piece's PCM and MP3 at a time (audio-worker.ts): a small heap is plenty
      resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
    });
    if (opts.background) worker.unref();
    let written = 0;
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
