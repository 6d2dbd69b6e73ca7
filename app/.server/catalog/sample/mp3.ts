import { Mp3Encoder } from "@breezystack/lamejs";

/**
 * MP3 encoding of the sample audio with lamejs, a JavaScript port of LAME (LGPL-3.0, used
 * unmodified as a library: ADR 0090). Pure JavaScript, so the first `npm start` needs nothing
 * beyond `npm ci`. Mono at a low constant bitrate keeps the generated media small.
 */

/** Samples handed to the encoder at a time: a multiple of an MPEG-2 frame (576). */
const CHUNK = 576 * 32;

export function encodeMp3(pcm: Float32Array, sampleRate: number, kbps: number): Buffer {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const parts: Uint8Array[] = [];
  const block = new Int16Array(CHUNK);
  for (let start = 0; start < pcm.length; start += CHUNK) {
    const n = Math.min(CHUNK, pcm.length - start);
    for (let i = 0; i < n; i++) {
      const v = Math.max(-1, Math.min(1, pcm[start + i]));
      block[i] = Math.round(v < 0 ? v * 0x8000 : v * 0x7fff);
    }
    const out = encoder.encodeBuffer(n === CHUNK ? block : block.subarray(0, n));
    if (out.length) parts.push(Uint8Array.from(out));
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(Uint8Array.from(tail));
  return Buffer.concat(parts);
}
