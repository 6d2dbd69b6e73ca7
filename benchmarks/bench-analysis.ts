// `npm run bench:analysis [-- --tracks 8 --seconds 180 --concurrency 1,2 --skip-pages]`: throughput of the
// analysis engine (issue #9, ADR 0090). Synthesises TRACKS three-minute MP3s (drums and
// chords at varied tempi and keys, encoded by Debian's ffmpeg), then analyses them all through
// the worker pool at each concurrency and prints tracks per minute per core, CPU seconds per
// track (process.cpuUsage covers every thread of the process, workers included) and peak
// resident memory. Goal (issue #9): at least 60 three-minute tracks per minute per core.
// Then the page p99 of /catalog on the built site while its analysis stage works, next to the
// same figure with analysis off (goal: at most 1.5×); see pageLatencyUnderAnalysis.
import fs from "node:fs";
import { DatabaseSync } from "node:sqlite";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createAnalysisPool } from "../app/.server/analysis/pool.ts";
import autocannon from "autocannon";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { startSite } from "./lib/site-process.ts";
import { catalogMix } from "./lib/catalog-mix.ts";
import { PITCH_CLASSES, chordsInKey, drumPattern, mix } from "../app/.server/catalog/sample/synth.ts";
import { encodeWav, encodeWithFfmpeg } from "./lib/encode-audio.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    tracks: { type: "string", default: "8" },
    seconds: { type: "string", default: "180" },
    concurrency: { type: "string", default: "1,2" },
    // throughput only: leaves out the page-latency run (which builds and starts the site)
    "skip-pages": { type: "boolean", default: false },
  },
});
const TRACKS = Number(flags.tracks);
const SECONDS = Number(flags.seconds);
const CONCURRENCIES = flags.concurrency.split(",").map(Number);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-analysis-"));
/** Copies of the bench files the catalog's tracks point at: enough queued work for the load run. */
const COPIES = Number(process.env.BENCH_ANALYSIS_COPIES ?? 5);

/**
 * Issue #9: "the page p99 of /catalog while analysis runs, next to the same figure with it
 * idle". The built site (as `npm start`) serves a 300-album catalog whose tracks point at the
 * bench's MP3s (COPIES × TRACKS distinct files in its media folder). The same catalog mix as
 * bench:load is requested at a steady 100 requests per second over 8 connections for 10 s:
 * once with ANALYSIS_WORKER=false (idle), then with the analyzer on (ANALYSIS_CONCURRENCY=1),
 * right after start-up, while it works through the queue. The analysed-track counts before and
 * after the run show that it was analysing throughout.
 */
async function pageLatencyUnderAnalysis(mp3s: string[]): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-analysis-site-"));
  const sources = path.join(dataDir, "bench-sources");
  const media = path.join(dataDir, "media");
  fs.mkdirSync(sources, { recursive: true });
  fs.mkdirSync(media, { recursive: true });
  try {
    await writeSampleSources(sources, { albums: 300 });
    const keys: string[] = [];
    for (let c = 0; c < COPIES; c++) {
      for (const [i, file] of mp3s.entries()) {
        const key = `bench-${c}-${i}.mp3`;
        fs.copyFileSync(file, path.join(media, key));
        keys.push(key);
      }
    }
    const albumsFile = path.join(sources, "merged.json");
    const albums = JSON.parse(fs.readFileSync(albumsFile, "utf8")) as { tracks: { s3Path: string }[] }[];
    let n = 0;
    for (const album of albums) for (const track of album.tracks) track.s3Path = keys[n++ % keys.length];
    fs.writeFileSync(albumsFile, JSON.stringify(albums));

    const analysed = () => {
      const db = new DatabaseSync(path.join(dataDir, "analysis.sqlite"), { readOnly: true });
      try {
        return Number((db.prepare("SELECT count(*) AS n FROM track_analysis WHERE status = 'done'").get() as { n: number }).n);
      } catch {
        return 0;
      } finally {
        db.close();
      }
    };
    const measure = async (analyzer: boolean) => {
      const site = await startSite({
        dataDir,
        env: { ALBUMS_URL: albumsFile, LOG_LEVEL: "warn", ANALYSIS_WORKER: String(analyzer), ANALYSIS_CONCURRENCY: "1" },
      });
      try {
        const mix = catalogMix();
        // warm the page cache and the index, as a running site would be
        for (const url of mix) await fetch(site.base + url).then((r) => r.arrayBuffer());
        const before = analyzer ? analysed() : 0;
        const result = await autocannon({
          url: site.base,
          connections: 8,
          overallRate: 100,
          duration: 10,
          requests: mix.map((p) => ({ method: "GET" as const, path: p })),
        });
        const after = analyzer ? analysed() : 0;
        return { p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, analysedDuring: after - before };
      } finally {
        await site.stop();
      }
    };
    const idle = await measure(false);
    const busy = await measure(true);
    const rows = [
      ["idle (ANALYSIS_WORKER=false)", idle],
      [`analysing (1 worker; ${busy.analysedDuring} tracks finished during the run)`, busy],
    ] as const;
    return [
      `/catalog under a steady 100 req/s (8 connections, 10 s, the bench:load catalog mix), ${keys.length} queued three-minute tracks:`,
      "",
      "| while | p50 ms | p99 ms | errors |",
      "|---|---:|---:|---:|",
      ...rows.map(([name, r]) => `| ${name} | ${r.p50} | ${r.p99} | ${r.errors} |`),
      "",
      `p99 analysing ÷ idle: ${(busy.p99 / Math.max(1, idle.p99)).toFixed(2)}× (goal: at most 1.5×)`,
    ].join("\n");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

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

  // The page latency first, while this process (which also runs the load generator) is small:
  // after the pool runs below its heap holds hundreds of MB, and its own GC pauses showed up
  // in the measured latency (p99 1.7-2.3x in that order, 1.1-1.3x with the server measured
  // alone).
  if (!flags["skip-pages"]) console.log(`${await pageLatencyUnderAnalysis(files.map((f) => f.file))}\n`);

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

  // Issue #42: the cost of one track (p50 and p95 over the files, each analysed alone in one
  // warm worker, process.cpuUsage around it) and what a backfill of 2.5 million tracks takes
  // on two-core machines running one worker per core (the mean, not the median: the sum counts).
  const pool = createAnalysisPool({ concurrency: 1, maxQueue: 1 });
  await pool.analyze(files[0].file);
  const perTrack: number[] = [];
  for (const f of files) {
    const c0 = process.cpuUsage();
    await pool.analyze(f.file);
    const c = process.cpuUsage(c0);
    perTrack.push((c.user + c.system) / 1e6);
  }
  await pool.close();
  const sorted = [...perTrack].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const mean = perTrack.reduce((a, b) => a + b, 0) / perTrack.length;
  console.log(`\nCPU s per ${SECONDS} s track, one at a time: p50 ${at(0.5).toFixed(2)}, p95 ${at(0.95).toFixed(2)}, mean ${mean.toFixed(2)} (goal: at most 1.5)`);
  const BACKFILL = 2_500_000;
  const cpuHours = (BACKFILL * mean) / 3600;
  console.log(`backfill of ${BACKFILL.toLocaleString("en-US")} tracks: ${Math.round(cpuHours).toLocaleString("en-US")} CPU hours; on two-core machines, one worker a core:`);
  for (const machines of [1, 10, 100]) {
    const hours = cpuHours / (2 * machines);
    console.log(`  ${String(machines).padStart(3)} machine${machines > 1 ? "s" : " "}: ${hours >= 48 ? `${(hours / 24).toFixed(1)} days` : `${hours.toFixed(1)} hours`}`);
  }

} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
