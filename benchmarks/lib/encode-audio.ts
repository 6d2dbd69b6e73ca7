import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SYNTH_RATE } from "../../app/.server/catalog/sample/synth.ts";

/**
 * Audio files from synthesised signals, for the analysis benchmarks and tests: a WAV written
 * here, the compressed formats by Debian's ffmpeg. The site itself never encodes these (the
 * sample catalog encodes its MP3s with lamejs, app/.server/catalog/sample/mp3.ts).
 */

/** A 16-bit PCM WAV file of the given channels (all the same length). */
export function encodeWav(channels: Float32Array[], sampleRate = SYNTH_RATE): Uint8Array {
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
