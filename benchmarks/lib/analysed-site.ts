import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { samplePaths, writeSampleSources } from "../../app/.server/catalog/sample/ensure.ts";
import { DEFAULT_SEED } from "../../app/.server/catalog/sample/generate.ts";
import { seedAnalysis } from "./bench-tracks.ts";
import { startSite, type RunningSite } from "./site-process.ts";

/**
 * The built site as the long-tail benchmarks measure it (issue #18): the sample catalog
 * (`albums` 300) or a generated one, **with analysis results behind it**. Without them a tempo
 * or length range matches nothing, the tempo sorts sort unmeasured tracks, item pages lack
 * their tracks' figures and every `like=` view is the "still being analysed" page, so a
 * benchmark would measure lighter pages than a visitor gets.
 * - the sample: its shipped results, stored at start by the analysis stage (nothing is left
 *   for it to analyse);
 * - a generated catalog: synthetic results with fingerprints (bench-tracks.ts), written before
 *   the start; the analysis worker stays off.
 * Returns once the track view filters by tempo (the track index has read the figures).
 */
export interface AnalysedSite {
  site: RunningSite;
  /** the albums' JSON the catalog was read from (for the generators' vocabulary) */
  albumsFile: string;
  /** stops the site and removes what was generated */
  stop(): Promise<void>;
}

export async function startAnalysedSite(albums: number, env: Record<string, string>, opts: { nodeArgs?: string[] } = {}): Promise<AnalysedSite> {
  let sampleDir: string | undefined;
  let dataDir: string | undefined;
  env = { ...env };
  if (albums !== 300) {
    sampleDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-site-"));
    await writeSampleSources(sampleDir, { albums, seed: DEFAULT_SEED, force: true, distinctAudio: true });
    env.ALBUMS_URL = path.join(sampleDir, "merged.json");
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-site-data-"));
    seedAnalysis(dataDir, albums, DEFAULT_SEED, { fingerprints: true });
  } else env.ANALYSIS_WORKER = "true";
  const cleanup = () => {
    for (const dir of [sampleDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  let site: RunningSite;
  try {
    site = await startSite({ env, dataDir, timeoutMs: 600_000, nodeArgs: opts.nodeArgs });
  } catch (error) {
    cleanup();
    throw error;
  }
  const stop = async () => {
    await site.stop();
    cleanup();
  };
  try {
    await analysisShown(site.base);
  } catch (error) {
    await stop();
    throw error;
  }
  return { site, albumsFile: sampleDir ? path.join(sampleDir, "merged.json") : samplePaths(site.dataDir).albums, stop };
}

/** Waits until the track view filters by tempo (the track index has read the analysis figures). */
async function analysisShown(base: string) {
  const deadline = Date.now() + 600_000;
  for (;;) {
    // a row of the track view (its HTML: `data-track-id`) within a tempo range
    const body = await (await fetch(`${base}/catalog?type=music&view=tracks&bpm=60-200`)).text();
    if (body.includes("data-track-id=")) return;
    if (Date.now() > deadline) throw new Error("the track view never showed analysis figures");
    await new Promise((r) => setTimeout(r, 500));
  }
}
