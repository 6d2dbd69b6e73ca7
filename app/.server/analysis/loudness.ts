import fs from "node:fs";
import { createRequire } from "node:module";

/**
 * Integrated loudness (EBU R128 / ITU-R BS.1770) by `ebur128-wasm`, the Rust `ebur128` crate
 * compiled to WebAssembly (ADR 0090). Its JavaScript glue takes whole Float32Arrays and
 * copies them into the module's memory, which never shrinks: a worker that once measured a
 * 20-minute track would keep that memory for good, and the copy doubles the peak. So this
 * meter writes the decoded samples straight into a fresh instance's memory as they arrive and
 * drops the instance after the measurement; the PCM held for loudness is at most one copy of
 * the track's first two channels (the analysis' maxSeconds bounds it).
 */

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
export class LoudnessMeter {
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
