// The tempo-and-key evaluation set of `npm run bench:tempo` (issue #20, ADR 0105): short
// compositions written here as MIDI, in the styles where a tempo is hard to hear from drums
// alone (ragtime and marches without a kit, swing on a ride cymbal, a shuffle, waltzes, cut
// time, a ballad in rubato, a band drifting), rendered by Debian's fluidsynth with its
// General MIDI soundfont (fluid-soundfont-gm), so the notated tempo and key are the truth;
// plus beatless controls (tones, drones, pads, noise, silence, irregular chimes).
//
// Every piece is made from a seeded PRNG: the same set on every machine. A quarter of the
// compositions and of the controls (`heldOut`) are never used to tune the estimators; the
// bench reports them separately.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import MidiWriter from "midi-writer-js";
import { createPrng, type Prng } from "../../app/.server/catalog/sample/prng.ts";
import { encodeWav } from "./encode-audio.ts";
import { drone, noiseTexture, padChords, tone } from "./synth.ts";

export const SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2";
const TPQ = 128; // midi-writer-js's ticks per quarter note
const SECONDS = 40;
const NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];

export interface Piece {
  name: string;
  style: string;
  /** The tempo a listener taps (the truth for accuracy 1); null for a beatless control. */
  bpm: number | null;
  /** e.g. "A minor"; null when the piece has no key (drums, noise, silence). */
  key: string | null;
  heldOut: boolean;
  /** The tempo drifts or breathes (rubato): the truth is its mean over the excerpt. */
  variable: boolean;
  /** WAV bytes (44.1 kHz stereo from fluidsynth, mono from the synthesis). */
  wav: () => Uint8Array;
}

interface Note {
  tick: number;
  dur: number;
  pitch: number;
  vel: number;
}
interface Part {
  channel: number; // 1-based, 10 = drums
  program: number;
  notes: Note[];
}

interface Song {
  parts: Part[];
  /** [tick, quarter-note BPM] */
  tempi: [number, number][];
}

// Drum notes (General MIDI channel 10).
const KICK = 36, SNARE = 38, RIM = 37, HAT = 42, PEDAL_HAT = 44, OPEN_HAT = 46, RIDE = 51, CRASH = 49, CLAP = 39, SHAKER = 70;
// Programs (0-based General MIDI).
const GM = { piano: 0, honkyTonk: 3, ePiano: 4, organ: 16, nylon: 24, steel: 25, cleanGuitar: 27, drive: 29, acBass: 32, fingerBass: 33, pickBass: 34, synthBass: 38, strings: 48, slowStrings: 49, pizzicato: 45, trumpet: 56, trombone: 57, tuba: 58, brass: 61, sax: 65, clarinet: 71, flute: 73, banjo: 105, warmPad: 89, choirPad: 91, haloPad: 94, bells: 14, celesta: 8, fiddle: 110 };

const MAJOR_SCALE = [0, 2, 4, 5, 7, 9, 11];
const MINOR_SCALE = [0, 2, 3, 5, 7, 8, 10];
/** Progressions as scale degrees (0 = tonic), each a bar; they start and end on the tonic, with V–I cadences. */
const PROGRESSIONS = { major: [[0, 3, 4, 0], [0, 5, 3, 4], [0, 3, 0, 4]], minor: [[0, 3, 4, 0], [0, 5, 3, 4], [0, 3, 4, 0]] };

interface Harmony {
  tonic: number;
  mode: "major" | "minor";
  /** the chord of bar `bar`: its pitch classes as MIDI offsets from the tonic (root, third, fifth) */
  chord(bar: number): number[];
}

function harmony(tonic: number, mode: "major" | "minor", rng: Prng): Harmony {
  const prog = rng.pick(PROGRESSIONS[mode]);
  const scale = mode === "major" ? MAJOR_SCALE : MINOR_SCALE;
  return {
    tonic,
    mode,
    chord(bar) {
      const degree = prog[bar % prog.length];
      const triad = [0, 2, 4].map((s) => {
        const i = degree + s;
        let pc = scale[i % 7] + 12 * Math.floor(i / 7);
        // the minor key's dominant is major (its leading tone): the harmonic minor's V
        if (mode === "minor" && degree === 4 && s === 1) pc += 1;
        return pc;
      });
      return triad;
    },
  };
}

/** A melody note from the key's scale near `center` (MIDI), preferring chord tones on strong beats. */
function melodyNote(h: Harmony, bar: number, strong: boolean, center: number, rng: Prng): number {
  const scale = h.mode === "major" ? MAJOR_SCALE : MINOR_SCALE;
  const pcs = strong ? h.chord(bar).map((c) => c % 12) : scale;
  const pc = rng.pick(pcs);
  let n = center - ((center - h.tonic - pc) % 12 + 12) % 12;
  if (rng.chance(0.5)) n += 12;
  return n;
}

type StyleFn = (h: Harmony, rng: Prng, bars: number) => Part[];

const q = TPQ;
const e = TPQ / 2;
const s16 = TPQ / 4;
const third = TPQ / 3;

/** A composition's bar count for SECONDS at `bpm` quarter notes with `beats` per bar. */
const barsFor = (bpm: number, beats: number) => Math.ceil((SECONDS * bpm) / 60 / beats) + 1;

function part(channel: number, program: number): Part {
  return { channel, program, notes: [] };
}
const add = (p: Part, tick: number, dur: number, pitch: number, vel: number) => p.notes.push({ tick: Math.round(tick), dur: Math.max(1, Math.round(dur)), pitch, vel });
const chordAt = (p: Part, h: Harmony, bar: number, tick: number, dur: number, base: number, vel: number) => {
  for (const c of h.chord(bar)) add(p, tick, dur, base + h.tonic + c, vel);
};

const STYLES: Record<string, { beats: number; fn: StyleFn }> = {
  /** Rock/pop backbeat: kick on 1 and 3, snare on 2 and 4, eighth-note hi-hat; bass and guitar chords. */
  rock: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.pickBass), gtr = part(3, rng.pick([GM.drive, GM.cleanGuitar])), lead = part(4, rng.pick([GM.sax, GM.trumpet]));
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        for (let i = 0; i < 8; i++) add(drums, t0 + i * e, e, HAT, i % 2 ? 60 : 80);
        add(drums, t0, e, KICK, 100);
        add(drums, t0 + 2 * q + e, e, KICK, 80);
        add(drums, t0 + 2 * q, e, KICK, 95);
        add(drums, t0 + q, e, SNARE, 95);
        add(drums, t0 + 3 * q, e, SNARE, 95);
        if (b % 4 === 0) add(drums, t0, q, CRASH, 80);
        const root = 36 + h.tonic + h.chord(b)[0];
        for (let i = 0; i < 8; i++) add(bass, t0 + i * e, e * 0.9, root, 85);
        for (let i = 0; i < 4; i++) chordAt(gtr, h, b, t0 + i * q, q * 0.9, 60, 70);
        if (b % 2 === 1) for (let i = 0; i < 4; i++) add(lead, t0 + i * q + (rng.chance(0.3) ? e : 0), q, melodyNote(h, b, i % 2 === 0, 72, rng), 75);
      }
      return [drums, bass, gtr, lead];
    },
  },
  /** Ragtime piano, no drums: the left hand's bass on 1 and 3 and chord on 2 and 4 ("oom-pah"), a syncopated right hand. */
  ragtime: {
    beats: 4,
    fn(h, rng, bars) {
      const lh = part(1, GM.honkyTonk), rh = part(2, GM.honkyTonk);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const root = h.tonic + h.chord(b)[0];
        add(lh, t0, q * 0.8, 36 + root, 90);
        add(lh, t0 + 2 * q, q * 0.8, 36 + ((root + 7) % 12), 85);
        chordAt(lh, h, b, t0 + q, q * 0.6, 52, 70);
        chordAt(lh, h, b, t0 + 3 * q, q * 0.6, 52, 70);
        // syncopation: 16th–8th–16th figures, ties across the beat
        for (let i = 0; i < 16; ) {
          const len = rng.pick([1, 2, 2, 3]);
          if (rng.chance(0.85)) add(rh, t0 + i * s16, len * s16 * 0.9, melodyNote(h, b, i % 4 === 0, 74, rng), i % 4 === 0 ? 85 : 70);
          i += len;
        }
      }
      return [lh, rh];
    },
  },
  /** A march in 2/4 (written as 4/4 bars of two 2/4 bars): tuba on the beat, horns off it, snare and bass drum, a trumpet tune. */
  march: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), tuba = part(1, GM.tuba), horns = part(2, GM.trombone), tune = part(3, GM.trumpet);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        for (let i = 0; i < 4; i++) {
          const root = h.tonic + h.chord(b)[0];
          add(tuba, t0 + i * q, e, 36 + (i % 2 ? root + 7 : root), 95);
          chordAt(horns, h, b, t0 + i * q + e, e * 0.8, 55, 70);
          add(drums, t0 + i * q, e, i % 2 ? SNARE : KICK, 90);
          if (rng.chance(0.5)) add(drums, t0 + i * q + e, s16, SNARE, 60);
          if (rng.chance(0.3)) add(drums, t0 + i * q + e + s16, s16, SNARE, 55);
        }
        if (b % 4 === 0) add(drums, t0, q, CRASH, 75);
        for (let i = 0; i < 8; i += rng.pick([1, 2])) add(tune, t0 + i * e, e * 1.6, melodyNote(h, b, i % 2 === 0, 72, rng), 80);
      }
      return [drums, tuba, horns, tune];
    },
  },
  /** Swing: ride "ding, ding-a ding", hi-hat pedal on 2 and 4, walking bass, piano comping off the beat, a sax line. */
  swing: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.acBass), piano = part(3, GM.piano), sax = part(4, GM.sax);
      const swung = 2 * third;
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        for (let i = 0; i < 4; i++) {
          add(drums, t0 + i * q, e, RIDE, i % 2 ? 85 : 75);
          if (i % 2) add(drums, t0 + i * q + swung, third, RIDE, 60);
          if (i % 2) add(drums, t0 + i * q, e, PEDAL_HAT, 70);
          const pcs = [...h.chord(b), 2, 5, 9];
          add(bass, t0 + i * q, q * 0.9, 36 + h.tonic + (i === 0 ? h.chord(b)[0] : rng.pick(pcs)), 85);
        }
        for (const at of [rng.pick([q + swung, swung]), rng.pick([2 * q + swung, 3 * q + swung])]) chordAt(piano, h, b, t0 + at, third, 60, 60);
        for (let i = 0; i < 8; i++) if (rng.chance(0.6)) add(sax, t0 + Math.floor(i / 2) * q + (i % 2 ? swung : 0), third * 1.5, melodyNote(h, b, i % 2 === 0, 67, rng), i % 2 ? 65 : 80);
      }
      return [drums, bass, piano, sax];
    },
  },
  /** A blues shuffle: long-short triplet eighths on the hi-hat, kick 1 and 3, snare 2 and 4, a boogie bass line, guitar. */
  shuffle: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.fingerBass), gtr = part(3, GM.cleanGuitar), organ = part(4, GM.organ);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const root = 36 + h.tonic + h.chord(b)[0];
        for (let i = 0; i < 4; i++) {
          add(drums, t0 + i * q, 2 * third, HAT, 80);
          add(drums, t0 + i * q + 2 * third, third, HAT, 55);
          add(drums, t0 + i * q, e, i % 2 ? SNARE : KICK, 95);
          const boogie = [0, 4, 7, 9][i] + (h.mode === "minor" && i === 1 ? -1 : 0);
          add(bass, t0 + i * q, 2 * third, root + boogie, 85);
          add(bass, t0 + i * q + 2 * third, third, root + boogie, 65);
          add(gtr, t0 + i * q, 2 * third * 0.9, root + 24, 65);
          add(gtr, t0 + i * q, 2 * third * 0.9, root + 24 + 7, 65);
        }
        if (rng.chance(0.5)) chordAt(organ, h, b, t0, 4 * q, 60, 45);
      }
      return [drums, bass, gtr, organ];
    },
  },
  /** A waltz in 3/4: bass on 1, chords on 2 and 3 (strings pizzicato and piano), a flute or violin tune. */
  waltz: {
    beats: 3,
    fn(h, rng, bars) {
      const bass = part(1, GM.acBass), pizz = part(2, GM.pizzicato), piano = part(3, GM.piano), tune = part(4, rng.pick([GM.flute, GM.clarinet]));
      for (let b = 0; b < bars; b++) {
        const t0 = b * 3 * q;
        add(bass, t0, q, 36 + h.tonic + h.chord(b)[0], 95);
        for (const i of [1, 2]) {
          chordAt(pizz, h, b, t0 + i * q, e, 55, 70);
          chordAt(piano, h, b, t0 + i * q, e, 60, 55);
        }
        add(tune, t0, q * 1.8, melodyNote(h, b, true, 74, rng), 75);
        if (rng.chance(0.6)) add(tune, t0 + 2 * q, q * 0.9, melodyNote(h, b, false, 74, rng), 65);
      }
      return [bass, pizz, piano, tune];
    },
  },
  /**
   * Fast cut time (a bluegrass two-beat): bass on the half notes, alternating root and fifth,
   * banjo and guitar "chick" on the off quarters, a fiddle in eighths. The listener taps the
   * half note; the piece's bpm is that (ADR 0105), its MIDI tempo twice it in quarters.
   */
  cuttime: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(1, GM.acBass), banjo = part(2, GM.banjo), gtr = part(3, GM.steel), fiddle = part(4, GM.fiddle);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const root = 36 + h.tonic + h.chord(b)[0];
        add(bass, t0, q, root, 95);
        add(bass, t0 + 2 * q, q, root + 7, 90);
        add(drums, t0 + q, e, SNARE, 70);
        add(drums, t0 + 3 * q, e, SNARE, 70);
        for (const i of [1, 3]) {
          chordAt(banjo, h, b, t0 + i * q, e, 60, 65);
          chordAt(gtr, h, b, t0 + i * q, e, 52, 70);
        }
        for (let i = 0; i < 8; i++) if (rng.chance(0.8)) add(fiddle, t0 + i * e, e, melodyNote(h, b, i % 4 === 0, 72, rng), 70);
      }
      return [drums, bass, banjo, gtr, fiddle];
    },
  },
  /** A slow ballad: piano arpeggios in eighths and a soft string pad, no drums; played in rubato (tempo map). */
  ballad: {
    beats: 4,
    fn(h, rng, bars) {
      const piano = part(1, GM.piano), strings = part(2, GM.slowStrings), voice = part(3, GM.clarinet);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const chord = h.chord(b);
        const arp = [36 + chord[0], 48 + chord[0], 48 + chord[1] + 12 * (chord[1] < chord[0] ? 1 : 0), 48 + chord[2], 60 + chord[0], 48 + chord[2], 48 + chord[1], 48 + chord[0]];
        for (let i = 0; i < 8; i++) add(piano, t0 + i * e, e * 1.8, h.tonic + arp[i], i === 0 ? 80 : 60);
        chordAt(strings, h, b, t0, 4 * q, 60, 40);
        add(voice, t0 + q, 2 * q, melodyNote(h, b, true, 72, rng), 60);
        add(voice, t0 + 3 * q, q, melodyNote(h, b, false, 72, rng), 55);
      }
      return [piano, strings, voice];
    },
  },
  /** Four on the floor (dance): kick on every beat, open hat off the beat, clap on 2 and 4, an off-beat synth bass. */
  dance: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.synthBass), pad = part(3, GM.warmPad), stab = part(4, GM.ePiano);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        for (let i = 0; i < 4; i++) {
          add(drums, t0 + i * q, e, KICK, 105);
          add(drums, t0 + i * q + e, e, OPEN_HAT, 70);
          if (i % 2) add(drums, t0 + i * q, e, CLAP, 85);
          add(bass, t0 + i * q + e, e, 36 + h.tonic + h.chord(b)[0], 85);
        }
        chordAt(pad, h, b, t0, 4 * q, 60, 45);
        if (rng.chance(0.5)) chordAt(stab, h, b, t0 + 3 * q + e, e, 60, 70);
      }
      return [drums, bass, pad, stab];
    },
  },
  /** Funk: sixteenth-note hi-hat, a syncopated kick, snare on 2 and 4, a bass line in sixteenths, guitar scratches. */
  funk: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.fingerBass), gtr = part(3, GM.cleanGuitar), keys = part(4, GM.ePiano);
      const kicks = [0, 3, 6, 10];
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const root = 36 + h.tonic + h.chord(b)[0];
        for (let i = 0; i < 16; i++) {
          add(drums, t0 + i * s16, s16, HAT, i % 4 === 0 ? 80 : 55);
          if (kicks.includes(i)) add(drums, t0 + i * s16, s16, KICK, 100);
          if (i === 4 || i === 12) add(drums, t0 + i * s16, s16, SNARE, 100);
          if (rng.chance(0.4) || i % 4 === 0) add(bass, t0 + i * s16, s16 * 0.8, root + (rng.chance(0.25) ? 12 : 0) + (rng.chance(0.2) ? 7 : 0), i % 4 === 0 ? 90 : 70);
          if (i % 2 === 0 && rng.chance(0.5)) chordAt(gtr, h, b, t0 + i * s16, s16 * 0.7, 60, 55);
        }
        chordAt(keys, h, b, t0, 2 * q, 60, 40);
      }
      return [drums, bass, gtr, keys];
    },
  },
  /** Bossa nova: nylon guitar on the syncopated pattern, rim clicks on the clave, a shaker in eighths, bass on 1 and the and of 2. */
  bossa: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.acBass), gtr = part(3, GM.nylon), flute = part(4, GM.flute);
      const clave = [0, 3, 6, 10, 13];
      const comp = [0, 3, 6, 8, 11, 14];
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const root = 36 + h.tonic + h.chord(b)[0];
        for (let i = 0; i < 8; i++) add(drums, t0 + i * e, e, SHAKER, i % 2 ? 50 : 65);
        for (let i = 0; i < 4; i++) add(drums, t0 + i * q, e, KICK, 70);
        for (const c of clave) add(drums, t0 + c * s16, s16, RIM, 75);
        add(bass, t0, q + e, root, 85);
        add(bass, t0 + q + e, q + e, root + 7, 80);
        add(bass, t0 + 2 * q, q + e, root + 7, 80);
        for (const c of comp) chordAt(gtr, h, b, t0 + c * s16, s16 * 1.5, 55, 65);
        if (rng.chance(0.7)) add(flute, t0, 2 * q, melodyNote(h, b, true, 76, rng), 65);
        if (rng.chance(0.5)) add(flute, t0 + 2 * q + e, q + e, melodyNote(h, b, false, 76, rng), 60);
      }
      return [drums, bass, gtr, flute];
    },
  },
  /** A string orchestra's allegro, no drums: repeated eighth-note chords (détaché), cellos and basses on the beat, a violin tune. */
  strings: {
    beats: 4,
    fn(h, rng, bars) {
      const section = part(1, GM.strings), low = part(2, GM.strings), violin = part(3, 40);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        for (let i = 0; i < 8; i++) chordAt(section, h, b, t0 + i * e, e * 0.7, 55, i % 2 ? 55 : 75);
        for (let i = 0; i < 4; i++) add(low, t0 + i * q, q * 0.6, 36 + h.tonic + h.chord(b)[0] + (i % 2 ? 7 : 0), 85);
        for (let i = 0; i < 4; i += rng.pick([1, 2])) add(violin, t0 + i * q, q * 0.95, melodyNote(h, b, i === 0, 76, rng), 75);
      }
      return [section, low, violin];
    },
  },
  /** Fingerpicked steel-string guitar (Travis picking): alternating bass on the beat, treble notes between, no drums. */
  fingerpick: {
    beats: 4,
    fn(h, rng, bars) {
      const gtr = part(1, GM.steel), voice = part(2, GM.flute);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const [r, t, f] = h.chord(b);
        const bassNotes = [40 + r, 40 + f, 40 + r + 12, 40 + f];
        for (let i = 0; i < 4; i++) {
          add(gtr, t0 + i * q, q * 0.9, h.tonic + bassNotes[i] - (bassNotes[i] > 55 ? 12 : 0), 80);
          add(gtr, t0 + i * q + e, e * 0.9, h.tonic + 60 + (i % 2 ? t : f), 60);
          if (rng.chance(0.3)) add(gtr, t0 + i * q, e, h.tonic + 64 + r, 55);
        }
        if (b % 2 === 0) add(voice, t0, 3 * q, melodyNote(h, b, true, 74, rng), 55);
      }
      return [gtr, voice];
    },
  },
  /** Reggae one drop: kick and rim on beat 3 only, hi-hat eighths, guitar and organ skank on the off-beats, a bass line. */
  reggae: {
    beats: 4,
    fn(h, rng, bars) {
      const drums = part(10, 0), bass = part(2, GM.fingerBass), gtr = part(3, GM.cleanGuitar), organ = part(4, GM.organ);
      for (let b = 0; b < bars; b++) {
        const t0 = b * 4 * q;
        const root = 36 + h.tonic + h.chord(b)[0];
        for (let i = 0; i < 8; i++) add(drums, t0 + i * e, e, HAT, i % 2 ? 45 : 60);
        add(drums, t0 + 2 * q, e, KICK, 95);
        add(drums, t0 + 2 * q, e, RIM, 85);
        for (let i = 0; i < 4; i++) {
          chordAt(gtr, h, b, t0 + i * q + e, s16, 60, 70);
          chordAt(organ, h, b, t0 + i * q + e, s16, 60, 50);
        }
        add(bass, t0, q + e, root, 90);
        add(bass, t0 + q + e, e, root + 7, 80);
        add(bass, t0 + 2 * q + e, q, root + (rng.chance(0.5) ? 3 : 5), 80);
      }
      return [drums, bass, gtr, organ];
    },
  },
};

interface Spec {
  style: keyof typeof STYLES;
  /** the tempo a listener taps */
  bpm: number;
  key: string;
  tempo?: "drift" | "rubato";
}

/**
 * The compositions: three tempi and keys per style for tuning, and a fourth (the last of each
 * row) held out. 60–200 BPM over the set; every key once or more, major and minor.
 */
const SPECS: Spec[][] = [
  [{ style: "rock", bpm: 96, key: "E minor" }, { style: "rock", bpm: 132, key: "A major" }, { style: "rock", bpm: 78, key: "D major" }, { style: "rock", bpm: 118, key: "B minor" }],
  [{ style: "ragtime", bpm: 100, key: "F major" }, { style: "ragtime", bpm: 120, key: "C major" }, { style: "ragtime", bpm: 88, key: "G major" }, { style: "ragtime", bpm: 112, key: "D# major" }],
  [{ style: "march", bpm: 120, key: "A# major" }, { style: "march", bpm: 110, key: "D# major" }, { style: "march", bpm: 128, key: "F major" }, { style: "march", bpm: 116, key: "C minor" }],
  [{ style: "swing", bpm: 150, key: "F major" }, { style: "swing", bpm: 184, key: "A# major" }, { style: "swing", bpm: 124, key: "C minor" }, { style: "swing", bpm: 170, key: "G minor" }],
  [{ style: "shuffle", bpm: 84, key: "E major" }, { style: "shuffle", bpm: 104, key: "A major" }, { style: "shuffle", bpm: 72, key: "G minor" }, { style: "shuffle", bpm: 96, key: "C major" }],
  [{ style: "waltz", bpm: 138, key: "D major" }, { style: "waltz", bpm: 100, key: "G minor" }, { style: "waltz", bpm: 156, key: "A# major" }, { style: "waltz", bpm: 120, key: "E minor" }],
  [{ style: "cuttime", bpm: 100, key: "G major" }, { style: "cuttime", bpm: 92, key: "A major" }, { style: "cuttime", bpm: 110, key: "D major" }, { style: "cuttime", bpm: 104, key: "C major" }],
  [{ style: "ballad", bpm: 66, key: "D# major", tempo: "rubato" }, { style: "ballad", bpm: 72, key: "C# minor", tempo: "rubato" }, { style: "ballad", bpm: 62, key: "F minor", tempo: "rubato" }, { style: "ballad", bpm: 70, key: "B major", tempo: "rubato" }],
  [{ style: "rock", bpm: 124, key: "G major", tempo: "drift" }, { style: "funk", bpm: 100, key: "E minor", tempo: "drift" }, { style: "swing", bpm: 140, key: "D minor", tempo: "drift" }, { style: "shuffle", bpm: 92, key: "A minor", tempo: "drift" }],
  [{ style: "dance", bpm: 124, key: "F# minor" }, { style: "dance", bpm: 128, key: "A minor" }, { style: "dance", bpm: 120, key: "C# major" }, { style: "dance", bpm: 126, key: "G# minor" }],
  [{ style: "funk", bpm: 96, key: "D minor" }, { style: "funk", bpm: 108, key: "F# major" }, { style: "funk", bpm: 90, key: "B minor" }, { style: "funk", bpm: 112, key: "A minor" }],
  [{ style: "bossa", bpm: 136, key: "G# major" }, { style: "bossa", bpm: 128, key: "E minor" }, { style: "bossa", bpm: 144, key: "F minor" }, { style: "bossa", bpm: 140, key: "D major" }],
  [{ style: "strings", bpm: 132, key: "G major" }, { style: "strings", bpm: 100, key: "D minor" }, { style: "strings", bpm: 88, key: "A major" }, { style: "strings", bpm: 116, key: "F# minor" }],
  [{ style: "fingerpick", bpm: 110, key: "C major" }, { style: "fingerpick", bpm: 90, key: "E minor" }, { style: "fingerpick", bpm: 76, key: "D major" }, { style: "fingerpick", bpm: 100, key: "G major" }],
  [{ style: "reggae", bpm: 76, key: "A minor" }, { style: "reggae", bpm: 84, key: "D major" }, { style: "reggae", bpm: 70, key: "E minor" }, { style: "reggae", bpm: 80, key: "G major" }],
  [{ style: "rock", bpm: 168, key: "E major" }, { style: "swing", bpm: 196, key: "F# minor" }, { style: "march", bpm: 64, key: "G# minor" }, { style: "rock", bpm: 180, key: "C# minor" }],
];

function parseKey(key: string): { tonic: number; mode: "major" | "minor" } {
  const [name, mode] = key.split(" ");
  return { tonic: NAMES.indexOf(name), mode: mode as "major" | "minor" };
}

function compose(spec: Spec, seed: number): { song: Song; meanBpm: number } {
  const rng = createPrng(seed);
  const { tonic, mode } = parseKey(spec.key);
  const h = harmony(tonic, mode, rng);
  const style = STYLES[spec.style];
  // cut time: the listener taps the half note, the score's quarter note runs twice as fast
  const quarterBpm = spec.style === "cuttime" ? spec.bpm * 2 : spec.bpm;
  const bars = barsFor(quarterBpm * (spec.tempo ? 1.1 : 1), style.beats);
  const parts = style.fn(h, rng, bars);
  const tempi: [number, number][] = [];
  let meanBpm = spec.bpm;
  if (spec.tempo === "drift") {
    // a band speeding up: from 6 % under to 6 % over the tempo, a change every beat
    const beats = bars * style.beats;
    for (let i = 0; i < beats; i++) tempi.push([i * TPQ, quarterBpm * (0.94 + (0.12 * i) / beats)]);
  } else if (spec.tempo === "rubato") {
    // breathing: ±8 % over four bars, a little push and pull every beat, a ritardando each 8 bars
    const phase = rng.next() * 2 * Math.PI;
    for (let i = 0; i < bars * style.beats; i++) {
      const bar = i / style.beats;
      const rit = bar % 8 > 7 ? 0.85 : 1;
      tempi.push([i * TPQ, quarterBpm * (1 + 0.08 * Math.sin(phase + (2 * Math.PI * bar) / 4) + 0.03 * (rng.next() - 0.5)) * rit]);
    }
  } else {
    tempi.push([0, quarterBpm]);
  }
  if (spec.tempo) meanBpm = meanTempoOver(tempi, SECONDS) / (spec.style === "cuttime" ? 2 : 1);
  return { song: { parts, tempi }, meanBpm };
}

/** The mean beat rate (beats per minute) over the first `seconds` of a tempo map of one change per beat. */
function meanTempoOver(tempi: [number, number][], seconds: number): number {
  let t = 0;
  let beats = 0;
  for (let i = 0; i < tempi.length && t < seconds; i++) {
    const next = i + 1 < tempi.length ? (tempi[i + 1][0] - tempi[i][0]) / TPQ : Infinity;
    const beatSeconds = 60 / tempi[i][1];
    const take = Math.min(next, (seconds - t) / beatSeconds);
    beats += take;
    t += take * beatSeconds;
  }
  return (beats / t) * 60;
}

function midiFile(song: Song): Uint8Array {
  const tracks = song.parts.map((p) => {
    const track = new MidiWriter.Track();
    if (p.channel !== 10) track.addEvent(new MidiWriter.ProgramChangeEvent({ instrument: p.program, channel: p.channel - 1 }));
    for (const n of p.notes) {
      track.addEvent(new MidiWriter.NoteEvent({ pitch: [n.pitch], duration: `T${n.dur}`, tick: n.tick, velocity: Math.round((n.vel / 127) * 100), channel: p.channel }));
    }
    return track;
  });
  const conductor = new MidiWriter.Track();
  // tempo changes go in order, each after its delta in ticks (midi-writer-js places a TempoEvent by its delta, not a tick)
  let at = 0;
  for (const [tick, bpm] of song.tempi) {
    conductor.addEvent(new MidiWriter.TempoEvent({ bpm: Math.round(bpm * 100) / 100, delta: tick - at }));
    at = tick;
  }
  return new MidiWriter.Writer([conductor, ...tracks]).buildFile();
}

/** Renders a MIDI file to a 44.1 kHz stereo WAV with fluidsynth, cached by the file's hash. */
function render(mid: Uint8Array, cacheDir: string, seconds = SECONDS): Uint8Array {
  const hash = crypto.createHash("sha256").update(mid).update(String(seconds)).digest("hex").slice(0, 16);
  const out = path.join(cacheDir, `${hash}.wav`);
  if (fs.existsSync(out)) return new Uint8Array(fs.readFileSync(out));
  if (!fs.existsSync(SOUNDFONT)) throw new Error(`no General MIDI soundfont at ${SOUNDFONT}: apt-get install fluidsynth fluid-soundfont-gm`);
  const midPath = path.join(cacheDir, `${hash}.mid`);
  const full = path.join(cacheDir, `${hash}.full.wav`);
  fs.writeFileSync(midPath, mid);
  const r = spawnSync("fluidsynth", ["-ni", "-q", "-F", full, "-r", "44100", SOUNDFONT, midPath], { stdio: ["ignore", "ignore", "pipe"] });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") throw new Error("fluidsynth is not installed: apt-get install fluidsynth fluid-soundfont-gm");
  if (r.status !== 0) throw new Error(`fluidsynth failed: ${r.stderr?.toString()}`);
  // cut to SECONDS, 16-bit: the file is the excerpt's length plus a short tail
  const cut = spawnSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", full, "-t", String(seconds), "-c:a", "pcm_s16le", "-y", out]);
  if (cut.status !== 0) throw new Error(`ffmpeg failed to cut ${full}: ${cut.stderr?.toString()}`);
  fs.rmSync(full);
  fs.rmSync(midPath);
  return new Uint8Array(fs.readFileSync(out));
}

/** Beatless MIDI: held chords on a pad, strings or organ, changing every few seconds, legato. */
function heldChords(key: string, program: number, chordSeconds: number, seed: number, chimes = false): Song {
  const rng = createPrng(seed);
  const { tonic, mode } = parseKey(key);
  const h = harmony(tonic, mode, rng);
  const bpm = 60; // one quarter a second: the tick grid is in seconds
  const pad = part(1, program);
  const bars = Math.ceil(SECONDS / chordSeconds) + 1;
  for (let b = 0; b < bars; b++) chordAt(pad, h, b, b * chordSeconds * TPQ, (chordSeconds + 0.5) * TPQ, 55, 60);
  const parts = [pad];
  if (chimes) {
    // wind chimes: notes of the scale at random times (a Poisson process, 1.2 per second), no pulse
    const bells = part(2, GM.celesta);
    for (let t = 0; t < SECONDS; t += -Math.log(1 - rng.next()) / 1.2) add(bells, t * TPQ, TPQ, melodyNote(h, Math.floor(t / chordSeconds), false, 84, rng), rng.int(40, 80));
    parts.push(bells);
  }
  return { parts, tempi: [[0, bpm]] };
}

function whiteNoise(seconds: number, level: number, seed: number): Float32Array {
  const rng = createPrng(seed);
  return Float32Array.from({ length: seconds * 44_100 }, () => level * (rng.next() * 2 - 1));
}

/** The whole set, in a fixed order. Rendering is lazy (`wav()`), cached under `cacheDir`. */
export function evaluationSet(cacheDir: string): Piece[] {
  fs.mkdirSync(cacheDir, { recursive: true });
  const pieces: Piece[] = [];
  SPECS.forEach((row, r) =>
    row.forEach((spec, c) => {
      const seed = 1000 + r * 10 + c;
      let composed: ReturnType<typeof compose> | undefined;
      const get = () => (composed ??= compose(spec, seed));
      const variable = spec.tempo !== undefined;
      pieces.push({
        name: `${spec.style}${spec.tempo ? `-${spec.tempo}` : ""} ${spec.bpm} ${spec.key}`,
        style: spec.style + (spec.tempo ? `-${spec.tempo}` : ""),
        get bpm() {
          return variable ? Math.round(get().meanBpm * 10) / 10 : spec.bpm;
        },
        key: spec.key,
        heldOut: c === 3,
        variable,
        wav: () => render(midiFile(get().song), cacheDir),
      });
    }),
  );
  const controls: [string, string | null, boolean, () => Uint8Array][] = [
    ["sine 440 Hz", null, false, () => encodeWav([tone({ hz: 440, seconds: 30, dbfs: -12 })])],
    ["sine 97 Hz", null, true, () => encodeWav([tone({ hz: 97, seconds: 30, dbfs: -6 })])],
    ["drone 110 Hz, 2 Hz vibrato", null, false, () => encodeWav([drone({ hz: 110, seconds: 30, vibratoHz: 2, vibratoCents: 20 })])],
    ["drone 220 Hz, 5 Hz vibrato", null, true, () => encodeWav([drone({ hz: 220, seconds: 30, vibratoHz: 5, vibratoCents: 15 })])],
    ["pad chords with chorus, 4 s each", "D minor", false, () => encodeWav([padChords({ key: "D minor", seconds: 30, chordSeconds: 4, attackSeconds: 0.1 })])],
    ["pad chords swelling over 2 s", "D major", true, () => encodeWav([padChords({ key: "D major", seconds: 30, chordSeconds: 6, attackSeconds: 2, detuneCents: 0 })])],
    ["noise breathing every 5 s", null, false, () => encodeWav([noiseTexture({ seconds: 30, centerHz: 600, modulationHz: 0.2 })])],
    ["white noise", null, true, () => encodeWav([whiteNoise(30, 0.3, 5)])],
    ["silence", null, false, () => encodeWav([new Float32Array(44_100 * 20)])],
    ["GM warm pad, a chord every 5 s", "A minor", false, () => render(midiFile(heldChords("A minor", GM.warmPad, 5, 71)), cacheDir)],
    ["GM strings, a chord every 3 s", "F major", false, () => render(midiFile(heldChords("F major", GM.slowStrings, 3, 72)), cacheDir)],
    ["GM choir pad, a chord every 7 s", "E minor", true, () => render(midiFile(heldChords("E minor", GM.choirPad, 7, 73)), cacheDir)],
    ["GM organ, a chord every 4 s", "G major", false, () => render(midiFile(heldChords("G major", GM.organ, 4, 74)), cacheDir)],
    ["GM halo pad with random chimes", "C major", false, () => render(midiFile(heldChords("C major", GM.haloPad, 6, 75, true)), cacheDir)],
    ["GM strings with random chimes", "B minor", true, () => render(midiFile(heldChords("B minor", GM.strings, 4, 76, true)), cacheDir)],
  ];
  for (const [name, key, heldOut, wav] of controls) {
    pieces.push({ name, style: "beatless", bpm: null, key, heldOut, variable: false, wav });
  }
  return pieces;
}

export const KEY_NAMES = NAMES;
