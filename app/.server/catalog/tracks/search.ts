import SearchableMap from "minisearch/SearchableMap";
import type { AlbumTable } from "../album-table.ts";
import { MAX_SEARCH_WORD_LENGTH, MAX_SEARCH_WORDS } from "../../../lib/catalog/matching.ts";
import { Int32Column } from "./columns.ts";
import type { SearchHits, TrackSearcher } from "./query.ts";
import type { TableTextSink, TrackTable } from "./table.ts";
import type { Yielder } from "./yielding.ts";

/**
 * The catalog's typo-tolerant, prefix-aware search, for the track view and the album view
 * (issue #10, ADR 0099). The library (MiniSearch's radix tree, SearchableMap) indexes the
 * distinct *words* of track titles, album names, artists and genre paths (a few hundred in the
 * sample catalog, some hundred thousand in a large real one), not the 2.5 million tracks: one
 * MiniSearch document per track measured 520 bytes a track, 1.3 GB at 2.5 million (ADR 0099).
 * A query word is looked up in that vocabulary with the tree's prefix walk and its fuzzy
 * (Levenshtein) search — "ocen" → ocean, "bosa" → bossa, "heal" → healing — and each word
 * found is scored as MiniSearch scores its term matches (exact 1; a prefix completion
 * 0.375 × len / (len + 0.3 × extra letters); a fuzzy one 0.45 × len / (len + edits)).
 * Compact postings (CSR: one Int32Array of positions, one of offsets per word) then map each
 * word to the tracks whose title has it, and to the albums whose name, artist or genre has it
 * (a bit per field). A track or album must match every query word (AND); its score is the sum
 * over the query words of the best (word score × field weight) among its fields.
 */

/** Field bits of the album postings. */
const NAME = 1;
const ARTIST = 2;
const GENRE = 4;

/** Field weights: what a match in each field is worth, per view. */
const TRACK_WEIGHTS = { title: 1, album: 0.8, artist: 0.8, genre: 0.5 };
const ALBUM_WEIGHTS = { album: 1, artist: 0.8, genre: 0.5, title: 0.4 };

/** Vocabulary words taken per query word (the best scored): a one-letter prefix must not expand to thousands. */
const MAX_EXPANSIONS = 64;
/** MiniSearch's default weights of prefix and fuzzy matches (its `searchOptions.weights`). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** Edits allowed: none below 4 letters, then a fifth of the word's length rounded (MiniSearch's `fuzzy: 0.2`), at most 2. */
const maxEdits = (word: string) => (word.length < 4 ? 0 : Math.min(2, Math.round(word.length * 0.2)));
/** Titles whose words are remembered during a build (the sample catalog repeats titles a lot). */
const TOKEN_CACHE = 50_000;

/** A text's words: lower-cased, accents dropped ("Quinceañera" → quinceanera), split at anything not a letter or digit. */
export function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The query's words: distinct, at most MAX_SEARCH_WORDS, each cut to MAX_SEARCH_WORD_LENGTH (as the album view's searchWords), sorted. */
export function queryWords(q: string): string[] {
  const unique = new Set<string>();
  for (const w of words(q)) {
    unique.add(w.slice(0, MAX_SEARCH_WORD_LENGTH));
    if (unique.size === MAX_SEARCH_WORDS) break;
  }
  return [...unique].sort();
}

export interface AlbumHits {
  /** album positions (ascending) and a score each */
  albums: Int32Array;
  scores: Float32Array;
}

export interface CatalogSearch extends TrackSearcher {
  /** different for every search built (cache keys) */
  readonly id: number;
  /** the album table it indexed (positions in AlbumHits are its positions) */
  readonly albumTable: AlbumTable;
  albums(q: string): AlbumHits | null;
  /** bytes held: postings, scratch arrays, and an estimate of the vocabulary index */
  bytes(): number;
  readonly vocabulary: number;
}

export interface TrackSearchBuilder {
  readonly sink: TableTextSink;
  finish(table: TrackTable, yielder: Yielder): Promise<CatalogSearch>;
}

/** Pairs (word, document), then grouped by word: CSR offsets + documents (+ field bits). */
function groupByWord(vocabulary: number, wordOf: Int32Array, docOf: Int32Array, bitsOf?: Uint8Array) {
  const offsets = new Int32Array(vocabulary + 1);
  for (let i = 0; i < wordOf.length; i++) offsets[wordOf[i] + 1]++;
  for (let w = 0; w < vocabulary; w++) offsets[w + 1] += offsets[w];
  const next = offsets.slice(0, vocabulary);
  const docs = new Int32Array(wordOf.length);
  const bits = bitsOf ? new Uint8Array(wordOf.length) : null;
  // pairs come in document order, so each word's documents stay ascending
  for (let i = 0; i < wordOf.length; i++) {
    const at = next[wordOf[i]]++;
    docs[at] = docOf[i];
    if (bits) bits[at] = bitsOf![i];
  }
  return { offsets, docs, bits };
}

/** The distinct words met so far, each with an id (its place in `words`). */
class Vocabulary {
  readonly words: string[];
  private readonly ids = new Map<string, number>();
  private readonly tokenCache = new Map<string, number[]>();

  constructor(words: string[] = []) {
    this.words = words;
    for (let i = 0; i < words.length; i++) this.ids.set(words[i], i);
  }

  get size(): number {
    return this.words.length;
  }

  private idOf(w: string): number {
    let id = this.ids.get(w);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(w, id);
      this.words.push(w);
    }
    return id;
  }

  /** The distinct word ids of a text. */
  idsOf(text: string): number[] {
    let ids = this.tokenCache.get(text);
    if (!ids) {
      ids = [...new Set(words(text).map((w) => this.idOf(w)))];
      if (this.tokenCache.size >= TOKEN_CACHE) this.tokenCache.clear();
      this.tokenCache.set(text, ids);
    }
    return ids;
  }

  /** Only the word list stays (the lookups are for the build). */
  release(): void {
    this.ids.clear();
    this.tokenCache.clear();
  }
}

/**
 * The track titles' words and their postings (word → tracks), as the build worker makes them
 * (build-thread.ts): the words are ids 0 … words.length - 1 of the search's vocabulary.
 */
export interface TitlePostings {
  words: string[];
  offsets: Int32Array;
  docs: Int32Array;
}

function titleCollector(vocab: Vocabulary) {
  const trackWord = new Int32Column(1 << 16);
  const trackDoc = new Int32Column(1 << 16);
  return {
    track(t: number, title: string) {
      for (const id of vocab.idsOf(title)) {
        trackWord.push(id);
        trackDoc.push(t);
      }
    },
    /** The postings over a vocabulary of `V` words (album words may follow the titles' ones). */
    finish(V: number): Postings {
      const { offsets, docs } = groupByWord(V, trackWord.finish(), trackDoc.finish());
      return { offsets, docs };
    },
  };
}

/** Collects the titles' words in the track pass (the build worker), without album texts. */
export function createTitleIndexer(): { track(t: number, title: string): void; finish(): TitlePostings } {
  const vocab = new Vocabulary();
  const collector = titleCollector(vocab);
  return {
    track: (t, title) => collector.track(t, title),
    finish() {
      const postings = collector.finish(vocab.size);
      vocab.release();
      return { words: vocab.words, ...postings };
    },
  };
}

/** Title postings over Vt words, stretched to V words (the album words that follow have no titles). */
function stretched(titles: TitlePostings, V: number): Postings {
  if (titles.offsets.length === V + 1) return { offsets: titles.offsets, docs: titles.docs };
  const offsets = new Int32Array(V + 1);
  offsets.set(titles.offsets);
  offsets.fill(titles.offsets[titles.offsets.length - 1] ?? 0, titles.offsets.length);
  return { offsets, docs: titles.docs };
}

/**
 * The search's builder. With `titles` (the build worker's title postings) it takes the album
 * texts only; without, its sink takes the titles too (tools and tests: buildTrackTable).
 */
export function createTrackSearch(titles?: TitlePostings): TrackSearchBuilder {
  const vocab = new Vocabulary(titles ? [...titles.words] : []);
  const collector = titles ? null : titleCollector(vocab);
  const albumWord = new Int32Column(1 << 16);
  const albumDoc = new Int32Column(1 << 16);
  const albumBits: number[] = [];
  const perAlbum = new Map<number, number>();

  const sink: TableTextSink = {
    track(t, title) {
      if (!collector) throw new Error("the track titles were indexed by the build worker");
      collector.track(t, title);
    },
    album(a, name, artist, genre) {
      perAlbum.clear();
      for (const [text, bit] of [
        [name, NAME],
        [artist, ARTIST],
        [genre, GENRE],
      ] as const) {
        for (const id of vocab.idsOf(text)) perAlbum.set(id, (perAlbum.get(id) ?? 0) | bit);
      }
      for (const [id, bits] of perAlbum) {
        albumWord.push(id);
        albumDoc.push(a);
        albumBits.push(bits);
      }
    },
  };

  return {
    sink,
    async finish(table, yielder) {
      vocab.release();
      const list = vocab.words;
      const V = list.length;
      const tracks = titles ? stretched(titles, V) : collector!.finish(V);
      await yielder.yield();
      const albums = groupByWord(V, albumWord.finish(), albumDoc.finish(), Uint8Array.from(albumBits));
      albumBits.length = 0;
      await yielder.yield();
      const vocabulary = new SearchableMap<number>();
      for (let i = 0; i < V; i++) {
        vocabulary.set(list[i], i);
        if ((i & 0xffff) === 0xffff) await yielder.yield();
      }
      // ~ what the radix tree keeps per word (measured: 263 bytes at 300,000 words, ADR 0099), for bytes()
      const vocabBytes = V * 270;
      list.length = 0;
      return searchOver(table, vocabulary, V, tracks, albums as { offsets: Int32Array; docs: Int32Array; bits: Uint8Array }, vocabBytes);
    },
  };
}

let searches = 0;

interface Postings {
  offsets: Int32Array;
  docs: Int32Array;
}

function searchOver(
  table: TrackTable,
  vocabularyMap: SearchableMap<number>,
  vocabulary: number,
  trackPostings: Postings,
  albumPostings: Postings & { bits: Uint8Array },
  vocabBytes: number,
): CatalogSearch {
  const T = table.count;
  const A = table.albums.length;
  // Scratch per query word, reused across queries (a query runs whole, synchronously): a score
  // and the stamp of the word that set it, so nothing is cleared between words.
  const trackScore = new Float32Array(T);
  const trackStamp = new Uint32Array(T);
  const albumScore = new Float32Array(A);
  const albumStamp = new Uint32Array(A);
  let stamp = 0;

  /** The vocabulary words a query word stands for, with a score for each (best first, at most MAX_EXPANSIONS). */
  const expand = (word: string): { id: number; score: number }[] => {
    const found = new Map<number, number>();
    const exact = vocabularyMap.get(word);
    if (exact !== undefined) found.set(exact, 1);
    for (const [term, id] of vocabularyMap.atPrefix(word)) {
      const extra = term.length - word.length;
      if (extra > 0) found.set(id, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * extra));
    }
    const edits = maxEdits(word);
    if (edits) {
      for (const [term, [id, distance]] of vocabularyMap.fuzzyGet(word, edits)) {
        // a prefix completion keeps its prefix score (as in MiniSearch)
        if (distance > 0 && !found.has(id)) found.set(id, (FUZZY_WEIGHT * term.length) / (term.length + distance));
      }
    }
    const list = [...found].map(([id, score]) => ({ id, score }));
    list.sort((x, y) => y.score - x.score || x.id - y.id);
    return list.slice(0, MAX_EXPANSIONS);
  };

  const albumFieldWeight = (bits: number, w: { album: number; artist: number; genre: number }) =>
    Math.max(bits & NAME ? w.album : 0, bits & ARTIST ? w.artist : 0, bits & GENRE ? w.genre : 0);

  /** Sets this word's album scores (album fields, and for the album view its tracks' titles); returns the albums set. */
  const scoreAlbums = (expansions: { id: number; score: number }[], weights: typeof ALBUM_WEIGHTS | typeof TRACK_WEIGHTS, withTitles: boolean, out: Int32Column | null) => {
    for (const { id, score } of expansions) {
      for (let i = albumPostings.offsets[id]; i < albumPostings.offsets[id + 1]; i++) {
        const a = albumPostings.docs[i];
        const s = score * albumFieldWeight(albumPostings.bits[i], weights);
        if (albumStamp[a] !== stamp) {
          albumStamp[a] = stamp;
          albumScore[a] = s;
          out?.push(a);
        } else if (s > albumScore[a]) albumScore[a] = s;
      }
      if (!withTitles) continue;
      for (let i = trackPostings.offsets[id]; i < trackPostings.offsets[id + 1]; i++) {
        const a = table.trackAlbum[trackPostings.docs[i]];
        const s = score * weights.title;
        if (albumStamp[a] !== stamp) {
          albumStamp[a] = stamp;
          albumScore[a] = s;
          out?.push(a);
        } else if (s > albumScore[a]) albumScore[a] = s;
      }
    }
  };

  /** Sets this word's title scores; returns the tracks set. */
  const scoreTitles = (expansions: { id: number; score: number }[], out: Int32Column | null) => {
    for (const { id, score } of expansions) {
      const s = score * TRACK_WEIGHTS.title;
      for (let i = trackPostings.offsets[id]; i < trackPostings.offsets[id + 1]; i++) {
        const t = trackPostings.docs[i];
        if (trackStamp[t] !== stamp) {
          trackStamp[t] = stamp;
          trackScore[t] = s;
          out?.push(t);
        } else if (s > trackScore[t]) trackScore[t] = s;
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

  /**
   * Positions (each once) in ascending order: sorted when they are few, else set in a bitset
   * and read back word by word (a sixteenth of the catalog or more: no sort; the bitset is
   * 312 KB at 2.5 million tracks, left zero again as it is read).
   */
  const ascending = (hit: Int32Array, bits: Uint32Array): Int32Array => {
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
  };

  const nextStamp = () => {
    stamp++;
    if (stamp === 0xffffffff) {
      trackStamp.fill(0);
      albumStamp.fill(0);
      stamp = 1;
    }
  };

  const tracks = (q: string): SearchHits | null => {
    const qw = queryWords(q);
    if (!qw.length) return null;
    const perAlbum = A ? T / A : 0;
    const expanded = qw.map(expand);
    if (expanded.some((e) => e.length === 0)) return { tracks: new Int32Array(0), scores: new Float32Array(0) };
    expanded.sort((x, y) => reach(x, perAlbum) - reach(y, perAlbum));

    // the first word: every track it reaches, by title or through its album
    nextStamp();
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
          hit.push(t);
        } else if (s > trackScore[t]) trackScore[t] = s;
      }
    }
    let candidates = ascending(hit.finish(), trackBits);
    let scores = new Float32Array(candidates.length);
    for (let j = 0; j < candidates.length; j++) scores[j] = trackScore[candidates[j]];

    // every further word: keep the candidates it reaches too, adding its best field score
    for (let w = 1; w < expanded.length && candidates.length; w++) {
      nextStamp();
      scoreTitles(expanded[w], null);
      scoreAlbums(expanded[w], TRACK_WEIGHTS, false, null);
      let kept = 0;
      for (let j = 0; j < candidates.length; j++) {
        const t = candidates[j];
        const a = table.trackAlbum[t];
        const byTitle = trackStamp[t] === stamp ? trackScore[t] : 0;
        const byAlbum = albumStamp[a] === stamp ? albumScore[a] : 0;
        const s = Math.max(byTitle, byAlbum);
        if (s > 0) {
          candidates[kept] = t;
          scores[kept++] = scores[j] + s;
        }
      }
      candidates = candidates.slice(0, kept);
      scores = scores.slice(0, kept);
    }
    return { tracks: candidates, scores };
  };

  const albums = (q: string): AlbumHits | null => {
    const qw = queryWords(q);
    if (!qw.length) return null;
    const expanded = qw.map(expand);
    if (expanded.some((e) => e.length === 0)) return { albums: new Int32Array(0), scores: new Float32Array(0) };
    expanded.sort((x, y) => reach(x, 1) - reach(y, 1));
    nextStamp();
    const hit = new Int32Column(256);
    scoreAlbums(expanded[0], ALBUM_WEIGHTS, true, hit);
    let candidates = ascending(hit.finish(), albumBits);
    let scores = new Float32Array(candidates.length);
    for (let j = 0; j < candidates.length; j++) scores[j] = albumScore[candidates[j]];
    for (let w = 1; w < expanded.length && candidates.length; w++) {
      nextStamp();
      scoreAlbums(expanded[w], ALBUM_WEIGHTS, true, null);
      let kept = 0;
      for (let j = 0; j < candidates.length; j++) {
        const a = candidates[j];
        if (albumStamp[a] === stamp) {
          candidates[kept] = a;
          scores[kept++] = scores[j] + albumScore[a];
        }
      }
      candidates = candidates.slice(0, kept);
      scores = scores.slice(0, kept);
    }
    return { albums: candidates, scores };
  };

  const postingBytes = trackPostings.offsets.byteLength + trackPostings.docs.byteLength + albumPostings.offsets.byteLength + albumPostings.docs.byteLength + albumPostings.bits.byteLength;
  const scratchBytes = trackScore.byteLength + trackStamp.byteLength + albumScore.byteLength + albumStamp.byteLength + trackBits.byteLength + albumBits.byteLength;
  return {
    id: ++searches,
    albumTable: table.albums,
    vocabulary,
    normalize: (q) => queryWords(q).join(" "),
    tracks,
    albums,
    bytes: () => postingBytes + scratchBytes + vocabBytes,
  };
}

/**
 * Positions best score first, ties by their rank in another order (ascending): one float key
 * per position, (2^20 steps below the best score) × n + rank, sorted natively — exact in a
 * double up to n = 8 million. `docOfRank` turns a rank back into its position.
 */
export function orderByScore(docs: Int32Array, scores: Float32Array, n: number, rankOf: (doc: number) => number, docOfRank: (rank: number) => number): Int32Array {
  const m = docs.length;
  let max = 0;
  for (let j = 0; j < m; j++) if (scores[j] > max) max = scores[j];
  const step = (j: number) => Math.floor((1 - (max > 0 ? scores[j] / max : 0)) * 0xfffff);
  if (m * 16 >= n) {
    // many positions: the scores take few distinct values (sums of a few word scores × field
    // weights), so a counting sort by score step over the other order, O(n + m), beats sorting
    const stepOf = new Map<number, number>();
    const slotOfDoc = new Int32Array(n).fill(-1);
    for (let j = 0; j < m; j++) {
      const s = step(j);
      if (!stepOf.has(s)) stepOf.set(s, stepOf.size);
      slotOfDoc[docs[j]] = stepOf.get(s)!;
    }
    if (stepOf.size <= 4096) {
      const steps = [...stepOf.keys()].sort((a, b) => a - b);
      const bucketOfSlot = new Int32Array(stepOf.size);
      steps.forEach((s, bucket) => (bucketOfSlot[stepOf.get(s)!] = bucket));
      const starts = new Int32Array(steps.length + 1);
      for (let j = 0; j < m; j++) starts[bucketOfSlot[slotOfDoc[docs[j]]] + 1]++;
      for (let b = 0; b < steps.length; b++) starts[b + 1] += starts[b];
      const out = new Int32Array(m);
      for (let r = 0; r < n; r++) {
        const d = docOfRank(r);
        const slot = slotOfDoc[d];
        if (slot >= 0) out[starts[bucketOfSlot[slot]]++] = d;
      }
      return out;
    }
  }
  const keys = new Float64Array(m);
  for (let j = 0; j < m; j++) keys[j] = step(j) * n + rankOf(docs[j]);
  keys.sort();
  const out = new Int32Array(m);
  for (let j = 0; j < m; j++) out[j] = docOfRank(keys[j] % n);
  return out;
}

/** Album positions matching `q` and `keep` (the genre filter), best first, ties in catalog order (the album view, issue #10). */
export function rankedAlbums(search: CatalogSearch, q: string, keep: (a: number) => boolean): Int32Array {
  const hits = search.albums(q);
  if (!hits) return new Int32Array(0);
  const kept: number[] = [];
  const scores: number[] = [];
  for (let j = 0; j < hits.albums.length; j++) {
    if (keep(hits.albums[j])) {
      kept.push(hits.albums[j]);
      scores.push(hits.scores[j]);
    }
  }
  const n = search.albumTable.length;
  return orderByScore(Int32Array.from(kept), Float32Array.from(scores), n, (a) => a, (r) => r);
}

/**
 * The search of a catalog service's current track index, for the album view (index.ts): the
 * album index is rebuilt synchronously per catalog version while this one is built in the
 * background with the track table, so the album view asks for the latest one and checks that it
 * indexed the same album table.
 */
const published = new WeakMap<object, CatalogSearch>();

export function publishSearch(source: object, search: CatalogSearch): void {
  published.set(source, search);
}

export function publishedSearch(source: object): CatalogSearch | null {
  return published.get(source) ?? null;
}
