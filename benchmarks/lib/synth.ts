import { createPrng } from "../../app/.server/catalog/sample/prng.ts";
import { CADENCE, midiToHz, parseKey, SYNTH_RATE } from "../../app/.server/catalog/sample/synth.ts";

/**
 * Synthesised audio whose truth is known (no beat, a known key or pitch) for the analysis
 * benchmarks (benchmarks/lib/tempo-set.ts's beatless controls) and the analysis tests (issue #9:
 * accuracy is tested on audio the tests generate). Drums and chords are the sample catalog's
 * own synthesis (app/.server/catalog/sample/synth.ts); these signals are not part of the site.
 * Scripts never import tests/, so what both use lives here (tests/support/synth.ts gathers it).
 */

/** A steady sine at `hz`, with its peak at `dbfs` (0 dBFS = full scale). */
export function tone(opts: { hz: number; seconds: number; dbfs: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const amp = 10 ** (opts.dbfs / 20);
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = amp * Math.sin((2 * Math.PI * opts.hz * i) / sampleRate);
  return out;
}

/**
 * An ambient pad: the cadence of `chordsInKey` (I–IV–V–I or i–iv–v–i, a bass an octave below
 * the root) held `chordSeconds` a chord, each note `partials` harmonics with 1/n amplitudes
 * (a sawtooth-like timbre) in three chorus voices detuned by ±`detuneCents`, random phases.
 * Each chord swells in over `attackSeconds` and dies away over as long after its end, so
 * neighbours overlap (a legato pad). Nothing in it is a beat, yet its partials beat against
 * each other a few times a second and each chord change is a periodic event (ADR 0090).
 */
export function padChords(opts: { key: string; seconds: number; chordSeconds: number; attackSeconds: number; partials?: number; detuneCents?: number; level?: number; sampleRate?: number; seed?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const { tonic, mode } = parseKey(opts.key);
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const rng = createPrng(opts.seed ?? 7);
  const partials = opts.partials ?? 8;
  const detune = opts.detuneCents ?? 8;
  const level = (opts.level ?? 0.05) / 3;
  const chordSamples = Math.round(opts.chordSeconds * sampleRate);
  const ramp = Math.max(1, Math.round(opts.attackSeconds * sampleRate));
  const base = 48 + tonic;
  for (let start = 0, c = 0; start < out.length; start += chordSamples, c++) {
    const chord = CADENCE[mode][c % 4];
    const notes = [...chord.map((s) => base + s), base + chord[0] - 12];
    // the chord sounds from its start until its release has ended, one chord length later plus the ramp
    const len = Math.min(chordSamples + ramp, out.length - start);
    const env = new Float32Array(len);
    for (let i = 0; i < len; i++) {
      const rise = Math.min(1, i / ramp);
      const fall = i < chordSamples ? 1 : 1 - (i - chordSamples) / ramp;
      // raised-cosine ramps: the smooth swell of a pad's envelope
      env[i] = (0.5 - 0.5 * Math.cos(Math.PI * rise)) * (0.5 - 0.5 * Math.cos(Math.PI * fall));
    }
    for (const midi of notes) {
      for (const cents of [-detune, 0, detune]) {
        const hz = midiToHz(midi) * 2 ** (cents / 1200);
        for (let h = 1; h <= partials && hz * h < sampleRate / 2; h++) {
          const w = (2 * Math.PI * hz * h) / sampleRate;
          const phase = rng.next() * 2 * Math.PI;
          const amp = level / h;
          for (let i = 0; i < len; i++) out[start + i] += amp * env[i] * Math.sin(w * i + phase);
        }
      }
    }
  }
  return out;
}

/**
 * A texture of filtered noise (wind, surf, a room): white noise through a two-pole resonant
 * band-pass at `centerHz` (bandwidth about a third of it), its level swelling and fading with
 * a `modulationHz` sine between 20 % and 100 %.
 */
export function noiseTexture(opts: { seconds: number; centerHz: number; modulationHz: number; level?: number; sampleRate?: number; seed?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const rng = createPrng(opts.seed ?? 11);
  // RBJ cookbook band-pass (0 dB peak), Q = 3
  const w0 = (2 * Math.PI * opts.centerHz) / sampleRate;
  const alpha = Math.sin(w0) / (2 * 3);
  const a0 = 1 + alpha;
  const b0 = alpha / a0;
  const a1 = (-2 * Math.cos(w0)) / a0;
  const a2 = (1 - alpha) / a0;
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  const level = opts.level ?? 0.5;
  for (let i = 0; i < out.length; i++) {
    const x = rng.next() * 2 - 1;
    const y = b0 * x - b0 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    const am = 0.6 - 0.4 * Math.cos((2 * Math.PI * opts.modulationHz * i) / sampleRate);
    out[i] = level * am * y;
  }
  return out;
}

/**
 * A drone: one note of `partials` harmonics (1/n amplitudes) held throughout, its pitch
 * wavering by ±`vibratoCents` at `vibratoHz`.
 */
export function drone(opts: { hz: number; seconds: number; vibratoHz: number; vibratoCents: number; partials?: number; level?: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SYNTH_RATE;
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const partials = opts.partials ?? 8;
  const level = opts.level ?? 0.15;
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const hz = opts.hz * 2 ** ((opts.vibratoCents / 1200) * Math.sin((2 * Math.PI * opts.vibratoHz * i) / sampleRate));
    phase += (2 * Math.PI * hz) / sampleRate;
    let v = 0;
    for (let h = 1; h <= partials; h++) v += Math.sin(h * phase) / h;
    out[i] = level * v * Math.min(1, i / (0.5 * sampleRate));
  }
  return out;
}
