// A laboratory for Klapuri, Eronen and Astola's (2006) meter model as the tempo's metrical-level
// decision (issue #28, ADR 0138): on the cached analysis excerpts of tempo-lab.ts
// (~/.cache/northbeat-bench/tempo-lab; run tempo-lab first to fill it), it measures
//  1. the registral accent signals: 36 critical-band powers of a 23 ms STFT at 172 Hz, μ-law
//     compressed, low-passed at 10 Hz, their rises weighted against their level, summed in four
//     channels (the paper's §II), each channel's mean removed (a comb filter passes a constant
//     whole, at every period alike);
//  2. a bank of comb-filter resonators over those channels (one per period up to 5 s, half-time
//     3 s), each period's normalised energy — the periodicity salience (§III-B), averaged over the
//     excerpt;
//  3. the joint estimate of the tatum, tactus and measure periods (§III-C, the non-causal case
//     for a steady excerpt): the lognormal prior of each level's period (the paper's medians and
//     shapes), the tatum and the measure conditioned on the tactus by a Gaussian mixture over
//     their integer ratios (σ 0.3; the mixture's weights, KLAPURI.wA and wC, set here by musical
//     judgement: the paper's table was not at hand), and each level's salience.
// Then the variants of the level decision it prints (ADR 0138's table): the model's tactus alone;
// as the octave decision on version 9's answer (its half or its double when the model scores it
// higher by a margin); and as a second member of a committee (version 9's answer only where the
// model hears the same pulse). `--grid`: the priors varied, each setting chosen on one fold of
// the tuning part and read on the other. `--hmm`: the paper's inference frame by frame (a hidden
// tactus, forward–backward) in place of the whole excerpt's mean. `--beats`: Zapata et al.'s
// committee by its members' beats (information gain), as an abstention.
// `node labs/meter-lab.ts [--part tuning|held-out] [--folds] [--verbose] [--variant A,B] [--grid] [--hmm] [--beats] [--limit N]`
// (`--limit N`: the first N renders only, their salience at the notated beat's ratios printed,
// nothing cached). The saliences and version 9's answers are cached per part in
// ~/.cache/northbeat-bench/meter-lab-<part>.json (this script's own file). Read the held-out
// part only for a candidate chosen on the tuning part (issue #28's rule).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { trackBeats } from "../app/.server/analysis/beat-tracker.ts";
import { onsetStrength } from "../app/.server/analysis/onset.ts";
import { measureEnvelope } from "../app/.server/analysis/tempo.ts";
import { accents, HMM_HOP, MAX_PERIOD, resonators, WARM_UP } from "./lib/meter-accents.ts";
import { realSet } from "../benchmarks/lib/real-set.ts";
import { acc1, acc2, errorKind } from "../benchmarks/lib/tempo-scoring.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    part: { type: "string", default: "tuning" },
    folds: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    variant: { type: "string", default: "" },
    // a quick look at the first N renders (not cached)
    limit: { type: "string", default: "" },
    grid: { type: "boolean", default: false },
    beats: { type: "boolean", default: false },
    hmm: { type: "boolean", default: false },
  },
});
if (flags.part !== "tuning" && flags.part !== "held-out") throw new Error("--part tuning|held-out");
const HOME = path.join(os.homedir(), ".cache", "northbeat-bench");
const LAB = path.join(HOME, "tempo-lab");
const DUMP = path.join(HOME, `meter-lab-${flags.part}.json`);

interface Row {
  name: string;
  composition: string;
  metre: string;
  style: string;
  bpm: number | null;
  fold: number;
  v9: number | null;
  v9cand: number | null;
  frameRate: number;
  /** The mean normalised salience per period (index = period in frames), all channels summed. */
  sal: number[];
  /** The same, the lowest channel only (the bass and the kick: a measure's downbeat, a variant). */
  low: number[];
}

function load(): Row[] {
  if (fs.existsSync(DUMP) && !flags.limit) return JSON.parse(fs.readFileSync(DUMP, "utf8")) as Row[];
  const rows: Row[] = [];
  for (const p of realSet(() => {})) {
    if (p.heldOut !== (flags.part === "held-out") || p.bpm === null) continue;
    if (flags.limit && rows.length >= Number(flags.limit)) break;
    const file = path.join(LAB, crypto.createHash("sha1").update(`real ${p.name} ${p.soundfont}`).digest("hex").slice(0, 16));
    if (!fs.existsSync(file + ".f32")) throw new Error(`${p.name}: not in tempo-lab's cache (run labs/tempo-lab.ts --part ${flags.part} first)`);
    const buf = fs.readFileSync(file + ".f32");
    const pcm = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    const rate = Number(fs.readFileSync(file + ".rate", "utf8"));
    const m = measureEnvelope(onsetStrength(pcm, rate));
    const { v, fr } = accents(pcm, rate);
    const chans = resonators(v, fr);
    const sal = chans[0].map((_, k) => chans.reduce((s, c) => s + c[k], 0));
    rows.push({
      name: `${p.name} ${p.soundfont}`,
      composition: p.composition,
      metre: p.metre,
      style: p.style,
      bpm: p.bpm,
      fold: crypto.createHash("sha1").update(p.composition).digest()[1] % 2,
      v9: m.bpm,
      v9cand: m.candidateBpm,
      frameRate: fr,
      sal: Array.from(sal, (x) => Math.round(x * 1e5) / 1e5),
      low: Array.from(chans[0], (x) => Math.round(x * 1e5) / 1e5),
    });
    if (flags.limit) {
      const at = (k: number) => sal[Math.round((60 * fr) / (p.bpm! * k))]?.toFixed(2);
      console.log(p.name, p.bpm, "v9", m.bpm, [1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4, 1, 4 / 3, 3 / 2, 2, 3, 4].map((k) => `${k.toFixed(2)}:${at(k)}`).join(" "));
    }
    process.stderr.write(".");
  }
  if (!flags.limit) fs.writeFileSync(DUMP, JSON.stringify(rows));
  return rows;
}

// ---- the probabilistic model (§III-C), the whole excerpt at once ----

interface Model {
  /** Lognormal priors: median (s) and shape of the tatum, tactus and measure periods (the paper's). */
  mA: number;
  sA: number;
  mB: number;
  sB: number;
  mC: number;
  sC: number;
  /** The Gaussian mixture over the integer ratios 1..9 (tactus/tatum, measure/tactus), σ. */
  wA: number[];
  wC: number[];
  sigmaRatio: number;
  /** How much each level's salience weighs (the exponent of its likelihood). */
  obs: number;
  /** The measure's salience from the lowest channel instead of all four. */
  lowMeasure: boolean;
}

const KLAPURI: Model = {
  mA: 0.18,
  sA: 0.39,
  mB: 0.55,
  sB: 0.28,
  mC: 2.1,
  sC: 0.26,
  // The mixtures' weights are set here by musical judgement, not copied from the paper (its table
  // was not at hand; ADR 0138). Tatums a beat: 2 and 4 most common, then 3 (triplets) and 1, 6 and 8 rarer
  wA: [0.2, 0.6, 0.35, 0.6, 0.02, 0.15, 0.01, 0.1, 0.01],
  // beats a measure: 4, then 2 and 3, 6 rarer; 1 (a measure of one beat) rare
  wC: [0.05, 0.5, 0.4, 0.6, 0.02, 0.1, 0.01, 0.05, 0.01],
  sigmaRatio: 0.3,
  obs: 1,
  lowMeasure: false,
};

const lognormal = (t: number, m: number, s: number) => Math.exp(-(Math.log(t / m) ** 2) / (2 * s * s)) / (t * s);
const mixture = (x: number, w: number[], s: number) => w.reduce((acc, wl, l) => acc + wl * Math.exp(-((x - (l + 1)) ** 2) / (2 * s * s)), 0);

/** Each tactus period's (frames) best joint log-probability, and the tatum and measure behind it. */
function jointTactus(row: Pick<Row, "frameRate" | "sal" | "low">, model: Model): { tau: number; score: number; tatum: number; measure: number; priors: number }[] {
  const fr = row.frameRate;
  const norm = (x: number[]) => {
    const max = Math.max(...x.slice(2));
    return x.map((v) => Math.log(Math.max(1e-3, v / max)));
  };
  const ls = norm(row.sal);
  const lm = model.lowMeasure ? norm(row.low) : ls;
  const out: { tau: number; score: number; tatum: number; measure: number; priors: number }[] = [];
  const minB = Math.floor((60 / 210) * fr);
  const maxB = Math.ceil((60 / 50) * fr);
  const maxT = ls.length - 1;
  for (let b = minB; b <= maxB; b++) {
    let bestA = -Infinity;
    let argA = 0;
    for (let a = Math.max(3, Math.round(0.04 * fr)); a <= b; a++) {
      const s = Math.log(lognormal(a / fr, model.mA, model.sA)) + Math.log(mixture(b / a, model.wA, model.sigmaRatio) + 1e-9) + model.obs * ls[a];
      if (s > bestA) {
        bestA = s;
        argA = a;
      }
    }
    let bestC = -Infinity;
    let argC = 0;
    for (let c = b; c <= maxT; c++) {
      const s = Math.log(lognormal(c / fr, model.mC, model.sC)) + Math.log(mixture(c / b, model.wC, model.sigmaRatio) + 1e-9) + model.obs * lm[c];
      if (s > bestC) {
        bestC = s;
        argC = c;
      }
    }
    const score = Math.log(lognormal(b / fr, model.mB, model.sB)) + model.obs * ls[b] + bestA + bestC;
    // the part of the score that is the priors and the relations (the rest is the three levels' salience)
    const priors = score - model.obs * (ls[b] + ls[argA] + lm[argC]);
    out.push({ tau: b, score, tatum: argA, measure: argC, priors });
  }
  return out;
}

/** The joint score at the tactus nearest `bpm` (the best within ±3 %). */
function scoreAt(joint: ReturnType<typeof jointTactus>, fr: number, bpm: number) {
  const tau = (60 * fr) / bpm;
  let best: (typeof joint)[number] | undefined;
  for (const j of joint) if (Math.abs(j.tau / tau - 1) <= 0.03 && (!best || j.score > best.score)) best = j;
  return best;
}

type Decide = (row: Row, joint: ReturnType<typeof jointTactus>) => number | null;
const variants: Record<string, { model: Model; decide: Decide }> = {};
const bestOf = (joint: ReturnType<typeof jointTactus>) => joint.reduce((a, b) => (b.score > a.score ? b : a));
// version 9 unchanged (the "before" row)
variants.v9 = { model: KLAPURI, decide: (r) => r.v9 };
// the model's tactus alone, named where version 9 names one (its abstentions kept)
variants.alone = { model: KLAPURI, decide: (r, j) => (r.v9 === null ? null : (60 * r.frameRate) / bestOf(j).tau) };
/** Version 9's answer or one of its multiples `ks` (within 50–210 BPM), whichever the model scores highest, the answer ahead by `margin`. */
const levelDecision =
  (ks: number[], margin: number): Decide =>
  (r, j) => {
    if (r.v9 === null) return null;
    const here = scoreAt(j, r.frameRate, r.v9);
    let pick = r.v9;
    let top = here ? here.score + margin : -Infinity;
    for (const k of ks) {
      const bpm = r.v9 * k;
      if (bpm < 50 || bpm > 210) continue;
      const s = scoreAt(j, r.frameRate, bpm);
      if (s && s.score > top) {
        top = s.score;
        pick = bpm;
      }
    }
    return pick;
  };
// the octave decision: version 9's answer, its half or its double, whichever the model scores highest
for (const margin of [0, 1, 2, 3]) {
  variants[`octave.${margin}`] = { model: KLAPURI, decide: levelDecision([2, 0.5], margin) };
  // doubling only (the half answers are the largest error kind)
  variants[`up.${margin}`] = {
    model: KLAPURI,
    decide: (r, j) => {
      if (r.v9 === null || r.v9 * 2 > 210) return r.v9;
      const here = scoreAt(j, r.frameRate, r.v9);
      const up = scoreAt(j, r.frameRate, r.v9 * 2);
      return here && up && up.score > here.score + margin ? r.v9 * 2 : r.v9;
    },
  };
}
// a committee of two (Zapata et al. 2014's abstention): version 9's answer stands only where the
// model's tactus is the same pulse (the answer, an octave or a third of it; or octaves only)
const samePulse = (a: number, b: number, ks: number[]) => ks.some((k) => Math.abs(a - b * k) <= 0.04 * b * k);
variants.agree = { model: KLAPURI, decide: (r, j) => (r.v9 !== null && samePulse((60 * r.frameRate) / bestOf(j).tau, r.v9, [1, 2, 0.5, 3, 1 / 3]) ? r.v9 : null) };
variants.agree2 = { model: KLAPURI, decide: (r, j) => (r.v9 !== null && samePulse((60 * r.frameRate) / bestOf(j).tau, r.v9, [1, 2, 0.5]) ? r.v9 : null) };
for (const [k, v] of Object.entries({ ...variants })) {
  if (k === "v9") continue;
  variants[`${k}/low`] = { model: { ...KLAPURI, lowMeasure: true }, decide: v.decide };
  variants[`${k}/obs2`] = { model: { ...KLAPURI, obs: 2 }, decide: v.decide };
  variants[`${k}/obs.5`] = { model: { ...KLAPURI, obs: 0.5 }, decide: v.decide };
}


const rows = load();

/** The figures of one decision (`got`: a tempo or null per row), over the part and, with --folds, each fold. */
function report(vname: string, got: (number | null)[]): void {
  const groups: [string, number[]][] = [["all", rows.map((_, i) => i)]];
  if (flags.folds) for (const f of [0, 1]) groups.push([`fold ${f}`, rows.flatMap((r, i) => (r.fold === f ? [i] : []))]);
  for (const [label, idx] of groups) {
    const answered = idx.filter((i) => got[i] !== null);
    const a1 = idx.filter((i) => acc1(got[i], rows[i].bpm!)).length;
    const a2 = idx.filter((i) => acc2(got[i], rows[i].bpm!)).length;
    const wrong = answered.filter((i) => !acc2(got[i], rows[i].bpm!)).length;
    const errs = new Map<string, number>();
    for (const i of answered) if (!acc1(got[i], rows[i].bpm!)) errs.set(errorKind(got[i]!, rows[i].bpm!), (errs.get(errorKind(got[i]!, rows[i].bpm!)) ?? 0) + 1);
    const fixed = idx.filter((i) => acc1(got[i], rows[i].bpm!) && !acc1(rows[i].v9, rows[i].bpm!)).length;
    const broken = idx.filter((i) => !acc1(got[i], rows[i].bpm!) && acc1(rows[i].v9, rows[i].bpm!)).length;
    const pct = (n: number, d: number) => `${d ? ((100 * n) / d).toFixed(1) : 0}%`;
    console.log(
      `${vname.padEnd(16)} ${label.padEnd(7)} ${flags.part.padEnd(8)} answered ${pct(answered.length, idx.length)} (${answered.length}/${idx.length}) acc1 ${pct(a1, idx.length)} acc2 ${pct(a2, idx.length)} wrong ${pct(wrong, answered.length)} (${wrong}) acc1 fixed ${fixed} broken ${broken}  [${[...errs].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}]`,
    );
  }
}

/**
 * The information gain of one beat sequence against another (Davies, Degara and Plumbley 2009, the
 * measure Zapata, Davies and Gómez 2014 average over a committee's pairs): each beat's timing
 * error to the nearest beat of the other sequence, over the other's local inter-beat interval
 * (−0.5…0.5), in a histogram of 40 bins; log2(40) less its entropy, in bits, the better of the
 * two directions. 0: unrelated sequences; 5.32: the same beats. A sequence at twice the other's
 * rate keeps a two-peak histogram (about 4.3 bits at most): the levels are related.
 */
function infoGain(a: number[], b: number[]): number {
  const BINS = 40;
  const one = (x: number[], y: number[]) => {
    if (x.length < 2 || y.length < 2) return 0;
    const h = new Float64Array(BINS);
    for (const t of x) {
      let k = 0;
      while (k + 1 < y.length && Math.abs(y[k + 1] - t) <= Math.abs(y[k] - t)) k++;
      const ibi = k + 1 < y.length ? y[k + 1] - y[k] : y[k] - y[k - 1];
      const e = Math.max(-0.5, Math.min(0.4999, (t - y[k]) / ibi));
      h[Math.floor((e + 0.5) * BINS)]++;
    }
    let ent = 0;
    for (const c of h) if (c > 0) ent -= (c / x.length) * Math.log2(c / x.length);
    return Math.log2(BINS) - ent;
  };
  return Math.max(one(a, b), one(b, a));
}

/**
 * --beats: Zapata et al.'s (2014) committee by its members' beats, not only their tempi. Members:
 * version 9's answer tracked (Ellis's tracker) on onset.ts's envelope; the same tempo tracked on
 * the accent signals (another onset feature); Peeters's tempo (version 9's second opinion) on the
 * envelope; the meter model's tactus on the accent signals. The answer's agreement is its mean
 * information gain against the others; no tempo is named under a threshold (swept here).
 */
if (flags.beats) {
  const BEATS = path.join(HOME, `meter-lab-${flags.part}-beats.json`);
  let agreement: (number | null)[];
  if (fs.existsSync(BEATS)) agreement = JSON.parse(fs.readFileSync(BEATS, "utf8")) as (number | null)[];
  else {
    agreement = [];
    const byName = new Map(realSet(() => {}).map((p) => [`${p.name} ${p.soundfont}`, p]));
    for (const row of rows) {
      if (row.v9 === null) {
        agreement.push(null);
        continue;
      }
      const p = byName.get(row.name)!;
      const file = path.join(LAB, crypto.createHash("sha1").update(`real ${p.name} ${p.soundfont}`).digest("hex").slice(0, 16));
      const buf = fs.readFileSync(file + ".f32");
      const pcm = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
      const rate = Number(fs.readFileSync(file + ".rate", "utf8"));
      const env = onsetStrength(pcm, rate);
      const m = measureEnvelope(env);
      const { v, fr } = accents(pcm, rate);
      const acc = Float32Array.from(v[0], (_, n) => v.reduce((sum, c) => sum + c[n], 0));
      const seconds = (frames: number[], rateHz: number) => frames.map((f) => f / rateHz);
      const answer = seconds(trackBeats(env.strength, (60 * env.frameRate) / row.v9), env.frameRate);
      const others = [seconds(trackBeats(acc, (60 * fr) / row.v9), fr)];
      if (m.secondOpinion !== undefined) others.push(seconds(trackBeats(env.strength, (60 * env.frameRate) / m.secondOpinion), env.frameRate));
      others.push(seconds(trackBeats(acc, bestOf(jointTactus(row, KLAPURI)).tau), fr));
      agreement.push(others.reduce((sum, o) => sum + infoGain(answer, o), 0) / others.length);
      process.stderr.write(".");
    }
    fs.writeFileSync(BEATS, JSON.stringify(agreement));
  }
  const line = (label: string, idx: number[], cut: number) => {
    const got = idx.map((i) => (agreement[i] !== null && agreement[i]! >= cut ? rows[i].v9 : null));
    const answered = idx.filter((_, k) => got[k] !== null).length;
    const a1 = idx.filter((i, k) => acc1(got[k], rows[i].bpm!)).length;
    const a2 = idx.filter((i, k) => acc2(got[k], rows[i].bpm!)).length;
    const wrong = idx.filter((i, k) => got[k] !== null && !acc2(got[k], rows[i].bpm!)).length;
    const pct = (n: number, d: number) => `${d ? ((100 * n) / d).toFixed(1) : 0}%`;
    console.log(`beats ≥ ${cut.toFixed(2)} ${label.padEnd(7)} answered ${pct(answered, idx.length)} (${answered}/${idx.length}) acc1 ${pct(a1, idx.length)} acc2 ${pct(a2, idx.length)} wrong ${pct(wrong, answered)} (${wrong})`);
  };
  for (const cut of [0, 1, 1.5, 2, 2.5, 3, 3.5]) {
    line("all", rows.map((_, i) => i), cut);
    if (flags.folds) for (const f of [0, 1]) line(`fold ${f}`, rows.flatMap((r, i) => (r.fold === f ? [i] : [])), cut);
  }
  const wrongOnes = rows.flatMap((r, i) => (r.v9 !== null && !acc2(r.v9, r.bpm!) ? [`${r.name} ${agreement[i]?.toFixed(2)}`] : []));
  console.log("the wrong answers' agreement:", wrongOnes.join("; "));
  const right = rows.flatMap((r, i) => (acc1(r.v9, r.bpm!) ? [agreement[i]!] : [])).sort((a, b) => a - b);
  console.log(`right answers' agreement: min ${right[0].toFixed(2)}, 10th percentile ${right[Math.floor(right.length / 10)].toFixed(2)}, median ${right[right.length >> 1].toFixed(2)}`);
  process.exit(0);
}

/**
 * --hmm: the paper's inference over time (§III-C) instead of the whole excerpt's mean salience:
 * the tactus period a hidden state, observed every HMM_HOP seconds through that frame's joint
 * score (its prior, the best tatum and measure given it, the three saliences); the tactus
 * changing from frame to frame by a lognormal of the periods' ratio (σ 0.2, the paper's). The
 * forward–backward posterior of each tactus period, averaged over the frames, scores the levels:
 * version 9's answer, its half or its double, the most probable by a margin (log-posterior).
 */
if (flags.hmm) {
  const HMM = path.join(HOME, `meter-lab-${flags.part}-hmm.json`);
  let posteriors: { tau: number; logp: number }[][];
  if (fs.existsSync(HMM) && !flags.limit) posteriors = JSON.parse(fs.readFileSync(HMM, "utf8")) as { tau: number; logp: number }[][];
  else {
    posteriors = [];
    const byName = new Map(realSet(() => {}).map((p) => [`${p.name} ${p.soundfont}`, p]));
    for (const row of rows) {
      const p = byName.get(row.name)!;
      const file = path.join(LAB, crypto.createHash("sha1").update(`real ${p.name} ${p.soundfont}`).digest("hex").slice(0, 16));
      const buf = fs.readFileSync(file + ".f32");
      const pcm = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
      const rate = Number(fs.readFileSync(file + ".rate", "utf8"));
      const { v, fr } = accents(pcm, rate);
      const count = Math.floor((v[0].length - 1 - Math.round(WARM_UP * fr)) / Math.round(HMM_HOP * fr)) + 1;
      const frames = Array.from({ length: count }, () => new Float64Array(Math.ceil(MAX_PERIOD * fr) + 1));
      resonators(v, fr, frames);
      const obs = frames.map((f) => jointTactus({ frameRate: fr, sal: Array.from(f), low: Array.from(f) }, KLAPURI));
      const taus = obs[0].map((o) => o.tau);
      const S = taus.length;
      // the transition: lognormal of the ratio of consecutive tactus periods (σ 0.2), in logs
      const trans = taus.map((a) => taus.map((b) => -(Math.log(b / a) ** 2) / (2 * 0.2 * 0.2)));
      const lse = (xs: number[]) => {
        const m = Math.max(...xs);
        return m + Math.log(xs.reduce((acc, x) => acc + Math.exp(x - m), 0));
      };
      const T = obs.length;
      const alpha: number[][] = [obs[0].map((o) => o.score)];
      for (let t = 1; t < T; t++) alpha.push(taus.map((_, j) => obs[t][j].score + lse(taus.map((__, i) => alpha[t - 1][i] + trans[i][j]))));
      const beta: number[][] = Array.from({ length: T }, () => new Array<number>(S).fill(0));
      for (let t = T - 2; t >= 0; t--) for (let i = 0; i < S; i++) beta[t][i] = lse(taus.map((_, j) => trans[i][j] + obs[t + 1][j].score + beta[t + 1][j]));
      const mean = new Array<number>(S).fill(0);
      for (let t = 0; t < T; t++) {
        const post = taus.map((_, i) => alpha[t][i] + beta[t][i]);
        const z = lse(post);
        for (let i = 0; i < S; i++) mean[i] += Math.exp(post[i] - z) / T;
      }
      posteriors.push(taus.map((tau, i) => ({ tau, logp: Math.round(Math.log(Math.max(1e-300, mean[i])) * 1000) / 1000 })));
      process.stderr.write(".");
    }
    if (!flags.limit) fs.writeFileSync(HMM, JSON.stringify(posteriors));
  }
  // the same reports as the variants, with the posterior in place of the joint score
  const asJoint = (post: { tau: number; logp: number }[]) => post.map((q) => ({ tau: q.tau, score: q.logp, tatum: 0, measure: 0, priors: 0 }));
  for (const vname of ["v9", "alone", "octave.0", "octave.1", "octave.2", "octave.3", "up.0", "up.1", "up.2", "up.3", "agree"]) {
    const got = rows.map((r, i) => variants[vname].decide(r, asJoint(posteriors[i])));
    report(`hmm ${vname}`, got);
  }
  process.exit(0);
}

/**
 * --grid: the model's priors varied (the tactus and measure medians, the weight of a tatum equal to
 * the tactus) under each decision rule; each setting chosen on one fold (the most right answers
 * gained at accuracy 1 without more wrong at accuracy 2) and read on the other: the out-of-fold check.
 */
if (flags.grid) {
  type Score = { fold: number; a1: number; wrong: number };
  const results: { label: string; byFold: Score[] }[] = [];
  for (const mB of [0.45, 0.5, 0.55, 0.6])
    for (const mC of [1.6, 1.8, 2.1, 2.4])
      for (const w1 of [0.2, 0.6]) {
        const model: Model = { ...KLAPURI, mB, mC, wA: [w1, ...KLAPURI.wA.slice(1)] };
        const joints = rows.map((r) => jointTactus(r, model));
        for (const rule of ["octave", "up"])
          for (const margin of [0, 0.5, 1, 1.5, 2, 3]) {
            const decide = variants[`${rule}.${margin}`]?.decide ?? levelDecision(rule === "up" ? [2] : [2, 0.5], margin);
            const byFold = [0, 1].map((fold) => {
              const idx = rows.flatMap((r, i) => (r.fold === fold ? [i] : []));
              const got = idx.map((i) => decide(rows[i], joints[i]));
              return {
                fold,
                a1: idx.filter((i, k) => acc1(got[k], rows[i].bpm!)).length - idx.filter((i) => acc1(rows[i].v9, rows[i].bpm!)).length,
                wrong: idx.filter((i, k) => got[k] !== null && !acc2(got[k], rows[i].bpm!)).length - idx.filter((i) => rows[i].v9 !== null && !acc2(rows[i].v9, rows[i].bpm!)).length,
              };
            });
            results.push({ label: `mB ${mB} mC ${mC} w1 ${w1} ${rule}.${margin}`, byFold });
          }
      }
  for (const fold of [0, 1]) {
    const other = 1 - fold;
    const ok = results.filter((r) => r.byFold[fold].wrong <= 0).sort((a, b) => b.byFold[fold].a1 - a.byFold[fold].a1);
    const top = ok[0].byFold[fold].a1;
    for (const r of ok.filter((x) => x.byFold[fold].a1 === top).slice(0, 8))
      console.log(`chosen on fold ${fold}: ${r.label.padEnd(40)} acc1 ${r.byFold[fold].a1 >= 0 ? "+" : ""}${r.byFold[fold].a1} wrong ${r.byFold[fold].wrong >= 0 ? "+" : ""}${r.byFold[fold].wrong} | on fold ${other}: acc1 ${r.byFold[other].a1 >= 0 ? "+" : ""}${r.byFold[other].a1} wrong ${r.byFold[other].wrong >= 0 ? "+" : ""}${r.byFold[other].wrong}`);
    console.log(`  (${ok.filter((x) => x.byFold[fold].a1 === top).length} settings tie at acc1 ${top >= 0 ? "+" : ""}${top} on fold ${fold})`);
  }
  process.exit(0);
}
const jointCache = new Map<string, ReturnType<typeof jointTactus>[]>();
const names = flags.variant ? flags.variant.split(",") : Object.keys(variants);
for (const vname of names) {
  const { model, decide } = variants[vname];
  const key = JSON.stringify(model);
  if (!jointCache.has(key)) jointCache.set(key, rows.map((r) => jointTactus(r, model)));
  const joints = jointCache.get(key)!;
  const got = rows.map((r, i) => decide(r, joints[i]));
  report(vname, got);
  if (flags.verbose)
    rows.forEach((r, i) => {
      const j = joints[i];
      const b = bestOf(j);
      const fr = r.frameRate;
      if (acc1(r.v9, r.bpm!) && acc1(got[i], r.bpm!)) return;
      const at = (bpm: number) => scoreAt(j, fr, bpm);
      const fmt = (x: ReturnType<typeof at>) => (x ? `${x.score.toFixed(1)} = priors ${x.priors.toFixed(1)} + salience ${(x.score - x.priors).toFixed(1)} (tatum ${((60 * fr) / x.tatum).toFixed(0)}, bar ${(x.measure / fr).toFixed(2)} s)` : "-");
      console.log(
        `   ${r.name.padEnd(56)} ${r.metre.padEnd(5)} ${r.style.padEnd(10)} truth ${r.bpm} v9 ${r.v9 ?? "—"} got ${got[i] === null ? "—" : got[i]!.toFixed(1)} model ${((60 * fr) / b.tau).toFixed(1)} | at truth ${fmt(at(r.bpm!))} at v9 ${r.v9 ? fmt(at(r.v9)) : "-"}`,
      );
    });
}
