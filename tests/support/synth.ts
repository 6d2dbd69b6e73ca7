import { addDecayingSine, CADENCE, midiToHz, parseKey, SYNTH_RATE } from "../../app/.server/catalog/sample/synth.ts";
import { createPrng } from "../../app/.server/catalog/sample/prng.ts";

/**
 * Synthesised test audio for the analysis engine (issue #9: accuracy is tested on audio the
 * tests generate, so the truth (tempo, key, length, level) is known exactly), in one place:
 * drums and chords from the sample catalog's synthesis (app/.server/catalog/sample/synth.ts),
 * the beatless signals and the encoders the benchmarks share (benchmarks/lib/), and what only
 * the tests use.
 */

export { chordsInKey, drumPattern, mix, PITCH_CLASSES } from "../../app/.server/catalog/sample/synth.ts";
export { drone, noiseTexture, padChords, tone } from "../../benchmarks/lib/synth.ts";
export { encodeWav, encodeWithFfmpeg, type EncodedFormat } from "../../benchmarks/lib/encode-audio.ts";

/**
 * A beat with no drums (issue #20: ragtime, a stride or "oom-pah" accompaniment): plucked notes
 * of four harmonics decaying over `decaySeconds`, the chord's root low on beats 1 and 3 and
 * the chord on 2 and 4, the cadence of `chordsInKey` a bar each.
 */
export function pluckedOomPah(opts: { bpm: number; seconds: number; key: string; decaySeconds?: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const { tonic, mode } = parseKey(opts.key);
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const beat = (60 / opts.bpm) * sampleRate;
  const decay = opts.decaySeconds ?? 0.4;
  const pluck = (start: number, midi: number, amp: number) => {
    for (let h = 1; h <= 4 && midiToHz(midi) * h < sampleRate / 2; h++) addDecayingSine(out, start, midiToHz(midi) * h, amp / h, decay / h, sampleRate);
  };
  for (let b = 0; Math.round(b * beat) < out.length; b++) {
    const chord = CADENCE[mode][Math.floor(b / 4) % 4];
    const start = Math.round(b * beat);
    if (b % 2 === 0) pluck(start, 36 + tonic + chord[0], 0.3);
    else for (const s of chord) pluck(start, 60 + tonic + s, 0.12);
  }
  return out;
}

/**
 * A drum loop written as a bar of sixteen sixteenths at `bpm` (issue #43): the sixteenths where
 * the kick, the snare and the closed hi-hat strike, the hat at `hatLevel` (the snare is 0.35).
 * A rock backbeat is kicks [0, 8], snares [4, 12], hats [0, 2, …, 14]; drum and bass's two-step
 * kicks [0, 10], snares [4, 12].
 */
export function drumLoop(opts: { bpm: number; seconds: number; kicks: number[]; snares: number[]; hats: number[]; hatLevel?: number; sampleRate?: number; seed?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const rng = createPrng(opts.seed ?? Math.round(opts.bpm * 977));
  const sixteenth = 15 / opts.bpm;
  const noise = (start: number, amp: number, decay: number, highPass: boolean) => {
    const len = Math.min(out.length - start, Math.round(decay * 6 * sampleRate));
    let previous = 0;
    for (let i = 0; i < len; i++) {
      const white = rng.next() * 2 - 1;
      out[start + i] += amp * Math.exp(-i / sampleRate / decay) * (highPass ? (white - previous) / 2 : white);
      previous = white;
    }
  };
  for (let n = 0; n * sixteenth < opts.seconds; n++) {
    const at = Math.round(n * sixteenth * sampleRate);
    const place = n % 16;
    if (opts.kicks.includes(place)) addDecayingSine(out, at, 150, 0.7, 0.12, sampleRate, 50);
    if (opts.snares.includes(place)) {
      noise(at, 0.35, 0.08, false);
      addDecayingSine(out, at, 190, 0.25, 0.06, sampleRate);
    }
    if (opts.hats.includes(place)) noise(at, opts.hatLevel ?? 0.12, 0.025, true);
  }
  return out;
}
