import fs from "node:fs";
import path from "node:path";

/**
 * A worker thread's module, as a .ts file Node loads by path (type stripping): found from
 * `from` upwards as `<dir>/<relative>`. From source `from` is the caller's own folder; in the
 * Vite SSR bundle it is build/server/, and the project's app/ folder is beside build/ (the
 * bundle does not contain worker modules). Used by the analysis pool and the sample audio.
 */
export function sourceWorkerFile(relative: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`worker module not found above ${from} (${relative})`);
  }
}
