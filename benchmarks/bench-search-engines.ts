// `node benchmarks/bench-search-engines.ts [--albums 25000] [--mini-albums 25000] [--vocabulary 300000]`
//
// The measurements behind ADR 0099 (issue #10: which search for the catalog), in process, over
// the sample catalog's albums (app/.server/catalog/sample/generate.ts, about 10 tracks each):
// A. MiniSearch with one document per track (title, album, artist, genre fields), as its
//    documentation builds an index: heap held, build time, query p50/p95;
// B. the catalog's search (app/.server/catalog/search/): MiniSearch's radix tree over
//    the distinct words, and CSR postings from words to tracks and albums: the same figures,
//    with the track table it is built with;
// and the vocabulary index alone with `--vocabulary` synthetic words (a large real catalog has
// far more distinct words than the sample's few hundred), two ways: a MiniSearch index with one
// document per word, and its SearchableMap (the radix tree) with a word id per word.
// Nothing here asserts: it prints what it measured.
import { parseArgs } from "node:util";
import v8 from "node:v8";
import vm from "node:vm";
import MiniSearch from "minisearch";
import SearchableMap from "minisearch/SearchableMap";
import { AlbumTable } from "../app/.server/catalog/album-table.ts";
import { sampleAlbums } from "../app/.server/catalog/sample/generate.ts";
import { buildTrackTable, trackTitle } from "../app/.server/catalog/tracks/table.ts";
import { genrePath } from "../app/.server/catalog/album-columns.ts";
import { createTrackSearch } from "../app/.server/catalog/search/build.ts";
import { NO_YIELD } from "../app/.server/catalog/tracks/yielding.ts";
import type { Album } from "../app/lib/catalog/types.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values } = parseArgs({
  options: {
    albums: { type: "string", default: "25000" },
    "mini-albums": { type: "string", default: "25000" },
    vocabulary: { type: "string", default: "300000" },
  },
});

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
const quantile = (s: number[], q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
const QUERIES = ["ocen", "bosa", "golden rivers", "midnight", "velvet sky", "kofi", "electric dreams", "jaz", "afro house", "quiet", "mind healing", "lucky stars", "e", "tender bells"];

function timeQueries(run: (q: string) => unknown, rounds = 20) {
  for (const q of QUERIES) run(q); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of QUERIES) {
      const t = performance.now();
      run(q);
      samples.push(performance.now() - t);
    }
  }
  samples.sort((a, b) => a - b);
  return `${quantile(samples, 0.5).toFixed(2)} / ${quantile(samples, 0.95).toFixed(2)} ms`;
}

function albums(count: number): Album[] {
  const out: Album[] = [];
  let i = 0;
  for (const a of sampleAlbums(count)) out.push({ id: `alb-${i++}`, ...a });
  return out;
}

// ---- B: the catalog's search over the distinct words
{
  const n = Number(values.albums);
  const table = AlbumTable.fromAlbums(albums(n));
  const before = heap();
  const t0 = performance.now();
  const builder = createTrackSearch();
  const tracks = await buildTrackTable(table, NO_YIELD, builder.sink);
  const search = await builder.finish(tracks, NO_YIELD);
  const ms = performance.now() - t0;
  const held = heap() - before;
  console.log(`B. vocabulary + postings, ${n.toLocaleString("en-US")} albums, ${tracks.count.toLocaleString("en-US")} tracks, ${search.vocabulary} words`);
  console.log(`   track table + search: ${mb(held)} held (the search's own count: ${mb(search.bytes())}), built in ${ms.toFixed(0)} ms`);
  console.log(`   track search p50 / p95: ${timeQueries((q) => search.tracks(q))}`);
  console.log(`   album search p50 / p95: ${timeQueries((q) => search.albums(q))}`);
}

// ---- A: one MiniSearch document per track
{
  const n = Number(values["mini-albums"]);
  const list = albums(n);
  const before = heap();
  const t0 = performance.now();
  const mini = new MiniSearch<{ id: number; title: string; album: string; artist: string; genre: string }>({
    fields: ["title", "album", "artist", "genre"],
    searchOptions: { prefix: true, fuzzy: 0.2, combineWith: "AND", boost: { title: 1, album: 0.8, artist: 0.8, genre: 0.5 } },
  });
  let id = 0;
  for (const a of list) {
    const genre = genrePath(a.genre, a.keywords);
    for (const t of a.tracks) mini.add({ id: id++, title: trackTitle(t), album: a.name, artist: a.artist, genre });
  }
  const ms = performance.now() - t0;
  list.length = 0;
  const held = heap() - before;
  console.log(`A. MiniSearch, one document per track, ${n.toLocaleString("en-US")} albums, ${id.toLocaleString("en-US")} tracks`);
  console.log(`   ${mb(held)} held (${((held / id) | 0).toLocaleString("en-US")} bytes a track), built in ${ms.toFixed(0)} ms`);
  console.log(`   search p50 / p95: ${timeQueries((q) => mini.search(q), 3)}`);
}

// ---- the vocabulary index at a real catalog's size: MiniSearch or its radix tree alone
{
  const V = Number(values.vocabulary);
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const words = new Set<string>();
  while (words.size < V) {
    let w = "";
    const len = 3 + Math.floor(rnd() * 8);
    for (let i = 0; i < len; i++) w += letters[Math.floor(rnd() * 26)];
    words.add(w);
  }
  const list = [...words];
  words.clear();
  {
    const before = heap();
    const t0 = performance.now();
    const mini = new MiniSearch<{ id: number; w: string }>({ fields: ["w"], idField: "id", tokenize: (s) => [s], processTerm: (s) => s });
    mini.addAll(list.map((w, i) => ({ id: i, w })));
    const ms = performance.now() - t0;
    const held = heap() - before;
    console.log(`Vocabulary of ${V.toLocaleString("en-US")} random words, MiniSearch (a document a word): ${mb(held)} held (${(held / V) | 0} bytes a word), built in ${ms.toFixed(0)} ms`);
    console.log(`   word lookup (prefix + fuzzy) p50 / p95: ${timeQueries((query) => {
        const q = query.split(" ")[0];
        return mini.search(q, { prefix: true, fuzzy: q.length >= 4 ? 0.2 : false, maxFuzzy: 2 });
      }, 5)}`);
  }
  {
    const before = heap();
    const t0 = performance.now();
    const map = new SearchableMap<number>();
    list.forEach((w, i) => map.set(w, i));
    const ms = performance.now() - t0;
    const held = heap() - before;
    console.log(`Vocabulary of ${V.toLocaleString("en-US")} random words, SearchableMap (a word id a word): ${mb(held)} held (${(held / V) | 0} bytes a word), built in ${ms.toFixed(0)} ms`);
    console.log(
      `   word lookup (prefix + fuzzy) p50 / p95: ${timeQueries((query) => {
        const q = query.split(" ")[0];
        let n = 0;
        for (const _ of map.atPrefix(q)) n++;
        return q.length >= 4 ? map.fuzzyGet(q, 1).size + n : n;
      }, 5)}`,
    );
  }
}
