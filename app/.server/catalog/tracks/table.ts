import type { AlbumTable } from "../album-table.ts";
import type { Track } from "../../../lib/catalog/types.ts";
import { trackDisplayName } from "../../../lib/catalog/cards.ts";
import { buildAlbumColumns, type AlbumColumns } from "../album-columns.ts";
import { Int32Column, hash64 } from "./columns.ts";
import type { Yielder } from "./yielding.ts";

/**
 * The music catalog's tracks as columns (issue #10, ADR 0100), built once per catalog version
 * from the album table. Nothing here is a string per track: the titles and audio keys stay in
 * the albums snapshot file (ADR 0082) and are read back only for the rows of the page shown.
 * What a query needs for every track is in typed arrays:
 * - the album of each track, and each album's range of tracks (tracks are in album order);
 * - the title order (a permutation) and each track's place in it, for `sort=title` and as the
 *   tie-break of every other order;
 * - a 64-bit hash of each track's audio key, sorted, so analysis results (keyed by audio key,
 *   one result for every track that shares the key) find their tracks without the keys.
 * The album-level fields the genre filter reads are the album index's own columns
 * (album-columns.ts): one builder, one copy.
 */
export interface TrackTable {
  readonly albums: AlbumTable;
  /** tracks of album a are albumStart[a] … albumStart[a + 1] - 1 */
  readonly albumStart: Int32Array;
  readonly trackAlbum: Int32Array;
  readonly count: number;
  /** track positions in title order (ties: catalog order) */
  readonly titleOrder: Int32Array;
  /** titleRank[t] = the place of track t in titleOrder */
  readonly titleRank: Int32Array;
  /** the audio keys' hashes in ascending order, two 32-bit halves each; byAudio[i] is the track of pair i */
  readonly audioSorted: Uint32Array;
  readonly byAudio: Int32Array;
  /** lower-cased keyword path per album (one shared array per distinct path) */
  readonly albumKeywords: (readonly string[])[];
  /** the genre path for display per album ("Jazz / Oldies Jazz"), shared per distinct path */
  readonly albumGenre: string[];
  /** album positions by lower-cased first keyword (the genre filter always fixes it) */
  readonly albumBuckets: Map<string, Int32Array>;
}

/** What the build hands to the search index for each text it meets (search.ts). */
export interface TableTextSink {
  /** a track's title */
  track(t: number, title: string): void;
  /** an album's name, artist and genre path (display form) */
  album(a: number, name: string, artist: string, genre: string): void;
}

/** The tracks the catalog lists: those with audio, as the album sheet lists them. */
export function listedTracks(tracks: readonly Track[]): Track[] {
  return tracks.filter((t) => t && t.s3Path);
}

/** A track's title as shown (the sheet's rule: the file name without its audio extension). */
export function trackTitle(track: Track): string {
  return trackDisplayName(track.Filename || track.s3Path.split("/").pop() || "");
}

/** A title's sort key: lower-cased, accents dropped, so "Échos" sorts with "echoes". */
const sortKey = (title: string) => title.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The per-track columns of the table: built from the albums' track lists, in the build worker (build-thread.ts). */
export type TrackColumns = Pick<TrackTable, "albumStart" | "trackAlbum" | "count" | "titleOrder" | "titleRank" | "audioSorted" | "byAudio">;
/**
 * The whole table in this thread: for tools and tests. The server builds the track columns in
 * a worker thread (build-thread.ts, ADR 0100 amended) and takes the album columns from the
 * album index.
 */
export async function buildTrackTable(albums: AlbumTable, yielder: Yielder, text?: TableTextSink): Promise<TrackTable> {
  const tracks = await buildTrackColumns(albums.length, (a) => albums.tracks(a), yielder, text && ((t, title) => text.track(t, title)));
  const columns = buildAlbumColumns(albums, 0);
  if (text) await albumTexts(columns, yielder, text);
  return trackTable(columns, tracks);
}

/** The table of the track columns over the album columns they were built from. */
export function trackTable(columns: AlbumColumns, tracks: TrackColumns): TrackTable {
  return { albums: columns.albums, ...tracks, albumKeywords: columns.keywords, albumGenre: columns.genre, albumBuckets: columns.buckets };
}

/** Each album's name, artist and genre path, for the search (the track titles came from the build worker). */
export async function albumTexts(columns: AlbumColumns, yielder: Yielder, text: Pick<TableTextSink, "album">): Promise<void> {
  const { albums } = columns;
  for (let a = 0; a < albums.length; a++) {
    text.album(a, albums.name(a), albums.artist(a), columns.genre[a]);
    await yielder.maybeYield();
  }
}

/**
 * The track columns of `albumCount` albums whose listed tracks `tracksOf` gives (read from the
 * snapshot file, one album at a time); `onTitle` gets each track's title (the search's words).
 */
export async function buildTrackColumns(
  albumCount: number,
  tracksOf: (a: number) => readonly Track[],
  yielder: Yielder,
  onTitle?: (t: number, title: string) => void,
): Promise<TrackColumns> {
  const n = albumCount;
  const albumStart = new Int32Array(n + 1);
  const trackAlbum = new Int32Column(n * 10);
  const titleIds = new Int32Column(n * 10);
  let hashes = new Uint32Array(Math.max(32, n * 20));
  const titleId = new Map<string, number>();
  const titleKeys: string[] = [];

  for (let a = 0; a < n; a++) {
    albumStart[a] = trackAlbum.length;
    for (const track of listedTracks(tracksOf(a))) {
      const t = trackAlbum.length;
      trackAlbum.push(a);
      if (hashes.length < 2 * (t + 1)) {
        const grown = new Uint32Array(hashes.length * 2);
        grown.set(hashes);
        hashes = grown;
      }
      hash64(track.s3Path, hashes, 2 * t);
      const title = trackTitle(track);
      let id = titleId.get(title);
      if (id === undefined) {
        id = titleKeys.length;
        titleId.set(title, id);
        titleKeys.push(sortKey(title));
      }
      titleIds.push(id);
      onTitle?.(t, title);
    }
    await yielder.maybeYield();
  }
  albumStart[n] = trackAlbum.length;
  const count = trackAlbum.length;
  titleId.clear();

  // rank the distinct titles, then order the tracks by their title's rank (stable: catalog order)
  const distinctRank = await rankStrings(titleKeys, yielder);
  titleKeys.length = 0;
  const ids = titleIds.finish();
  const titleOrder = countingOrder(count, distinctRank.length, (t) => distinctRank[ids[t]]);
  const titleRank = new Int32Array(count);
  for (let r = 0; r < count; r++) titleRank[titleOrder[r]] = r;
  await yielder.yield();

  const byAudio = radixOrder64(hashes, count);
  const audioSorted = new Uint32Array(2 * count);
  for (let i = 0; i < count; i++) {
    audioSorted[2 * i] = hashes[2 * byAudio[i]];
    audioSorted[2 * i + 1] = hashes[2 * byAudio[i] + 1];
  }
  return { albumStart, trackAlbum: trackAlbum.finish(), count, titleOrder, titleRank, audioSorted, byAudio };
}

/**
 * The rank of each string in ascending order (code-unit order of the sort keys). Sorted in
 * buckets by their first two characters, one bucket between two turns of the event loop: at
 * 2.5 million distinct titles one sort of the whole list held the loop for seconds.
 */
async function rankStrings(keys: readonly string[], yielder: Yielder): Promise<Int32Array> {
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < keys.length; i++) {
    const head = keys[i].slice(0, 2);
    let list = buckets.get(head);
    if (!list) buckets.set(head, (list = []));
    list.push(i);
  }
  const rank = new Int32Array(keys.length);
  let next = 0;
  for (const head of [...buckets.keys()].sort()) {
    const list = buckets.get(head)!;
    list.sort((x, y) => (keys[x] < keys[y] ? -1 : keys[x] > keys[y] ? 1 : x - y));
    for (const i of list) rank[i] = next++;
    await yielder.yield();
  }
  return rank;
}

/**
 * Positions 0…count-1 ordered by a small whole-number key (0 … keys-1), stable: a counting
 * sort, O(count + keys). The track orders by title, tempo and length are all of this kind.
 */
export function countingOrder(count: number, keys: number, keyOf: (i: number) => number, within?: Int32Array): Int32Array {
  const starts = new Int32Array(keys + 1);
  for (let i = 0; i < count; i++) starts[keyOf(within ? within[i] : i) + 1]++;
  for (let k = 0; k < keys; k++) starts[k + 1] += starts[k];
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const p = within ? within[i] : i;
    out[starts[keyOf(p)]++] = p;
  }
  return out;
}

/** Positions ordered by their 64-bit hash (pairs in `hashes`): an LSD radix sort, four 16-bit passes. */
function radixOrder64(hashes: Uint32Array, count: number): Int32Array {
  let order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let spare = new Int32Array(count);
  const counts = new Int32Array(65537);
  // least significant first: low half's low 16 bits, low half's high bits, then the high half
  for (const [word, shift] of [
    [1, 0],
    [1, 16],
    [0, 0],
    [0, 16],
  ] as const) {
    counts.fill(0);
    for (let i = 0; i < count; i++) counts[((hashes[2 * order[i] + word] >>> shift) & 0xffff) + 1]++;
    for (let k = 0; k < 65536; k++) counts[k + 1] += counts[k];
    for (let i = 0; i < count; i++) {
      const p = order[i];
      spare[counts[(hashes[2 * p + word] >>> shift) & 0xffff]++] = p;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/** The tracks whose audio key hashes to (hi, lo): a range of byAudio, found by binary search. */
export function tracksOfHash(table: Pick<TrackTable, "audioSorted" | "count">, hi: number, lo: number): [from: number, to: number] {
  const s = table.audioSorted;
  const below = (i: number) => s[2 * i] < hi || (s[2 * i] === hi && s[2 * i + 1] < lo);
  let low = 0;
  let high = table.count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (below(mid)) low = mid + 1;
    else high = mid;
  }
  let end = low;
  while (end < table.count && s[2 * end] === hi && s[2 * end + 1] === lo) end++;
  return [low, end];
}
