import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { drumLoop, pluckedOomPah } from "../../../tests/support/synth.ts";
import { LoudnessMeter } from "./loudness.ts";

// ADR 0154: the integrated loudness is measured here as the audio streams in, no longer by
// ebur128-wasm (the Rust ebur128 crate, ADR 0090), which cost a fifth of a track's analysis and
// held the whole track in its memory. The crate stays the oracle: the same signals, pushed in
// the same blocks, measured by both, must agree within 0.001 LU (the site rounds to 0.1).

interface Exports {
  memory: WebAssembly.Memory;
  ebur128_integrated_mono(rate: number, ptr: number, len: number): number;
  ebur128_integrated_stereo(rate: number, ptrL: number, lenL: number, ptrR: number, lenR: number): number;
  __wbindgen_malloc(size: number): number;
  __wbindgen_realloc(ptr: number, oldSize: number, newSize: number): number;
}

let compiled: WebAssembly.Module | undefined;
function wasmModule(): WebAssembly.Module {
  // The package has no exports map, so its .wasm resolves as a plain file path.
  compiled ??= new WebAssembly.Module(fs.readFileSync(createRequire(import.meta.url).resolve("ebur128-wasm/ebur128_wasm_bg.wasm")));
  return compiled;
}

function instantiate(): Exports {
  // The module imports only wasm-bindgen's panic hooks; a panic becomes a thrown error.
  const panic = () => {
    throw new Error("ebur128 panicked");
  };
  const imports = Object.fromEntries(WebAssembly.Module.imports(wasmModule()).map((i) => [i.name, panic]));
  return new WebAssembly.Instance(wasmModule(), { "./ebur128_wasm_bg.js": imports }).exports as unknown as Exports;
}

/** Collects up to two channels of PCM inside the WebAssembly memory, then measures them once. */
class Ebur128Wasm {
  private readonly wasm = instantiate();
  private readonly sampleRate: number;
  private readonly channels: 1 | 2;
  private readonly ptrs: number[];
  private capacity: number;
  private length = 0;

  constructor(sampleRate: number, channels: 1 | 2, expectedFrames: number) {
    this.sampleRate = sampleRate;
    this.channels = channels;
    this.capacity = Math.max(sampleRate, Math.ceil(expectedFrames));
    this.ptrs = Array.from({ length: channels }, () => this.wasm.__wbindgen_malloc(this.capacity * 4));
  }

  /** Appends decoded frames; extra channels beyond the first two are not measured. */
  push(channelData: Float32Array[]): void {
    const frames = channelData[0].length;
    if (this.length + frames > this.capacity) this.grow(Math.max(this.length + frames, Math.ceil(this.capacity * 1.5)));
    for (let c = 0; c < this.channels; c++) {
      // Re-viewed each time: growing the memory detaches earlier views of it.
      new Float32Array(this.wasm.memory.buffer, this.ptrs[c], this.capacity).set(channelData[Math.min(c, channelData.length - 1)], this.length);
    }
    this.length += frames;
  }

  /** Integrated loudness in LUFS, or null for silence (below the R128 absolute gate). */
  integrated(): number | null {
    if (this.length === 0) return null;
    // The crate takes ownership of exactly `length` samples, so trim the allocations to it.
    this.grow(this.length);
    const [l, r] = this.ptrs;
    const lufs =
      this.channels === 2
        ? this.wasm.ebur128_integrated_stereo(this.sampleRate, l, this.length, r, this.length)
        : this.wasm.ebur128_integrated_mono(this.sampleRate, l, this.length);
    return Number.isFinite(lufs) ? lufs : null;
  }

  private grow(frames: number) {
    for (let c = 0; c < this.ptrs.length; c++) this.ptrs[c] = this.wasm.__wbindgen_realloc(this.ptrs[c], this.capacity * 4, frames * 4);
    this.capacity = frames;
  }
}


/** Both meters over the same channels, pushed in blocks of `block` frames. */
function measure(channels: Float32Array[], rate: number, block = 1152) {
  const n = channels.length > 1 ? 2 : 1;
  const ours = new LoudnessMeter(rate, n);
  const crate = new Ebur128Wasm(rate, n, channels[0].length);
  for (let at = 0; at < channels[0].length; at += block) {
    const part = channels.map((c) => c.subarray(at, at + block));
    ours.push(part);
    crate.push(part);
  }
  return { ours: ours.integrated(), crate: crate.integrated() };
}

function noise(length: number, level: number, seed = 1): Float32Array {
  let s = seed;
  return Float32Array.from({ length }, () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2 * level);
}

describe("LoudnessMeter (BS.1770-4 integrated loudness)", () => {
  it("agrees with the ebur128 crate on music, noise, gated quiet passages, mono and 48 kHz", () => {
    const rate = 44_100;
    const drums = drumLoop({ bpm: 97, seconds: 20, kicks: [0, 2], snares: [1, 3], hats: [0, 1, 2, 3], sampleRate: rate });
    const chords = pluckedOomPah({ bpm: 97, seconds: 20, key: "A minor", sampleRate: rate });
    const left = Float32Array.from(drums, (v, i) => 0.6 * v + 0.3 * (chords[i] ?? 0));
    const right = Float32Array.from(drums, (v, i) => 0.3 * v + 0.6 * (chords[i] ?? 0));
    // loud, then a passage far below the relative gate, then loud again
    const gated = Float32Array.from({ length: rate * 12 }, (_, i) => (i < rate * 4 || i >= rate * 8 ? 0.5 : 0.001) * Math.sin((2 * Math.PI * 440 * i) / rate));
    const cases: [string, Float32Array[], number][] = [
      ["stereo music", [left, right], rate],
      ["mono music", [left], rate],
      ["white noise at 48 kHz", [noise(48_000 * 6, 0.3), noise(48_000 * 6, 0.3, 9)], 48_000],
      ["a quiet passage under the relative gate", [gated], rate],
      ["a low tone (the RLB high-pass)", [Float32Array.from({ length: rate * 5 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 40 * i) / rate))], rate],
    ];
    for (const [name, channels, r] of cases) {
      const { ours, crate } = measure(channels, r);
      expect(crate, name).not.toBeNull();
      expect(Math.abs(ours! - crate!), `${name}: ${ours} vs ${crate}`).toBeLessThan(0.001);
    }
  });

  it("names silence and sound under −70 LUFS as no loudness, as the crate does", () => {
    for (const channels of [[new Float32Array(44_100 * 3)], [noise(44_100 * 3, 1e-5)]]) {
      const { ours, crate } = measure(channels, 44_100);
      expect([ours, crate]).toEqual([null, null]);
    }
  });

  it("gives the same figure whatever the size of the blocks pushed", () => {
    const channels = [noise(44_100 * 5, 0.2), noise(44_100 * 5, 0.1, 3)];
    const once = measure(channels, 44_100, 44_100 * 5).ours!;
    for (const block of [1, 1000, 4410, 4411]) expect(Math.abs(measure(channels, 44_100, block).ours! - once)).toBeLessThan(1e-9);
  });
});
