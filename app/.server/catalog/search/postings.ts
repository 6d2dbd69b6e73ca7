import { Int32Column } from "../tracks/columns.ts";
import { words } from "./words.ts";
import type { Postings, TitlePostings } from "./types.ts";

/** Titles whose words are remembered during a build (the sample catalog repeats titles a lot). */
const TOKEN_CACHE = 50_000;

/** Pairs (word, document), then grouped by word: CSR offsets + documents (+ field bits). */
export function groupByWord(vocabulary: number, wordOf: Int32Array, docOf: Int32Array, bitsOf?: Uint8Array) {
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
export class Vocabulary {
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

/** Bits of a head (below) that hold the word id; the 5 above hold the count. */
const HEAD_ID_BITS = 27;
const HEAD_NO_WORD = (1 << HEAD_ID_BITS) - 1;
/** A text without words. */
export const EMPTY_HEAD = HEAD_NO_WORD;

/**
 * A text's head: its first word's id and how many distinct words it has (at most 31 counted),
 * in one int32, for the ranking's exact and prefix tiers (issue #41, ADR 0142: "Night" is the
 * title "night", "Night Drive" starts with it). 4 bytes a track.
 */
export function headOf(ids: readonly number[]): number {
  if (!ids.length || ids[0] >= HEAD_NO_WORD) return EMPTY_HEAD;
  return (Math.min(ids.length, 31) << HEAD_ID_BITS) | ids[0];
}
export const headWord = (head: number) => head & HEAD_NO_WORD;
export const headCount = (head: number) => head >>> HEAD_ID_BITS;

/** `heads` at exactly `n` entries (a text never given has none). */
export function headsFor(heads: Int32Array, n: number): Int32Array {
  if (heads.length === n) return heads;
  const out = new Int32Array(n).fill(EMPTY_HEAD);
  out.set(heads.subarray(0, n));
  return out;
}

export function titleCollector(vocab: Vocabulary) {
  const trackWord = new Int32Column(1 << 16);
  const trackDoc = new Int32Column(1 << 16);
  const heads = new Int32Column(1 << 16);
  return {
    track(t: number, title: string) {
      const ids = vocab.idsOf(title);
      for (const id of ids) {
        trackWord.push(id);
        trackDoc.push(t);
      }
      while (heads.length < t) heads.push(EMPTY_HEAD);
      if (heads.length === t) heads.push(headOf(ids));
    },
    /** The postings over a vocabulary of `V` words (album words may follow the titles' ones), and each track's title head. */
    finish(V: number): Postings & { heads: Int32Array } {
      const { offsets, docs } = groupByWord(V, trackWord.finish(), trackDoc.finish());
      return { offsets, docs, heads: heads.finish() };
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
export function stretched(titles: Pick<TitlePostings, "offsets" | "docs">, V: number): Postings {
  if (titles.offsets.length === V + 1) return { offsets: titles.offsets, docs: titles.docs };
  const offsets = new Int32Array(V + 1);
  offsets.set(titles.offsets);
  offsets.fill(titles.offsets[titles.offsets.length - 1] ?? 0, titles.offsets.length);
  return { offsets, docs: titles.docs };
}
