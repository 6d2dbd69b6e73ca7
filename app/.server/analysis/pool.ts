import path from "node:path";
import { Piscina } from "piscina";
import { sourceWorkerFile } from "../worker-file.ts";
import { AnalysisError, type AnalyzeOptions, type TrackAnalysis } from "./analyze.ts";
import type { AnalysisOutcome, AnalysisTask } from "./worker.ts";

/**
 * Worker threads for the analysis engine (issue #9: analysis runs off the request path, with
 * bounded concurrency, ANALYSIS_CONCURRENCY, default 1 on 2 cores). piscina queues at most
 * `maxQueue` tasks beyond those running and rejects more with QueueFullError, so a caller
 * that outruns the workers learns it at once instead of piling up files in memory. Each
 * thread's V8 heap is capped (resourceLimits); a task that overruns it fails with
 * AnalysisError("too-large") and piscina replaces the thread.
 */

/** The engine's bounds (`onExcerpt`, a function, cannot cross to a worker thread). */
export interface AnalysisPoolOptions extends Omit<AnalyzeOptions, "onExcerpt"> {
  /** Worker threads analysing at once. */
  concurrency: number;
  /** Tasks waiting beyond the running ones; more are refused with QueueFullError. */
  maxQueue: number;
  /** Each worker's V8 old-generation heap, in MB (default 256). */
  maxHeapMb?: number;
  /** Idle workers exit after this long, returning their memory (default 30 s). */
  idleTimeoutMs?: number;
}

export interface AnalysisPool {
  /** Analyses audio bytes (copied to the worker) or a file the worker reads itself. */
  analyze(input: Uint8Array | string, opts?: AnalyzeCallOptions): Promise<TrackAnalysis>;
  /** Tasks running or waiting. */
  readonly pending: number;
  close(): Promise<void>;
}

/** One call's own options: its part of the audio, and an end to wait for (a reference file, issue #19). */
export interface AnalyzeCallOptions {
  section?: AnalyzeOptions["section"];
  /** the task's own CPU time, in ms (AnalyzeOptions.cpuBudgetMs): over it, AnalysisError("too-slow") */
  cpuBudgetMs?: number;
  /** ends the task; a running one ends with its worker thread (piscina), and the call rejects with AnalysisAbortedError */
  signal?: AbortSignal;
}

export class AnalysisAbortedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super("the analysis was stopped before it finished", options);
    this.name = "AnalysisAbortedError";
  }
}

export class QueueFullError extends Error {
  constructor(limit: number) {
    super(`the analysis queue is full (${limit} waiting); try again when it drains`);
    this.name = "QueueFullError";
  }
}

/**
 * The worker is a plain .ts module that Node loads by path (type stripping), in the server
 * and in `node commands/*.ts` (and the benchmarks) alike. It is found from this module's directory upwards: from
 * app/.server/analysis/ when run from source, from build/server/ when this module is part of
 * the Vite SSR bundle — which does not contain the worker, so the project's app/ folder must
 * sit beside build/, as it does wherever `npm start` runs.
 */
export function workerFilename(from = import.meta.dirname): string {
  return sourceWorkerFile(path.join("app", ".server", "analysis", "worker.ts"), from);
}

export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const { concurrency, maxQueue, maxHeapMb = 256, idleTimeoutMs = 30_000, ...analyzeOptions } = options;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  if (!(Number.isInteger(maxQueue) && maxQueue >= 0)) throw new RangeError(`maxQueue must be a non-negative integer, got ${maxQueue}`);
  const piscina = new Piscina<AnalysisTask, AnalysisOutcome>({
    filename: workerFilename(),
    minThreads: 0,
    maxThreads: concurrency,
    maxQueue,
    idleTimeout: idleTimeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  });
  let pending = 0;
  return {
    get pending() {
      return pending;
    },
    async analyze(input, call = {}) {
      if (piscina.queueSize >= maxQueue && pending >= concurrency) throw new QueueFullError(maxQueue);
      const base: AnalysisTask = { ...analyzeOptions };
      if (call.section) base.section = call.section;
      if (call.cpuBudgetMs !== undefined) base.cpuBudgetMs = call.cpuBudgetMs;
      const task: AnalysisTask = typeof input === "string" ? { ...base, filePath: input } : { ...base, bytes: input };
      pending++;
      let outcome: AnalysisOutcome;
      try {
        outcome = await piscina.run(task, call.signal ? { signal: call.signal } : undefined);
      } catch (error) {
        if (call.signal?.aborted) throw new AnalysisAbortedError({ cause: error });
        if ((error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY") {
          throw new AnalysisError("too-large", `the analysis outgrew its worker's ${maxHeapMb} MB heap`, { cause: error });
        }
        if ((error as Error).message === "Task queue is at limit") throw new QueueFullError(maxQueue);
        throw error;
      } finally {
        pending--;
      }
      if (!outcome.ok) throw new AnalysisError(outcome.reason, outcome.message, outcome.fileSeconds !== undefined ? { fileSeconds: outcome.fileSeconds } : undefined);
      return outcome.analysis;
    },
    close: () => piscina.close(),
  };
}
