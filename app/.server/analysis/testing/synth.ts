import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrng } from "../../catalog/sample/prng.ts";

/**
 * Synthesised test audio for the analysis engine (issue #9: accuracy is tested on audio the
 * tests generate, so the truth — tempo, key, length, level — is known exactly). Everything is
 * deterministic: noise comes from the sample catalog's seeded PRNG, never Math.random().
 */

export const SAMPLE_RATE = 44_100;

/** Pitch classes with sharps, as the analyser names keys ("C# minor", "F# major"). */
export const PITCH_CLASSES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"] as const;

const midiToHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

function addDecayingSine(out: Float32Array, start: number, hz: number, amp: number, decaySeconds: number, sampleRate: number, sweepTo?: number) {
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
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
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

/** A steady sine at `hz`, with its peak at `dbfs` (0 dBFS = full scale). */
export function tone(opts: { hz: number; seconds: number; dbfs: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
  const amp = 10 ** (opts.dbfs / 20);
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  for (let i = 0; i < out.length; i++) out[i] = amp * Math.sin((2 * Math.PI * opts.hz * i) / sampleRate);
  return out;
}

/** Chord tones (semitones above the tonic) for the I–IV–V–I (major) or i–iv–v–i (minor) cadence. */
const CADENCE = {
  major: [[0, 4, 7], [5, 9, 12], [7, 11, 14], [0, 4, 7]],
  minor: [[0, 3, 7], [5, 8, 12], [7, 10, 14], [0, 3, 7]],
} as const;

/**
 * Sustained chords in a known key: the cadence I–IV–V–I (i–iv–v–i in minor, natural minor's
 * v so every note stays in the key's scale), each chord two seconds long with a bass note an
 * octave below the root, soft attacks, and a few harmonics per note as real instruments have.
 */
export function chordsInKey(opts: { key: string; seconds: number; sampleRate?: number }): Float32Array {
  const sampleRate = opts.sampleRate ?? SAMPLE_RATE;
  const [tonicName, mode] = opts.key.split(" ") as [string, "major" | "minor"];
  const tonic = PITCH_CLASSES.indexOf(tonicName as (typeof PITCH_CLASSES)[number]);
  if (tonic < 0 || !(mode in CADENCE)) throw new Error(`unknown key "${opts.key}"`);
  const out = new Float32Array(Math.round(opts.seconds * sampleRate));
  const chordSamples = 2 * sampleRate;
  const base = 48 + tonic; // the tonic between C3 and B3: voicings in the middle of the keyboard
  for (let start = 0, c = 0; start < out.length; start += chordSamples, c++) {
    const chord = CADENCE[mode][c % 4];
    const notes = [...chord.map((s) => base + s), base + chord[0] - 12];
    const len = Math.min(chordSamples, out.length - start);
    for (const midi of notes) {
      const hz = midiToHz(midi);
      for (let h = 1; h <= 4; h++) {
        const w = (2 * Math.PI * hz * h) / sampleRate;
        const amp = 0.08 / h;
        for (let i = 0; i < len; i++) {
          const envelope = Math.min(1, i / (0.05 * sampleRate)) * Math.min(1, (len - i) / (0.05 * sampleRate));
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
