import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import fs from "node:fs/promises";
import { writeFileAtomic } from "../files.ts";
import { SAMPLE_AUDIO_MTIME } from "./sample-analysis.ts";
import { clipKey } from "./generate.ts";
import { encodeMp3 } from "./mp3.ts";
import { renderSampleTrack, SAMPLE_AUDIO_KBPS, SAMPLE_AUDIO_RATE } from "./tracks.ts";

/**
 * The sample audio's worker thread (audio.ts starts it): synthesises and encodes the pieces
 * one at a time — the PCM of one piece (at most 3 minutes, 16 MB) is all it holds — and writes
 * each MP3 atomically, so a file in DATA_DIR/media is always whole. Encoding ~20 minutes of
 * audio takes seconds of CPU: here it never delays a page (issue #9).
 */

export interface AudioWorkerData {
  mediaDir: string;
  /** 0-based indexes into SAMPLE_TRACKS */
  tracks: number[];
  /** where a copy of each file is kept for other data folders (audio.ts), if anywhere */
  cacheDir?: string;
}

export type AudioWorkerMessage = { written: string };

const { mediaDir, tracks, cacheDir } = workerData as AudioWorkerData;
for (const index of tracks) {
  const key = clipKey(index + 1);
  const mp3 = encodeMp3(renderSampleTrack(index), SAMPLE_AUDIO_RATE, SAMPLE_AUDIO_KBPS);
  await writeFileAtomic(path.join(mediaDir, key), mp3);
  // one mtime for every copy of a piece: the identity its shipped analysis is stored under (sample-analysis.ts)
  await fs.utimes(path.join(mediaDir, key), SAMPLE_AUDIO_MTIME, SAMPLE_AUDIO_MTIME);
  // a cache that cannot be written is no reason to fail: the next data folder encodes again
  if (cacheDir) await writeFileAtomic(path.join(cacheDir, key), mp3).catch(() => undefined);
  parentPort?.postMessage({ written: key } satisfies AudioWorkerMessage);
}
