import crypto from "node:crypto";
import type { Album, Channel, Film } from "../../lib/catalog/types.ts";
import type { RawAlbum, RawChannel, RawFilm } from "./schemas.ts";

/**
 * Maps validated raw entries to the app's own types (product-rules §3). Album and channel ids are ours:
 * a short hash of what identifies the item, so an id survives re-ordering of the source list
 * and is URL-safe.
 */
export function stableId(...parts: string[]): string {
  return crypto.createHash("sha1").update(parts.join("\u0000")).digest("base64url").slice(0, 10);
}

/**
 * Stable ids for items arriving one at a time: a repeated key gets "-2", "-3", … in list order
 * (a streamed list is never held whole, ADR 0082).
 */
export function uniqueIds(): (...parts: string[]) => string {
  const seen = new Map<string, number>();
  return (...parts) => {
    const base = stableId(...parts);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  };
}

/** Gives each item a stable id; a repeated key gets "-2", "-3", … in list order. */
function withUniqueIds<T>(items: T[], key: (item: T) => string[], build: (item: T, id: string) => T & { id: string }) {
  const next = uniqueIds();
  return items.map((item) => build(item, next(...key(item))));
}

/** One validated album entry as the app's Album, with the id `nextId` gives it. */
export function reshapeAlbum(a: RawAlbum, nextId: (...parts: string[]) => string): Album {
  return {
    id: nextId(a.name, a.artist),
    name: a.name,
    artist: a.artist,
    genre: a.genre,
    artwork: a.artwork,
    keywords: a.keywords,
    featured: a.featured,
    tracks: a.tracks,
  };
}

export function reshapeAlbums(raw: RawAlbum[]): Album[] {
  const next = uniqueIds();
  return raw.map((a) => reshapeAlbum(a, next));
}

export function reshapeChannels(raw: RawChannel[]): Channel[] {
  return withUniqueIds(
    raw,
    (c) => [c.name, c.country],
    (c, id) => ({ id, ...c }),
  );
}

export function reshapeFilm(raw: RawFilm): Film {
  const film: Film = { film_id: raw.film_id, title: raw.title, film_status: raw.film_status };
  if (raw.portrait) film.portrait = raw.portrait;
  if (raw.landscape) film.landscape = raw.landscape;
  if (raw.artwork) film.artwork = raw.artwork;
  if (raw.format) film.format = raw.format;
  return film;
}

/** product-rules §4 "Films": only films whose film_status is 'completed' are shown. */
export function isCompletedFilm(film: Pick<Film, "film_status">): boolean {
  return film.film_status === "completed";
}
