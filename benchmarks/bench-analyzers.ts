// `npm run bench:analyzers [-- --tracks 48 --seconds 180 --processes 1,2 --queue-only]`: tracks analysed per
// hour by 1, then 2 `npm run analyzer` processes sharing one PostgreSQL queue (issue #42
// "Analysis as jobs", ADR 0158; goal: 2 processes ≥ 1.8× one on a 2-core machine). Each process
// runs as a machine without audio would (an empty DATA_DIR, ANALYSIS_CONCURRENCY=1), reading
// TRACKS synthesised MP3s of SECONDS each (drums and chords, 44.1 kHz, Debian's ffmpeg) from an
// HTTP media host (MEDIA_URL). For each count: a fresh database, the tracks queued due a few
// seconds ahead so every process starts claiming at the same moment, then until the last is
// stored. Prints tracks per hour over the whole run and in steady state (from the k-th result
// to the last, leaving out each process's first-track warm-up), the CPU seconds a track cost
// (/proc: every thread of the analyzers), the cores the analyzers got, and the load average the
// machine had from other work (other sessions share it: a ratio under 2 with cores used under 2
// is the machine's, not the queue's). Then the queue alone: QUEUE_TRACKS rows claimed and stored
// (a stand-in result, no audio) by 1 and 2 claimers at once, in milliseconds of the queue's own
// work per track: what the claim adds to each analysis, and the rate the queue itself sustains.
// Never asserts a time.
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { helpFromHeader } from "../commands/lib/usage.ts";
import { queueTracks, spawnAnalyzer, startMediaHost, synthTrack, type AnalyzerProcess } from "./lib/analyzer-processes.ts";
import { startTestPostgres } from "./lib/postgres-server.ts";
import { cpuSeconds } from "./lib/proc.ts";
import { ANALYZER_VERSION } from "../app/.server/analysis/analyze.ts";
import { openAnalysisStore } from "../app/.server/analysis/stage/open.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    tracks: { type: "string", default: "48" },
    seconds: { type: "string", default: "180" },
    processes: { type: "string", default: "1,2" },
    // the queue-alone run only (no audio, no analyzer processes)
    "queue-only": { type: "boolean", default: false },
  },
});
const TRACKS = Number(flags.tracks);
const SECONDS = Number(flags.seconds);
const COUNTS = flags.processes.split(",").map(Number);
/** Time for the processes to start (about 4 s each on a quiet machine) before the tracks fall due. */
const START_LEAD_MS = 20_000;
/** Rows the queue-alone run claims and stores. */
const QUEUE_TRACKS = 2_000;

interface Run {
  processes: number;
  wallSeconds: number;
  perHour: number;
  steadyPerHour: number;
  cpuPerTrack: number;
  coresUsed: number;
  load: number;
}

async function finishedTimes(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ finished_at: string | null; status: string }>("SELECT finished_at, status FROM track_analysis");
    const failed = rows.filter((r) => r.status === "failed").length;
    if (failed) throw new Error(`${failed} tracks failed to analyse`);
    return rows.filter((r) => r.status === "done").map((r) => Number(r.finished_at)).sort((a, b) => a - b);
  } finally {
    await client.end();
  }
}

const analyse = !flags["queue-only"];
if (analyse) console.log(`Synthesising ${TRACKS} tracks of ${SECONDS} s (MP3, 44.1 kHz)…`);
const files = new Map(analyse ? Array.from({ length: TRACKS }, (_, i) => [`bench/track-${i}.mp3`, synthTrack(i, SECONDS, { mp3: true })]) : []);
const host = await startMediaHost(files);
const db = await startTestPostgres();
const runs: Run[] = [];
const queueRuns: Array<{ claimers: number; msPerTrack: number; perHour: number }> = [];
try {
  for (const k of analyse ? COUNTS : []) {
    const url = await db.createDatabase(`analyzers_${k}`);
    const dueAt = Date.now() + START_LEAD_MS;
    await queueTracks(url, [...files.keys()], dueAt);
    const analyzers: AnalyzerProcess[] = Array.from({ length: k }, () => spawnAnalyzer({ DATABASE_URL: url, MEDIA_URL: host.base }));
    try {
      await Promise.all(analyzers.map((a) => a.started));
      await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now())));
      if (analyzers.some((a) => a.child.exitCode !== null)) throw new Error(`an analyzer exited:\n${analyzers.map((a) => a.log()).join("\n")}`);
      const load = os.loadavg()[0];
      const cpuAt = () => analyzers.reduce((sum, a) => sum + (cpuSeconds(a.pid) ?? 0), 0);
      const cpu0 = cpuAt();
      let times: number[] = [];
      while ((times = await finishedTimes(url)).length < TRACKS) {
        await new Promise((r) => setTimeout(r, 200));
      }
      const cpu = cpuAt() - cpu0;
      const last = times[TRACKS - 1];
      const wallSeconds = (last - dueAt) / 1000;
      const steady = (last - times[k - 1]) / 1000;
      runs.push({
        processes: k,
        wallSeconds,
        perHour: (TRACKS / wallSeconds) * 3600,
        steadyPerHour: ((TRACKS - k) / steady) * 3600,
        cpuPerTrack: cpu / TRACKS,
        coresUsed: cpu / wallSeconds,
        load,
      });
      console.log(`${k} process(es): ${TRACKS} tracks in ${wallSeconds.toFixed(1)} s`);
    } finally {
      await Promise.all(analyzers.map((a) => a.stop()));
    }
  }
  queueRuns.push(...(await queueAlone()));
} finally {
  await host.close();
  await db.stop();
}

/**
 * The queue's own work per track, as the drain does it (claim one, then store its result), by
 * `k` claimers at once, each with its own pool of one connection as separate processes have.
 */
async function queueAlone(): Promise<Array<{ claimers: number; msPerTrack: number; perHour: number }>> {
  const out = [];
  for (const k of COUNTS) {
    const url = await db.createDatabase(`queue_${k}`);
    await queueTracks(url, Array.from({ length: QUEUE_TRACKS }, (_, i) => `queue/track-${i}.mp3`));
    const stores = await Promise.all(Array.from({ length: k }, () => openAnalysisStore({ DATABASE_URL: url, DATA_DIR: os.tmpdir() }, { max: 1 })));
    const analysis = { durationSeconds: 180, bpm: 120, bpmConfidence: 0.9, key: "A minor", keyConfidence: 0.8, loudnessLufs: -14, previewPeaks: new Array(200).fill(0.5), overviewPeaks: new Array(1000).fill(0.5), analyzerVersion: ANALYZER_VERSION };
    const started = performance.now();
    await Promise.all(
      stores.map(async (store, i) => {
        for (;;) {
          const [claim] = await store.claim({ owner: `bench-${i}`, now: Date.now(), leaseMs: 120_000, limit: 1 });
          if (!claim) return;
          await store.finishDone(claim.key, `bench-${i}`, claim.identity, analysis, Date.now());
        }
      }),
    );
    const ms = performance.now() - started;
    await Promise.all(stores.map((s) => s.close()));
    out.push({ claimers: k, msPerTrack: ms / QUEUE_TRACKS, perHour: (QUEUE_TRACKS / ms) * 3_600_000 });
  }
  return out;
}

if (analyse) {
  console.log(`\nAnalyzer processes on one PostgreSQL queue, ${TRACKS} tracks of ${SECONDS} s, audio over HTTP (${os.cpus().length} cores)\n`);
  console.log("| processes | tracks/hour | steady tracks/hour | CPU s/track | cores used | load avg (1 min) at start |");
  console.log("|---|---|---|---|---|---|");
  for (const r of runs) {
    console.log(`| ${r.processes} | ${Math.round(r.perHour)} | ${Math.round(r.steadyPerHour)} | ${r.cpuPerTrack.toFixed(2)} | ${r.coresUsed.toFixed(2)} | ${r.load.toFixed(2)} |`);
  }
  const one = runs.find((r) => r.processes === 1);
  for (const r of runs.filter((x) => x.processes > 1 && one)) {
    console.log(`\n${r.processes} vs 1: ${(r.perHour / one!.perHour).toFixed(2)}× tracks/hour, ${(r.steadyPerHour / one!.steadyPerHour).toFixed(2)}× in steady state (goal ≥ 1.8× for 2), cores used ${(r.coresUsed / one!.coresUsed).toFixed(2)}×`);
  }
}
console.log(`\nThe queue alone: ${QUEUE_TRACKS} rows claimed and stored (no audio), wall time per track\n`);
console.log("| claimers at once | ms per track | tracks/hour the queue sustains |");
console.log("|---|---|---|");
for (const q of queueRuns) console.log(`| ${q.claimers} | ${q.msPerTrack.toFixed(2)} | ${Math.round(q.perHour).toLocaleString("en")} |`);
