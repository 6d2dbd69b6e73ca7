import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";

/**
 * A worker thread's module, as a .ts file Node loads by path (type stripping): found from
 * `from` upwards as `<dir>/<relative>`. From source `from` is the caller's own folder; in the
 * Vite SSR bundle it is build/server/, and the project's app/ folder is beside build/ (the
 * bundle does not contain worker modules). Used by the analysis pool and the sample audio.
 * Every worker's module path comes through here, so it is where the process is made safe for
 * worker threads first (keepWasmImportWrappersUntiered, ADR 0139).
 */
export function sourceWorkerFile(relative: string, from: string): string {
  keepWasmImportWrappersUntiered();
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`worker module not found above ${from} (${relative})`);
  }
}

let untiered = false;
/**
 * Node loads a worker's .ts modules through its type stripper, a WebAssembly build of SWC
 * (amaro), in every worker thread; V8 shares that compiled module between the threads. V8 13.6
 * (Node 24.21) crashed the process (SIGSEGV) now and then when a worker thread's call from that
 * WebAssembly into JavaScript reached its tier-up budget (a core dump of the vitest fork running
 * track-index.test.ts, 1 run in ~20: `Runtime_TierUpWasmToJSWrapper` → `WasmEngine::FreeDeadCode`
 * → `NativeModule::FreeCode` on a freed module, while other threads came and went; ADR 0139).
 * The budget made unreachable, the wrappers are never tiered up: that path is never taken. The
 * cost is the generic wrapper's calls while a worker's modules load (milliseconds). Set once,
 * before the first worker starts (V8's flags are the process's; a worker cannot have its own).
 */
function keepWasmImportWrappersUntiered(): void {
  if (untiered) return;
  untiered = true;
  v8.setFlagsFromString(`--wasm-wrapper-tiering-budget=${2 ** 31 - 1}`);
}
