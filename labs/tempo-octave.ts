// A laboratory for the tempo's octave on backbeat grooves (issue #43, ADRs 0148, 0152, 0159): each
// render's onset envelope with its band energies (onset.ts), stored once outside the repository
// (TEMPO_OCTAVE_STORE, default ~/.cache/northbeat-bench/tempo-octave: about 240 KB a render, 140 MB
// for the groove set and bench:tempo's real part), then the tempo's decision replayed from it
// (measureEnvelope: the answer of the full analysis, on every stored render) in seconds instead of
// the benches' tens of minutes. A change to the backbeat's octave (tempo.ts, backbeatOctave) is
// scored by running this again; --json writes each render's backbeat measures to fit a rule elsewhere.
//   node labs/tempo-octave.ts --dump grooves --grooves FILE   store the groove set's renders; FILE is
//       `npm run bench:grooves -- --verbose`'s output (its lines name each render's WAV in the
//       groove cache, GROOVE_SET_CACHE); about 3 minutes
//   node labs/tempo-octave.ts --dump real    store bench:tempo's real part (tuning and held out); about
//       an hour on the shared machine (renders cached by bench:tempo, BENCH_TEMPO_CACHE)
//   node labs/tempo-octave.ts [--held-out] [--verbose] [--json FILE]   replay: the groove set by style and
//       tempo band and the real tuning part, before the backbeat's octave (the level it started from)
//       and after; --held-out adds the real held-out part (read it once per round: it is the check)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { parseArgs } from "node:util";
import { analyzeAudio } from "../app/.server/analysis/analyze.ts";
import { onsetStrength, type OnsetEnvelope } from "../app/.server/analysis/onset.ts";
import { measureEnvelope } from "../app/.server/analysis/tempo.ts";
import { realSet } from "../benchmarks/lib/real-set.ts";
import { within } from "../benchmarks/lib/tempo-scoring.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    dump: { type: "string" },
    grooves: { type: "string" },
    "held-out": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    json: { type: "string" },
  },
});
const STORE = process.env.TEMPO_OCTAVE_STORE || path.join(os.homedir(), ".cache", "northbeat-bench", "tempo-octave");
const GROOVES = process.env.GROOVE_SET_CACHE || path.join(os.homedir(), ".cache", "northbeat-bench", "grooves");

interface Item {
  id: string;
  set: "groove" | "real";
  name: string;
  /** The beat a listener taps (the groove's quarter note; the real piece's notated beat); null: beatless. */
  bpm: number | null;
  /** A half-time feel: the beat or its half is right (ADR 0148). */
  halfTime?: boolean;
  heldOut: boolean;
}

fs.mkdirSync(STORE, { recursive: true });
if (flags.dump === "grooves" || flags.dump === "real") await dump(flags.dump);
else replay();

async function dump(which: "grooves" | "real") {
  const items: (Item & { bytes: () => Uint8Array; section?: { fromSeconds: number; toSeconds: number } })[] = [];
  if (which === "real") {
    for (const p of realSet()) items.push({ id: `real-${p.name}`.replace(/[^A-Za-z0-9_.-]/g, "_"), set: "real", name: p.name, bpm: p.bpm, heldOut: p.heldOut, bytes: p.wav, section: p.section });
  } else {
    if (!flags.grooves) throw new Error("--dump grooves needs --grooves FILE: npm run bench:grooves -- --verbose > FILE");
    for (const line of fs.readFileSync(flags.grooves, "utf8").split("\n")) {
      const m = line.match(/^(.+?) (\d+) \((.+?)\)\s+(FluidR3|TimGM6mb)\s+\S+\s+\S+\s+(\S+\.wav)$/);
      if (!m) continue;
      const file = path.join(GROOVES, m[5]);
      items.push({ id: `groove-${m[5]}`, set: "groove", name: `${m[1]} ${m[2]} (${m[3]}) ${m[4]}`, bpm: Number(m[2]), halfTime: /half-time|trap|dubstep/.test(m[1]), heldOut: false, bytes: () => new Uint8Array(fs.readFileSync(file)) });
    }
  }
  for (const { bytes, section, ...item } of items) {
    const file = path.join(STORE, `${item.id}.v8`);
    if (fs.existsSync(file)) continue;
    let env: OnsetEnvelope | undefined;
    const r = await analyzeAudio(bytes(), { section, onExcerpt: (pcm, rate) => void (env = onsetStrength(pcm, rate)) });
    fs.writeFileSync(file, v8.serialize({ env, bpm: r.bpm }));
  }
  fs.writeFileSync(path.join(STORE, `index-${which}.json`), JSON.stringify(items.map(({ bytes: _b, section: _s, ...item }) => item), null, 1));
  console.log(`${items.length} renders stored in ${STORE}`);
}

function kind(answer: number | null, item: Item): string {
  if (item.bpm === null) return answer === null ? "beatless, none" : "beatless, a tempo";
  if (answer === null) return "none";
  if (within(answer, item.bpm) || (item.halfTime && within(answer, item.bpm / 2))) return "right";
  if (within(answer, item.bpm * 2)) return "double";
  if (within(answer, item.bpm / 2)) return "half";
  return "other";
}

function replay() {
  const items: Item[] = [];
  for (const which of ["grooves", "real"]) {
    const index = path.join(STORE, `index-${which}.json`);
    if (fs.existsSync(index)) items.push(...(JSON.parse(fs.readFileSync(index, "utf8")) as Item[]));
  }
  if (items.length === 0) throw new Error(`nothing stored in ${STORE}: --dump grooves, --dump real first`);
  const rows: (Item & { before: number | null; after: number | null; measures?: object })[] = [];
  for (const item of items) {
    if (item.set === "real" && item.heldOut && !flags["held-out"]) continue;
    const file = path.join(STORE, `${item.id}.v8`);
    if (!fs.existsSync(file)) continue;
    const stored = v8.deserialize(fs.readFileSync(file)) as { env: OnsetEnvelope; bpm?: number | null; v9?: number | null };
    const m = measureEnvelope(stored.env);
    // before: the level the backbeat's octave started from (version 9's answer)
    const before = m.backbeat ? m.backbeat.fromBpm : m.bpm;
    rows.push({ ...item, before, after: m.bpm, measures: m.backbeat });
    const storedAnswer = stored.bpm !== undefined ? stored.bpm : stored.v9;
    if (flags.verbose && (before !== m.bpm || storedAnswer !== m.bpm)) console.log(`${item.name.padEnd(60)} truth ${item.bpm}  stored ${storedAnswer}  before ${before}  now ${m.bpm}  ${kind(before, item)} → ${kind(m.bpm, item)}`);
  }
  const table = (title: string, groups: [string, (r: Item) => boolean][], of: typeof rows) => {
    console.log(`\n| ${title} | renders | accuracy 1 before → after | double | half | no answer | other |\n|---|---|---|---|---|---|---|`);
    for (const [label, pick] of groups) {
      const g = of.filter(pick);
      if (g.length === 0) continue;
      const count = (k: string, at: "before" | "after") => g.filter((r) => kind(r[at], r) === k).length;
      const both = (k: string) => `${count(k, "before")} → ${count(k, "after")}`;
      const pct = (at: "before" | "after") => Math.round((100 * count("right", at)) / g.filter((r) => r.bpm !== null).length);
      console.log(`| ${label} | ${g.length} | ${pct("before")} → ${pct("after")} % (${both("right")}) | ${both("double")} | ${both("half")} | ${both("none")} | ${both("other")} |`);
    }
  };
  const grooves = rows.filter((r) => r.set === "groove");
  const styles = [...new Set(grooves.map((r) => r.name.replace(/ \d+ \(.*$/, "").replace(/ (swung|straight)$/, "")))];
  table("style", [...styles.map((s): [string, (r: Item) => boolean] => [s, (r) => r.name.startsWith(s)]), ["**all**", () => true]], grooves);
  const bands: [number, number][] = [[60, 79], [80, 100], [101, 130], [131, 159], [160, 180]];
  table("tempo band (BPM)", [...bands.map(([lo, hi]): [string, (r: Item) => boolean] => [`${lo}–${hi}`, (r) => r.bpm! >= lo && r.bpm! <= hi]), ["**all**", () => true]], grooves);
  const real = rows.filter((r) => r.set === "real");
  table("real part", [["tuning", (r) => !r.heldOut], ...(flags["held-out"] ? [["held out", (r: Item) => r.heldOut] as [string, (r: Item) => boolean]] : [])], real.filter((r) => r.bpm !== null));
  const beatless = real.filter((r) => r.bpm === null);
  if (beatless.length) console.log(`\nbeatless controls without a tempo: ${beatless.filter((r) => r.after === null).length}/${beatless.length} (before ${beatless.filter((r) => r.before === null).length})`);
  if (flags.json) fs.writeFileSync(flags.json, JSON.stringify(rows));
}
