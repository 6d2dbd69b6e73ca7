/**
 * Growable typed columns for the track table (issue #10): the table is filled one album at a
 * time without knowing the track count in advance, and a `number[]` of 2.5 million entries
 * would cost twice the bytes of the Int32Array it becomes, for the length of a rebuild.
 */
export class Int32Column {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** The filled part, copied to its exact length (the spare capacity is released). */
  finish(): Int32Array {
    const out = this.data.slice(0, this.length);
    this.data = new Int32Array(16);
    return out;
  }
}

/**
 * A 64-bit hash of a string as two 32-bit halves (cyrb53's mixing, both lanes kept). The track
 * table keeps it instead of the audio key: 8 bytes a track, where the keys themselves were
 * about 80 bytes each at 2.5 million distinct keys (ADR 0100). Two different keys share a
 * hash with a chance of about n²/2⁶⁵ (10⁻⁷ at 2.5 million).
 */
export function hash64(s: string, out: Uint32Array, at: number): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  out[at] = h1 >>> 0;
  out[at + 1] = h2 >>> 0;
}
