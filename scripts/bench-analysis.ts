// `npm run bench:analysis [-- --tracks 8 --seconds 180 --concurrency 1,2]`: throughput of the
// analysis engine (issue #9, ADR 0090). Synthesises TRACKS three-minute MP3s (drums and
// chords at varied tempi and keys, encoded by Debian's ffmpeg), then analyses them all through
// the worker pool at each concurrency and prints tracks per minute per core, CPU seconds per
// track (process.cpuUsage covers every thread of the process, workers included) and peak
// resident memory. Goal (issue #9): at least 60 three-minute tracks per minute per core.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createAnalysisPool } from "../app/.server/analysis/pool.ts";
import { PITCH_CLASSES, chordsInKey, drumPattern, encodeWav, encodeWithFfmpeg, mix } from "../app/.server/analysis/testing/synth.ts";

const { values: flags } = parseArgs({
  options: {
    tracks: { type: "string", default: "8" },
    seconds: { type: "string", default: "180" },
    concurrency: { type: "string", default: "1,2" },
  },
});
const TRACKS = Number(flags.tracks);
const SECONDS = Number(flags.seconds);
const CONCURRENCIES = flags.concurrency.split(",").map(Number);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-analysis-"));
const rssMb = () => Math.round(process.memoryUsage.rss() / 1024 / 1024);

/** Samples the process's resident memory every 20 ms while `work` runs; returns its peak. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rssMb();
  const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb())), 20);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peakMb, rssMb()) };
  } finally {
    clearInterval(timer);
  }
}

try {
  console.log(`Synthesising ${TRACKS} MP3s of ${SECONDS} s (stereo, 44.1 kHz, 192 kb/s) in ${dir} …`);
  const files: { file: string; bpm: number; key: string }[] = [];
  for (let i = 0; i < TRACKS; i++) {
    const bpm = 72 + ((i * 37) % 88);
    const key = `${PITCH_CLASSES[(i * 5) % 12]} ${i % 2 ? "minor" : "major"}`;
    const music = mix(drumPattern({ bpm, seconds: SECONDS, seed: i }), chordsInKey({ key, seconds: SECONDS }));
    const file = path.join(dir, `track-${i}.mp3`);
    fs.writeFileSync(file, encodeWithFfmpeg(encodeWav([music, music]), "mp3"));
    files.push({ file, bpm, key });
  }
  const sizeMb = files.reduce((n, f) => n + fs.statSync(f.file).size, 0) / TRACKS / 1024 / 1024;
  console.log(`average file ${sizeMb.toFixed(1)} MB; resident memory before analysis ${rssMb()} MB\n`);

  const rows: string[][] = [];
  for (const concurrency of CONCURRENCIES) {
    const pool = createAnalysisPool({ concurrency, maxQueue: TRACKS });
    // One warm-up track per worker, so thread start-up and WebAssembly compilation are not counted.
    await Promise.all(files.slice(0, concurrency).map((f) => pool.analyze(f.file)));
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { result: results, peakMb } = await withPeakRss(() => Promise.all(files.map((f) => pool.analyze(f.file))));
    const wallSeconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    await pool.close();
    const cpuSecondsPerTrack = (cpu.user + cpu.system) / 1e6 / TRACKS;
    const tempoHits = results.filter((r, i) => r.bpm !== null && Math.abs(r.bpm - files[i].bpm) / files[i].bpm <= 0.04).length;
    const keyHits = results.filter((r, i) => r.key === files[i].key).length;
    rows.push([
      String(concurrency),
      ((TRACKS / wallSeconds) * 60).toFixed(1),
      ((TRACKS / wallSeconds) * 60 / concurrency).toFixed(1),
      (60 / cpuSecondsPerTrack).toFixed(1),
      cpuSecondsPerTrack.toFixed(2),
      wallSeconds.toFixed(1),
      String(peakMb),
      `${tempoHits}/${TRACKS}`,
      `${keyHits}/${TRACKS}`,
    ]);
  }
  const header = ["workers", "tracks/min", "tracks/min/worker", "tracks/CPU-min", "CPU s/track", "wall s", "peak RSS MB", "tempo ±4%", "key"];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((v, c) => v.padStart(widths[c])).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\n${os.cpus().length} cores; goal: ≥ 60 three-minute tracks per minute per core (tracks/CPU-min).`);

  // TODO(issue #9, lead): "page p99 of /catalog while analysing vs idle" — once the analysis
  // stage exists, start the built site (tests/e2e/support/server-process.ts, as bench:leads
  // does) with ANALYSIS_CONCURRENCY=1 and a catalog whose tracks point at these files, measure
  // /catalog with autocannon while the stage analyses them and again when it is idle, and
  // print both p99s and their ratio (goal: at most 1.5×).
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
