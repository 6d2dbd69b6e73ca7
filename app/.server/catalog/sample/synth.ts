import { createPrng } from "./prng.ts";

/**
 * Sound synthesis shared by the sample catalog's audio (tracks.ts) and the analysis engine's
 * tests (tests/support/synth.ts re-exports it): drum patterns at a known tempo
 * and sustained chords in a known key, so what the analysis measures can be checked against
 * the truth (issue #9). Deterministic: noise comes from the seeded PRNG, never Math.random().
 */

/** The default rate of the test fixtures; the sample catalog renders at a lower one. */
export const SYNTH_RATE = 44_100;

/** Pitch classes with sharps, as the analyser names keys ("C# minor", "F# major"). */
export const PITCH_CLASSES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"] as const;

export const midiToHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** The tonic's pitch class (0 = C) and the mode of a key name such as "F# minor". */
export function parseKey(key: string): { tonic: number; mode: "major" | "minor" } {
  const [tonicName, mode] = key.split(" ");
  const tonic = PITCH_CLASSES.indexOf(tonicName as (typeof PITCH_CLASSES)[number]);
  if (tonic < 0 || (mode !== "major" && mode !== "minor")) throw new Error(`unknown key "${key}"`);
  return { tonic, mode };
}

/** Adds a sine that decays exponentially (optionally sweeping down from `hz` to `sweepTo`: a kick). */
export function addDecayingSine(out: Float32Array, start: number, hz: number, amp: number, decaySeconds: number, sampleRate: number, sweepTo?: number) {
  const len = Math.min(out.length - start, Math.round(decaySeconds * 6 * sampleRate));
  let phase = 0;
  for (let i = 0; i < len; i++) {
    const t = i / sampleRate;
    const f = sweepTo === undefined ? hz : sweepTo + (hz - sweepTo) * Math.exp(-t / 0.04);
    phase += (2 * Math.PI * f) / sampleRate;
    out[start + i] += amp * Math.exp(-t / decaySeconds) * Math.sin(phase);
  }
}

function addNoiseBurst(out: Float32Array, start: number, amp: number, decaySeconds: number, sampleRate: number, next: () => number, highPass: boolean) {
  const len = Math.min(out.length - start, Math.round(decaySeconds * 6 * sampleRate));
  let previous = 0;
  for (let i = 0; i < len; i++) {
    const white = next() * 2 - 1;
    // A first difference tilts white noise towards the top octaves: a hi-hat rather than a hiss.
    const sample = highPass ? (white - previous) / 2 : white;
    previous = white;
    out[start + i] += amp * Math.exp(-i / sampleRate / decaySeconds) * sample;
  }
}

/**
 * A rock beat at `bpm`: kick on beats 1 and 3, snare on 2 and 4, closed hi-hat on every
 * eighth note, over `seconds` of mono audio.
 */
export function drumPattern(opts: { bpm: number; seconds: number; sampleRate?: number; seed?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const rng = createPrng(opts.seed ?? Math.round(opts.bpm * 1000));
  const beat = 60 / opts.bpm;
  for (let n = 0; n * beat < opts.seconds; n++) {
    const at = Math.round(n * beat * sampleRate);
    if (n % 2 === 0) addDecayingSine(out, at, 150, 0.7, 0.12, sampleRate, 50);
    else {
      addNoiseBurst(out, at, 0.35, 0.08, sampleRate, rng.next, false);
      addDecayingSine(out, at, 190, 0.25, 0.06, sampleRate);
    }
    addNoiseBurst(out, at, 0.12, 0.025, sampleRate, rng.next, true);
    const offbeat = Math.round((n + 0.5) * beat * sampleRate);
    if (offbeat < out.length) addNoiseBurst(out, offbeat, 0.08, 0.025, sampleRate, rng.next, true);
  }
  return out;
}

/** Chord tones (semitones above the tonic) for the I–IV–V–I (major) or i–iv–v–i (minor) cadence. */
export const CADENCE = {
  major: [[0, 4, 7], [5, 9, 12], [7, 11, 14], [0, 4, 7]],
  minor: [[0, 3, 7], [5, 8, 12], [7, 10, 14], [0, 3, 7]],
} as const;

/**
 * Sustained chords in a known key: the cadence I–IV–V–I (i–iv–v–i in minor, natural minor's
 * v so every note stays in the key's scale), each chord `chordSeconds` long (default 2) with a
 * bass note an octave below the root, `attackSeconds` attacks and releases (default 50 ms; an
 * ambient pad swells over seconds), and `harmonics` partials per note (default 4, as real
 * instruments have; equal temperament makes the partials of a held chord beat a few times a
 * second, which a tempo estimator can take for a pulse, so a long pad uses pure tones).
 */
export function chordsInKey(opts: { key: string; seconds: number; sampleRate?: number; chordSeconds?: number; attackSeconds?: number; level?: number; harmonics?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const { tonic, mode } = parseKey(opts.key);
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const chordSamples = Math.round((opts.chordSeconds ?? 2) * sampleRate);
  const attack = (opts.attackSeconds ?? 0.05) * sampleRate;
  const level = opts.level ?? 0.08;
  const base = 48 + tonic; // the tonic between C3 and B3: voicings in the middle of the keyboard
  for (let start = 0, c = 0; start < out.length; start += chordSamples, c++) {
    const chord = CADENCE[mode][c % 4];
    const notes = [...chord.map((s) => base + s), base + chord[0] - 12];
    const len = Math.min(chordSamples, out.length - start);
    for (const midi of notes) {
      const hz = midiToHz(midi);
      for (let h = 1; h <= (opts.harmonics ?? 4); h++) {
        const w = (2 * Math.PI * hz * h) / sampleRate;
        const amp = level / h;
        for (let i = 0; i < len; i++) {
          const envelope = Math.min(1, i / attack) * Math.min(1, (len - i) / attack);
          out[start + i] += amp * envelope * Math.sin(w * i);
        }
      }
    }
  }
  return out;
}

/** Mixes signals sample by sample (the result is as long as the longest). */
export function mix(...signals: Float32Array[]): Float32Array {
  const out = new Float32Array(Math.max(...signals.map((s) => s.length)));
  for (const s of signals) for (let i = 0; i < s.length; i++) out[i] += s[i];
  return out;
}
