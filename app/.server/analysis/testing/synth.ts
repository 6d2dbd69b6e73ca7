import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrng } from "../../catalog/sample/prng.ts";
import { addDecayingSine, CADENCE, midiToHz, parseKey, SYNTH_RATE } from "../../catalog/sample/synth.ts";

/**
 * Synthesised test audio for the analysis engine (issue #9: accuracy is tested on audio the
 * tests generate, so the truth — tempo, key, length, level — is known exactly). Drums and
 * chords come from the sample catalog's synthesis (app/.server/catalog/sample/synth.ts), which
 * the out-of-the-box catalog's tracks are made of too; tones, WAV and the ffmpeg encodings are
 * the tests' own.
 */

export { chordsInKey, drumPattern, mix, PITCH_CLASSES } from "../../catalog/sample/synth.ts";
export const SAMPLE_RATE = SYNTH_RATE;

/** A steady sine at `hz`, with its peak at `dbfs` (0 dBFS = full scale). */
export function tone(opts: { hz: number; seconds: number; dbfs: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
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
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
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
 * A beat with no drums (issue #20: ragtime, a stride or "oom-pah" accompaniment): plucked notes
 * of four harmonics decaying over `decaySeconds`, the chord's root low on beats 1 and 3 and
 * the chord on 2 and 4, the cadence of `chordsInKey` a bar each.
 */
export function pluckedOomPah(opts: { bpm: number; seconds: number; key: string; decaySeconds?: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
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
 * A texture of filtered noise (wind, surf, a room): white noise through a two-pole resonant
 * band-pass at `centerHz` (bandwidth about a third of it), its level swelling and fading with
 * a `modulationHz` sine between 20 % and 100 %.
 */
export function noiseTexture(opts: { seconds: number; centerHz: number; modulationHz: number; level?: number; sampleRate?: number; seed?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
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
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
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

/** A 16-bit PCM WAV file of the given channels (all the same length). */
export function encodeWav(channels: Float32Array[], sampleRate = SAMPLE_RATE): Uint8Array {
  const frames = channels[0].length;
  const blockAlign = channels.length * 2;
  const buf = Buffer.alloc(44 + frames * blockAlign);
  buf.write("RIFF", 0, "ascii");
  buf.writeUInt32LE(36 + frames * blockAlign, 4);
  buf.write("WAVEfmt ", 8, "ascii");
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(channels.length, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * blockAlign, 28);
  buf.writeUInt16LE(blockAlign, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36, "ascii");
  buf.writeUInt32LE(frames * blockAlign, 40);
  let offset = 44;
  for (let i = 0; i < frames; i++) {
    for (const ch of channels) {
      const v = Math.max(-1, Math.min(1, ch[i]));
      buf.writeInt16LE(Math.round(v < 0 ? v * 0x8000 : v * 0x7fff), offset);
      offset += 2;
    }
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

const FFMPEG_ARGS = {
  mp3: ["-c:a", "libmp3lame", "-b:a", "192k", "-f", "mp3"],
  flac: ["-c:a", "flac", "-f", "flac"],
  opus: ["-c:a", "libopus", "-b:a", "96k", "-f", "ogg"],
  m4a: ["-c:a", "aac", "-b:a", "160k", "-f", "ipod"],
  aiff: ["-c:a", "pcm_s16be", "-f", "aiff"],
} as const;
export type EncodedFormat = keyof typeof FFMPEG_ARGS;

/**
 * Encodes a WAV with Debian's ffmpeg (installed by .ci/run; README "Test it"). Only the tests
 * and bench:analysis encode: the site itself decodes with npm packages (ADR 0090). Missing
 * ffmpeg is an error with the fix in it, never a silent skip.
 */
export function encodeWithFfmpeg(wav: Uint8Array, format: EncodedFormat): Uint8Array {
  // MP4 (M4A) output needs a seekable file for its index, so every format goes through a
  // temporary file rather than a pipe.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-synth-"));
  const out = path.join(dir, `out.${format}`);
  try {
    const args = ["-hide_banner", "-loglevel", "error", "-f", "wav", "-i", "pipe:0", ...FFMPEG_ARGS[format], "-y", out];
    const result = spawnSync("ffmpeg", args, { input: wav });
    if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
      throw new Error("ffmpeg is not installed: the analysis tests and bench:analysis encode their fixtures with it (apt-get install ffmpeg; .ci/run does this)");
    }
    if (result.status !== 0) throw new Error(`ffmpeg failed to encode ${format}: ${result.stderr?.toString()}`);
    return new Uint8Array(fs.readFileSync(out));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
