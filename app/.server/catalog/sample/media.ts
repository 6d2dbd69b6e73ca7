import sharp from "sharp";
import { createPrng } from "./prng.ts";

/**
 * Sample media, synthesised at run time so nothing large lives in git: abstract gradient
 * artwork (SVG rendered by sharp) and short audio clips. Clips last 12 s — longer than the
 * 10-second preview (spec §9), so the automatic stop can be seen and tested.
 */

type Shape = "portrait" | "landscape" | "square";
const SIZES: Record<Shape, [number, number]> = { square: [600, 600], portrait: [400, 600], landscape: [800, 450] };

export function artworkSvg(seed: number, shape: Shape = "square"): string {
  const r = createPrng(seed * 7919 + 17);
  const [w, h] = SIZES[shape];
  const hue = Math.floor(r.next() * 360);
  const hue2 = (hue + 40 + Math.floor(r.next() * 140)) % 360;
  const circles = Array.from({ length: 5 }, () => {
    const cx = Math.floor(r.next() * w);
    const cy = Math.floor(r.next() * h);
    const rad = Math.floor((0.12 + r.next() * 0.35) * Math.min(w, h));
    const hh = (hue + Math.floor(r.next() * 120)) % 360;
    return `<circle cx="${cx}" cy="${cy}" r="${rad}" fill="hsl(${hh},70%,${45 + Math.floor(r.next() * 25)}%)" fill-opacity="${(0.25 + r.next() * 0.4).toFixed(2)}"/>`;
  }).join("");
  const lines = Array.from({ length: 6 }, (_, i) => {
    const y = Math.floor(((i + 1) / 7) * h);
    return `<path d="M0 ${y} Q ${w / 2} ${y - 60 + Math.floor(r.next() * 120)} ${w} ${y}" stroke="white" stroke-opacity="0.12" stroke-width="3" fill="none"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="hsl(${hue},65%,28%)"/><stop offset="1" stop-color="hsl(${hue2},70%,18%)"/>
</linearGradient><radialGradient id="v" cx="0.5" cy="0.4" r="0.8"><stop offset="0.6" stop-color="black" stop-opacity="0"/><stop offset="1" stop-color="black" stop-opacity="0.45"/></radialGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${circles}${lines}<rect width="${w}" height="${h}" fill="url(#v)"/></svg>`;
}

/** A WebP image of the given artwork. */
export function renderArtwork(seed: number, shape: Shape = "square"): Promise<Buffer> {
  return sharp(Buffer.from(artworkSvg(seed, shape))).webp({ quality: 78 }).toBuffer();
}

const SAMPLE_RATE = 8000;
export const CLIP_SECONDS = 12;

// Pleasant four-chord progressions (frequencies of the chord tones, in Hz).
const PROGRESSIONS: number[][][] = [
  [[261.63, 329.63, 392.0], [220.0, 261.63, 329.63], [174.61, 220.0, 261.63], [196.0, 246.94, 293.66]],
  [[293.66, 369.99, 440.0], [246.94, 293.66, 369.99], [196.0, 246.94, 293.66], [220.0, 277.18, 329.63]],
  [[220.0, 261.63, 329.63], [174.61, 220.0, 261.63], [261.63, 329.63, 392.0], [196.0, 246.94, 293.66]],
  [[329.63, 415.3, 493.88], [277.18, 329.63, 415.3], [220.0, 277.18, 329.63], [246.94, 311.13, 369.99]],
];

/**
 * A 12-second mono WAV (8 kHz, 8-bit PCM, ~96 KB): an arpeggio over a chord progression with a
 * soft pad underneath. Each clip differs by progression, tempo and pattern.
 */
export function renderClip(index: number): Buffer {
  const samples = SAMPLE_RATE * CLIP_SECONDS;
  const r = createPrng(index * 104_729 + 3);
  const progression = PROGRESSIONS[index % PROGRESSIONS.length];
  const noteSeconds = [0.25, 0.2, 0.3, 0.1875][Math.floor(index / PROGRESSIONS.length) % 4];
  const pattern = [[0, 1, 2, 1], [0, 2, 1, 2], [0, 1, 2, 0], [2, 1, 0, 1]][r.int(0, 3)];
  const barSeconds = CLIP_SECONDS / 8;
  const data = Buffer.alloc(samples);
  for (let n = 0; n < samples; n++) {
    const t = n / SAMPLE_RATE;
    const chord = progression[Math.floor(t / barSeconds) % progression.length];
    const step = Math.floor(t / noteSeconds);
    const noteT = t - step * noteSeconds;
    const octave = step % 8 >= 4 ? 2 : 1;
    const freq = chord[pattern[step % pattern.length]] * octave;
    const pluck = Math.exp(-noteT * 9) * (Math.sin(2 * Math.PI * freq * t) + 0.3 * Math.sin(4 * Math.PI * freq * t));
    const pad = chord.reduce((s, f) => s + Math.sin(Math.PI * f * t), 0) / chord.length;
    // fade in and out so the clip never clicks
    const fade = Math.min(1, t / 0.05, (CLIP_SECONDS - t) / 0.5);
    const v = fade * (0.55 * pluck + 0.22 * pad);
    data[n] = Math.max(0, Math.min(255, Math.round(128 + 100 * v)));
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16); // PCM chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
