// The long tail of catalog traffic (issue #18), for `npm run bench:load`: URL generators in
// which every request is a URL never asked before, seeded so two runs ask the same sequence.
//
// - `searchMix`: two-word searches with one typo, track-view tempo and length ranges, and
//   searches of the track view sorted by tempo, in turn (the first row).
// - `itemWalk`: album and single item pages in sitemap order, read from /sitemap.xml (and the
//   files of its index) as a crawler reads them; once the walk is done it starts again with a
//   `from=` back link of another page, so the next pass is new to the cache too.
// - `likeViews`: `like=` views (DESIGN.md §3c) of tracks found on the track view's pages (their
//   "More like this" links), each with a tempo range, a page or a sort that has not been asked.
import fs from "node:fs";
import readline from "node:readline";
import { createPrng, type Prng } from "../../app/.server/catalog/sample/prng.ts";

export const LONG_TAIL_SEED = 18;

/** A source of URLs (paths with their query) that never repeats one. */
export interface UrlGenerator {
  next(): string;
  /** how many URLs it has given */
  readonly issued: number;
}

/** Wraps a candidate source: a candidate already given is drawn again (the sources are large). */
function unique(candidate: () => string): UrlGenerator {
  const seen = new Set<string>();
  let issued = 0;
  return {
    next() {
      for (let attempt = 0; ; attempt++) {
        const url = candidate();
        if (!seen.has(url) || attempt > 1000) {
          seen.add(url);
          issued++;
          return url;
        }
      }
    },
    get issued() {
      return issued;
    },
  };
}

/**
 * The words of the catalog's album and track titles as they run (a word as often as it occurs),
 * read from the generated merged.json (one album per line, app/.server/catalog/sample/ensure.ts
 * albumsJsonChunks): the first `albums` albums. Drawn uniformly, a word comes as often as the
 * catalog uses it (Zipf: "love" often, a rare word seldom); `searchMix` draws rare ones from
 * the distinct words as well (issue #32).
 */
export async function catalogWords(albumsFile: string, albums = 20_000): Promise<string[]> {
  const words: string[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(albumsFile, "utf8"), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    const json = line.trim().replace(/^,/, "").replace(/,$/, "");
    if (!json.startsWith("{")) continue;
    const album = JSON.parse(json) as { name?: string; tracks?: { Filename?: string }[] };
    for (const text of [album.name ?? "", ...(album.tracks ?? []).map((t) => t.Filename ?? "")]) {
      for (const word of text.replace(/\.[a-z0-9]+$/i, "").split(/[^\p{L}\p{M}]+/u)) if (word.length >= 3) words.push(word.toLowerCase());
    }
    if (++n >= albums) break;
  }
  lines.close();
  return words;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One typo, as people make them: a letter dropped, doubled, replaced, or two swapped. */
function typo(word: string, r: Prng): string {
  const i = r.int(0, word.length - 1);
  switch (r.int(0, 3)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i + 1) + word[i] + word.slice(i + 1);
    case 2:
      return word.slice(0, i) + r.pick([...LETTERS]) + word.slice(i + 1);
    default:
      return i < word.length - 1 ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i) + r.pick([...LETTERS]);
  }
}

const q = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

/**
 * The mix: a search, a tempo and length range, a search sorted by tempo. A search is one
 * or two words as visitors type them (issue #32): mostly words drawn as the catalog uses them
 * (frequent ones often), a third of them rare (drawn from the distinct words, most of which the
 * catalog uses once or twice), and a typo in half the searches.
 */
export function searchMix(words: readonly string[], seed = LONG_TAIL_SEED): UrlGenerator {
  if (words.length < 2) throw new Error("searchMix needs the catalog's words");
  const distinct = [...new Set(words)].sort();
  const r = createPrng(seed);
  let turn = 0;
  const word = () => (r.chance(1 / 3) ? r.pick(distinct) : r.pick(words));
  const search = () => {
    const terms = r.chance(0.4) ? [word()] : [word(), word()];
    if (r.chance(0.5)) {
      const i = r.int(0, terms.length - 1);
      terms[i] = typo(terms[i]!, r);
    }
    return terms.join(" ");
  };
  return unique(() => {
    switch (turn++ % 3) {
      case 0:
        return `/catalog?q=${q(search())}`;
      case 1: {
        const lo = r.int(60, 150);
        const dLo = r.int(30, 300);
        return `/catalog?type=music&view=tracks&bpm=${lo}-${lo + r.int(4, 40)}&duration=${dLo}-${dLo + r.int(20, 400)}`;
      }
      default:
        return `/catalog?type=music&view=tracks&q=${q(search())}&sort=${r.chance(0.5) ? "bpm" : "-bpm"}`;
    }
  });
}

/** The `<loc>`s of a sitemap or a sitemap index's files, in order, as paths. */
export async function sitemapPaths(base: string, path = "/sitemap.xml"): Promise<string[]> {
  const xml = await (await fetch(base + path)).text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, "&")).pathname);
  if (!/<sitemapindex\b/.test(xml)) return locs;
  const all: string[] = [];
  for (const file of locs) all.push(...(await sitemapPaths(base, file)));
  return all;
}

/** Album and single item pages in sitemap order; each pass after the first with a new `from=`. */
export function itemWalk(paths: readonly string[]): UrlGenerator {
  const items = paths.filter((p) => /^\/catalog\/(albums|singles)\//.test(p));
  if (!items.length) throw new Error("the sitemap lists no album or single pages");
  let i = 0;
  return unique(() => {
    const pass = Math.floor(i / items.length);
    const item = items[i++ % items.length]!;
    if (pass === 0) return item;
    const from = item.startsWith("/catalog/singles/") ? `/catalog?type=singles&page=${pass + 1}` : `/catalog?page=${pass + 1}`;
    return `${item}?from=${encodeURIComponent(from)}`;
  });
}

/** Track ids from the track view's "More like this" links, as a crawler finds them. */
export async function likeSeeds(base: string, pages = 5): Promise<string[]> {
  const ids = new Set<string>();
  for (let page = 1; page <= pages; page++) {
    const html = await (await fetch(`${base}/catalog?type=music&view=tracks&page=${page}`)).text();
    for (const m of html.matchAll(/[?&;]like=([^"&]+)/g)) ids.add(decodeURIComponent(m[1]!));
  }
  return [...ids];
}

/** `like=` views: a seed with a tempo range, a page, or a sort, never the same twice. */
export function likeViews(seeds: readonly string[], seed = LONG_TAIL_SEED): UrlGenerator {
  if (!seeds.length) throw new Error("no track ids for like= views");
  const r = createPrng(seed + 1);
  return unique(() => {
    const base = `/catalog?type=music&view=tracks&like=${encodeURIComponent(r.pick(seeds))}`;
    const lo = r.int(60, 160);
    switch (r.int(0, 2)) {
      case 0:
        return `${base}&bpm=${lo}-${lo + r.int(4, 60)}`;
      case 1:
        return `${base}&duration=${r.int(20, 200)}-${r.int(220, 900)}&page=${r.int(1, 3)}`;
      default:
        return `${base}&bpm=${lo}-${lo + r.int(10, 80)}&sort=${r.pick(["bpm", "-bpm", "duration", "-duration", "title"])}`;
    }
  });
}

/** The same generator's URLs as single-fetch `.data` requests. */
export function asDataUrl(url: string): string {
  const [path, query] = url.split("?", 2) as [string, string | undefined];
  const data = path === "/catalog" ? "/catalog.data" : `${path}.data`;
  return query ? `${data}?${query}` : data;
}
