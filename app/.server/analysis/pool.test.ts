import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AnalysisError } from "./analyze.ts";
import { createAnalysisPool, QueueFullError, workerFilename } from "./pool.ts";
import { drumPattern, encodeWav, encodeWithFfmpeg } from "../../../tests/support/synth.ts";

// The pool runs analyses in worker threads, off the request path (issue #9), and bounds both
// the threads and the queue (ADR 0090).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-pool-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const wav = encodeWav([drumPattern({ bpm: 120, seconds: 12 })]);

describe("analysis pool", () => {
  it("analyses bytes and files in a worker thread", async () => {
    const pool = createAnalysisPool({ concurrency: 1, maxQueue: 4 });
    try {
      const file = path.join(dir, "beat.mp3");
      fs.writeFileSync(file, encodeWithFfmpeg(wav, "mp3"));
      const [fromBytes, fromFile] = await Promise.all([pool.analyze(wav), pool.analyze(file)]);
      expect(fromBytes.durationSeconds).toBe(12);
      expect(fromBytes.bpm).toBeCloseTo(120, 0);
      expect(fromFile.durationSeconds).toBe(12);
      expect(fromFile.bpm).toBeCloseTo(120, 0);
      expect(pool.pending).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it("refuses work beyond its queue with QueueFullError", async () => {
    const pool = createAnalysisPool({ concurrency: 1, maxQueue: 1 });
    try {
      const results = await Promise.allSettled([pool.analyze(wav), pool.analyze(wav), pool.analyze(wav), pool.analyze(wav)]);
      const refused = results.filter((r) => r.status === "rejected");
      expect(results.filter((r) => r.status === "fulfilled").length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(QueueFullError);
    } finally {
      await pool.close();
    }
  });

  it("reports failures as AnalysisError with their reason, and goes on", async () => {
    const pool = createAnalysisPool({ concurrency: 1, maxQueue: 4, maxSeconds: 60 });
    try {
      const missing = await pool.analyze(path.join(dir, "missing.mp3")).catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(AnalysisError);
      expect((missing as AnalysisError).reason).toBe("unreadable");
      const cut = await pool.analyze(wav.slice(0, 2000)).catch((e: unknown) => e);
      expect((cut as AnalysisError).reason).toBe("decode-failed");
      const long = await pool.analyze(encodeWav([new Float32Array(44_100 * 61)])).catch((e: unknown) => e);
      expect((long as AnalysisError).reason).toBe("too-large");
      // the worker thread's own CPU time, over the call's budget (ADR 0141)
      const slow = await pool.analyze(wav, { cpuBudgetMs: 1 }).catch((e: unknown) => e);
      expect((slow as AnalysisError).reason).toBe("too-slow");
      expect((await pool.analyze(wav)).durationSeconds).toBe(12);
    } finally {
      await pool.close();
    }
  });

  it("finds its worker from the server bundle's directory as from its own", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    expect(workerFilename(path.join(root, "build", "server"))).toBe(path.join(root, "app/.server/analysis/worker.ts"));
    expect(workerFilename(import.meta.dirname)).toBe(path.join(root, "app/.server/analysis/worker.ts"));
  });
});
