// The vocabulary of a catalog's names (issue #32): how many distinct words its track titles,
// album names and artists hold, and how much of the running text the most common words take
// (a real catalog's words follow Zipf's law, and their number grows with the catalog: Heaps' law).
// Words are runs of letters (marks included), lower-cased; a script written without spaces
// counts a run as one word.
export interface VocabularyFigures {
  albums: number;
  tracks: number;
  tokens: number;
  distinct: number;
  /** the most common words and their share of all tokens */
  top: { word: string; share: number }[];
  /** share of the tokens taken by the 10 and the 100 most common words */
  top10: number;
  top100: number;
  /** words seen once */
  hapax: number;
}

export class VocabularyCounter {
  private counts = new Map<string, number>();
  private tokens = 0;
  albums = 0;
  tracks = 0;

  add(text: string) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{M}]+/u)) {
      if (!word) continue;
      this.tokens++;
      this.counts.set(word, (this.counts.get(word) ?? 0) + 1);
    }
  }

  addAlbum(album: { name: string; artist: string; tracks: { Filename: string }[] }) {
    this.albums++;
    this.add(album.name);
    this.add(album.artist);
    for (const t of album.tracks) {
      this.tracks++;
      this.add(t.Filename);
    }
  }

  figures(topN = 10): VocabularyFigures {
    const sorted = [...this.counts].sort((a, b) => b[1] - a[1]);
    const share = (n: number) => sorted.slice(0, n).reduce((s, [, c]) => s + c, 0) / (this.tokens || 1);
    return {
      albums: this.albums,
      tracks: this.tracks,
      tokens: this.tokens,
      distinct: sorted.length,
      top: sorted.slice(0, topN).map(([word, c]) => ({ word, share: c / (this.tokens || 1) })),
      top10: share(10),
      top100: share(100),
      hapax: sorted.filter(([, c]) => c === 1).length,
    };
  }
}

export function formatVocabulary(f: VocabularyFigures): string {
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  return [
    `${f.albums.toLocaleString("en-US")} albums, ${f.tracks.toLocaleString("en-US")} tracks: ${f.distinct.toLocaleString("en-US")} distinct words in ${f.tokens.toLocaleString("en-US")} (${f.hapax.toLocaleString("en-US")} seen once)`,
    `top 10 words ${pct(f.top10)} of the text, top 100 ${pct(f.top100)}; most common: ${f.top.map((t) => `${t.word} ${pct(t.share)}`).join(", ")}`,
  ].join("\n");
}
