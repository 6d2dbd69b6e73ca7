import fs from "node:fs";
import path from "node:path";
import type { Album } from "../../app/lib/catalog/types.ts";
import { AlbumTable } from "../../app/.server/catalog/album-table.ts";
import type { CatalogChangeEvent, CatalogData } from "../../app/.server/catalog/service.ts";
import { createAnalysisPool, type AnalysisPool } from "../../app/.server/analysis/pool.ts";
import { drumPattern, encodeWav } from "./synth.ts";
import type { Analyzer } from "../../app/.server/analysis/stage/analyzer.ts";

// Helpers of the analysis-stage tests (tests/integration/analysis-*.test.ts, ADR 0091).

/** A short beat as a WAV in `mediaDir` (22.05 kHz: small files, fast analyses). */
export function writeBeat(mediaDir: string, key: string, opts: { bpm?: number; seconds?: number } = {}): string {
  const file = path.join(mediaDir, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, encodeWav([drumPattern({ bpm: opts.bpm ?? 120, seconds: opts.seconds ?? 4, sampleRate: 22_050 })], 22_050));
  return file;
}

/** The real worker pool, with a record of every input it was asked to analyse. */
export function countingPool(concurrency = 1): AnalysisPool & { inputs: string[] } {
  const pool = createAnalysisPool({ concurrency, maxQueue: concurrency });
  const inputs: string[] = [];
  return {
    inputs,
    get pending() {
      return pool.pending;
    },
    analyze(input) {
      inputs.push(typeof input === "string" ? path.basename(input) : "<bytes>");
      return pool.analyze(input);
    },
    close: () => pool.close(),
  };
}

/** The catalog data a stage run gets: one album per list of audio keys (the stage reads only the albums). */
export function catalogWith(...albums: string[][]): CatalogData {
  const list: Album[] = albums.map((keys, i) => ({
    id: `album-${i}`,
    name: `Album ${i}`,
    artist: "A",
    genre: "Jazz",
    artwork: "",
    keywords: ["jazz"],
    featured: false,
    tracks: keys.map((s3Path) => ({ s3Path, Filename: s3Path })),
  }));
  return { albums: AlbumTable.fromAlbums(list), films: [], channels: [], singles: [], genres: [] };
}

const change: CatalogChangeEvent = { version: 1, sources: ["albums"], cause: "sync" };

/** One walk of the stage, then the drain until nothing is due. */
export async function walkAndDrain(analyzer: Analyzer, data: CatalogData): Promise<void> {
  await analyzer.stage.run(data, change, new AbortController().signal);
  await analyzer.idle();
}
