import crypto from "node:crypto";
import type { TitlePostings } from "../search/types.ts";
import type { NamedArray } from "./figure-bytes.ts";
import type { TrackColumns } from "./table.ts";

/**
 * The track columns and the titles' search postings carried in a published track index version
 * (issue #42; ADR 0162, amended in the seventh session "the columns with the version"). A
 * process that joins a running cluster built them from the albums snapshot (a JSON.parse of
 * every album, the titles' words, two sorts): about 26 s of its 37.7 s to a first like= at
 * 250,000 albums. They depend only on the snapshot's track lists, which every machine holds
 * byte for byte (the published catalog version, ADR 0157): a version written for the same
 * lists (the same source digest below) gives them without a pass over the snapshot.
 */

/**
 * Changes whenever what buildTrackColumns or the title indexer make from the same track lists
 * changes (which tracks are listed, a title's form, the sort key, the hash, the words): a
 * version written by other code then has another source digest and is never taken for its
 * columns.
 */
const COLUMNS_FORMAT = "track columns 1; title postings 1";

/** Names of the arrays a version carries for the table (beside the figures' own, figures.ts). */
const PREFIX = "table.";
export const isTableArray = (name: string) => name.startsWith(PREFIX);

/** One album's bytes as the table read them (its range of the snapshot file), or its listed tracks in memory. */
export type AlbumBytes = (a: number) => Uint8Array;

/**
 * What the columns are made from, as a digest: the code's format, the album ids in table order
 * and each album's bytes in the snapshot (its track lists). SHA-256 over about 200 MB at 250,000
 * albums: 0.13 s on this machine's SHA extensions, against the 26 s pass it can save.
 */
export function tableSource(ids: readonly string[], albumBytes: AlbumBytes): string {
  const hash = crypto.createHash("sha256");
  hash.update(`${COLUMNS_FORMAT}\nalbums ${ids.length}\n`);
  const length = new Uint32Array(1);
  for (let a = 0; a < ids.length; a++) {
    hash.update(ids[a]);
    const bytes = albumBytes(a);
    // each album's length first: two albums' bytes cut elsewhere never give the same stream
    length[0] = bytes.byteLength;
    hash.update(new Uint8Array(length.buffer));
    hash.update(bytes);
  }
  return hash.digest("hex");
}

/**
 * The columns and title postings as a version's named arrays. The title words go as UTF-8,
 * one per line (a word never holds a line break: search/words.ts keeps letters and digits only); null
 * when one does, and the version then carries no columns.
 */
export function tableArrays(columns: TrackColumns, titles: TitlePostings): Record<string, NamedArray> | null {
  if (titles.words.some((w) => w.includes("\n"))) return null;
  return {
    [`${PREFIX}albumStart`]: columns.albumStart,
    [`${PREFIX}trackAlbum`]: columns.trackAlbum,
    [`${PREFIX}titleOrder`]: columns.titleOrder,
    [`${PREFIX}titleRank`]: columns.titleRank,
    [`${PREFIX}audioSorted`]: columns.audioSorted,
    [`${PREFIX}byAudio`]: columns.byAudio,
    [`${PREFIX}titleOffsets`]: titles.offsets,
    [`${PREFIX}titleDocs`]: titles.docs,
    [`${PREFIX}titleHeads`]: titles.heads,
    [`${PREFIX}titleWords`]: new TextEncoder().encode(titles.words.join("\n")),
  };
}

const KINDS: Record<string, string> = {
  albumStart: "Int32Array",
  trackAlbum: "Int32Array",
  titleOrder: "Int32Array",
  titleRank: "Int32Array",
  audioSorted: "Uint32Array",
  byAudio: "Int32Array",
  titleOffsets: "Int32Array",
  titleDocs: "Int32Array",
  titleHeads: "Int32Array",
  titleWords: "Uint8Array",
};

/**
 * The columns and title postings of a version's arrays, for a table of `albums` albums. Throws
 * when one is missing, of another type or of a length the others contradict: the caller then
 * builds them from the snapshot, as without a version.
 */
export function tableOfArrays(named: Record<string, NamedArray>, albums: number): { columns: TrackColumns; titles: TitlePostings } {
  const get = <T extends NamedArray>(name: string): T => {
    const a = named[PREFIX + name];
    if (a?.constructor.name !== KINDS[name]) throw new Error(`the track index version carries no ${name} for its table`);
    return a as T;
  };
  const albumStart = get<Int32Array>("albumStart");
  if (albumStart.length !== albums + 1) throw new Error(`the track index version's columns are for ${albumStart.length - 1} albums, not ${albums}`);
  const count = albumStart[albums];
  const trackAlbum = get<Int32Array>("trackAlbum");
  const titleOrder = get<Int32Array>("titleOrder");
  const titleRank = get<Int32Array>("titleRank");
  const audioSorted = get<Uint32Array>("audioSorted");
  const byAudio = get<Int32Array>("byAudio");
  const offsets = get<Int32Array>("titleOffsets");
  const docs = get<Int32Array>("titleDocs");
  const heads = get<Int32Array>("titleHeads");
  const words = new TextDecoder().decode(get<Uint8Array>("titleWords"));
  const wordList = words === "" ? [] : words.split("\n");
  const fits =
    trackAlbum.length === count &&
    titleOrder.length === count &&
    titleRank.length === count &&
    byAudio.length === count &&
    audioSorted.length === 2 * count &&
    heads.length <= count &&
    offsets.length === wordList.length + 1 &&
    docs.length === (offsets[offsets.length - 1] ?? 0);
  if (!fits) throw new Error("the track index version's columns do not fit together");
  return { columns: { albumStart, trackAlbum, count, titleOrder, titleRank, audioSorted, byAudio }, titles: { words: wordList, offsets, docs, heads } };
}
