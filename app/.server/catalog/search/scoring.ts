import type SearchableMap from "minisearch/SearchableMap";
import { Int32Column } from "../tracks/columns.ts";
import type { TrackTable } from "../tracks/table.ts";
import { MAX_SEARCH_WORD_LENGTH } from "../../../lib/catalog/matching.ts";
import { fuzzyWords } from "./osa.ts";
import { combine, EXACT, flagsOf, FUZZY, PREFIX, tierScore } from "./tiers.ts";
import { headCount, headWord } from "./postings.ts";
import { queryWords, words } from "./words.ts";
import type { AlbumHits, CatalogSearch, Postings, SearchHits } from "./types.ts";

/**
 * The catalog's typo-tolerant, prefix-aware search, for the track view and the album view
 * (issue #10, ADR 0099). The library (MiniSearch's radix tree, SearchableMap) indexes the
 * distinct *words* of track titles, album names, artists and genre paths (a few hundred in the
 * sample catalog, some hundred thousand in a large real one), not the 2.5 million tracks: one
 * MiniSearch document per track measured 520 bytes a track, 1.3 GB at 2.5 million (ADR 0099).
 * A query word is looked up in that vocabulary with the tree's prefix walk and a fuzzy walk
 * (edits: a letter added, dropped or changed, or two neighbours swapped, osa.ts, ADR 0142) —
 * "ocen" → ocean, "bosa" → bossa, "nihgt" → night, "heal" → healing — and each word
 * found is scored as MiniSearch scores its term matches (exact 1; a prefix completion
 * 0.375 × len / (len + 0.3 × extra letters); a fuzzy one 0.45 × len / (len + edits)).
 * Compact postings (CSR: one Int32Array of positions, one of offsets per word) then map each
 * word to the tracks whose title has it, and to the albums whose name, artist or genre has it
 * (a bit per field). A track or album must match every query word (AND); its score is the sum
 * over the query words of the best (word score × field weight) among its fields.
 *
 * "Best match" ranks by tier first (issue #41, ADR 0142), then by that score, then title
 * (tracks) or catalog (albums) order. Tiers 0–3 match every word exactly or as a completion:
 * 0 the title (album view: the album name) is the query's words, each whole; 1 it starts with
 * the first word typed and holds the others; 2 it holds every word; 3 some word is found only in
 * another field (album, artist, genre; album view: artist, genre, a track title). Tiers 4–7 are
 * the same four for a match where some word is found only with an edit ("nihgt": "Night", then
 * "Night Drive", then "Into the Night"…). The tier is carried in the score, TIER_STEP × (7 −
 * tier) + score (tiers.ts), so every consumer of the scores (the track view's pageOf, rankedAlbums) orders
 * by it unchanged.
 */

/** Field bits of the album postings. */
export const NAME = 1;
export const ARTIST = 2;
export const GENRE = 4;

/** Field weights: what a match in each field is worth, per view. */
const TRACK_WEIGHTS = { title: 1, album: 0.8, artist: 0.8, genre: 0.5 };
const ALBUM_WEIGHTS = { album: 1, artist: 0.8, genre: 0.5, title: 0.4 };

/** Vocabulary words taken per query word (the best scored): a one-letter prefix must not expand to thousands. */
const MAX_EXPANSIONS = 64;
interface Expansion {
  id: number;
  score: number;
  kind: number;
}
/** MiniSearch's default weights of prefix and fuzzy matches (its `searchOptions.weights`). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Edits allowed: none below 4 letters, then a fifth of the word's length rounded (MiniSearch's `fuzzy: 0.2`), at most 2. */
const maxEdits = (word: string) => (word.length < 4 ? 0 : Math.min(2, Math.round(word.length * 0.2)));

let searches = 0;

/**
 * Positions (each once) in ascending order: sorted when they are few, else set in a bitset
 * and read back word by word (a sixteenth of the catalog or more: no sort; the bitset is
 * 312 KB at 2.5 million tracks, left zero again as it is read).
 */
function ascending(hit: Int32Array, bits: Uint32Array): Int32Array {
  if (hit.length * 16 < bits.length * 32) return hit.sort();
  for (let j = 0; j < hit.length; j++) bits[hit[j] >>> 5] |= 1 << (hit[j] & 31);
  const out = new Int32Array(hit.length);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    if (x === 0) continue;
    bits[w] = 0;
    while (x !== 0) {
      out[k++] = (w << 5) | (31 - Math.clz32(x & -x));
      x &= x - 1;
    }
  }
  return out;
}

interface SearchParts {
  table: TrackTable;
  /** the number of vocabulary words (their ids are 0 … vocabulary − 1) */
  vocabulary: number;
  vocabularyMap: SearchableMap<number>;
  trackPostings: Postings;
  albumPostings: Postings & { bits: Uint8Array };
}

/**
 * The scratch arrays and scoring steps the two queries share. Scratch per query word, reused
 * across queries (a query runs whole, synchronously): a score and the stamp of the word that set
 * it, so nothing is cleared between words.
 */
function createScoring(ix: SearchParts) {
  const { table, vocabularyMap, trackPostings, albumPostings } = ix;
  const T = table.count;
  const A = table.albums.length;
  const trackScore = new Float32Array(T);
  const trackStamp = new Uint32Array(T);
  const albumScore = new Float32Array(A);
  const albumStamp = new Uint32Array(A);
  // how the stamped word matched: a track's title; an album's fields (any) and its name
  const trackKind = new Uint8Array(T);
  const albumKind = new Uint8Array(A);
  const nameKind = new Uint8Array(A);
  let stamp = 0;

  /** The vocabulary words a query word stands for, with a score for each (best first, at most MAX_EXPANSIONS). */
  const expand = (word: string): Expansion[] => {
    const found = new Map<number, Expansion>();
    const exact = vocabularyMap.get(word);
    if (exact !== undefined) found.set(exact, { id: exact, score: 1, kind: EXACT });
    for (const [term, id] of vocabularyMap.atPrefix(word)) {
      const extra = term.length - word.length;
      if (extra > 0) found.set(id, { id, score: (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * extra), kind: PREFIX });
    }
    const edits = maxEdits(word);
    if (edits) {
      for (const [id, { distance, length }] of fuzzyWords(vocabularyMap, word, edits).found) {
        // a prefix completion keeps its prefix score (as in MiniSearch)
        if (distance > 0 && !found.has(id)) found.set(id, { id, score: (FUZZY_WEIGHT * length) / (length + distance), kind: FUZZY });
      }
    }
    const list = [...found.values()];
    list.sort((x, y) => y.score - x.score || x.id - y.id);
    return list.slice(0, MAX_EXPANSIONS);
  };

  const albumFieldWeight = (bits: number, w: { album: number; artist: number; genre: number }) =>
    Math.max(bits & NAME ? w.album : 0, bits & ARTIST ? w.artist : 0, bits & GENRE ? w.genre : 0);

  /**
   * Sets this word's album scores (album fields, and for the album view its tracks' titles) and
   * how it matched them (albumKind: any field; nameKind: the album name); returns the albums set.
   */
  const scoreAlbums = (expansions: Expansion[], weights: typeof ALBUM_WEIGHTS | typeof TRACK_WEIGHTS, withTitles: boolean, out: Int32Column | null) => {
    for (const { id, score, kind } of expansions) {
      for (let i = albumPostings.offsets[id]; i < albumPostings.offsets[id + 1]; i++) {
        const a = albumPostings.docs[i];
        const bits = albumPostings.bits[i];
        const s = score * albumFieldWeight(bits, weights);
        const byName = bits & NAME ? kind : 0;
        if (albumStamp[a] !== stamp) {
          albumStamp[a] = stamp;
          albumScore[a] = s;
          albumKind[a] = kind;
          nameKind[a] = byName;
          out?.push(a);
        } else {
          if (s > albumScore[a]) albumScore[a] = s;
          if (kind > albumKind[a]) albumKind[a] = kind;
          if (byName > nameKind[a]) nameKind[a] = byName;
        }
      }
      if (!withTitles) continue;
      for (let i = trackPostings.offsets[id]; i < trackPostings.offsets[id + 1]; i++) {
        const a = table.trackAlbum[trackPostings.docs[i]];
        const s = score * weights.title;
        if (albumStamp[a] !== stamp) {
          albumStamp[a] = stamp;
          albumScore[a] = s;
          albumKind[a] = kind;
          nameKind[a] = 0;
          out?.push(a);
        } else {
          if (s > albumScore[a]) albumScore[a] = s;
          if (kind > albumKind[a]) albumKind[a] = kind;
        }
      }
    }
  };

  /** Sets this word's title scores and how it matched each title (trackKind); returns the tracks set. */
  const scoreTitles = (expansions: Expansion[], out: Int32Column | null) => {
    for (const { id, score, kind } of expansions) {
      const s = score * TRACK_WEIGHTS.title;
      for (let i = trackPostings.offsets[id]; i < trackPostings.offsets[id + 1]; i++) {
        const t = trackPostings.docs[i];
        if (trackStamp[t] !== stamp) {
          trackStamp[t] = stamp;
          trackScore[t] = s;
          trackKind[t] = kind;
          out?.push(t);
        } else {
          if (s > trackScore[t]) trackScore[t] = s;
          if (kind > trackKind[t]) trackKind[t] = kind;
        }
      }
    }
  };

  /** How many documents a word's expansions reach, roughly: the word with the fewest goes first. */
  const reach = (expansions: { id: number }[], albumTracks: number) => {
    let n = 0;
    for (const { id } of expansions) {
      n += trackPostings.offsets[id + 1] - trackPostings.offsets[id];
      n += (albumPostings.offsets[id + 1] - albumPostings.offsets[id]) * albumTracks;
    }
    return n;
  };

  // one bit per track and per album, all zero between queries
  const trackBits = new Uint32Array((T >>> 5) + 1);
  const albumBits = new Uint32Array((A >>> 5) + 1);

  /** A new stamp for the next query word (the scores it sets are the ones stamped with it). */
  const nextStamp = () => {
    stamp++;
    if (stamp === 0xffffffff) {
      trackStamp.fill(0);
      albumStamp.fill(0);
      stamp = 1;
    }
    return stamp;
  };


  // how each vocabulary word stands for the first word typed (0: not), set per query and cleared
  // after it: read once per candidate by the tiers, where a Map lookup cost a sixth of a search
  const firstKind = new Uint8Array(ix.vocabulary);
  /** Marks the words the first word typed stands for, and how (tiers 1 and 5: a title starting with it); returns them to clear. */
  const markFirstWord = (q: string, qw: string[], expanded: Expansion[][]): Expansion[] => {
    const first = words(q)[0]?.slice(0, MAX_SEARCH_WORD_LENGTH);
    const at = first === undefined ? -1 : qw.indexOf(first);
    if (at < 0) return [];
    for (const e of expanded[at]) firstKind[e.id] = e.kind;
    return expanded[at];
  };
  const clearFirstWord = (marked: Expansion[]) => {
    for (const e of marked) firstKind[e.id] = 0;
  };

  const scratchBytes =
    trackScore.byteLength + trackStamp.byteLength + albumScore.byteLength + albumStamp.byteLength + trackBits.byteLength + albumBits.byteLength + trackKind.byteLength + albumKind.byteLength + nameKind.byteLength + firstKind.byteLength;
  return { T, A, trackScore, trackStamp, trackKind, albumScore, albumStamp, albumKind, nameKind, trackBits, albumBits, firstKind, expand, scoreAlbums, scoreTitles, reach, nextStamp, markFirstWord, clearFirstWord, scratchBytes };
}

export function searchOver(
  table: TrackTable,
  vocabularyMap: SearchableMap<number>,
  vocabulary: number,
  trackPostings: Postings,
  albumPostings: Postings & { bits: Uint8Array },
  heads: { titles: Int32Array; names: Int32Array },
  vocabBytes: number,
): CatalogSearch {
  const ix = { table, vocabulary, vocabularyMap, trackPostings, albumPostings };
  const sc = createScoring(ix);
  const { T, A, trackScore, trackStamp, trackKind, albumScore, albumStamp, albumKind, nameKind, trackBits, albumBits, firstKind, expand, scoreAlbums, scoreTitles, reach, nextStamp } = sc;
  const V = firstKind.length;

  /** The scores with each one's tier put in front (TIER_STEP × (7 − tier) + score); the first word typed marked in firstKind. */
  const tiered = (positions: Int32Array, scores: Float32Array, flags: Uint8Array, headOf: Int32Array, words: number) => {
    for (let j = 0; j < positions.length; j++) {
      const head = headOf[positions[j]];
      const word = headWord(head);
      const whole = headCount(head) === words ? 1 : 0;
      scores[j] += tierScore(flags[j], word < V ? firstKind[word] : 0, whole);
    }
    return scores;
  };

  const tracks = (q: string): SearchHits | null => {
    let stamp: number;
    const qw = queryWords(q);
    if (!qw.length) return null;
    const perAlbum = A ? T / A : 0;
    const expanded = qw.map(expand);
    if (expanded.some((e) => e.length === 0)) return { tracks: new Int32Array(0), scores: new Float32Array(0) };
    const marked = sc.markFirstWord(q, qw, expanded);
    expanded.sort((x, y) => reach(x, perAlbum) - reach(y, perAlbum));

    // the first word: every track it reaches, by title or through its album
    stamp = nextStamp();
    const hit = new Int32Column(1024);
    const albumsHit = new Int32Column(256);
    scoreTitles(expanded[0], hit);
    scoreAlbums(expanded[0], TRACK_WEIGHTS, false, albumsHit);
    const albumList = albumsHit.finish();
    for (let j = 0; j < albumList.length; j++) {
      const a = albumList[j];
      const s = albumScore[a];
      for (let t = table.albumStart[a]; t < table.albumStart[a + 1]; t++) {
        if (trackStamp[t] !== stamp) {
          trackStamp[t] = stamp;
          trackScore[t] = s;
          trackKind[t] = 0;
          hit.push(t);
        } else if (s > trackScore[t]) trackScore[t] = s;
      }
    }
    let candidates = ascending(hit.finish(), trackBits);
    let scores = new Float32Array(candidates.length);
    let flags = new Uint8Array(candidates.length);
    for (let j = 0; j < candidates.length; j++) {
      const t = candidates[j];
      const a = table.trackAlbum[t];
      const byAlbum = albumStamp[a] === stamp ? albumKind[a] : 0;
      scores[j] = trackScore[t];
      flags[j] = flagsOf(trackKind[t], Math.max(trackKind[t], byAlbum));
    }

    // every further word: keep the candidates it reaches too, adding its best field score
    for (let w = 1; w < expanded.length && candidates.length; w++) {
      stamp = nextStamp();
      scoreTitles(expanded[w], null);
      scoreAlbums(expanded[w], TRACK_WEIGHTS, false, null);
      let kept = 0;
      for (let j = 0; j < candidates.length; j++) {
        const t = candidates[j];
        const a = table.trackAlbum[t];
        const inTitle = trackStamp[t] === stamp;
        const inAlbum = albumStamp[a] === stamp;
        if (!inTitle && !inAlbum) continue;
        const byTitle = inTitle ? trackScore[t] : 0;
        const titleKind = inTitle ? trackKind[t] : 0;
        const byAlbum = inAlbum ? albumScore[a] : 0;
        candidates[kept] = t;
        flags[kept] = combine(flags[j], flagsOf(titleKind, Math.max(titleKind, inAlbum ? albumKind[a] : 0)));
        scores[kept++] = scores[j] + Math.max(byTitle, byAlbum);
      }
      candidates = candidates.slice(0, kept);
      scores = scores.slice(0, kept);
      flags = flags.subarray(0, kept);
    }
    const tracksHit = { tracks: candidates, scores: tiered(candidates, scores, flags, heads.titles, qw.length) };
    sc.clearFirstWord(marked);
    return tracksHit;
  };

  const albums = (q: string): AlbumHits | null => {
    let stamp: number;
    const qw = queryWords(q);
    if (!qw.length) return null;
    const expanded = qw.map(expand);
    if (expanded.some((e) => e.length === 0)) return { albums: new Int32Array(0), scores: new Float32Array(0) };
    const marked = sc.markFirstWord(q, qw, expanded);
    expanded.sort((x, y) => reach(x, 1) - reach(y, 1));
    nextStamp();
    const hit = new Int32Column(256);
    scoreAlbums(expanded[0], ALBUM_WEIGHTS, true, hit);
    let candidates = ascending(hit.finish(), albumBits);
    let scores = new Float32Array(candidates.length);
    let flags = new Uint8Array(candidates.length);
    for (let j = 0; j < candidates.length; j++) {
      const a = candidates[j];
      scores[j] = albumScore[a];
      flags[j] = flagsOf(nameKind[a], albumKind[a]);
    }
    for (let w = 1; w < expanded.length && candidates.length; w++) {
      stamp = nextStamp();
      scoreAlbums(expanded[w], ALBUM_WEIGHTS, true, null);
      let kept = 0;
      for (let j = 0; j < candidates.length; j++) {
        const a = candidates[j];
        if (albumStamp[a] === stamp) {
          candidates[kept] = a;
          flags[kept] = combine(flags[j], flagsOf(nameKind[a], albumKind[a]));
          scores[kept++] = scores[j] + albumScore[a];
        }
      }
      candidates = candidates.slice(0, kept);
      scores = scores.slice(0, kept);
      flags = flags.subarray(0, kept);
    }
    const albumsHit = { albums: candidates, scores: tiered(candidates, scores, flags, heads.names, qw.length) };
    sc.clearFirstWord(marked);
    return albumsHit;
  };

  const postingBytes =
    trackPostings.offsets.byteLength + trackPostings.docs.byteLength + albumPostings.offsets.byteLength + albumPostings.docs.byteLength + albumPostings.bits.byteLength + heads.titles.byteLength + heads.names.byteLength;
  return {
    id: ++searches,
    albumTable: table.albums,
    vocabulary,
    normalize: (q) => queryWords(q).join(" "),
    tracks,
    albums,
    bytes: () => postingBytes + sc.scratchBytes + vocabBytes,
  };
}
