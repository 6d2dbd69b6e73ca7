// The real part of `npm run bench:tempo` (issue #28, ADR 0117): compositions written by people
// outside this project, taken from Debian packages whose licences allow it, fetched with
// `apt-get download` into a cache OUTSIDE the repository (BENCH_TEMPO_CACHE, default
// ~/.cache/northbeat-bench/tempo), their notated tempo, metre and key read from the files
// themselves (MIDI set-tempo, time- and key-signature meta events; ABC's Q:, M:, K: through
// abc2midi), only their steady part scored, rendered by fluidsynth with two soundfonts.
//
// Only the packages SOURCES lists are fetched; none of them is one DESIGN §3d reserves for
// independent checks (that list is not repeated here: this bench never names that music).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import midiFile from "midi-file";
import { createPrng } from "../../app/.server/catalog/sample/prng.ts";

const { parseMidi, writeMidi } = midiFile as unknown as { parseMidi: (b: Uint8Array) => MidiData; writeMidi: (d: MidiData) => number[] };

type Ev = { deltaTime: number; type: string; [k: string]: unknown };
interface MidiData {
  header: { format: number; numTracks: number; ticksPerBeat?: number };
  tracks: Ev[][];
}

/** Where the packages, the extracted files and the renders are kept (outside the repository). */
export const REAL_CACHE = process.env.BENCH_TEMPO_CACHE || path.join(os.homedir(), ".cache", "northbeat-bench", "tempo");

/** The soundfonts (Debian: fluid-soundfont-gm, timgm6mb-soundfont): no figure rests on one synthesizer. */
export const SOUNDFONTS = [
  { name: "FluidR3", file: "/usr/share/sounds/sf2/FluidR3_GM.sf2" },
  { name: "TimGM6mb", file: "/usr/share/sounds/sf2/TimGM6mb.sf2" },
];

/**
 * The sources: package, licence of the music (from its debian/copyright), and which files.
 * planetblupi-music-midi: the game's ten MIDI scores (GPL-3+). pianobooster: Louis J. Barman's
 * arrangements of folk songs and pieces for its lessons (CC-BY). abcmidi: the ABC tunes of its
 * examples (traditional tunes transcribed by its authors; GPL-2+) and abcm2ps's sample tunes
 * (LGPL-3+), turned into MIDI by abc2midi — only tunes whose header gives a tempo (Q:).
 */
const SOURCES = [
  { pkg: "planetblupi-music-midi", licence: "GPL-3+" },
  { pkg: "pianobooster", licence: "CC-BY (music/)" },
  { pkg: "abcmidi", licence: "GPL-2+" },
  { pkg: "abcm2ps", licence: "LGPL-3+" },
  // added with ADR 0117's second round: the swing, shuffle, big-band, bossa and 6/8 grooves the
  // issue asks for (MMA's examples, shipped with the MIDI files MMA made of them) and game music
  // with drums in 3/4, 4/4, 5/4, 6/8 and 7/4 (Freedoom's MIDI lumps)
  { pkg: "mma", licence: "GPL-2+" },
  { pkg: "freedoom", licence: "BSD-3-Clause (freedoom-license)" },
] as const;

export interface RealPiece {
  /** package/file[#tune] — the composition; its renders share it. */
  composition: string;
  name: string;
  soundfont: string;
  /** The notated beat (BPM) of the steady part; null for a beatless control. */
  bpm: number | null;
  /** The quarter-note tempo and the metre, as notated. */
  quarterBpm: number | null;
  metre: string;
  key: string | null;
  heldOut: boolean;
  variable: false;
  style: string;
  /** The steady part, in seconds of the render. */
  section: { fromSeconds: number; toSeconds: number };
  wav: () => Uint8Array;
}

const NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
/** Key signature (sharps > 0, flats < 0) to the major tonic's pitch class. */
const majorOf = (sf: number) => (((sf * 7) % 12) + 12) % 12;

/**
 * A composition is held out by a fixed rule on its name (never by rendering: both soundfonts'
 * renders of a piece fall on the same side): the first byte of its SHA-1, a third of them.
 */
export const isHeldOut = (composition: string) => crypto.createHash("sha1").update(composition).digest()[0] % 3 === 0;

const pkgOf = (composition: string) => composition.split("/")[0];

/**
 * The beat a listener taps when the metre's is out of the range tempi are reported in (ADR
 * 0105: 50–210 BPM): half of it above (MMA's "Tempo 250" folk groove, a march at 220: tapped at
 * 125 and 110), twice it below (ADR 0117's second round); in a compound metre three times it
 * below, the eighth (twice a dotted quarter is no level of a 6/8 bar; ADR 0127).
 */
const tapped = (bpm: number, compound: boolean) => (bpm > 210 ? bpm / 2 : bpm < 50 ? bpm * (compound ? 3 : 2) : bpm);

const SCORED_SECONDS = 60;
const MIN_STEADY_SECONDS = 20;

export function realSet(log: (line: string) => void = console.log): RealPiece[] {
  if (spawnSync("apt-get", ["--version"]).status !== 0) {
    log("bench:tempo: no apt-get here: the real part (Debian packages' music) is skipped");
    return [];
  }
  for (const tool of ["fluidsynth", "abc2midi", "dpkg-deb", "unzip"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0) {
      log(`bench:tempo: ${tool} is missing: the real part is skipped (apt-get install fluidsynth abcmidi dpkg unzip)`);
      return [];
    }
  }
  const missingFont = SOUNDFONTS.find((s) => !fs.existsSync(s.file));
  if (missingFont) {
    log(`bench:tempo: ${missingFont.file} is missing: the real part is skipped (apt-get install fluid-soundfont-gm timgm6mb-soundfont)`);
    return [];
  }
  const debs = path.join(REAL_CACHE, "debs");
  const root = path.join(REAL_CACHE, "files");
  fs.mkdirSync(debs, { recursive: true });
  const midis: Made[] = [];
  for (const { pkg } of SOURCES) {
    let deb = fs.readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"));
    if (!deb) {
      const r = spawnSync("apt-get", ["download", pkg], { cwd: debs, encoding: "utf8" });
      deb = fs.readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"));
      if (!deb) {
        log(`bench:tempo: apt-get download ${pkg} failed (${(r.stderr || "").trim().split("\n").pop()}); its pieces are left out`);
        continue;
      }
    }
    const dir = path.join(root, pkg);
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      spawnSync("dpkg-deb", ["-x", path.join(debs, deb), dir]);
    }
    midis.push(...collect(pkg, dir));
  }
  midis.push(...mmaGrooves(log));
  const pieces: RealPiece[] = [];
  for (const { composition, group, bytes, quartersPerBar, tuningOnly } of midis) {
    const info = readScore(bytes, quartersPerBar);
    if (!info) continue;
    const heldOut = !tuningOnly && isHeldOut(group ?? composition);
    for (const sf of SOUNDFONTS) {
      pieces.push({
        composition,
        name: `${composition} [${sf.name}]`,
        soundfont: sf.name,
        bpm: Math.round(tapped(info.beatBpm, info.feel === "compound") * 10) / 10,
        quarterBpm: info.quarterBpm,
        metre: info.metre,
        // Freedoom's scores carry their sequencer's key signature (C major on every one that has
        // one): not a key anybody wrote
        key: pkgOf(composition) === "freedoom" ? null : info.key,
        heldOut,
        variable: false,
        style: info.feel,
        section: info.section,
        wav: () => render(truncate(bytes, info.endTick), sf.file, composition, info.section.toSeconds + 2),
      });
    }
  }
  // Beatless controls made of the real pieces' own notes: each held 3–6 s on a pad, strings
  // or choir, starting at random times (a Poisson process, ~1 onset every 1.3 s) — the
  // harmony and the key stay, the beat goes. One per source package and a few more.
  // (the MMA grooves of ADR 0127 are left out here: the set of controls stays as it was)
  const controlFrom = midis.filter((m) => !m.tuningOnly).filter((m, i) => i % 4 === 0);
  for (const [i, m] of controlFrom.entries()) {
    const info = readScore(m.bytes, m.quartersPerBar);
    const bytes = beatless(m.bytes, 9000 + i);
    const composition = `${m.composition} (beatless)`;
    const sf = SOUNDFONTS[i % SOUNDFONTS.length];
    pieces.push({
      composition,
      name: `${composition} [${sf.name}]`,
      soundfont: sf.name,
      bpm: null,
      quarterBpm: null,
      metre: "-",
      key: info?.key ?? null,
      heldOut: isHeldOut(composition),
      variable: false,
      style: "beatless",
      section: { fromSeconds: 0, toSeconds: SCORED_SECONDS },
      wav: () => render(bytes, sf.file, composition, SCORED_SECONDS + 2),
    });
  }
  return pieces;
}

interface Made {
  composition: string;
  group?: string;
  bytes: Uint8Array;
  /** MMA's bar in MIDI quarters (its `Time`), where MMA wrote the file: see `readScore`. */
  quartersPerBar?: number;
  /** Added to the tuning part only (ADR 0127's MMA grooves): never held out, whatever its name's hash. */
  tuningOnly?: boolean;
}

/**
 * MMA's bar length in its own beats (one MIDI quarter each): the first `Time` directive of the
 * .mma source shipped beside a MIDI file (`Time 6`, `Time 6/8` = 6 in MMA's reference manual's
 * table), or undefined.
 */
const mmaTime = (source: string): number | undefined => {
  if (!fs.existsSync(source)) return undefined;
  const m = /^\s*Time\s+(\d+)/im.exec(fs.readFileSync(source, "latin1"));
  return m ? Number(m[1]) : undefined;
};

/** The MIDI files of a package's extracted tree (ABC tunes turned into MIDI by abc2midi, cached). */
function collect(pkg: string, dir: string): Made[] {
  const out: Made[] = [];
  const walk = (d: string): string[] => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  if (pkg === "pianobooster") {
    const zip = walk(dir).find((f) => f.endsWith("BoosterMusicBooks.zip"));
    const into = path.join(dir, "books");
    if (zip && !fs.existsSync(into)) spawnSync("unzip", ["-q", "-o", zip, "-d", into]);
    // the lessons' pieces (folk songs, Clair de la lune, Greensleeves...), not the exercises of single chords
    for (const f of walk(into).filter((f) => f.endsWith(".mid") && f.includes("Booster Music"))) out.push({ composition: `${pkg}/${path.basename(f)}`, bytes: fs.readFileSync(f) });
  } else if (pkg === "abcmidi" || pkg === "abcm2ps") {
    // the example tunes; abcmidi's detune, temperament and drums and abcm2ps's glyph and
    // decoration sheets demonstrate features, not tunes
    const abcs = walk(dir).filter((f) => (pkg === "abcmidi" ? f.endsWith(".abc") && !/(detune|temperament|drums)\.abc$/.test(f) : /(sample\d?|voices)\.abc$/.test(f)));
    for (const abc of abcs) {
      const text = fs.readFileSync(abc, "latin1");
      for (const m of text.matchAll(/^X:\s*(\d+)([\s\S]*?)^K:/gm)) {
        const x = m[1];
        // abc2midi plays a tune without Q: at a default tempo nobody notated
        if (!/^Q:/m.test(m[2])) continue;
        const mid = path.join(dir, "midi", `${path.basename(abc, ".abc")}-${x}.mid`);
        if (!fs.existsSync(mid)) {
          fs.mkdirSync(path.dirname(mid), { recursive: true });
          spawnSync("abc2midi", [abc, x, "-o", mid, "-silent"], { encoding: "utf8" });
        }
        if (fs.existsSync(mid)) out.push({ composition: `${pkg}/${path.basename(abc)}#${x}`, bytes: fs.readFileSync(mid) });
      }
    }
  } else if (pkg === "mma") {
    // the examples' MIDI files as MMA made them; the variants of one song (twinkle1..3,
    // frankie2..4) and the demos of one feature share a folder, held out together by it
    // (one song, convert4to5, is in two folders: kept once)
    const seen = new Set<string>();
    for (const f of walk(dir).filter((f) => f.endsWith(".mid") && f.includes("/examples/")).sort()) {
      const bytes = fs.readFileSync(f);
      const hash = crypto.createHash("sha1").update(bytes).digest("hex");
      if (seen.has(hash) || seen.has(path.basename(f))) continue;
      seen.add(hash);
      seen.add(path.basename(f));
      const folder = path.basename(path.dirname(f));
      out.push({ composition: `${pkg}/${folder}/${path.basename(f)}`, group: `${pkg}/${folder}`, bytes, quartersPerBar: mmaTime(f.replace(/\.mid$/, ".mma")) });
    }
  } else if (pkg === "freedoom") {
    // the music lumps (D_*) of the two WADs that are MIDI files, each piece once
    const seen = new Set<string>();
    for (const wad of walk(dir).filter((f) => f.endsWith(".wad"))) {
      const b = fs.readFileSync(wad);
      const count = b.readInt32LE(4);
      const at = b.readInt32LE(8);
      for (let i = 0; i < count; i++) {
        const offset = b.readInt32LE(at + 16 * i);
        const size = b.readInt32LE(at + 16 * i + 4);
        const name = b.toString("latin1", at + 16 * i + 8, at + 16 * i + 16).replace(/\0.*$/, "");
        const bytes = b.subarray(offset, offset + size);
        if (!name.startsWith("D_") || bytes.toString("latin1", 0, 4) !== "MThd") continue;
        const hash = crypto.createHash("sha1").update(bytes).digest("hex");
        if (seen.has(hash)) continue;
        seen.add(hash);
        out.push({ composition: `${pkg}/${name}`, bytes: Uint8Array.from(bytes) });
      }
    }
  } else {
    for (const f of walk(dir).filter((f) => /\.midi?$/i.test(f))) out.push({ composition: `${pkg}/${path.basename(f)}`, bytes: fs.readFileSync(f) });
  }
  return out.sort((a, b) => a.composition.localeCompare(b.composition));
}

/**
 * ADR 0127: the compound, 12/8, swing, shuffle and waltz grooves of MMA's standard library
 * (written by MMA's author, Bob van der Poel, GPL-2+), each played by `mma` over a chord
 * progression in a key for 48 bars at a tempo in the range its name implies; the truth is read
 * back from the MIDI file MMA writes (set-tempo, time and key signatures) and MMA's `Time` of
 * the groove's library file (its bar in MIDI quarters, see `readScore`). The tuning part only:
 * the held-out part stays the compositions it was. Skipped, with a line, without `mma`
 * (Debian package mma).
 * [groove, lowest and highest beat a listener taps (BPM)]
 */
const GROOVES: [string, number, number][] = [
  // 6/8 (MMA: Time 6, Time 2 for the march, Time 4 for the ballad)
  ["68Swing", 60, 100], ["68Swing1", 60, 100], ["68SwingPlus", 60, 100], ["Blues68", 52, 72], ["Blues68Walk", 52, 72],
  ["Arpeggio68", 50, 80], ["Arpeggio68-816", 50, 80], ["68March", 100, 124], ["68MarchPlus", 100, 124], ["Ballad68", 50, 70], ["Ballad68Plus", 50, 70],
  // 12/8 written in 4/4 (the dotted quarter is MMA's beat)
  ["Blues128", 50, 80], ["Blues128Plus", 50, 80], ["Ballad128", 50, 70], ["Rock128", 60, 90], ["Rock128Plain", 60, 90],
  // swing and shuffle in 4/4
  ["ShuffleBoggie", 100, 150], ["CountrySwing", 100, 160], ["Swing", 110, 170], ["EasySwing", 90, 130], ["FastSwing", 170, 208], ["WesternSwing", 110, 170], ["JazzCombo", 120, 180], ["SoftShoe", 90, 130],
  // waltzes (3/4)
  ["Waltz", 90, 150], ["JazzWaltz", 110, 170], ["JazzWaltz1", 110, 170], ["FastJazzWaltz", 170, 208], ["VieneseWaltz", 160, 200], ["CountryWaltz", 90, 150],
  ["FrenchWaltz", 100, 160], ["RockWaltz", 90, 150], ["ModernJazzWaltz", 110, 170], ["LatinWaltz", 100, 160], ["BroadwayWaltz", 100, 160], ["ArpeggioWaltz", 80, 140],
  // ADR 0132: straight 4/4 grooves from slow ballads to fast two-beat and rock (the held-out
  // part's wrong answers are on straight 4/4 pieces; the tuning part had few fast straight ones)
  ["50sRock", 140, 190], ["60sRock", 110, 160], ["8Beat", 90, 140], ["BasicRock", 100, 150], ["BubbleRock", 120, 170], ["FolkRock", 100, 150],
  ["JazzRock", 100, 160], ["Ska", 140, 200], ["Polka", 100, 140], ["March", 100, 130], ["RagTime", 80, 120], ["Charleston", 150, 200],
  ["Dixie", 160, 200], ["Foxtrot", 100, 140], ["QuickStep", 180, 208], ["BossaNova", 120, 160], ["Samba", 90, 130], ["R&B", 70, 100],
  ["PopBallad", 60, 85], ["Folk", 90, 130], ["BlueGrass", 160, 208], ["HillCountry", 80, 120], ["ShowTune", 100, 150], ["BigBand", 120, 180],
  ["CountryBlues", 70, 110], ["FastBlues", 140, 190], ["RockBallad", 60, 85], ["BVFunk", 90, 120], ["BoneyM", 120, 140],
];
const FLAT_NAMES = ["C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"];
/** Minor keys' usual names (MMA knows no "Gb minor"). */
const MINOR_NAMES = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "G#", "A", "Bb", "B"];

function mmaGrooves(log: (line: string) => void): Made[] {
  if (spawnSync("sh", ["-c", "command -v mma"]).status !== 0) {
    log("bench:tempo: mma is missing: MMA's grooves (tuning part) are left out (apt-get install mma)");
    return [];
  }
  const lib = "/usr/share/mma/lib/stdlib";
  const dir = path.join(REAL_CACHE, "files", "mma-grooves");
  fs.mkdirSync(dir, { recursive: true });
  const rng = createPrng(127);
  const out: Made[] = [];
  for (const [i, [groove, lo, hi]] of GROOVES.entries()) {
    // the groove's library file and its bar (MMA's Time): the file whose DefGroove names it
    const file = fs.readdirSync(lib).filter((f) => f.endsWith(".mma")).find((f) => new RegExp(`^\\s*DefGroove\\s+${groove.replace(/[-+]/g, "\\$&")}\\b`, "im").test(fs.readFileSync(path.join(lib, f), "latin1")));
    const beats = file ? mmaTime(path.join(lib, file)) : undefined;
    const beat = Math.round(lo + (hi - lo) * rng.next());
    const tonic = Math.floor(rng.next() * 12);
    const minor = i % 3 === 2;
    if (!file || !beats) {
      log(`bench:tempo: MMA's groove ${groove} is not in ${lib}: left out`);
      continue;
    }
    const text = fs.readFileSync(path.join(lib, file), "latin1");
    const sig = /^\s*TimeSig\s+(\d+)\s*\/?\s*(\d+)/im.exec(text);
    const compound = sig && Number(sig[2]) === 8 && Number(sig[1]) % 3 === 0;
    // MMA's TEMPO counts its beats: a compound bar's dotted quarters are `beats` over num/3 of them
    const perBeat = compound ? beats / (Number(sig[1]) / 3) : 1;
    const names = minor ? MINOR_NAMES : FLAT_NAMES;
    const name = (pc: number, suffix = "") => names[(tonic + pc) % 12] + suffix;
    const bars = minor ? [name(0, "m"), name(5, "m"), name(7, "7"), name(0, "m"), name(8), name(5, "m"), name(7, "7"), name(0, "m")] : [name(0), name(9, "m"), name(2, "m"), name(7, "7"), name(0), name(5), name(7, "7"), name(0)];
    const source = [`Tempo ${Math.round(beat * perBeat)}`, `Groove ${groove}`, `KeySig ${names[tonic]}${minor ? " minor" : ""}`, ...Array.from({ length: 48 }, (_, b) => `${b + 1} ${bars[b % 8]}`)].join("\n") + "\n";
    const stem = `${groove}-${Math.round(beat * perBeat)}`;
    const mma = path.join(dir, `${stem}.mma`);
    const mid = path.join(dir, `${stem}.mid`);
    if (!fs.existsSync(mid)) {
      fs.writeFileSync(mma, source);
      const r = spawnSync("mma", ["-f", mid, mma], { encoding: "utf8" });
      if (r.status !== 0 || !fs.existsSync(mid)) {
        log(`bench:tempo: mma failed on ${groove} (${(r.stdout + r.stderr).trim().split("\n").pop()}): left out`);
        continue;
      }
    }
    out.push({ composition: `mma-grooves/${stem}`, bytes: fs.readFileSync(mid), quartersPerBar: beats, tuningOnly: true });
  }
  return out;
}

interface Score {
  /** The tick where the scored part ends (the render stops there: some files run for half an hour). */
  endTick: number;
  quarterBpm: number;
  beatBpm: number;
  metre: string;
  key: string | null;
  /** The feel, from the metre and the notes (FEELS). */
  feel: Feel;
  section: { fromSeconds: number; toSeconds: number };
}

/**
 * The feels issue #28 names as the source of 2:3 and 4:3 errors, read from the scores: compound
 * metre (3/8, 6/8, 9/8, 12/8); triplet or swing (a simple metre whose notes off the beat fall
 * on its thirds more than on its halves, e.g. swung eighths, shuffles, triplet
 * accompaniments); cut time (x/2, or a beat tapped at half the metre's, see `tapped`); straight.
 */
export type Feel = "compound" | "triplet/swing" | "cut time" | "straight";

/**
 * The notated tempo, metre and key of the longest stretch of notes under one tempo (the
 * steady part, scored: its first SCORED_SECONDS), or null when no stretch lasts
 * MIN_STEADY_SECONDS. The beat a listener taps, from the metre: the quarter note in x/4, the
 * half note in x/2 (cut time), the dotted quarter in 3/8, 6/8, 9/8, 12/8, the eighth in other x/8.
 * The key from the key signature in force, kept only when the notes agree with it (its scale
 * holds ≥ 85 % of the note time: a sequencer's default "C major" on a piece in E flat does not).
 */
export function readScore(bytes: Uint8Array, quartersPerBar?: number): Score | null {
  let midi: MidiData;
  try {
    midi = parseMidi(bytes);
  } catch {
    return null;
  }
  const tpq = midi.header.ticksPerBeat;
  if (!tpq) return null;
  type Abs = { tick: number; e: Ev };
  const events: Abs[] = [];
  for (const track of midi.tracks) {
    let tick = 0;
    for (const e of track) {
      tick += e.deltaTime;
      events.push({ tick, e });
    }
  }
  events.sort((a, b) => a.tick - b.tick);
  // tick -> seconds through the tempo map
  const tempi: { tick: number; us: number }[] = [{ tick: 0, us: 500_000 }];
  for (const { tick, e } of events) if (e.type === "setTempo") {
    if (tempi[tempi.length - 1].tick === tick) tempi[tempi.length - 1].us = e.microsecondsPerBeat as number;
    else tempi.push({ tick, us: e.microsecondsPerBeat as number });
  }
  const secondsAt = (tick: number) => {
    let s = 0;
    for (let i = 0; i < tempi.length; i++) {
      const end = i + 1 < tempi.length ? Math.min(tick, tempi[i + 1].tick) : tick;
      if (end <= tempi[i].tick) break;
      s += ((end - tempi[i].tick) / tpq) * (tempi[i].us / 1e6);
    }
    return s;
  };
  // a file converted from Doom's MUS format carries the converter's clock as its tempo (140
  // ticks a second as "95 BPM" at 89 ticks a quarter), not a tempo anybody notated
  if (events.some(({ e }) => typeof e.text === "string" && /MUS->MID|QMUS2MID/.test(e.text))) return null;
  const notes = events.filter(({ e }) => e.type === "noteOn" && (e.velocity as number) > 0);
  if (notes.length < 16) return null;
  const firstNote = notes[0].tick;
  const lastNote = notes[notes.length - 1].tick;
  // segments of one tempo (within 1 %), over the notes
  let best: { from: number; to: number; us: number } | null = null;
  for (let i = 0; i < tempi.length; i++) {
    let j = i;
    while (j + 1 < tempi.length && Math.abs(tempi[j + 1].us / tempi[i].us - 1) < 0.01) j++;
    const from = Math.max(tempi[i].tick, firstNote);
    const to = Math.min(j + 1 < tempi.length ? tempi[j + 1].tick : Infinity, lastNote);
    if (to > from && (!best || secondsAt(to) - secondsAt(from) > secondsAt(best.to) - secondsAt(best.from))) best = { from, to, us: tempi[i].us };
    i = j;
  }
  if (!best) return null;
  const fromSeconds = secondsAt(best.from);
  const toSeconds = Math.min(secondsAt(best.to), fromSeconds + SCORED_SECONDS);
  if (toSeconds - fromSeconds < MIN_STEADY_SECONDS) return null;
  const before = (type: string, tick: number) => events.filter(({ tick: t, e }) => e.type === type && t <= tick).pop()?.e;
  const ts = before("timeSignature", best.from) ?? events.find(({ e }) => e.type === "timeSignature")?.e;
  const num = (ts?.numerator as number) ?? 4;
  const den = (ts?.denominator as number) ?? 4;
  const quarterBpm = 60e6 / best.us;
  const beatBpm =
    den === 2 ? quarterBpm / 2
    // MMA writes a 6/8 bar as `Time` beats of one MIDI quarter each (6 in its `Time 6`, its
    // TEMPO then counts eighths; 2 in a march "in 2"; 4 in its 6/8 ballad), whatever the
    // signature says (MMA's reference manual, Time): the dotted quarter is a bar over num/3
    : den === 8 && num % 3 === 0 && quartersPerBar ? (quarterBpm * (num / 3)) / quartersPerBar
    : den === 8 && num % 3 === 0 ? (quarterBpm * 2) / 3
    : den === 8 ? quarterBpm * 2
    : den === 4 ? quarterBpm
    : quarterBpm * (den / 4);
  const ks = before("keySignature", best.from) ?? events.find(({ e }) => e.type === "keySignature")?.e;
  let key: string | null = null;
  if (ks) {
    const sf = ks.key as number;
    const minor = ks.scale === 1;
    const majorTonic = majorOf(sf);
    const tonic = minor ? (majorTonic + 9) % 12 : majorTonic;
    // the notes in the scored part, weighted by duration, must fit the signature's scale
    const scale = new Set([0, 2, 4, 5, 7, 9, 11].map((d) => (d + majorTonic) % 12));
    let inScale = 0;
    let all = 0;
    const open = new Map<string, number>();
    for (const { tick, e } of events) {
      if (tick < best.from || tick > best.to || e.channel === 9) continue;
      const k = `${e.channel}:${e.noteNumber}`;
      if (e.type === "noteOn" && (e.velocity as number) > 0) open.set(k, tick);
      else if ((e.type === "noteOff" || e.type === "noteOn") && open.has(k)) {
        const d = tick - open.get(k)!;
        open.delete(k);
        all += d;
        if (scale.has((e.noteNumber as number) % 12)) inScale += d;
      }
    }
    if (all > 0 && inScale / all >= 0.85) key = `${NAMES[tonic]} ${minor ? "minor" : "major"}`;
  }
  // where the notes off the beat fall within it (the quarter in simple metres)
  let halves = 0;
  let thirds = 0;
  let onsets = 0;
  for (const { tick } of notes) {
    if (tick < best.from || tick > best.to) continue;
    onsets++;
    const at = (((tick - best.from) % tpq) + tpq) % tpq / tpq;
    const near = (x: number) => Math.abs(at - x) < 1 / 24;
    if (near(0.5)) halves++;
    else if (near(1 / 3) || near(2 / 3)) thirds++;
  }
  const compound = den === 8 && num % 3 === 0;
  const feel: Feel =
    compound ? "compound"
    : den === 2 || beatBpm > 210 ? "cut time"
    : thirds > halves && thirds >= 0.1 * onsets ? "triplet/swing"
    : "straight";
  let endTick = best.to;
  while (endTick > best.from && secondsAt(endTick) > toSeconds + 1) endTick -= tpq;
  return { endTick: endTick + tpq, quarterBpm: Math.round(quarterBpm * 10) / 10, beatBpm, metre: `${num}/${den}`, key, feel, section: { fromSeconds, toSeconds } };
}

/** The MIDI file without the events after `endTick` (each track still ends with its end-of-track). */
function truncate(bytes: Uint8Array, endTick: number): Uint8Array {
  const midi = parseMidi(bytes);
  const tracks = midi.tracks.map((track) => {
    let tick = 0;
    const kept: Ev[] = [];
    let carried = 0;
    for (const e of track) {
      tick += e.deltaTime;
      if (e.type === "endOfTrack") continue;
      if (tick > endTick) break;
      kept.push({ ...e, deltaTime: e.deltaTime + carried });
      carried = 0;
    }
    kept.push({ deltaTime: 0, type: "endOfTrack", meta: true });
    return kept;
  });
  return Uint8Array.from(writeMidi({ header: midi.header, tracks }));
}

/** The piece's notes (not drums) re-timed at random, each held 3–6 s on a pad, strings or choir: no beat, the same harmony. */
function beatless(bytes: Uint8Array, seed: number): Uint8Array {
  const midi = parseMidi(bytes);
  const pitches: number[] = [];
  for (const track of midi.tracks) for (const e of track) if (e.type === "noteOn" && (e.velocity as number) > 0 && e.channel !== 9) pitches.push(e.noteNumber as number);
  const rng = createPrng(seed);
  const tpq = 480; // at 120 BPM: 960 ticks a second
  const program = [89, 49, 91][seed % 3];
  const on: { tick: number; type: string; pitch: number }[] = [];
  let t = 0;
  for (let i = 0; t < 70 * 960 && i < pitches.length; i += 3) {
    t += Math.round(-Math.log(1 - rng.next()) * 1.3 * 960);
    const held = Math.round((3 + 3 * rng.next()) * 960);
    for (const p of pitches.slice(i, i + 3)) {
      on.push({ tick: t, type: "noteOn", pitch: p });
      on.push({ tick: t + held, type: "noteOff", pitch: p });
    }
  }
  on.sort((a, b) => a.tick - b.tick || (a.type === "noteOff" ? -1 : 1));
  const track: Ev[] = [
    { deltaTime: 0, type: "setTempo", meta: true, microsecondsPerBeat: 500_000 },
    { deltaTime: 0, type: "programChange", channel: 0, programNumber: program },
  ];
  let last = 0;
  for (const n of on) {
    track.push({ deltaTime: n.tick - last, type: n.type, channel: 0, noteNumber: n.pitch, velocity: n.type === "noteOn" ? 70 : 0 });
    last = n.tick;
  }
  track.push({ deltaTime: 0, type: "endOfTrack", meta: true });
  return Uint8Array.from(writeMidi({ header: { format: 0, numTracks: 1, ticksPerBeat: tpq }, tracks: [track] }));
}

/**
 * fluidsynth's render of a MIDI file with a soundfont (22.05 kHz 16-bit stereo WAV), at most
 * `seconds` long (a player can hang on a file's held notes or loops: one ran past 20 GB), cached
 * by content.
 */
function render(midi: Uint8Array, soundfont: string, label: string, seconds = SCORED_SECONDS + 90): Uint8Array {
  const hash = crypto.createHash("sha1").update(midi).update(soundfont).digest("hex").slice(0, 16);
  const dir = path.join(REAL_CACHE, "renders");
  const wav = path.join(dir, `${hash}.wav`);
  if (!fs.existsSync(wav)) {
    fs.mkdirSync(dir, { recursive: true });
    const mid = path.join(dir, `${hash}.mid`);
    fs.writeFileSync(mid, midi);
    const rate = 22_050;
    const max = Math.round(seconds * rate) * 4;
    const r = spawnSync("sh", ["-c", `fluidsynth -ni -q -g 0.6 -r ${rate} -T raw -O s16 -F - "$1" "$2" | head -c ${max}`, "sh", soundfont, mid], { maxBuffer: max + 1024 });
    if (r.status !== 0 || r.stdout.length === 0) throw new Error(`fluidsynth failed on ${label}: ${r.stderr}`);
    const pcm = r.stdout.subarray(0, r.stdout.length - (r.stdout.length % 4));
    const head = Buffer.alloc(44);
    head.write("RIFF", 0, "ascii");
    head.writeUInt32LE(36 + pcm.length, 4);
    head.write("WAVEfmt ", 8, "ascii");
    head.writeUInt32LE(16, 16);
    head.writeUInt16LE(1, 20);
    head.writeUInt16LE(2, 22);
    head.writeUInt32LE(rate, 24);
    head.writeUInt32LE(rate * 4, 28);
    head.writeUInt16LE(4, 32);
    head.writeUInt16LE(16, 34);
    head.write("data", 36, "ascii");
    head.writeUInt32LE(pcm.length, 40);
    const tmp = `${wav}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat([head, pcm]));
    fs.renameSync(tmp, wav);
  }
  return fs.readFileSync(wav);
}
