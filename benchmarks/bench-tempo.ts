// `npm run bench:tempo [-- --set synthetic|real|all --part tuning|held-out|all --formats wav,mp3,opus --with-v3 --verbose]`:
// the accuracy of the analyzer's tempo and key (issues #20 and #28, ADRs 0105 and 0117), next to
// the previous analyzer versions' figures as recorded when each was released
// (benchmarks/recorded/tempo-key.json, ADR 0153: recorded data, not frozen copies of old code),
// on two sets:
// - synthetic (the regression set): compositions this project writes itself
//   (benchmarks/lib/tempo-set.ts), rendered by fluidsynth with FluidR3_GM, as WAV, MP3 and Opus,
//   and beatless controls; renders cached in node_modules/.cache/bench-tempo;
// - real: compositions by other people from Debian packages (benchmarks/lib/real-set.ts), fetched
//   with `apt-get download` into BENCH_TEMPO_CACHE (default ~/.cache/northbeat-bench/tempo),
//   their notated tempo, metre and key read from the files, their steady part scored, rendered
//   with two soundfonts; beatless controls made of their own notes. Without apt-get that part is
//   skipped with one line.
// Each set has a tuning part and a held-out part (by composition), reported apart:
// - answered: the share of steady-beat tracks given a tempo;
// - accuracy 1: within 4 % of the notated beat; accuracy 2: within 4 % of it or of twice, half,
//   three times or a third of it (a track without an answer counts as wrong);
// - wrong answers (acc. 2): the share of the answers wrong even at accuracy 2 (precision's complement);
// - errors: the kinds of the answers wrong at accuracy 1 (half, double, 2:3, 3:2, 4:3 or 5:4, other);
// - beatless: the share of the controls without a tempo;
// - key: the MIREX weighted score (1 same key, 0.5 a fifth away, 0.3 relative, 0.2 parallel).
// Nothing is asserted: the figures are printed (the goals are in issue #28).
import path from "node:path";
import { parseArgs } from "node:util";
import { analyzeAudio } from "../app/.server/analysis/analyze.ts";
import { encodeWithFfmpeg } from "./lib/encode-audio.ts";
import { keyScore } from "./lib/key-score.ts";
import { REAL_CACHE, realSet, SOUNDFONTS } from "./lib/real-set.ts";
import { evaluationSet, type Piece } from "./lib/tempo-set.ts";
import { acc1 as bpmAcc1, acc2 as bpmAcc2, errorKind } from "./lib/tempo-scoring.ts";
import RECORDED from "./recorded/tempo-key.json" with { type: "json" };

const { values: flags } = parseArgs({
  options: {
    set: { type: "string", default: "all" },
    part: { type: "string", default: "all" },
    formats: { type: "string", default: "wav,mp3,opus" },
    verbose: { type: "boolean", default: false },
    // versions 3 and 4 in two more columns (recorded on ADR 0117's smaller real set); versions 7, 8 and 9 are always shown
    "with-v3": { type: "boolean", default: false },
    only: { type: "string", default: "" },
    help: { type: "boolean", default: false },
  },
});
if (flags.help) {
  console.log(
    "npm run bench:tempo [-- --set synthetic|real|all --part tuning|held-out|all --formats wav,mp3,opus --only TEXT --with-v3 --verbose]\n" +
      "The analyzer's tempo and key accuracy, beside the released versions' recorded figures (benchmarks/recorded/tempo-key.json).",
  );
  process.exit(0);
}
interface Recorded {
  version: number;
  source: string;
  corpus: { real: string; synthetic: string };
  parts: Record<string, Record<string, string>>;
  byFeel?: Record<string, Record<string, string | number>>;
}
const recorded = (RECORDED.versions as Recorded[]).filter((v) => v.version >= 7 || flags["with-v3"]);
const v8Recorded = recorded.find((v) => v.version === 8)!;
const FORMATS = flags.formats.split(",") as ("wav" | "mp3" | "opus")[];
const cacheDir = path.join(import.meta.dirname, "..", "node_modules", ".cache", "bench-tempo");

interface Answer {
  bpm: number | null;
  confidence: number;
  key: string | null;
}
interface Row {
  piece: Piece & { section?: { fromSeconds: number; toSeconds: number }; real?: boolean };
  format: string;
  now: Answer;
}

const acc1 = (a: Answer, truth: number) => bpmAcc1(a.bpm, truth);
const acc2 = (a: Answer, truth: number) => bpmAcc2(a.bpm, truth);

const inPart = (p: { heldOut: boolean; name: string }) => (flags.part === "all" ? true : flags.part === "held-out" ? p.heldOut : !p.heldOut) && (!flags.only || p.name.includes(flags.only));
const synthetic: Row["piece"][] = flags.set === "real" ? [] : evaluationSet(cacheDir).filter(inPart);
const real: Row["piece"][] = flags.set === "synthetic" ? [] : realSet().map((p) => ({ ...p, real: true })).filter(inPart);
if (real.length > 0) console.log(`real part: ${real.length} renders (${SOUNDFONTS.map((s) => s.name).join(", ")}) cached in ${REAL_CACHE}`);
const pieces = [...synthetic, ...real];
const rows: Row[] = [];
let newSeconds = 0;
const started = performance.now();
for (const piece of pieces) {
  const wav = piece.wav();
  // the real renders are WAV only: their two soundfonts are the variation
  for (const format of piece.real ? ["wav"] : FORMATS) {
    const bytes = format === "wav" ? wav : encodeWithFfmpeg(wav, format as "mp3" | "opus");
    const t0 = performance.now();
    const r = await analyzeAudio(bytes, { section: piece.section });
    newSeconds += (performance.now() - t0) / 1000;
    const now = { bpm: r.bpm, confidence: r.bpmConfidence, key: r.key };
    rows.push({ piece, format, now });
    if (flags.verbose) {
      const show = (a: Answer) => `${a.bpm === null ? "—" : a.bpm.toFixed(1)} (${a.confidence.toFixed(2)}) ${a.key ?? "no key"}`;
      const truth = piece.bpm === null ? "no beat" : String(piece.bpm);
      const mark = piece.bpm === null ? (now.bpm === null ? "ok" : "FALSE") : acc1(now, piece.bpm) ? "ok" : acc2(now, piece.bpm) ? "octave" : now.bpm === null ? "MISSED" : `WRONG ${errorKind(now.bpm!, piece.bpm)}`;
      console.log(`${piece.heldOut ? "H" : " "} ${piece.name.padEnd(50)} ${format.padEnd(4)} ${("metre " + ((piece as { metre?: string }).metre ?? "-")).padEnd(11)} truth ${truth.padEnd(7)} key ${(piece.key ?? "-").padEnd(8)} now ${show(now).padEnd(30)} ${mark}`);
    }
  }
}


function figures(subset: Row[], pick: (r: Row) => Answer) {
  const beat = subset.filter((r) => r.piece.bpm !== null);
  const beatless = subset.filter((r) => r.piece.bpm === null);
  const answered = beat.filter((r) => pick(r).bpm !== null);
  const keyed = subset.filter((r) => r.piece.key !== null);
  const pct = (n: number, d: number) => (d === 0 ? "—" : `${((100 * n) / d).toFixed(0)} % (${n}/${d})`);
  return {
    answered: pct(answered.length, beat.length),
    "accuracy 1": pct(beat.filter((r) => acc1(pick(r), r.piece.bpm!)).length, beat.length),
    "accuracy 2": pct(beat.filter((r) => acc2(pick(r), r.piece.bpm!)).length, beat.length),
    "precision (acc. 2)": pct(answered.filter((r) => acc2(pick(r), r.piece.bpm!)).length, answered.length),
    "wrong answers (acc. 2)": pct(answered.filter((r) => !acc2(pick(r), r.piece.bpm!)).length, answered.length),
    "errors (acc. 1)": errors(answered.filter((r) => !acc1(pick(r), r.piece.bpm!)).map((r) => errorKind(pick(r).bpm!, r.piece.bpm!))),
    "beatless without tempo": pct(beatless.filter((r) => pick(r).bpm === null).length, beatless.length),
    "key weighted score": keyed.length === 0 ? "—" : (keyed.reduce((s, r) => s + keyScore(pick(r).key, r.piece.key!), 0) / keyed.length).toFixed(3) + ` (${keyed.length})`,
  };
}

function errors(kinds: string[]): string {
  if (kinds.length === 0) return "none";
  const count = new Map<string, number>();
  for (const k of kinds) count.set(k, (count.get(k) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ");
}

const syn = rows.filter((r) => !r.piece.real);
const rea = rows.filter((r) => r.piece.real);
const parts: [string, Row[]][] = [
  ["real, tuning", rea.filter((r) => !r.piece.heldOut)],
  ["real, held out", rea.filter((r) => r.piece.heldOut)],
  ["synthetic, tuning", syn.filter((r) => !r.piece.heldOut)],
  ["synthetic, held out", syn.filter((r) => r.piece.heldOut)],
  ["synthetic, variable tempo (both parts)", syn.filter((r) => r.piece.variable)],
  // the goals are for the tracks with a steady beat (and the beatless controls)
  ["synthetic, tuning, steady beat", syn.filter((r) => !r.piece.heldOut && !r.piece.variable)],
  ["synthetic, held out, steady beat", syn.filter((r) => r.piece.heldOut && !r.piece.variable)],
];
console.log(`\n${pieces.length} pieces × ${FORMATS.join(", ")} = ${rows.length} files; ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
console.log(`analysis: ${newSeconds.toFixed(1)} s this version (whole analysis)`);
// the recorded columns are whole parts, all formats: a run on a subset is not comparable figure for figure
const subsetRun = flags.only !== "" || flags.formats !== "wav,mp3,opus";
for (const v of recorded) console.log(`version ${v.version}: recorded (${v.source}; real set ${v.corpus.real})`);
if (subsetRun) console.log("(this run is a subset: --only or --formats; the recorded columns are of the whole parts)");
console.log("");
// the real part by feel (real-set.ts: compound metre, triplet or swing, cut time, straight; read
// from the scores), issue #28's sources of 2:3 and 4:3 errors
if (rea.length > 0) {
  // version 8's by-feel figures are ADR 0132's (recorded); this version's are measured now
  console.log("| real, by feel | renders | answered v8 → now | accuracy 1 v8 → now | accuracy 2 v8 → now | wrong answers v8 → now |\n|---|---|---|---|---|---|");
  for (const heldOut of [false, true]) {
    for (const feel of [...new Set(rea.map((r) => r.piece.style))].filter((f) => f !== "beatless").sort()) {
      const subset = rea.filter((r) => r.piece.heldOut === heldOut && r.piece.style === feel);
      if (subset.length === 0) continue;
      const a = v8Recorded.byFeel?.[`${heldOut ? "held out" : "tuning"}, ${feel}`] ?? {};
      const b = figures(subset, (r) => r.now);
      const short = (v: string) => v.replace(/ \(.*\)/, "");
      const was = (k: string) => String(a[k] ?? "—");
      console.log(`| ${heldOut ? "held out" : "tuning"}, ${feel} | ${subset.length} | ${was("answered")} → ${short(b.answered)} | ${was("accuracy 1")} → ${short(b["accuracy 1"])} | ${was("accuracy 2")} → ${short(b["accuracy 2"])} | ${was("wrong answers (acc. 2)")} → ${short(b["wrong answers (acc. 2)"])} |`);
    }
  }
  console.log("");
}
for (const [name, subset] of parts) {
  if (subset.length === 0) continue;
  const now = figures(subset, (r) => r.now);
  const earlier = recorded.filter((v) => v.parts[name]);
  console.log(`| ${name} |${earlier.map((v) => ` version ${v.version} (recorded) |`).join("")} this version |\n|---|${earlier.map(() => "---|").join("")}---|`);
  for (const k of Object.keys(now) as (keyof typeof now)[]) console.log(`| ${k} |${earlier.map((v) => ` ${v.parts[name]![k] ?? "—"} |`).join("")} ${now[k]} |`);
  console.log("");
}
