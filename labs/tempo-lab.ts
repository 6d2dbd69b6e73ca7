// A laboratory for the tempo's metrical level (issue #28, ADR 0126): the analysis excerpts of
// bench:tempo's steady renders (real part and synthetic set, WAV), cached once in a directory of
// this script's own (~/.cache/northbeat-bench/tempo-lab), so that a change to the level
// decision is measured in seconds instead of a whole bench run (the first run fills the cache: a
// few minutes). `node labs/tempo-lab.ts [--part tuning|held-out|all] [--only TEXT] [--verbose]
// [--folds] [--feel]` (--folds: the real tuning part also in two folds by composition, a
// cross-check of a choice; --feel: the real part by feel).
// The figures are bench:tempo's (answered, accuracy 1 and 2, answers wrong at accuracy 2, beatless).
// Not a replacement for bench:tempo: its table is the one reported.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { analyzeAudio } from "../app/.server/analysis/analyze.ts";
import { onsetStrength } from "../app/.server/analysis/onset.ts";
import { measureEnvelope, type TempoMeasures } from "../app/.server/analysis/tempo.ts";
import { realSet } from "../benchmarks/lib/real-set.ts";
import { acc1, acc2, errorKind } from "../benchmarks/lib/tempo-scoring.ts";
import { evaluationSet } from "../benchmarks/lib/tempo-set.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    part: { type: "string", default: "tuning" },
    verbose: { type: "boolean", default: false },
    only: { type: "string", default: "" },
    // the tuning part split in two folds by the composition's name (a cross-check of a choice)
    folds: { type: "boolean", default: false },
    feel: { type: "boolean", default: false },
  },
});
const LAB = path.join(os.homedir(), ".cache", "northbeat-bench", "tempo-lab");
fs.mkdirSync(LAB, { recursive: true });

interface Item {
  name: string;
  real: boolean;
  variable?: boolean;
  heldOut: boolean;
  bpm: number | null;
  style: string;
  pcm: Float32Array;
  rate: number;
  fold?: number;
}

class Got extends Error {
  pcm: Float32Array;
  rate: number;
  constructor(pcm: Float32Array, rate: number) {
    super("excerpt");
    this.pcm = pcm;
    this.rate = rate;
  }
}

async function excerpt(id: string, wav: () => Uint8Array, section?: { fromSeconds: number; toSeconds: number }): Promise<{ pcm: Float32Array; rate: number }> {
  const file = path.join(LAB, crypto.createHash("sha1").update(id).digest("hex").slice(0, 16));
  if (fs.existsSync(file + ".f32")) {
    const buf = fs.readFileSync(file + ".f32");
    return { pcm: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4), rate: Number(fs.readFileSync(file + ".rate", "utf8")) };
  }
  try {
    // the excerpt is all this needs: stop the analysis there
    await analyzeAudio(wav(), {
      section,
      onExcerpt(pcm, rate) {
        throw new Got(pcm.slice(), rate);
      },
    });
  } catch (e) {
    if (!(e instanceof Got)) throw e;
    fs.writeFileSync(file + ".f32", new Uint8Array(e.pcm.buffer));
    fs.writeFileSync(file + ".rate", String(e.rate));
    return { pcm: e.pcm, rate: e.rate };
  }
  throw new Error("no excerpt");
}

const want = (heldOut: boolean) => flags.part === "all" || (flags.part === "held-out") === heldOut;
const items: Item[] = [];
for (const p of realSet(() => {})) {
  if (!want(p.heldOut) || (flags.only && !p.name.includes(flags.only))) continue;
  const { pcm, rate } = await excerpt(`real ${p.name} ${p.soundfont}`, p.wav, p.section);
  items.push({ name: `${p.name} ${p.soundfont}`, real: true, heldOut: p.heldOut, bpm: p.bpm, style: p.style, pcm, rate, fold: crypto.createHash("sha1").update(p.composition).digest()[1] % 2 });
}
for (const p of evaluationSet(path.join(import.meta.dirname, "..", "node_modules", ".cache", "bench-tempo"))) {
  if (!want(p.heldOut) || (flags.only && !p.name.includes(flags.only))) continue;
  const { pcm, rate } = await excerpt(`synthetic ${p.name}`, p.wav);
  items.push({ name: p.name, real: false, variable: p.variable, heldOut: p.heldOut, bpm: p.bpm, style: p.style, pcm, rate });
}
const envelopes = items.map((i) => onsetStrength(i.pcm, i.rate));
// The frozen version 8 that this lab printed beside "current" was deleted with scripts/lib/legacy
// (ADR 0153); its figures are recorded in benchmarks/recorded/tempo-key.json (ADR 0132's).


// The variants measured for ADR 0126 ran through options of measureEnvelope at commit 67765b2
// (`--variant NAME={...}`), ADR 0127's at commit 1fd7a7a, ADR 0132's at commit 77daac8
// (`--variant NAME={json of LevelOptions}`; `--dump FILE`: the measures its octave decider was
// fitted on), ADR 0133's committee of onset features and second methods by
// scripts/tempo-agree-lab.ts at commit bcbd0fc (`--part`, `--out FILE`: every member's answer per render); the analyzer now has one decision, "current",
// printed below.
for (const vname of ["current"]) {
  const res = items.map((it, i) => ({ it, m: measureEnvelope(envelopes[i]) as TempoMeasures }));
  const real = res.filter((r) => r.it.real);
  const groups: [string, typeof res][] = [
    ["real", real],
    ["synthetic", res.filter((r) => !r.it.real && !r.it.variable)],
    ["variable", res.filter((r) => r.it.variable)],
  ];
  if (flags.folds) groups.push(["fold 0", real.filter((r) => r.it.fold === 0)], ["fold 1", real.filter((r) => r.it.fold === 1)]);
  if (flags.feel) for (const f of [...new Set(real.map((r) => r.it.style))].sort()) groups.push([f.slice(0, 9), real.filter((r) => r.it.style === f)]);
  for (const [label, subset] of groups) {
    const beat = subset.filter((r) => r.it.bpm !== null);
    const beatless = subset.filter((r) => r.it.bpm === null);
    const answered = beat.filter((r) => r.m.bpm !== null);
    const a1 = beat.filter((r) => acc1(r.m.bpm, r.it.bpm!)).length;
    const a2 = beat.filter((r) => acc2(r.m.bpm, r.it.bpm!)).length;
    const wrong = answered.filter((r) => !acc2(r.m.bpm, r.it.bpm!)).length;
    const errs = new Map<string, number>();
    for (const r of answered) if (!acc1(r.m.bpm, r.it.bpm!)) errs.set(errorKind(r.m.bpm!, r.it.bpm!), (errs.get(errorKind(r.m.bpm!, r.it.bpm!)) ?? 0) + 1);
    const pct = (n: number, d: number) => `${d ? Math.round((100 * n) / d) : 0}%`;
    console.log(
      `${vname.padEnd(14)} ${label.padEnd(9)} ${flags.part.padEnd(8)} answered ${pct(answered.length, beat.length)} (${answered.length}/${beat.length}) acc1 ${pct(a1, beat.length)} acc2 ${pct(a2, beat.length)} wrong ${pct(wrong, answered.length)} (${wrong}) beatless ${beatless.filter((r) => r.m.bpm === null).length}/${beatless.length}  [${[...errs].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}]`,
    );
    if (flags.verbose)
      for (const r of subset) {
        const t = r.it.bpm;
        const mark = t === null ? (r.m.bpm === null ? "ok" : "FALSE") : acc1(r.m.bpm, t) ? "ok" : acc2(r.m.bpm, t) ? "octave" : r.m.bpm === null ? "MISSED" : `WRONG ${errorKind(r.m.bpm, t)}`;
        console.log(
          `   ${r.it.name.padEnd(58)} ${r.it.style.padEnd(14)} truth ${String(t ?? "-").padEnd(6)} got ${String(r.m.bpm ?? "—").padEnd(6)} cand ${String(r.m.candidateBpm).padEnd(6)} c ${r.m.confidence.toFixed(2)} ${r.m.persistence === undefined ? "" : `persists ${r.m.persistence.toFixed(2)}`}${r.m.disputed ? ` disputed by ${r.m.secondOpinion}` : ""} ${mark.padEnd(12)} ${r.m.phase === undefined ? "" : `phase ${r.m.phase.toFixed(2)}`} ${(r.m.levels ?? []).map((l) => `${l.bpm}:${l.score.toFixed(2)}×${l.support.toFixed(2)}`).join(" ")}`,
        );
      }
  }
}
