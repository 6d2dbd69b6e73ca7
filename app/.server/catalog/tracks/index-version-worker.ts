import { parentPort, workerData } from "node:worker_threads";
import { takeIndexVersion } from "./index-versions.ts";
import type { VersionThreadInput, VersionThreadOutput } from "./index-versions.ts";

/**
 * A track index version's download on a thread of its own (index-versions.ts
 * takeIndexVersionInThread, ADR 0162 amended in the sixth session): the build worker's thread
 * is busy with the columns, and the download's reads only ran at its turns. This thread takes
 * the version (the machine's copy, or downloaded, checked and renamed) and hands back its row
 * as soon as it is chosen, then its file's name; the caller opens the file again.
 */
const input = workerData as VersionThreadInput;
let out: VersionThreadOutput;
try {
  const taken = await takeIndexVersion(input, (chosen) => parentPort!.postMessage({ chosen } satisfies VersionThreadOutput));
  if (taken) {
    const file = taken.bytes.file;
    taken.bytes.close();
    out = file ? { taken: { version: taken.version, file, downloaded: taken.downloaded, downloadMs: taken.downloadMs } } : { error: "the version's file has no name" };
  } else out = { taken: null };
} catch (error) {
  out = { error: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(out);
