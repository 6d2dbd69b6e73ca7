import SearchableMap from "minisearch/SearchableMap";
import { Int32Column } from "../tracks/columns.ts";
import type { TableTextSink } from "../tracks/table.ts";
import { EMPTY_HEAD, groupByWord, headOf, headsFor, stretched, titleCollector, Vocabulary } from "./postings.ts";
import { ARTIST, GENRE, NAME, searchOver } from "./scoring.ts";
import type { TitlePostings, TrackSearchBuilder } from "./types.ts";

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
  // each album name's head (first word, word count): the album view's exact and prefix tiers (ADR 0142)
  const nameHeads = new Int32Column(1 << 12);

  const sink: TableTextSink = {
    track(t, title) {
      if (!collector) throw new Error("the track titles were indexed by the build worker");
      collector.track(t, title);
    },
    album(a, name, artist, genre) {
      perAlbum.clear();
      while (nameHeads.length < a) nameHeads.push(EMPTY_HEAD);
      if (nameHeads.length === a) nameHeads.push(headOf(vocab.idsOf(name)));
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
      const collected = titles ? null : collector!.finish(V);
      const tracks = titles ? stretched(titles, V) : collected!;
      const heads = { titles: headsFor(titles ? titles.heads : collected!.heads, table.count), names: headsFor(nameHeads.finish(), table.albums.length) };
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
      return searchOver(table, vocabulary, V, tracks, albums as { offsets: Int32Array; docs: Int32Array; bits: Uint8Array }, heads, vocabBytes);
    },
  };
}
