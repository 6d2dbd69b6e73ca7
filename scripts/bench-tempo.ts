// `npm run bench:tempo [-- --part tuning|held-out|all --formats wav,mp3,opus --verbose]`:
// the accuracy of the analyzer's tempo and key (issue #20, ADR 0105), next to the previous
// analyzer version's, on an evaluation set this script builds itself (scripts/lib/tempo-set.ts:
// MIDI compositions rendered by Debian's fluidsynth with fluid-soundfont-gm, encoded to MP3 and
// Opus by ffmpeg, and beatless controls). Rendered WAVs are cached in
// node_modules/.cache/bench-tempo. Prints, per part of the set (tuning, held out):
// - answered: the share of steady-beat tracks given a tempo;
// - accuracy 1: within 4 % of the tempo a listener taps; accuracy 2: within 4 % of it or of
//   twice, half, three times or a third of it (the MIR measures; a track without an answer
//   counts as wrong);
// - precision: the share of the answers that are right in the accuracy-2 sense (and in the
//   accuracy-1 sense);
// - beatless: the share of the controls without a tempo;
// - key: the MIREX weighted score (1 same key, 0.5 a fifth away, 0.3 relative, 0.2 parallel).
// Nothing is asserted: the figures are printed (the goals are in issue #20).
import path from "node:path";
import { parseArgs } from "node:util";
import { analyzeAudio } from "../app/.server/analysis/analyze.ts";
import { estimateKey as legacyKey } from "./lib/legacy/key-v2.ts";
import { estimateTempo as legacyTempo } from "./lib/legacy/tempo-v2.ts";
import { encodeWithFfmpeg } from "./lib/encode-audio.ts";
import { keyScore } from "./lib/key-score.ts";
import { evaluationSet, type Piece } from "./lib/tempo-set.ts";

const { values: flags } = parseArgs({
  options: {
    part: { type: "string", default: "all" },
    formats: { type: "string", default: "wav,mp3,opus" },
    verbose: { type: "boolean", default: false },
    only: { type: "string", default: "" },
  },
});
const FORMATS = flags.formats.split(",") as ("wav" | "mp3" | "opus")[];
const cacheDir = path.join(import.meta.dirname, "..", "node_modules", ".cache", "bench-tempo");

interface Answer {
  bpm: number | null;
  confidence: number;
  key: string | null;
}
interface Row {
  piece: Piece;
  format: string;
  now: Answer;
  before: Answer;
}

const TOLERANCE = 0.04;
const within = (bpm: number, truth: number) => Math.abs(bpm - truth) <= TOLERANCE * truth;
const acc1 = (a: Answer, truth: number) => a.bpm !== null && within(a.bpm, truth);
const acc2 = (a: Answer, truth: number) => a.bpm !== null && [1, 2, 0.5, 3, 1 / 3].some((f) => within(a.bpm!, truth * f));

const pieces = evaluationSet(cacheDir).filter((p) => (flags.part === "all" ? true : flags.part === "held-out" ? p.heldOut : !p.heldOut)).filter((p) => !flags.only || p.name.includes(flags.only));
const rows: Row[] = [];
let newSeconds = 0;
let oldSeconds = 0;
const started = performance.now();
for (const piece of pieces) {
  const wav = piece.wav();
  for (const format of FORMATS) {
    const bytes = format === "wav" ? wav : encodeWithFfmpeg(wav, format);
    let before: Answer = { bpm: null, confidence: 0, key: null };
    const t0 = performance.now();
    let excerptMs = 0;
    const r = await analyzeAudio(bytes, {
      onExcerpt(pcm, rate) {
        const t = performance.now();
        const tempo = legacyTempo(pcm, rate);
        before = { bpm: tempo.bpm, confidence: tempo.confidence, key: legacyKey(pcm, rate).key };
        excerptMs = performance.now() - t;
      },
    });
    newSeconds += (performance.now() - t0 - excerptMs) / 1000;
    oldSeconds += excerptMs / 1000;
    const now = { bpm: r.bpm, confidence: r.bpmConfidence, key: r.key };
    rows.push({ piece, format, now, before });
    if (flags.verbose) {
      const show = (a: Answer) => `${a.bpm === null ? "—" : a.bpm.toFixed(1)} (${a.confidence.toFixed(2)}) ${a.key ?? "no key"}`;
      const truth = piece.bpm === null ? "no beat" : String(piece.bpm);
      const mark = piece.bpm === null ? (now.bpm === null ? "ok" : "FALSE") : acc1(now, piece.bpm) ? "ok" : acc2(now, piece.bpm) ? "octave" : now.bpm === null ? "MISSED" : "WRONG";
      console.log(`${piece.heldOut ? "H" : " "} ${piece.name.padEnd(42)} ${format.padEnd(4)} truth ${truth.padEnd(7)} now ${show(now).padEnd(30)} before ${show(before).padEnd(30)} ${mark}`);
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
    "precision (acc. 1)": pct(answered.filter((r) => acc1(pick(r), r.piece.bpm!)).length, answered.length),
    "beatless without tempo": pct(beatless.filter((r) => pick(r).bpm === null).length, beatless.length),
    "key weighted score": keyed.length === 0 ? "—" : (keyed.reduce((s, r) => s + keyScore(pick(r).key, r.piece.key!), 0) / keyed.length).toFixed(3) + ` (${keyed.length})`,
  };
}

const parts: [string, Row[]][] = [
  ["tuning", rows.filter((r) => !r.piece.heldOut)],
  ["held out", rows.filter((r) => r.piece.heldOut)],
  ["variable tempo (both parts)", rows.filter((r) => r.piece.variable)],
  // issue #20's goals are for the tracks with a steady beat (and the beatless controls)
  ["tuning, steady beat", rows.filter((r) => !r.piece.heldOut && !r.piece.variable)],
  ["held out, steady beat", rows.filter((r) => r.piece.heldOut && !r.piece.variable)],
];
console.log(`\n${pieces.length} pieces × ${FORMATS.join(", ")} = ${rows.length} files; ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
console.log(`analysis: ${newSeconds.toFixed(1)} s this version (whole analysis), ${oldSeconds.toFixed(1)} s the version-2 tempo and key on the same excerpts\n`);
for (const [name, subset] of parts) {
  if (subset.length === 0) continue;
  const now = figures(subset, (r) => r.now);
  const before = figures(subset, (r) => r.before);
  console.log(`| ${name} | version 2 (before) | version 3 (now) |\n|---|---|---|`);
  for (const k of Object.keys(now) as (keyof typeof now)[]) console.log(`| ${k} | ${before[k]} | ${now[k]} |`);
  console.log("");
}
