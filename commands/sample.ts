// `npm run sample -- [--albums N] [--out DIR] [--seed N] [--media] [--force] [--vocabulary]`
// Writes a deterministic sample catalog (merged.json, channels.json, films.json,
// music-api.json) into DIR (default: $DATA_DIR/catalog/sample, where the server looks by
// default). Big catalogs for benchmarks: `npm run sample -- --albums 250000 --out /tmp/big`,
// then start the server with ALBUMS_URL=/tmp/big/merged.json.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../app/.server/services.ts";
import { DEFAULT_SEED, sampleAlbums } from "../app/.server/catalog/sample/generate.ts";
import { formatVocabulary, VocabularyCounter } from "./lib/vocabulary.ts";
import { DEFAULT_SAMPLE_ALBUMS, samplePaths, writeSampleMedia, writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";

const { values } = parseArgs({
  options: {
    albums: { type: "string" },
    out: { type: "string" },
    seed: { type: "string" },
    media: { type: "boolean", default: false },
    force: { type: "boolean", default: false },
    vocabulary: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (values.help) {
  console.log("usage: npm run sample -- [--albums N] [--out DIR] [--seed N] [--media] [--force] [--vocabulary]");
  process.exit(0);
}

const int = (name: string, value: string | undefined, fallback: number) => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer, got "${value}"`);
    process.exit(2);
  }
  return n;
};

const albums = int("albums", values.albums, DEFAULT_SAMPLE_ALBUMS);
const seed = int("seed", values.seed, DEFAULT_SEED);
// DATA_DIR as the server reads it (one composition root: app/.server/services.ts).
const dataDir = loadConfig().DATA_DIR;
const out = path.resolve(values.out ?? samplePaths(dataDir).dir);
// an explicit --out means "write it here", even over an older sample
const force = values.force || values.out !== undefined;

const started = performance.now();
const written = await writeSampleSources(out, { albums, seed, force });
const sourcesMs = performance.now() - started;
for (const file of written) {
  console.log(`${path.relative(process.cwd(), file) || file}  ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
}
console.log(`${albums} albums (seed ${seed}) in ${(sourcesMs / 1000).toFixed(2)} s -> ${out}`);
if (values.media || values.out === undefined) {
  const mediaDir = values.out ? path.join(out, "media") : samplePaths(dataDir).media;
  const n = await writeSampleMedia(mediaDir, { force: values.force });
  console.log(`${n} media files -> ${mediaDir}`);
}
if (values.vocabulary) {
  // issue #32: the catalog's words (distinct, the most common words' shares), counted over the same generator's albums
  const counter = new VocabularyCounter();
  for (const album of sampleAlbums(albums, seed)) counter.addAlbum(album);
  console.log(formatVocabulary(counter.figures()));
}
