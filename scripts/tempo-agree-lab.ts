// Trial (issue #28, ADR 0133): a committee of onset features (Zapata, Davies and Gómez 2014),
// each run through the analyzer's whole tempo decision; dumps every member's answer per render.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { bandEnergy, onsetStrength } from "../app/.server/analysis/onset.ts";
import { measureEnvelope } from "../app/.server/analysis/tempo.ts";
import { autocorrelation } from "../app/.server/analysis/periodicity.ts";
import { realSet } from "./lib/real-set.ts";
import { evaluationSet } from "./lib/tempo-set.ts";

const { values: flags } = parseArgs({ options: { part: { type: "string", default: "tuning" }, out: { type: "string" } } });
const LAB = path.join(os.homedir(), ".cache", "northbeat-bench", "tempo-lab");
function cached(id: string): { pcm: Float32Array; rate: number } {
  const file = path.join(LAB, crypto.createHash("sha1").update(id).digest("hex").slice(0, 16));
  const buf = fs.readFileSync(file + ".f32");
  return { pcm: new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4), rate: Number(fs.readFileSync(file + ".rate", "utf8")) };
}
const BANDS = [80, 160, 320, 640, 1280, 2560, 5000];
function hann(n: number): Float32Array {
  const w = Float32Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / n));
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((v) => v / s);
}
/** onset.ts's flux over a subset of its bands, with its own coincidence rule. */
function subEnvelopes(pcm: Float32Array, rate: number, base: ReturnType<typeof onsetStrength>) {
  const hop = Math.round(0.01 * rate);
  const frames = Math.floor(pcm.length / hop);
  const win = hann(Math.round(0.046 * rate));
  const energy = BANDS.filter((hz) => hz < rate * 0.45).map((hz) => bandEnergy(pcm, rate, hz, hop, frames, win));
  let mean = 0;
  for (const e of energy) for (let f = 0; f < frames; f++) mean += e[f];
  mean /= Math.max(1, frames);
  const scale = 1000 / mean;
  const rises = energy.map((e) => {
    const r = new Float32Array(frames);
    let prev = Math.log1p(scale * e[0]);
    for (let f = 1; f < frames; f++) {
      const l = Math.log1p(scale * e[f]);
      if (l - prev > 0.1) r[f] = l - prev - 0.1;
      prev = l;
    }
    return r;
  });
  const make = (idx: number[], minBands: number, minStrike: number) => {
    const s = new Float32Array(frames);
    const n = new Uint8Array(frames);
    for (const i of idx) if (rises[i]) for (let f = 0; f < frames; f++) if (rises[i][f] > 0) { s[f] += rises[i][f]; n[f]++; }
    for (let f = 0; f < frames; f++) if (n[f] < minBands || s[f] < minStrike) s[f] = 0;
    return { ...base, strength: s };
  };
  return {
    low: make([0, 1], 1, 0.3),
    mid: make([2, 3, 4], 1, 0.3),
    high: make([5, 6], 1, 0.3),
    any: make([0, 1, 2, 3, 4, 5, 6], 1, 0.3),
  };
}
/** Peeters (2006)-style: the envelope's spectrum times its autocorrelation mapped to frequency, under a log-Gaussian prior. */
function dftAcf(env: ReturnType<typeof onsetStrength>, usePrior: boolean, useDft: boolean): { bpm: number | null; cand: number | null; c: number } {
  const x = env.strength;
  const fr = env.frameRate;
  const n = x.length;
  let mean = 0;
  for (const v of x) mean += v / n;
  const acf = autocorrelation(x, Math.ceil(fr * 60 / 40));
  let best = -Infinity;
  let arg = 0;
  for (let bpm = 50; bpm <= 210; bpm += 0.5) {
    const f = bpm / 60 / fr; // cycles per frame
    let re = 0;
    let im = 0;
    if (useDft) for (let i = 0; i < n; i++) { const v = x[i] - mean; re += v * Math.cos(2 * Math.PI * f * i); im += v * Math.sin(2 * Math.PI * f * i); }
    const lag = fr * 60 / bpm;
    const lo = Math.floor(lag), w = lag - lo;
    const a = Math.max(0, acf[lo] * (1 - w) + acf[lo + 1] * w);
    const p = usePrior ? Math.exp(-0.5 * Math.log2(bpm / 120) ** 2) : 1;
    const s = (useDft ? Math.sqrt(re * re + im * im) / n : 1) * a * p;
    if (s > best) { best = s; arg = bpm; }
  }
  return { bpm: best > 0 ? arg : null, cand: best > 0 ? arg : null, c: best > 0 ? 0.5 : 0 };
}
const want = (h: boolean) => flags.part === "all" || (flags.part === "held-out") === h;
const rows: unknown[] = [];
const add = (name: string, real: boolean, heldOut: boolean, bpm: number | null, style: string, variable: boolean, x: { pcm: Float32Array; rate: number }) => {
  const env = onsetStrength(x.pcm, x.rate);
  const main = measureEnvelope(env);
  const subs = subEnvelopes(x.pcm, x.rate, env);
  const members = Object.fromEntries(Object.entries(subs).map(([k, e]) => { const m = measureEnvelope(e); return [k, { bpm: m.bpm, cand: m.candidateBpm, c: m.confidence }]; }));
  members.dftAcf = dftAcf(env, true, true);
  members.acf = dftAcf(env, true, false);
  rows.push({ name, real, heldOut, truth: bpm, style, variable, main: { bpm: main.bpm, cand: main.candidateBpm, c: main.confidence }, members });
};
for (const p of realSet(() => {})) if (want(p.heldOut)) add(`${p.name} ${p.soundfont}`, true, p.heldOut, p.bpm, p.style, false, cached(`real ${p.name} ${p.soundfont}`));
for (const p of evaluationSet(path.join(import.meta.dirname, "..", "node_modules", ".cache", "bench-tempo"))) if (want(p.heldOut)) add(p.name, false, p.heldOut, p.bpm, p.style, !!p.variable, cached(`synthetic ${p.name}`));
fs.writeFileSync(flags.out ?? "/tmp/tempo28/agree.json", JSON.stringify(rows));
console.log(rows.length, "renders");
