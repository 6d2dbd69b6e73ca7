import { createPrng, type Prng } from "./prng.ts";
import { addDecayingSine, CADENCE, midiToHz, parseKey } from "./synth.ts";

/**
 * Six recognisable families of synthesised music (issue #19 "Sample data that shows it"): the
 * sample catalog's tracks and the similarity tests are made of them, so "More like this" on a
 * house track can be seen — and tested — to list house tracks first. Each family has its own
 * instruments and its own rhythm; a track picks a tempo, a key and a seed within its family.
 * Every piece is one four-bar loop rendered once and repeated (the synthesis costs a few
 * seconds of audio, as tracks.ts), with a chord cadence in the key (synth.ts CADENCE).
 * Deterministic: noise and choices come from the seeded PRNG.
 */

export const FAMILIES = ["ambient", "acoustic", "house", "breakbeat", "ballad", "strings"] as const;
export type Family = (typeof FAMILIES)[number];

export interface FamilyTrack {
  family: Family;
  /** null for the beatless families (ambient, strings) */
  bpm: number | null;
  key: string;
  seconds: number;
  seed: number;
}

/** The tempo range each family's tracks are given (null: no beat). */
export const FAMILY_TEMPI: Readonly<Record<Family, readonly [number, number] | null>> = {
  ambient: null,
  acoustic: [88, 112],
  house: [120, 128],
  breakbeat: [132, 146],
  ballad: [62, 76],
  strings: null,
};

/** The length of one loop: four bars of the tempo, or four chords of `chordSeconds` for a beatless piece. */
function loopSeconds(t: FamilyTrack): number {
  return t.bpm ? (16 * 60) / t.bpm : 4 * (t.family === "ambient" ? 7 : 5);
}

/** The PCM of a family track, mono at `rate`, exactly `seconds` long, faded in and out, peaking at -1 dBFS. */
export function renderFamilyTrack(t: FamilyTrack, rate: number): Float32Array {
  const loop = renderLoop(t, rate);
  let peak = 1e-9;
  for (const v of loop) peak = Math.max(peak, Math.abs(v));
  const gain = 0.89 / peak;
  const out = new Float32Array(Math.round(t.seconds * rate));
  const fadeIn = 0.05 * rate;
  const fadeOut = 1.5 * rate;
  for (let n = 0; n < out.length; n++) {
    const fade = Math.min(1, n / fadeIn, (out.length - n) / fadeOut);
    out[n] = loop[n % loop.length] * gain * fade;
  }
  return out;
}

function renderLoop(t: FamilyTrack, rate: number): Float32Array {
  const out = new Float32Array(Math.round(loopSeconds(t) * rate));
  const rng = createPrng(t.seed * 2_654_435 + 17);
  const { tonic, mode } = parseKey(t.key);
  const ctx: Ctx = { out, rate, rng, tonic, mode, beat: t.bpm ? 60 / t.bpm : 0, bar: t.bpm ? 240 / t.bpm : loopSeconds(t) / 4 };
  switch (t.family) {
    case "ambient":
      ambient(ctx);
      break;
    case "acoustic":
      acoustic(ctx);
      break;
    case "house":
      house(ctx);
      break;
    case "breakbeat":
      breakbeat(ctx);
      break;
    case "ballad":
      ballad(ctx);
      break;
    case "strings":
      strings(ctx);
      break;
  }
  return out;
}

interface Ctx {
  out: Float32Array;
  rate: number;
  rng: Prng;
  tonic: number;
  mode: "major" | "minor";
  /** seconds per beat (0 without a beat) and per bar (per chord for a beatless piece) */
  beat: number;
  bar: number;
}

/** The notes (MIDI) of chord `c` of the cadence, from `base`. */
const chordNotes = (ctx: Ctx, c: number, base: number) => CADENCE[ctx.mode][c % 4].map((s) => base + ctx.tonic + s);

const at = (ctx: Ctx, seconds: number) => Math.round(seconds * ctx.rate);

function noiseBurst(ctx: Ctx, start: number, amp: number, decay: number, tilt: number) {
  const { out, rate, rng } = ctx;
  const len = Math.min(out.length - start, Math.round(decay * 6 * rate));
  let previous = 0;
  for (let i = 0; i < len; i++) {
    const white = rng.next() * 2 - 1;
    // tilt 1: a first difference (hi-hat); 0: white (snare)
    const sample = white - tilt * previous;
    previous = white;
    out[start + i] += amp * Math.exp(-i / rate / decay) * sample;
  }
}

function kick(ctx: Ctx, start: number, amp = 0.8) {
  addDecayingSine(ctx.out, start, 140, amp, 0.15, ctx.rate, 45);
}

/** A held tone of `partials` harmonics (amplitude 1/n^rolloff), with an attack and a release over `len` samples, and optional vibrato. */
function heldTone(ctx: Ctx, start: number, len: number, hz: number, amp: number, opts: { partials: number; rolloff: number; attack: number; release: number; vibratoHz?: number; vibratoCents?: number }) {
  const { out, rate } = ctx;
  const attack = Math.max(1, opts.attack * rate);
  const release = Math.max(1, opts.release * rate);
  const phase0 = ctx.rng.next() * 2 * Math.PI;
  // the envelope and the fundamental's phase step, once per note; each partial is a multiple
  const env = new Float32Array(len);
  const step = new Float32Array(len);
  for (let i = 0; i < len; i++) {
    env[i] = Math.min(1, i / attack) * Math.min(1, (len - i) / release);
    const vib = opts.vibratoHz ? 2 ** (((opts.vibratoCents ?? 0) / 1200) * Math.sin((2 * Math.PI * opts.vibratoHz * i) / rate)) : 1;
    step[i] = (2 * Math.PI * hz * vib) / rate;
  }
  for (let h = 1; h <= opts.partials && hz * h < rate / 2.2; h++) {
    const a = amp / h ** opts.rolloff;
    let phase = phase0 * h;
    for (let i = 0; i < len; i++) {
      phase += step[i] * h;
      out[(start + i) % out.length] += a * env[i] * Math.sin(phase);
    }
  }
}

/** A plucked string: Karplus–Strong (a noise burst circulating in a delay line with a averaging low-pass). */
function pluck(ctx: Ctx, start: number, hz: number, amp: number, seconds: number) {
  const { out, rate, rng } = ctx;
  const period = Math.max(2, Math.round(rate / hz));
  const line = new Float32Array(period);
  for (let i = 0; i < period; i++) line[i] = rng.next() * 2 - 1;
  const len = Math.min(out.length - start, Math.round(seconds * rate));
  let idx = 0;
  for (let i = 0; i < len; i++) {
    const next = (idx + 1) % period;
    const v = line[idx];
    line[idx] = 0.996 * 0.5 * (line[idx] + line[next]);
    out[start + i] += amp * v;
    idx = next;
  }
}

/** A piano-like note: slightly stretched partials (inharmonicity), the higher ones dying faster. */
function pianoNote(ctx: Ctx, start: number, hz: number, amp: number, seconds: number) {
  const { out, rate } = ctx;
  const len = Math.min(out.length - start, Math.round(seconds * rate));
  for (let h = 1; h <= 8; h++) {
    const f = hz * h * Math.sqrt(1 + 0.0004 * h * h);
    if (f > rate / 2.2) break;
    const a = amp / h ** 1.2;
    const decay = 1.6 / h;
    const w = (2 * Math.PI * f) / rate;
    for (let i = 0; i < len; i++) out[start + i] += a * Math.exp(-i / rate / decay) * Math.min(1, i / (0.004 * rate)) * Math.sin(w * i);
  }
}

/** Ambient pad: four long chords of soft sawtooth-like tones in three detuned voices, swelling in and out, no beat. */
function ambient(ctx: Ctx) {
  const len = at(ctx, ctx.bar + 2);
  for (let c = 0; c < 4; c++) {
    const start = at(ctx, c * ctx.bar);
    for (const midi of [...chordNotes(ctx, c, 48), 36 + ctx.tonic + CADENCE[ctx.mode][c][0]]) {
      for (const cents of [-9, 0, 9]) {
        heldTone(ctx, start, len, midiToHz(midi) * 2 ** (cents / 1200), 0.05, { partials: 4, rolloff: 2, attack: 2, release: 2 });
      }
    }
  }
}

/** Acoustic: finger-picked arpeggios (Karplus–Strong) on every eighth note, a soft shaker on the off-beats. */
function acoustic(ctx: Ctx) {
  for (let b = 0; b < 32; b++) {
    const c = Math.floor(b / 8);
    const root = CADENCE[ctx.mode][c][0];
    const notes = chordNotes(ctx, c, 60);
    const start = at(ctx, (b * ctx.beat) / 2);
    if (b % 2 === 0) {
      // on the beat: the root in the bass, thumbed, and a chord tone
      pluck(ctx, start, midiToHz(36 + ((ctx.tonic + root) % 12)), 0.5, ctx.beat * 2);
      pluck(ctx, start, midiToHz(notes[(b / 2) % 3]), 0.25, ctx.beat);
      noiseBurst(ctx, start, 0.05, 0.02, 1);
    } else {
      // between beats a softer treble note of the chord
      pluck(ctx, start, midiToHz(notes[[1, 2, 0, 2][(b >> 1) % 4]] + 12), 0.1, ctx.beat);
    }
  }
}

/** House: a kick on every beat, an open hi-hat on every off-beat, a clap on 2 and 4, short stabbed chords and a pumping bass. */
function house(ctx: Ctx) {
  for (let b = 0; b < 16; b++) {
    const start = at(ctx, b * ctx.beat);
    const c = Math.floor(b / 4);
    kick(ctx, start, 0.9);
    noiseBurst(ctx, at(ctx, (b + 0.5) * ctx.beat), 0.12, 0.06, 1);
    if (b % 2 === 1) noiseBurst(ctx, start, 0.3, 0.05, 0);
    const off = at(ctx, (b + 0.5) * ctx.beat);
    for (const midi of chordNotes(ctx, c, 60)) heldTone(ctx, off, at(ctx, ctx.beat * 0.3), midiToHz(midi), 0.06, { partials: 6, rolloff: 1.5, attack: 0.005, release: 0.05 });
    addDecayingSine(ctx.out, off, midiToHz(36 + ctx.tonic + CADENCE[ctx.mode][c][0]), 0.35, 0.12, ctx.rate);
  }
  // a soft pad holding each bar's chord under the stabs, so the key is heard
  for (let c = 0; c < 4; c++) {
    for (const midi of chordNotes(ctx, c, 48)) heldTone(ctx, at(ctx, c * ctx.bar), at(ctx, ctx.bar), midiToHz(midi), 0.05, { partials: 3, rolloff: 2, attack: 0.05, release: 0.1 });
  }
}

/** Breakbeat: a syncopated kick and snare pattern with ghost notes, busy sixteenth hi-hats and a low sustained bass. */
function breakbeat(ctx: Ctx) {
  const kicks = [0, 2.5, 4, 6.75, 8, 10.5, 11, 14.5];
  const snares = [1, 3, 5, 7, 9, 11.75, 13, 15];
  for (let bar = 0; bar < 2; bar++) {
    const offset = bar * 8;
    for (const k of kicks) if (k < 8) kick(ctx, at(ctx, (offset + k) * ctx.beat), 0.75);
    for (const s of snares) if (s < 8) noiseBurst(ctx, at(ctx, (offset + s) * ctx.beat), 0.45, 0.09, 0);
  }
  for (let s = 0; s < 64; s++) {
    // the hats accent every beat: the pulse the syncopated kicks play around
    const amp = s % 4 === 0 ? 0.16 : s % 4 === 2 ? 0.08 : 0.04 + ctx.rng.next() * 0.03;
    noiseBurst(ctx, at(ctx, (s * ctx.beat) / 4), amp, 0.015, 1);
    if (ctx.rng.chance(0.12)) noiseBurst(ctx, at(ctx, (s * ctx.beat) / 4), 0.12, 0.03, 0);
  }
  for (let c = 0; c < 4; c++) {
    heldTone(ctx, at(ctx, c * ctx.bar), at(ctx, ctx.bar), midiToHz(36 + ctx.tonic + CADENCE[ctx.mode][c][0]), 0.25, { partials: 3, rolloff: 2, attack: 0.01, release: 0.1 });
    // a dark organ chord under the break, so the key is heard
    for (const midi of chordNotes(ctx, c, 48)) heldTone(ctx, at(ctx, c * ctx.bar), at(ctx, ctx.bar), midiToHz(midi), 0.07, { partials: 3, rolloff: 2, attack: 0.05, release: 0.1 });
  }
}

/** Piano ballad: a slow broken chord per bar in the left hand, a sparse melody above, no drums. */
function ballad(ctx: Ctx) {
  const scale = ctx.mode === "major" ? [0, 2, 4, 5, 7, 9, 11] : [0, 2, 3, 5, 7, 8, 10];
  for (let c = 0; c < 4; c++) {
    const notes = chordNotes(ctx, c, 48);
    const barStart = c * ctx.bar;
    pianoNote(ctx, at(ctx, barStart), midiToHz(36 + ctx.tonic + CADENCE[ctx.mode][c][0]), 0.3, ctx.bar * 1.2);
    pianoNote(ctx, at(ctx, barStart + 2 * ctx.beat), midiToHz(48 + ctx.tonic + CADENCE[ctx.mode][c][0]), 0.2, ctx.bar * 0.6);
    notes.forEach((midi, i) => pianoNote(ctx, at(ctx, barStart + ((i + 1) * ctx.beat) / 1), midiToHz(midi), 0.18, ctx.bar));
    for (let b = 0; b < 4; b++) {
      if (ctx.rng.chance(0.6)) pianoNote(ctx, at(ctx, barStart + b * ctx.beat), midiToHz(72 + ctx.tonic + scale[ctx.rng.int(0, 6)]), 0.2, ctx.beat * 2);
    }
  }
}

/** Sustained strings: bowed sawtooth tones with vibrato and a slow attack, four voices per chord, no beat. */
function strings(ctx: Ctx) {
  const len = at(ctx, ctx.bar + 0.6);
  for (let c = 0; c < 4; c++) {
    const start = at(ctx, c * ctx.bar);
    const notes = [...chordNotes(ctx, c, 60), 72 + ctx.tonic + CADENCE[ctx.mode][c][0], 48 + ctx.tonic + CADENCE[ctx.mode][c][0]];
    for (const midi of notes) {
      heldTone(ctx, start, len, midiToHz(midi), 0.09, { partials: 20, rolloff: 0.85, attack: 0.6, release: 0.6, vibratoHz: 5.5 + ctx.rng.next(), vibratoCents: 20 });
    }
  }
}
