import { AlbumTable } from "./album-table.ts";
import type { Album } from "../../lib/catalog/types.ts";
import { staticChildren } from "../../lib/catalog/genre-tree.ts";

/**
 * The album-level columns the filters and the search read, built once per catalog version by
 * the album index (index.ts) and read by the track index too (issue #17: one builder; they
 * were built twice, the same way, a second apart). Values that repeat across albums (keyword
 * paths, genre paths) are shared, as the album table shares them (ADR 0082).
 */
export interface AlbumColumns {
  /** the catalog version they were built from */
  readonly version: number;
  readonly albums: AlbumTable;
  /** lower-cased album names */
  readonly name: string[];
  /** lower-cased, trimmed keyword paths, one shared array per distinct path */
  readonly keywords: (readonly string[])[];
  /** name, artist and genre, lower-cased and joined by NUL: the substring rule's haystack (product-rules §5) */
  readonly search: string[];
  /** the genre path for display per album ("Jazz / Oldies Jazz"), shared per distinct path */
  readonly genre: string[];
  /** album positions by lower-cased first keyword (the genre filter always fixes it) */
  readonly buckets: Map<string, Int32Array>;
}

/**
 * The album's genre path for display: its genre, then each further keyword in the genre
 * tree's spelling where the tree has it (the sample's keywords are lower-cased, product-rules §5).
 */
export function genrePath(genre: string, keywords: readonly string[]): string {
  const path = [genre || keywords[0] || ""];
  for (let i = 1; i < keywords.length; i++) {
    const word = String(keywords[i]).trim();
    if (!word) break;
    const spelled = staticChildren(path)?.find((c) => c.toLowerCase() === word.toLowerCase());
    path.push(spelled ?? word);
  }
  return path.filter(Boolean).join(" / ");
}

/**
 * The table of a snapshot's albums: the served snapshot's own, or a table over a list held in
 * memory (fixtures). Only the album index calls it, once per catalog version, so every reader
 * of that version shares one table (the track index compares tables to know it indexed the
 * same albums at the same positions).
 */
export function albumTableOf(albums: AlbumTable | readonly Album[]): AlbumTable {
  return albums instanceof AlbumTable ? albums : AlbumTable.fromAlbums(albums);
}

export function buildAlbumColumns(albums: AlbumTable, version: number): AlbumColumns {
  const n = albums.length;
  const name = new Array<string>(n);
  const keywords = new Array<readonly string[]>(n);
  const search = new Array<string>(n);
  const genre = new Array<string>(n);
  const lowerPaths = new Map<readonly string[], readonly string[]>();
  const lower = new Map<string, string>();
  const lowerOf = (s: string) => {
    let l = lower.get(s);
    if (l === undefined) lower.set(s, (l = s.toLowerCase()));
    return l;
  };
  const genreOf = new Map<string, string>();
  const bucketLists = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    name[i] = albums.name(i).toLowerCase();
    const path = albums.keywords(i);
    let kw = lowerPaths.get(path);
    if (!kw) lowerPaths.set(path, (kw = path.map((k) => String(k).trim().toLowerCase())));
    keywords[i] = kw;
    // joined, not a template: a template makes a chain of four cons strings an album (a million
    // heap objects at 250,000 albums, each one marked by every major GC, ADR 0121); join makes
    // one flat string
    search[i] = [name[i], lowerOf(albums.artist(i)), lowerOf(albums.genre(i))].join("\u0000");
    const genreKey = `${albums.genre(i)}\u0001${path.join("\u0001")}`;
    let shown = genreOf.get(genreKey);
    if (shown === undefined) genreOf.set(genreKey, (shown = genrePath(albums.genre(i), path)));
    genre[i] = shown;
    const first = kw[0] ?? "";
    let list = bucketLists.get(first);
    if (!list) bucketLists.set(first, (list = []));
    list.push(i);
  }
  const buckets = new Map<string, Int32Array>();
  for (const [k, list] of bucketLists) buckets.set(k, Int32Array.from(list));
  return { version, albums, name, keywords, search, genre, buckets };
}
