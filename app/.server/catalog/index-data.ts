import { LRUCache } from "lru-cache";
import type { CatalogSnapshot } from "./service.ts";
import { albumTableOf, buildAlbumColumns, type AlbumColumns } from "./album-columns.ts";
import type { Channel, Film, Single } from "../../lib/catalog/types.ts";
import { channelHaystack } from "../../lib/catalog/matching.ts";

/**
 * What the album index (index.ts) holds for one catalog version: the album columns (shared
 * with the track index, album-columns.ts), lower-cased copies of the fields the other views'
 * filters read, and the match cache.
 *
 * The cached lists are bounded by bytes, not by count (issue #7): one list can hold almost
 * the whole catalog (1 MB at 250,000 albums), so 500 of them were 500 MB. Their keys are
 * match-keys.ts's, on normalised search words, so `q=e e e` reuses the entry of `q=e`.
 */
export interface IndexData {
  version: number;
  updatedAt: string;
  /** the albums' columns; their tracks stay in the snapshot file (ADR 0082) */
  columns: AlbumColumns;
  films: Film[];
  filmSearch: string[];
  singles: Single[];
  singleSearch: string[];
  singleById: Map<string, number>;
  filmById: Map<string, number>;
  channels: Channel[];
  channelHay: string[];
  genres: string[];
  /** match positions (Int32Array) and derived option lists (string[]), one byte budget */
  cache: LRUCache<string, Cached>;
}

export type Cached = Int32Array | readonly string[];

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** Approximate bytes an entry keeps alive: its data plus its key (UTF-16, 2 bytes a char). */
function cachedBytes(value: Cached, key: string): number {
  if (value instanceof Int32Array) return value.byteLength + key.length * 2 + 64;
  let bytes = key.length * 2 + 64;
  for (const s of value) bytes += s.length * 2 + 16;
  return bytes;
}

export function buildIndexData(snapshot: CatalogSnapshot, maxCacheBytes: number): IndexData {
  const { films, singles, channels } = snapshot;
  const singleById = new Map<string, number>();
  singles.forEach((s, i) => singleById.set(s.id, i));
  const filmById = new Map<string, number>();
  films.forEach((f, i) => filmById.set(f.film_id, i));
  return {
    version: snapshot.version,
    updatedAt: snapshot.updatedAt,
    columns: buildAlbumColumns(albumTableOf(snapshot.albums), snapshot.version),
    films,
    filmSearch: films.map((f) => `${f.title}\u0000${f.format ?? ""}`.toLowerCase()),
    singles,
    singleSearch: singles.map((s) => [s.title, s.artist, s.genre, s.subGenre].join("\u0000").toLowerCase()),
    singleById,
    filmById,
    channels,
    channelHay: channels.map(channelHaystack),
    genres: snapshot.genres,
    cache: new LRUCache<string, Cached>({ maxSize: maxCacheBytes, sizeCalculation: cachedBytes }),
  };
}

/** A cached value, or computed and cached (least recently used entries go over the budget). */
export function remember<V extends Cached>(cache: LRUCache<string, Cached>, key: string, compute: () => V): V {
  const hit = cache.get(key);
  if (hit !== undefined) return hit as V;
  const value = compute();
  // an entry larger than the whole budget is simply not kept
  cache.set(key, value);
  return value;
}

/** Positions i in `candidates` (or 0…count-1) for which `keep(i)` holds. */
export function collect(count: number, candidates: Int32Array | null, keep: (i: number) => boolean): Int32Array {
  const out: number[] = [];
  if (candidates) {
    for (let j = 0; j < candidates.length; j++) if (keep(candidates[j])) out.push(candidates[j]);
  } else {
    for (let i = 0; i < count; i++) if (keep(i)) out.push(i);
  }
  return Int32Array.from(out);
}

export const EMPTY = new Int32Array(0);
