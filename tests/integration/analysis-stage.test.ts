import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig, type Config } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { startAnalyzer, type Analyzer } from "../../app/.server/analysis/stage/analyzer.ts";
import { createAnalysisLookup, type AnalysisService } from "../../app/.server/analysis/stage/lookup.ts";
import { openAnalysisStore } from "../../app/.server/analysis/stage/open.ts";
import { catalogWith, countingPool, walkAndDrain, writeBeat } from "../support/analysis-stage.ts";

/**
 * The analysis stage on SQLite in DATA_DIR (issue #9 "Results persist", ADR 0091): what an
 * operator notices across restarts, broken files, retries and replaced files. Each "start"
 * opens the store and an analyzer as services.ts does, with the real worker pool, counted.
 */

const logger = createLogger("silent");
let dataDir: string;
let mediaDir: string;
let config: Config;
let clock: number;
const open: Array<{ analyzer: Analyzer; analysis: AnalysisService }> = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-stage-"));
  mediaDir = path.join(dataDir, "media");
  config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent" });
  clock = Date.parse("2026-11-22T10:00:00Z");
});
afterEach(async () => {
  for (const { analyzer, analysis } of open.splice(0)) {
    await analyzer.stop({ deadlineMs: 5_000 });
    await analysis.close();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** One process's start: the store, the lookup and an analyzer, as services.ts wires them. */
async function start() {
  const store = await openAnalysisStore(config);
  const analysis = await createAnalysisLookup(store, { logger, refreshMs: 0, now: () => clock });
  const pool = countingPool();
  const analyzer = startAnalyzer({ config, logger, store, pool, now: () => clock });
  open.push({ analyzer, analysis });
  return { analysis, analyzer, pool };
}

async function restart(first: { analyzer: Analyzer; analysis: AnalysisService }) {
  await first.analyzer.stop({ deadlineMs: 5_000 });
  await first.analysis.close();
  open.splice(open.findIndex((o) => o.analyzer === first.analyzer), 1);
  return start();
}

describe("the analysis stage", () => {
  it("keeps results across a restart: the second start analyses nothing", async () => {
    writeBeat(mediaDir, "a.wav", { bpm: 120 });
    writeBeat(mediaDir, "b.wav", { bpm: 100, seconds: 6 });
    writeBeat(mediaDir, "c/d.wav", { bpm: 140 });
    // the sample catalog points many tracks at a few files: each file is analysed once
    const data = catalogWith(["a.wav", "b.wav"], ["c/d.wav", "a.wav"], ["b.wav"]);

    const first = await start();
    await walkAndDrain(first.analyzer, data);
    expect(first.pool.inputs.sort()).toEqual(["a.wav", "b.wav", "d.wav"]);
    const found = await first.analysis.lookup(["a.wav", "b.wav", "c/d.wav", "none.wav"]);
    expect([...found.keys()].sort()).toEqual(["a.wav", "b.wav", "c/d.wav"]);
    expect(found.get("b.wav")).toMatchObject({ durationSeconds: 6 });
    expect(found.get("b.wav")!.bpm).toBeCloseTo(100, -1);

    const second = await restart(first);
    await walkAndDrain(second.analyzer, data);
    expect(second.pool.inputs).toEqual([]);
    expect((await second.analysis.lookup(["a.wav"])).get("a.wav")).toMatchObject({ durationSeconds: 4 });
    expect(await second.analysis.summary()).toMatchObject({ done: 3, pending: 0, failed: 0, doneLastHour: 3 });
  });

  it("records a corrupt file as failed with its reason, and analyses the others", async () => {
    writeBeat(mediaDir, "good-1.wav");
    fs.writeFileSync(path.join(mediaDir, "corrupt.mp3"), Buffer.from("this is not audio at all ".repeat(200)));
    writeBeat(mediaDir, "good-2.wav");
    const { analyzer, analysis } = await start();
    await walkAndDrain(analyzer, catalogWith(["good-1.wav", "corrupt.mp3", "missing.wav", "good-2.wav"]));

    const summary = await analysis.summary();
    expect(summary).toMatchObject({ done: 2, failed: 2, pending: 0 });
    const reasons = Object.fromEntries(summary.failures.map((f) => [f.key, f.reason]));
    expect(reasons["corrupt.mp3"]).toMatch(/^(unreadable|decode-failed|unsupported): /);
    expect(reasons["missing.wav"]).toMatch(/^unreadable: cannot read missing\.wav: .*ENOENT/);
    expect([...(await analysis.lookup(["good-1.wav", "good-2.wav", "corrupt.mp3"])).keys()].sort()).toEqual(["good-1.wav", "good-2.wav"]);
  });

  it("retries a failed track only after its backoff, and then analyses it once it is readable", async () => {
    fs.mkdirSync(mediaDir, { recursive: true });
    fs.writeFileSync(path.join(mediaDir, "late.wav"), "not yet");
    const { analyzer, analysis, pool } = await start();
    const data = catalogWith(["late.wav"]);
    await walkAndDrain(analyzer, data);
    expect(pool.inputs).toEqual(["late.wav"]);
    const [failure] = (await analysis.summary()).failures;
    expect(failure).toMatchObject({ key: "late.wav", attempts: 1, nextAttemptAt: clock + 60_000 });

    // 59 s later: not due yet, even when asked to look
    clock += 59_000;
    await analyzer.idle();
    expect(pool.inputs).toHaveLength(1);

    // past the minute: tried again, fails again, and the wait doubles
    clock += 2_000;
    await analyzer.idle();
    expect(pool.inputs).toHaveLength(2);
    expect((await analysis.summary()).failures[0]).toMatchObject({ attempts: 2, nextAttemptAt: clock + 120_000 });

    // the file is fixed in place: the walk sees new audio and queues it at once
    writeBeat(mediaDir, "late.wav", { seconds: 5 });
    await walkAndDrain(analyzer, data);
    expect(pool.inputs).toHaveLength(3);
    expect((await analysis.lookup(["late.wav"])).get("late.wav")).toMatchObject({ durationSeconds: 5 });
    expect(await analysis.summary()).toMatchObject({ done: 1, failed: 0 });
  });

  it("analyses a replaced file again, and moves the version when its result changes", async () => {
    const file = writeBeat(mediaDir, "t.wav", { seconds: 4 });
    const { analyzer, analysis, pool } = await start();
    const data = catalogWith(["t.wav"]);
    await walkAndDrain(analyzer, data);
    expect((await analysis.lookup(["t.wav"])).get("t.wav")).toMatchObject({ durationSeconds: 4 });
    void analysis.version;
    await new Promise((r) => setTimeout(r, 20));
    const before = analysis.version;

    // a walk that finds the same size and mtime analyses nothing
    await walkAndDrain(analyzer, data);
    expect(pool.inputs).toHaveLength(1);

    // new content: another size and mtime
    writeBeat(mediaDir, "t.wav", { seconds: 7 });
    fs.utimesSync(file, new Date(clock), new Date(clock + 5_000));
    await walkAndDrain(analyzer, data);
    expect(pool.inputs).toHaveLength(2);
    expect((await analysis.lookup(["t.wav"])).get("t.wav")).toMatchObject({ durationSeconds: 7 });

    // each read of `version` looks at the store again (refreshMs 0): wait for the new marker
    await expect.poll(() => analysis.version).toBeGreaterThan(before);

    // the same size, a new mtime (a file rewritten in place) is other audio too
    fs.utimesSync(file, new Date(clock), new Date(clock + 9_000));
    await walkAndDrain(analyzer, data);
    expect(pool.inputs).toHaveLength(3);
  });
});
