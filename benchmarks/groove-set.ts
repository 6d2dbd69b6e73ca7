// `npm run bench:grooves [-- --verbose --only TEXT --soundfonts FluidR3,TimGM6mb]`: the groove set
// (issue #43, ADR 0148) — the drum grooves a sync and production-music catalog is made of, each
// written here from its own definition (where its kick, snare or clap and hats fall; not one
// template with the tempo changed) as General MIDI, at tempi across its style's range, each
// alone (a drum loop or stem) and with a bass line and chords (some with the drums under the
// music), straight and swung, rendered by Debian's fluidsynth through two soundfonts
// (fluid-soundfont-gm, timgm6mb-soundfont) into a cache outside the repository
// (GROOVE_SET_CACHE, default ~/.cache/northbeat-bench/grooves), then analysed by the analyzer
// (analyze.ts, the whole pipeline) and scored:
// - accuracy 1: within 4 % of the backbeat's quarter-note rate (the rate of the snare or clap
//   on 2 and 4); for the half-time feels (snare only on 3) either that rate or its half;
// - double, half: answered at twice or half that rate (a half-time feel's half is right);
// - no answer.
// By style and by tempo band. Nothing is asserted: the figures are printed (the goals are issue
// #43's: accuracy 1 ≥ 95 %, no groove from 60 to 100 BPM at double).
// The music is this project's own (written by this script): nothing of DESIGN §3d's reserved music.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { analyzeAudio } from "../app/.server/analysis/analyze.ts";
import { createPrng, type Prng } from "../app/.server/catalog/sample/prng.ts";
import { within } from "./lib/tempo-scoring.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    verbose: { type: "boolean", default: false },
    only: { type: "string", default: "" },
    soundfonts: { type: "string", default: "FluidR3,TimGM6mb" },
  },
});

const CACHE = process.env.GROOVE_SET_CACHE || path.join(os.homedir(), ".cache", "northbeat-bench", "grooves");
const SOUNDFONTS = [
  { name: "FluidR3", file: "/usr/share/sounds/sf2/FluidR3_GM.sf2" },
  { name: "TimGM6mb", file: "/usr/share/sounds/sf2/TimGM6mb.sf2" },
].filter((s) => flags.soundfonts.split(",").includes(s.name));
/** Seconds rendered and analysed: a loop or a stem of a few bars, as a library sells them. */
const SECONDS = 20;
const TPQ = 480;
const BAR = 4 * TPQ;

// General MIDI percussion keys (channel 10)
const KICK = 36;
const SNARE = 38;
const SIDE_STICK = 37;
const CLAP = 39;
const CLOSED_HAT = 42;
const PEDAL_HAT = 44;
const OPEN_HAT = 46;
const RIDE = 51;
const CRASH = 49;
const TAMBOURINE = 54;

interface Note {
  tick: number;
  dur: number;
  pitch: number;
  vel: number;
  channel: number; // 0-based
}

/** Where a hit falls in a bar of four quarters: beat 1–4 plus a sixteenth 0–3 (0 on the beat, 2 the "and"). */
type Hit = [beat: number, sixteenth: number, pitch: number, vel: number];

interface Groove {
  style: string;
  /** The notated quarter-note tempo of each rendering (BPM). */
  tempi: number[];
  /** Snare (or clap) only on 3: either the quarter rate or its half is right. */
  halfTime?: boolean;
  /** Swung: the off-beat eighths (or sixteenths, "16") late, a triplet feel. */
  swing?: "8" | "16";
  /** Two bars of drums (bar 2 may vary the kick), written from the style's definition. */
  bars: (rng: Prng) => Hit[][];
  /** The band's parts: bass following the kick, chords by the style's habit. */
  bass: number; // GM program
  chords: number; // GM program
  /** The chords' rhythm: held (whole bars), stabs on the off-beats, or pushed quarters. */
  comp: "held" | "stabs" | "quarters";
}

const eighths = (pitch: number, vel: number, accent = 0): Hit[] => [1, 2, 3, 4].flatMap((b) => [[b, 0, pitch, vel + accent] as Hit, [b, 2, pitch, vel - 10] as Hit]);
const sixteenths = (pitch: number, vel: number): Hit[] => [1, 2, 3, 4].flatMap((b) => [0, 1, 2, 3].map((s) => [b, s, pitch, s === 0 ? vel + 10 : s === 2 ? vel : vel - 18] as Hit));
const quarters = (pitch: number, vel: number): Hit[] => [1, 2, 3, 4].map((b) => [b, 0, pitch, vel] as Hit);

const GROOVES: Groove[] = [
  // rock / pop backbeat: kick on 1 and 3, snare on 2 and 4, closed hi-hat on every eighth
  {
    style: "rock backbeat",
    tempi: [84, 104, 132],
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 110], [3, 0, KICK, 104], [2, 0, SNARE, 112], [4, 0, SNARE, 112], ...eighths(CLOSED_HAT, 78, 8)];
      return [bar, [...bar.filter((h) => !(h[0] === 3 && h[2] === KICK)), [3, 0, KICK, 100], [3, 2, KICK, 92]]];
    },
    bass: 34,
    chords: 29,
    comp: "quarters",
  },
  // pop, swung eighths (a shuffle backbeat): kick 1 and 3, snare 2 and 4, hats on the triplet grid
  {
    style: "shuffle",
    tempi: [76, 120],
    swing: "8",
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 108], [3, 0, KICK, 102], [3, 2, KICK, 84], [2, 0, SNARE, 110], [4, 0, SNARE, 110], ...eighths(CLOSED_HAT, 76, 10)];
      return [bar, bar];
    },
    bass: 33,
    chords: 17,
    comp: "quarters",
  },
  // soul: kick on 1 and the "and" of 2 and 3, snare 2 and 4, hats eighths, tambourine on 2 and 4
  {
    style: "soul",
    tempi: [72, 88, 104],
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 108], [2, 2, KICK, 90], [3, 0, KICK, 100], [2, 0, SNARE, 106], [4, 0, SNARE, 108], [2, 0, TAMBOURINE, 70], [4, 0, TAMBOURINE, 70], ...eighths(CLOSED_HAT, 70, 8)];
      return [bar, [...bar, [4, 2, KICK, 80]]];
    },
    bass: 33,
    chords: 4,
    comp: "held",
  },
  // funk: sixteenth hats, syncopated kick, snare 2 and 4 with ghost notes between
  {
    style: "funk",
    tempi: [96, 116],
    bars: () => {
      const bar: Hit[] = [
        [1, 0, KICK, 112], [1, 3, KICK, 86], [2, 2, KICK, 92], [3, 2, KICK, 96],
        [2, 0, SNARE, 114], [4, 0, SNARE, 114],
        [1, 2, SNARE, 34], [2, 3, SNARE, 30], [3, 1, SNARE, 32], [3, 3, SNARE, 36], [4, 2, SNARE, 30],
        ...sixteenths(CLOSED_HAT, 66),
      ];
      return [bar, [...bar.filter((h) => !(h[0] === 3 && h[1] === 2 && h[2] === KICK)), [3, 0, KICK, 100], [4, 3, KICK, 84]]];
    },
    bass: 36,
    chords: 27,
    comp: "stabs",
  },
  // funk, swung sixteenths
  {
    style: "funk",
    tempi: [98],
    swing: "16",
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 112], [2, 3, KICK, 88], [3, 2, KICK, 96], [2, 0, SNARE, 112], [4, 0, SNARE, 112], [1, 3, SNARE, 32], [3, 1, SNARE, 34], [4, 3, SNARE, 30], ...sixteenths(CLOSED_HAT, 64)];
      return [bar, bar];
    },
    bass: 36,
    chords: 27,
    comp: "stabs",
  },
  // hip-hop / boom bap, 80–100: kick 1, the "a" of 2 and the "and" of 3, snare 2 and 4, hats eighths (swung sixteenths)
  {
    style: "hip-hop",
    tempi: [80, 92, 100],
    swing: "16",
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 116], [2, 3, KICK, 96], [3, 2, KICK, 104], [2, 0, SNARE, 118], [4, 0, SNARE, 118], ...eighths(CLOSED_HAT, 70, 6)];
      return [bar, [...bar.filter((h) => !(h[0] === 3 && h[2] === KICK)), [3, 0, KICK, 100], [3, 3, KICK, 90], [4, 3, OPEN_HAT, 60]]];
    },
    bass: 38,
    chords: 0,
    comp: "held",
  },
  // hip-hop, straight
  {
    style: "hip-hop",
    tempi: [88],
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 116], [1, 2, KICK, 90], [3, 2, KICK, 104], [2, 0, SNARE, 118], [4, 0, SNARE, 118], ...eighths(CLOSED_HAT, 72, 4)];
      return [bar, bar];
    },
    bass: 38,
    chords: 4,
    comp: "held",
  },
  // R&B: kick 1 and the "a" of 2, clap and snare on 2 and 4, sixteenth hats, slow
  {
    style: "R&B",
    tempi: [66, 80, 96],
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 110], [2, 3, KICK, 88], [3, 2, KICK, 96], [2, 0, SNARE, 104], [4, 0, SNARE, 104], [2, 0, CLAP, 96], [4, 0, CLAP, 96], ...sixteenths(CLOSED_HAT, 56)];
      return [bar, [...bar, [4, 2, KICK, 84]]];
    },
    bass: 38,
    chords: 4,
    comp: "held",
  },
  // house: four-on-the-floor kick, clap on 2 and 4, open hat on the off-beats, sixteenth closed hats
  {
    style: "house",
    tempi: [122, 128],
    bars: () => {
      const bar: Hit[] = [...quarters(KICK, 116), [2, 0, CLAP, 104], [4, 0, CLAP, 104], ...[1, 2, 3, 4].map((b) => [b, 2, OPEN_HAT, 84] as Hit), ...[1, 2, 3, 4].flatMap((b) => [[b, 1, CLOSED_HAT, 50], [b, 3, CLOSED_HAT, 50]] as Hit[])];
      return [bar, bar];
    },
    bass: 38,
    chords: 89,
    comp: "stabs",
  },
  // drum and bass, two-step: kick on 1 and the "and" of 3, snare on 2 and 4, hats eighths
  {
    style: "drum and bass",
    tempi: [160, 172, 180],
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 116], [3, 2, KICK, 106], [2, 0, SNARE, 118], [4, 0, SNARE, 118], ...eighths(CLOSED_HAT, 66, 6), [2, 3, SNARE, 40]];
      return [bar, [...bar.filter((h) => !(h[0] === 3 && h[2] === KICK)), [3, 0, KICK, 96], [3, 2, KICK, 100]]];
    },
    bass: 38,
    chords: 89,
    comp: "held",
  },
  // ballad, from 60: kick 1 (and the "and" of 2), side stick on 2 and 4, hats or ride on eighths
  {
    style: "ballad",
    tempi: [60, 72],
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 96], [2, 2, KICK, 70], [3, 0, KICK, 86], [2, 0, SIDE_STICK, 92], [4, 0, SIDE_STICK, 92], ...eighths(CLOSED_HAT, 54, 8)];
      return [bar, bar];
    },
    bass: 32,
    chords: 0,
    comp: "held",
  },
  // ballad, swung (a 12/8 feel: the eighths on the triplet grid), snare on 2 and 4, ride
  {
    style: "ballad",
    tempi: [66],
    swing: "8",
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 96], [3, 0, KICK, 86], [2, 0, SNARE, 90], [4, 0, SNARE, 92], ...eighths(RIDE, 60, 8), [2, 0, PEDAL_HAT, 50], [4, 0, PEDAL_HAT, 50]];
      return [bar, bar];
    },
    bass: 32,
    chords: 48,
    comp: "held",
  },
  // half-time: trap (kick pattern, snare and clap on 3 only, sixteenth hats with a roll)
  {
    style: "half-time",
    tempi: [140],
    halfTime: true,
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 118], [2, 2, KICK, 100], [4, 1, KICK, 96], [3, 0, SNARE, 116], [3, 0, CLAP, 110], ...eighths(CLOSED_HAT, 70, 6)];
      const roll: Hit[] = [...bar.filter((h) => !(h[0] === 4 && h[2] === CLOSED_HAT)), [4, 0, CLOSED_HAT, 70], [4, 1, CLOSED_HAT, 56], [4, 2, CLOSED_HAT, 62], [4, 3, CLOSED_HAT, 66]];
      return [bar, roll];
    },
    bass: 38,
    chords: 81,
    comp: "held",
  },
  // half-time: dubstep (kick on 1, snare on 3, sparse hats)
  {
    style: "half-time",
    tempi: [140],
    halfTime: true,
    bars: () => [
      [[1, 0, KICK, 120], [3, 0, SNARE, 120], ...quarters(CLOSED_HAT, 64), [4, 2, KICK, 90]],
      [[1, 0, KICK, 120], [2, 2, KICK, 96], [3, 0, SNARE, 120], ...quarters(CLOSED_HAT, 64)],
    ],
    bass: 38,
    chords: 89,
    comp: "held",
  },
  // half-time rock: kick 1 and the "and" of 2, snare on 3, hats eighths, a crash on 1 of the second bar
  {
    style: "half-time",
    tempi: [128],
    halfTime: true,
    bars: () => {
      const bar: Hit[] = [[1, 0, KICK, 112], [2, 2, KICK, 96], [3, 0, SNARE, 116], ...eighths(CLOSED_HAT, 72, 6)];
      return [bar, [...bar, [1, 0, CRASH, 70]]];
    },
    bass: 34,
    chords: 29,
    comp: "quarters",
  },
];

/** The mixes: the drums alone (a loop or stem), with bass and chords, and with the drums under the music. */
const MIXES = [
  { name: "drums", band: false, drumLevel: 1 },
  { name: "band", band: true, drumLevel: 1 },
  { name: "band, drums quiet", band: true, drumLevel: 0.45 },
] as const;

/** A progression per key (semitones above the tonic: I–vi–IV–V, i–VI–III–VII). */
const PROGRESSIONS = [
  [[0, 4, 7], [9, 12, 16], [5, 9, 12], [7, 11, 14]],
  [[0, 3, 7], [8, 12, 15], [3, 7, 10], [10, 14, 17]],
];

function swungTick(beat: number, sixteenth: number, swing: Groove["swing"]): number {
  let t = (beat - 1) * TPQ + sixteenth * (TPQ / 4);
  // a triplet feel: the off-beat eighth at 2/3 of the beat; swung sixteenths at 2/3 of the eighth
  if (swing === "8" && sixteenth === 2) t += TPQ / 6;
  if (swing === "16" && sixteenth % 2 === 1) t += TPQ / 12;
  return t;
}

function write(groove: Groove, bpm: number, mix: (typeof MIXES)[number], seed: number): Uint8Array {
  const rng = createPrng(seed);
  const bars = Math.ceil((SECONDS * bpm) / 60 / 4) + 1;
  const pattern = groove.bars(rng);
  const notes: Note[] = [];
  const tonic = 40 + rng.int(0, 7);
  const prog = PROGRESSIONS[rng.int(0, 1)];
  for (let b = 0; b < bars; b++) {
    const hits = pattern[b % pattern.length];
    for (const [beat, six, pitch, vel] of hits) {
      const jitter = rng.int(-6, 6);
      const v = Math.round(Math.max(1, Math.min(127, (vel + rng.int(-6, 6)) * mix.drumLevel)));
      notes.push({ tick: Math.max(0, b * BAR + swungTick(beat, six, groove.swing) + jitter), dur: TPQ / 4, pitch, vel: v, channel: 9 });
    }
    if (!mix.band) continue;
    const chord = prog[b % prog.length];
    // the bass: the chord's root on the kick's hits, a fifth now and then
    for (const [beat, six, pitch] of hits) {
      if (pitch !== KICK) continue;
      const fifth = beat === 3 && rng.chance(0.3) ? 7 : 0;
      notes.push({ tick: b * BAR + swungTick(beat, six, groove.swing), dur: TPQ / 2, pitch: tonic - 12 + chord[0] + fifth, vel: 96, channel: 0 });
    }
    const voicing = chord.map((p) => tonic + 12 + p);
    if (groove.comp === "held") for (const p of voicing) notes.push({ tick: b * BAR, dur: BAR - 10, pitch: p, vel: 76, channel: 1 });
    else if (groove.comp === "quarters") for (let q = 0; q < 4; q++) for (const p of voicing) notes.push({ tick: b * BAR + q * TPQ, dur: TPQ - 40, pitch: p, vel: q % 2 ? 70 : 80, channel: 1 });
    else for (const [beat, six] of [[1, 2], [2, 2], [3, 2], [4, 2]] as const) for (const p of voicing) notes.push({ tick: b * BAR + swungTick(beat, six, groove.swing), dur: TPQ / 3, pitch: p, vel: 82, channel: 1 });
  }
  return smf(notes, bpm, [groove.bass, groove.chords]);
}

/** A format-0 Standard MIDI File: tempo, the programs of channels 1 and 2, then the notes. */
function smf(notes: Note[], bpm: number, programs: number[]): Uint8Array {
  const events: { tick: number; order: number; bytes: number[] }[] = [];
  const usPerQuarter = Math.round(60_000_000 / bpm);
  events.push({ tick: 0, order: 0, bytes: [0xff, 0x51, 0x03, (usPerQuarter >> 16) & 0xff, (usPerQuarter >> 8) & 0xff, usPerQuarter & 0xff] });
  programs.forEach((p, ch) => events.push({ tick: 0, order: 1, bytes: [0xc0 | ch, p] }));
  for (const n of notes) {
    events.push({ tick: n.tick, order: 3, bytes: [0x90 | n.channel, n.pitch, n.vel] });
    events.push({ tick: n.tick + n.dur, order: 2, bytes: [0x80 | n.channel, n.pitch, 0] });
  }
  events.sort((a, b) => a.tick - b.tick || a.order - b.order);
  const track: number[] = [];
  let at = 0;
  for (const e of events) {
    track.push(...varLen(e.tick - at), ...e.bytes);
    at = e.tick;
  }
  track.push(0, 0xff, 0x2f, 0);
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, TPQ >> 8, TPQ & 0xff];
  const len = track.length;
  return Uint8Array.from([...header, 0x4d, 0x54, 0x72, 0x6b, (len >>> 24) & 0xff, (len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff, ...track]);
}

function varLen(n: number): number[] {
  const out = [n & 0x7f];
  for (n >>= 7; n > 0; n >>= 7) out.unshift((n & 0x7f) | 0x80);
  return out;
}

/** fluidsynth → WAV (44.1 kHz, cut to SECONDS), cached by the MIDI file's and the soundfont's hash. */
function render(mid: Uint8Array, soundfont: string): string {
  const hash = crypto.createHash("sha256").update(mid).update(soundfont).update(String(SECONDS)).digest("hex").slice(0, 16);
  const out = path.join(CACHE, `${hash}.wav`);
  if (fs.existsSync(out)) return out;
  if (!fs.existsSync(soundfont)) throw new Error(`no soundfont at ${soundfont}: apt-get install fluidsynth fluid-soundfont-gm timgm6mb-soundfont`);
  const midPath = path.join(CACHE, `${hash}.mid`);
  const full = path.join(CACHE, `${hash}.full.wav`);
  fs.writeFileSync(midPath, mid);
  const r = spawnSync("fluidsynth", ["-ni", "-q", "-F", full, "-r", "44100", soundfont, midPath], { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`fluidsynth failed (apt-get install fluidsynth): ${r.stderr?.toString() ?? r.error}`);
  const cut = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", full, "-t", String(SECONDS), "-c:a", "pcm_s16le", "-y", out]);
  if (cut.status !== 0) throw new Error(`ffmpeg failed: ${cut.stderr?.toString()}`);
  fs.rmSync(full);
  fs.rmSync(midPath);
  return out;
}

const band = (bpm: number) => (bpm < 80 ? "60–79" : bpm <= 100 ? "80–100" : bpm <= 130 ? "101–130" : bpm < 160 ? "131–159" : "160–180");

interface Result {
  style: string;
  band: string;
  bpm: number;
  halfTime: boolean;
  answer: number | null;
  kind: "right" | "double" | "half" | "none" | "other";
}

fs.mkdirSync(CACHE, { recursive: true });
const results: Result[] = [];
for (const [g, groove] of GROOVES.entries()) {
  for (const [t, bpm] of groove.tempi.entries()) {
    for (const [m, mix] of MIXES.entries()) {
      const seed = 4300 + 100 * g + 10 * t + m;
      // the quiet-drums mix on every other tempo: the set stays a few minutes to render and analyse
      if (mix.drumLevel < 1 && (g + t) % 2 === 1) continue;
      const name = `${groove.style}${groove.swing ? " swung" : ""} ${bpm} (${mix.name})`;
      if (flags.only && !name.includes(flags.only)) continue;
      const mid = write(groove, bpm, mix, seed);
      for (const sf of SOUNDFONTS) {
        const file = render(mid, sf.file);
        const r = await analyzeAudio(new Uint8Array(fs.readFileSync(file)));
        const a = r.bpm;
        const kind: Result["kind"] =
          a === null ? "none" : within(a, bpm) || (groove.halfTime && within(a, bpm / 2)) ? "right" : within(a, bpm * 2) ? "double" : within(a, bpm / 2) ? "half" : "other";
        results.push({ style: groove.style, band: band(bpm), bpm, halfTime: !!groove.halfTime, answer: a, kind });
        if (flags.verbose) console.log(`${name.padEnd(44)} ${sf.name.padEnd(9)} ${a === null ? "—" : a.toFixed(1).padStart(6)} ${kind.padEnd(6)} ${path.basename(file)}`);
      }
    }
  }
}

function table(title: string, key: (r: Result) => string): void {
  console.log(`\n| ${title} | renders | accuracy 1 | double | half | no answer | other |\n|---|---|---|---|---|---|---|`);
  const groups = new Map<string, Result[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const row = (name: string, rs: Result[]) => {
    const n = (k: Result["kind"]) => rs.filter((r) => r.kind === k).length;
    console.log(`| ${name} | ${rs.length} | ${((100 * n("right")) / rs.length).toFixed(0)} % | ${n("double")} | ${n("half")} | ${n("none")} | ${n("other")} |`);
  };
  for (const [k, rs] of groups) row(k, rs);
  row("**all**", results);
}
table("style", (r) => r.style);
table("tempo band (BPM)", (r) => r.band);
const slowDouble = results.filter((r) => r.bpm >= 60 && r.bpm <= 100 && r.kind === "double").length;
const backbeat = results.filter((r) => !r.halfTime);
console.log(`\nbackbeat grooves (snare or clap on 2 and 4): accuracy 1 ${((100 * backbeat.filter((r) => r.kind === "right").length) / backbeat.length).toFixed(1)} % of ${backbeat.length}; grooves at 60–100 BPM shown at double: ${slowDouble}`);
