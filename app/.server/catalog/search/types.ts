import type { AlbumTable } from "../album-table.ts";
import type { TableTextSink, TrackTable } from "../tracks/table.ts";
import type { Yielder } from "../tracks/yielding.ts";

/** Search hits: track positions (ascending) and a score each (higher is better). */
export interface SearchHits {
  tracks: Int32Array;
  scores: Float32Array;
}

export interface TrackSearcher {
  /** the tracks matching every word of `q`, or null when `q` has no word */
  tracks(q: string): SearchHits | null;
  /** the normalised form of `q` for cache keys ("" for none) */
  normalize(q: string): string;
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

/**
 * The track titles' words and their postings (word → tracks), as the build worker makes them
 * (build-thread.ts): the words are ids 0 … words.length - 1 of the search's vocabulary.
 */
export interface TitlePostings {
  words: string[];
  offsets: Int32Array;
  docs: Int32Array;
  /** each track's title head (postings.ts headOf: first word id and word count) */
  heads: Int32Array;
}

/** A word's documents, CSR: documents of word w are docs[offsets[w]] … docs[offsets[w + 1] - 1]. */
export interface Postings {
  offsets: Int32Array;
  docs: Int32Array;
}
