// Loaded into the server by `npm run bench:load -- --profile DIR` (node --import): the event
// loop's delay histogram (perf_hooks.monitorEventLoopDelay, 1 ms resolution) and the garbage
// collector's pauses, appended as one JSON line to LOOP_PROBE_FILE each time the process gets
// SIGUSR2 (bench:load sends it after each row), then reset. Issue #32: what makes one request
// of the long tail wait several times the mean (a long synchronous step, a GC pause).
// Plain JavaScript, so that `--import` loads it before server.ts whatever the project's loader.
import fs from "node:fs";
import process from "node:process";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let pauses = [];
  const kinds = { [constants.NODE_PERFORMANCE_GC_MINOR]: "minor", [constants.NODE_PERFORMANCE_GC_MAJOR]: "major", [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental", [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb" };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ kind: kinds[entry.detail?.kind] ?? "other", ms: entry.duration });
  }).observe({ entryTypes: ["gc"] });
  process.on("SIGUSR2", () => {
    const ms = (ns) => Math.round(ns / 1e4) / 100;
    const gc = {};
    for (const p of pauses) {
      const g = (gc[p.kind] ??= { count: 0, totalMs: 0, longestMs: 0 });
      g.count++;
      g.totalMs = Math.round((g.totalMs + p.ms) * 100) / 100;
      g.longestMs = Math.max(g.longestMs, Math.round(p.ms * 100) / 100);
    }
    const line = { pid: process.pid, delayMs: { p50: ms(delay.percentile(50)), p90: ms(delay.percentile(90)), p99: ms(delay.percentile(99)), max: ms(delay.max) }, gc };
    fs.appendFileSync(file, JSON.stringify(line) + "\n");
    delay.reset();
    pauses = [];
  });
}
