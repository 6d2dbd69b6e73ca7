import fs from "node:fs/promises";
import os from "node:os";
import { AnalysisError, analyzeAudio, DEFAULT_MAX_BYTES, type AnalyzeOptions, type TrackAnalysis } from "./analyze.ts";

/**
 * The analysis pool's worker (pool.ts): runs in a piscina worker thread, loaded by Node
 * from this .ts file directly (type stripping), never from the server bundle. It returns a
 * result rather than throwing an AnalysisError, because an error's own fields (its reason)
 * do not survive the trip back to the main thread.
 */

export interface AnalysisTask extends Omit<AnalyzeOptions, "onExcerpt"> {
  bytes?: Uint8Array;
  filePath?: string;
}

export type AnalysisOutcome =
  | { ok: true; analysis: TrackAnalysis }
  | { ok: false; reason: AnalysisError["reason"]; message: string; fileSeconds?: number };

// mpg123-decoder reports each damaged MP3 frame with console.error: a damaged file would put
// hundreds of lines in the server's log. The outcome (a short or failed analysis) says enough.
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].startsWith("mpg123-decoder: ")) return;
  consoleError(...args);
};

// Issue #9: a page request never waits on analysis. On Linux a nice value belongs to a thread,
// and priority 0 names the calling one: this worker thread yields the CPU to the server's
// main thread whenever both want it. Elsewhere (or where it is not allowed) it stays as is.
try {
  os.setPriority(0, os.constants.priority.PRIORITY_LOW);
} catch {
  // not permitted here: analysis runs at normal priority
}

export default async function analyzeTask(task: AnalysisTask): Promise<AnalysisOutcome> {
  try {
    const bytes = task.bytes ?? (await readBounded(task.filePath ?? "", task.maxBytes ?? DEFAULT_MAX_BYTES));
    return { ok: true, analysis: await analyzeAudio(bytes, task) };
  } catch (error) {
    if (error instanceof AnalysisError) return { ok: false, reason: error.reason, message: error.message, ...(error.fileSeconds !== undefined ? { fileSeconds: error.fileSeconds } : {}) };
    throw error;
  }
}

async function readBounded(filePath: string, maxBytes: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await fs.open(filePath, "r");
  } catch (error) {
    throw new AnalysisError("unreadable", `cannot open ${filePath}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new AnalysisError("too-large", `file is ${size} bytes, over the ${maxBytes}-byte bound`);
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}
