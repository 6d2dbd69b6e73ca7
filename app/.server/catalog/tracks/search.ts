import { matchesSearch, searchWords } from "../../../lib/catalog/matching.ts";
import type { SearchHits, TrackSearcher } from "./query.ts";
import type { TableTextSink, TrackTable } from "./table.ts";
import type { Yielder } from "./yielding.ts";

/**
 * The track view's search (issue #10). First version: every word of `q` is a substring of the
 * track's title, album, artist or genre (the album view's rule, spec §5); all hits score 1.
 */
export interface TrackSearch extends TrackSearcher {
  readonly sink: TableTextSink;
  finish(table: TrackTable, yielder: Yielder): Promise<void>;
}

export function createTrackSearch(): TrackSearch {
  const titles: string[] = [];
  const albumText: string[] = [];
  let table: TrackTable | null = null;
  return {
    sink: {
      track: (t, title) => void (titles[t] = title.toLowerCase()),
      album: (a, name, artist, genre) => void (albumText[a] = `${name}\u0000${artist}\u0000${genre}`.toLowerCase()),
    },
    async finish(t) {
      table = t;
    },
    normalize: (q) => searchWords(q).join(" "),
    tracks(q) {
      const words = searchWords(q);
      if (!words.length || !table) return null;
      const out: number[] = [];
      for (let t = 0; t < table.count; t++) {
        if (matchesSearch(`${titles[t]}\u0000${albumText[table.trackAlbum[t]]}`, words)) out.push(t);
      }
      const hits: SearchHits = { tracks: Int32Array.from(out), scores: new Float32Array(out.length).fill(1) };
      return hits;
    },
  };
}
