import { describe, expect, it } from "vitest";
import type { Album } from "../../../lib/catalog/types.ts";
import type { TrackQuery } from "../../../lib/catalog/track-query.ts";
import type { TrackAnalysis } from "../../analysis/analyze.ts";
import type { AnalysisFigures, AnalysisLookup, FiguresCursor } from "../../analysis/stage/types.ts";
import type { CatalogSource } from "../index.ts";
import type { CatalogSnapshot } from "../service.ts";
import { createCatalogIndexes } from "../indexes.ts";
import type { TrackIndex } from "./track-index.ts";
import { parseCatalogState } from "../../../lib/catalog/url-state.ts";
import { NO_YIELD } from "./yielding.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openSqliteDatabase } from "../../analysis/stage/store-sqlite.ts";
import type { Logger } from "../../logger.ts";

// The track view's index (issue #10): filters, key counts, orders, rows, and its rebuilds.

const track = (title: string, key: string) => ({ s3Path: key, Filename: `${title}.mp3` });
const album = (id: string, name: string, artist: string, genre: string, keywords: string[], tracks: Album["tracks"]): Album => ({
  id,
  name,
  artist,
  genre,
  artwork: "",
  keywords,
  featured: false,
  tracks,
});

const ALBUMS: Album[] = [
  album("a0", "Ocean Mind Healing", "Ana Costa", "Relaxing", ["relaxing", "mind healing"], [track("Ocean Mind Healing", "k1.mp3"), track("Deep Sleep", "k2.mp3")]),
  album("a1", "Bossa Nova Nights", "Diego Silva", "Brazilian", ["brazilian", "bossa nova & samba"], [track("Samba Sunrise", "k3.mp3"), track("Ocean Drive", "k4.mp3")]),
  album("a2", "Mind Games", "The Quiet Trio", "Jazz", ["jazz", "oldies jazz"], [track("Minded", "k5.mp3"), { s3Path: "", Filename: "No Audio.mp3" }]),
  album("a3", "Ghana Nights", "Kofi Mensah", "African", ["african", "ghana"], [track("Highlife", "k1.mp3")]),
];

const analysisOf = (seconds: number, bpm: number | null, key: string | null): TrackAnalysis => ({
  durationSeconds: seconds,
  bpm,
  bpmConfidence: 0.9,
  key,
  keyConfidence: 0.9,
  loudnessLufs: -14,
  previewPeaks: [0.5, 1],
  overviewPeaks: [0.5],
  analyzerVersion: 2,
});

/** An analysis lookup over a map, with figures in result order (as the store gives them). */
function fakeAnalysis(initial: Record<string, TrackAnalysis>) {
  const results = new Map<string, { analysis: TrackAnalysis | null; seq: number }>();
  let seq = 1000;
  let version = 1;
  const set = (key: string, analysis: TrackAnalysis | null) => results.set(key, { analysis, seq: seq++ });
  for (const [k, a] of Object.entries(initial)) set(k, a);
  const lookup: AnalysisLookup & { set: typeof set; bump(): void; reads: number } = {
    reads: 0,
    get version() {
      return version;
    },
    async lookup(keys) {
      const out = new Map<string, TrackAnalysis>();
      for (const k of keys) {
        const r = results.get(k)?.analysis;
        if (r) out.set(k, r);
      }
      return out;
    },
    async figuresAfter(cursor: FiguresCursor | null, limit: number) {
      lookup.reads++;
      const rows = [...results.entries()]
        .map(([key, r]) => ({ key, ...r }))
        .filter((r) => !cursor || r.seq > cursor.seq)
        .sort((x, y) => x.seq - y.seq)
        .slice(0, limit);
      const figures: AnalysisFigures[] = rows.map((r) => ({
        key: r.key,
        seconds: r.analysis?.durationSeconds ?? null,
        bpm: r.analysis?.bpm ?? null,
        musicalKey: r.analysis?.key ?? null,
      }));
      const last = rows.at(-1);
      return { rows: figures, next: last ? { seq: last.seq } : null };
    },
    set,
    bump: () => void version++,
  };
  return lookup;
}

function source(albums: Album[]) {
  let snap: CatalogSnapshot = { albums, films: [], singles: [], channels: [], genres: [], version: 1, updatedAt: "2026-11-23T00:00:00Z" };
  const s: CatalogSource & { replace(albums: Album[]): void } = {
    snapshot: () => snap,
    mediaUrl: (key) => `/media/${encodeURIComponent(key)}`,
    replace(next) {
      snap = { ...snap, albums: next, version: snap.version + 1 };
    },
  };
  return s;
}

const Q = (over: Partial<TrackQuery> = {}): TrackQuery => ({ q: "", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "title", page: 1, ...over });

const RESULTS = {
  "k1.mp3": analysisOf(90.4, 119.6, "A minor"),
  "k2.mp3": analysisOf(200, null, "C major"),
  "k3.mp3": analysisOf(150, 95, "A minor"),
  "k5.mp3": analysisOf(300, 140, "F# major"),
};

/** A DATA_DIR whose analysis.sqlite holds RESULTS, as the analysis stage stores them. */
function storedResults(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "track-index-"));
  const file = path.join(dir, "analysis.sqlite");
  void openSqliteDatabase(file).close();
  const db = new DatabaseSync(file);
  const insert = db.prepare(
    `INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, attempts, next_attempt_at, result_at, result_seq, finished_at, updated_at)
     VALUES (?, 'test', 'done', ?, 2, 0, 0, ?, ?, 0, 0)`,
  );
  Object.entries(RESULTS).forEach(([key, a], i) => insert.run(key, JSON.stringify(a), 1000 + i, 1 + i));
  db.close();
  return dir;
}

function setup(albums = ALBUMS) {
  const analysis = fakeAnalysis(RESULTS);
  const catalog = source(albums);
  const { tracks: index, catalogIndex } = createCatalogIndexes(catalog, analysis, { tracks: { yielder: () => NO_YIELD, figuresPage: 2 } });
  return { analysis, catalog, index, albumIndex: catalogIndex };
}

const titles = async (index: TrackIndex, q: Partial<TrackQuery>) => (await index.query(Q(q))).rows.map((r) => r.title);

describe("the track index", () => {
  it("lists every track with audio, in title order, with its album, artist, genre path and figures", async () => {
    const { index } = setup();
    const result = await index.query(Q());
    expect(result.total).toBe(6);
    expect(result.rows.map((r) => r.title)).toEqual(["Deep Sleep", "Highlife", "Minded", "Ocean Drive", "Ocean Mind Healing", "Samba Sunrise"]);
    expect(result.rows[4]).toEqual({
      id: "a0:0",
      title: "Ocean Mind Healing",
      artist: "Ana Costa",
      album: "Ocean Mind Healing",
      albumId: "a0",
      genre: "Relaxing / Mind Healing",
      audioUrl: "/media/k1.mp3",
      seconds: 90,
      bpm: 120,
      key: "A minor",
      peaks: [50, 100],
    });
    // not analysed: listed, without figures
    expect(result.rows[3]).toEqual({ id: "a1:1", title: "Ocean Drive", artist: "Diego Silva", album: "Bossa Nova Nights", albumId: "a1", genre: "Brazilian / Bossa Nova & Samba", audioUrl: "/media/k4.mp3" });
    // no steady beat: a length and a key, no tempo
    expect(result.rows[0]).toMatchObject({ title: "Deep Sleep", seconds: 200, key: "C major" });
    expect(result.rows[0].bpm).toBeUndefined();
  });

  it("filters by tempo and length, inclusive; tracks without the figure never match", async () => {
    const { index } = setup();
    expect(await titles(index, { bpm: { min: 95, max: 120 } })).toEqual(["Highlife", "Ocean Mind Healing", "Samba Sunrise"]);
    expect(await titles(index, { bpm: { min: 121, max: null } })).toEqual(["Minded"]);
    expect(await titles(index, { bpm: { min: null, max: 94 } })).toEqual([]);
    expect(await titles(index, { duration: { min: 0, max: 90 } })).toEqual(["Highlife", "Ocean Mind Healing"]);
    expect(await titles(index, { duration: { min: 150, max: 200 } })).toEqual(["Deep Sleep", "Samba Sunrise"]);
    // an open range asks nothing
    expect((await index.query(Q({ duration: { min: null, max: null } }))).total).toBe(6);
  });

  it("filters by keys (any of them), and counts the keys of the results without the key filter", async () => {
    const { index } = setup();
    const result = await index.query(Q({ keys: ["A minor"] }));
    expect(result.rows.map((r) => r.title)).toEqual(["Highlife", "Ocean Mind Healing", "Samba Sunrise"]);
    expect(result.keyCounts).toEqual([
      { key: "C major", count: 1 },
      { key: "F# major", count: 1 },
      { key: "A minor", count: 3 },
    ]);
    expect(await titles(index, { keys: ["c major", "F# major", "H major"] })).toEqual(["Deep Sleep", "Minded"]);
    // with another filter, the counts follow it
    expect((await index.query(Q({ keys: ["C major"], bpm: { min: 90, max: 130 } }))).keyCounts).toEqual([{ key: "A minor", count: 3 }]);
  });

  it("sorts by tempo and length both ways, tracks without the figure last, ties in title order", async () => {
    const { index } = setup();
    expect(await titles(index, { sort: "bpm" })).toEqual(["Samba Sunrise", "Highlife", "Ocean Mind Healing", "Minded", "Deep Sleep", "Ocean Drive"]);
    expect(await titles(index, { sort: "-bpm" })).toEqual(["Minded", "Highlife", "Ocean Mind Healing", "Samba Sunrise", "Deep Sleep", "Ocean Drive"]);
    expect(await titles(index, { sort: "duration" })).toEqual(["Highlife", "Ocean Mind Healing", "Samba Sunrise", "Deep Sleep", "Minded", "Ocean Drive"]);
    expect(await titles(index, { sort: "-duration" })).toEqual(["Minded", "Deep Sleep", "Samba Sunrise", "Highlife", "Ocean Mind Healing", "Ocean Drive"]);
    // a subset sorts the same way
    expect(await titles(index, { sort: "-bpm", keys: ["A minor", "C major"] })).toEqual(["Highlife", "Ocean Mind Healing", "Samba Sunrise", "Deep Sleep"]);
  });

  it("matches the album's genre path with the spec's rules, as the album view does", async () => {
    const { index } = setup();
    expect(await titles(index, { genre: "Relaxing" })).toEqual(["Deep Sleep", "Ocean Mind Healing"]);
    expect(await titles(index, { genre: "relaxing", subGenres: ["Mind Healing"] })).toEqual(["Deep Sleep", "Ocean Mind Healing"]);
    expect(await titles(index, { genre: "Relaxing", subGenres: ["Nature Sounds"] })).toEqual([]);
    // African, Asian, Latin: the second term is looked for in the album name (product-rules §5)
    expect(await titles(index, { genre: "African", subGenres: ["Ghana"] })).toEqual(["Highlife"]);
    expect(await titles(index, { genre: "African", subGenres: ["Mali"] })).toEqual([]);
    expect(await titles(index, { genre: "Jazz", bpm: { min: 100, max: 200 } })).toEqual(["Minded"]);
  });

  it("searches titles, albums, artists and genres, forgiving typos and finishing prefixes, ranked", async () => {
    const { index } = setup();
    const ocean = await index.query(Q({ q: "ocen mind", sort: "relevance" }));
    // the title has both words; the album's other track has them through its album name
    expect(ocean.rows.map((r) => r.title)).toEqual(["Ocean Mind Healing", "Deep Sleep"]);
    const bossa = await index.query(Q({ q: "bosa", sort: "relevance" }));
    expect(bossa.rows.map((r) => r.album)).toEqual(["Bossa Nova Nights", "Bossa Nova Nights"]);
    expect(await titles(index, { q: "heal" })).toEqual(["Deep Sleep", "Ocean Mind Healing"]);
    // every word must match somewhere: the artist, and a title
    expect(await titles(index, { q: "kofi highlif" })).toEqual(["Highlife"]);
    expect(await titles(index, { q: "samba sunrise ocean" })).toEqual([]);
    // genre words: "Brazilian / Bossa Nova & Samba"
    expect(await titles(index, { q: "brazilian" })).toEqual(["Ocean Drive", "Samba Sunrise"]);
    // accents and case do not matter
    expect(await titles(index, { q: "MÍND games" })).toEqual(["Minded"]);
    // with the other filters and another order
    expect(await titles(index, { q: "ocean", sort: "-bpm" })).toEqual(["Ocean Mind Healing", "Deep Sleep", "Ocean Drive"]);
    expect(await titles(index, { q: "ocean", bpm: { min: 100, max: 130 } })).toEqual(["Ocean Mind Healing"]);
    expect((await index.query(Q({ q: "zzzz" }))).total).toBe(0);
  });

  it("ranks a title match above a match through the album, and an exact word above a fuzzy one", async () => {
    const albums = [
      album("x0", "Ocean Sessions", "Ana", "Jazz", ["jazz"], [track("Ocean Mind", "x1.mp3"), track("Night Walk", "x2.mp3")]),
      album("x1", "Mind", "Ana", "Jazz", ["jazz"], [track("Ocea Mind", "x3.mp3")]),
    ];
    const { index } = setup(albums);
    expect(await titles(index, { q: "ocean mind", sort: "relevance" })).toEqual(["Ocean Mind", "Ocea Mind"]);
    expect(await titles(index, { q: "night ocean", sort: "relevance" })).toEqual(["Night Walk"]);
  });

  it("pages by 12 and clamps the page", async () => {
    const many = Array.from({ length: 3 }, (_, a) =>
      album(`b${a}`, `Album ${a}`, "X", "Jazz", ["jazz"], Array.from({ length: 10 }, (_, i) => track(`T ${String(a * 10 + i).padStart(2, "0")}`, `b${a}-${i}.mp3`))),
    );
    const small = album("c0", "Odd One", "Y", "Relaxing", ["relaxing"], [track("Zz Top", "c0.mp3"), track("Aa Bottom", "c1.mp3")]);
    const { index } = setup([small, ...many]);
    const last = await index.query(Q({ page: 9, genre: "Jazz" }));
    expect(last).toMatchObject({ total: 30, page: 3, pageCount: 3 });
    expect(last.rows.map((r) => r.title)).toEqual(["T 24", "T 25", "T 26", "T 27", "T 28", "T 29"]);
    expect((await index.query(Q({ page: 2 }))).rows[0].title).toBe("T 11");
    // a search's pages, and a genre of few tracks: picked from the matches, in the same order
    const searched = await index.query(Q({ q: "t", genre: "jazz", page: 2 }));
    expect(searched).toMatchObject({ total: 30, page: 2, pageCount: 3 });
    expect(searched.rows.map((r) => r.title)).toEqual(["T 12", "T 13", "T 14", "T 15", "T 16", "T 17", "T 18", "T 19", "T 20", "T 21", "T 22", "T 23"]);
    expect((await index.query(Q({ q: "t", genre: "jazz", sort: "relevance", page: 3 }))).rows.at(-1)?.title).toBe("T 29");
    expect(await titles(index, { genre: "Relaxing" })).toEqual(["Aa Bottom", "Zz Top"]);
  });

  it("picks a page out of many equally scored matches in title order", async () => {
    // 21,000 matches of one score: more than pageOf sorts at once
    const big = Array.from({ length: 2100 }, (_, a) =>
      album(`g${a}`, `Alpha ${a}`, "Z", "Jazz", ["jazz"], Array.from({ length: 10 }, (_, i) => track(`T${String(i * 2100 + a).padStart(5, "0")}`, `g${a}-${i}.mp3`))),
    );
    const index = createCatalogIndexes(source(big), undefined, { tracks: { yielder: () => NO_YIELD } }).tracks;
    const result = await index.query(Q({ q: "alpha", sort: "relevance", page: 3 }));
    expect(result.total).toBe(21_000);
    expect(result.rows.map((r) => r.title)).toEqual(Array.from({ length: 12 }, (_, i) => `T${String(24 + i).padStart(5, "0")}`));
    expect((await index.query(Q({ q: "alpha", genre: "jazz", page: 1750 }))).rows.at(-1)?.title).toBe("T20999");
  });

  it("is built again when the catalog changes", async () => {
    const { index, catalog } = setup();
    expect((await index.query(Q())).total).toBe(6);
    catalog.replace([...ALBUMS, album("a4", "Late Add", "New", "Jazz", ["jazz"], [track("Zebra Walk", "k9.mp3")])]);
    // the previous table answers while the next one is built
    await index.ready();
    const result = await index.query(Q());
    expect(result.total).toBe(7);
    expect(result.rows.at(-1)?.title).toBe("Zebra Walk");
  });

  it("reads what changed in the analysis when its version moves, and forgets withdrawn results", async () => {
    const { index, analysis } = setup();
    expect(await titles(index, { bpm: { min: 60, max: 200 } })).toEqual(["Highlife", "Minded", "Ocean Mind Healing", "Samba Sunrise"]);
    analysis.set("k4.mp3", analysisOf(61, 180, "B minor"));
    analysis.set("k1.mp3", null);
    // same version: nothing is read again
    const reads = analysis.reads;
    await index.ready();
    expect(analysis.reads).toBe(reads);
    analysis.bump();
    await index.query(Q());
    await index.ready();
    expect(await titles(index, { bpm: { min: 60, max: 200 } })).toEqual(["Minded", "Ocean Drive", "Samba Sunrise"]);
    expect((await index.query(Q({ keys: ["B minor"] }))).rows.map((r) => r.title)).toEqual(["Ocean Drive"]);
    expect(index.stats()).toMatchObject({ tracks: 6, analysed: 4, analysisVersion: 2 });
  });

  it("spaces its figure refreshes while results keep landing: the next waits a multiple of the last one's work", async () => {
    const analysis = fakeAnalysis(RESULTS);
    // a spacing no test waits out: the second refresh is still waiting when the index stops.
    // Its wait is beyond a timer's longest (2^31 - 1 ms), which Node fires after 1 ms: capped
    const { tracks: index } = createCatalogIndexes(source(ALBUMS), analysis, { tracks: { yielder: () => NO_YIELD, figuresPage: 2, refreshSpacing: 1e12 } });
    const inRange = () => titles(index, { bpm: { min: 60, max: 200 } });
    expect(await inRange()).toEqual(["Highlife", "Minded", "Ocean Mind Healing", "Samba Sunrise"]);
    // the first refresh after the build runs at once
    analysis.set("k4.mp3", analysisOf(61, 180, "B minor"));
    analysis.bump();
    await index.query(Q());
    await index.ready();
    expect(await inRange()).toEqual(["Highlife", "Minded", "Ocean Drive", "Ocean Mind Healing", "Samba Sunrise"]);
    // the next one waits: what lands meanwhile is not read yet
    analysis.set("k1.mp3", null);
    analysis.bump();
    const reads = analysis.reads;
    await index.query(Q());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(analysis.reads).toBe(reads);
    expect(await inRange()).toEqual(["Highlife", "Minded", "Ocean Drive", "Ocean Mind Healing", "Samba Sunrise"]);
    index.stop();
  });

  it("lists every track unanalysed when the process has no analysis", async () => {
    const index = createCatalogIndexes(source(ALBUMS), undefined, { tracks: { yielder: () => NO_YIELD } }).tracks;
    const result = await index.query(Q({ sort: "bpm" }));
    expect(result.total).toBe(6);
    expect(result.keyCounts).toEqual([]);
    expect(result.rows.every((r) => r.seconds === undefined)).toBe(true);
    expect((await index.query(Q({ bpm: { min: 0, max: 500 } }))).total).toBe(0);
  });

  it("gives the album view the same search, best first, keeping the genre filter", async () => {
    const { index, albumIndex: albums } = setup();
    const names = (query: string) => albums.query(parseCatalogState(new URLSearchParams(query))).items.map((card) => ("name" in card ? card.name : ""));
    // until the track index has built the search: the spec's substring rule
    expect(names("q=bosa")).toEqual([]);
    expect(names("q=nights")).toEqual(["Bossa Nova Nights", "Ghana Nights"]);
    await index.ready();
    expect(names("q=bosa")).toEqual(["Bossa Nova Nights"]);
    expect(names("q=ocen+mind")).toEqual(["Ocean Mind Healing"]);
    // the album's name before one of its tracks' titles
    expect(names("q=ocean")).toEqual(["Ocean Mind Healing", "Bossa Nova Nights"]);
    expect(names("q=highlife")).toEqual(["Ghana Nights"]);
    expect(names("q=nights&genre=African")).toEqual(["Ghana Nights"]);
    expect(names("q=nights&genre=Jazz")).toEqual([]);
  });

  it("marks an album search answered by the substring rule as provisional, so the page cache does not keep it", async () => {
    const { index, albumIndex: albums } = setup();
    const query = (q: string) => albums.query(parseCatalogState(new URLSearchParams(q)));
    expect(query("q=nights").provisional).toBe(true);
    expect(query("genre=Jazz").provisional).toBeUndefined();
    await index.ready();
    expect(query("q=nights").provisional).toBeUndefined();
  });

  it("reads the first figures in its build worker from the analysis store, with the same answers", async () => {
    const dataDir = storedResults();
    try {
      const analysis = fakeAnalysis(RESULTS);
      const index = createCatalogIndexes(source(ALBUMS), analysis, { tracks: { yielder: () => NO_YIELD, analysisStore: { DATA_DIR: dataDir } } }).tracks;
      const { index: here } = setup();
      await index.ready();
      // the worker read them: not one page through this thread's lookup
      expect(analysis.reads).toBe(0);
      expect(index.stats()).toMatchObject({ tracks: 6, analysed: 5 });
      for (const q of [Q(), Q({ bpm: { min: 90, max: 125 } }), Q({ sort: "-duration" }), Q({ keys: ["A minor"] }), Q({ q: "ocen" })]) {
        expect(await index.query(q)).toEqual(await here.query(q));
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("keeps the figures' bytes in one file the machine's processes share, built by the worker and by each refresh (ADR 0162)", async () => {
    const dataDir = storedResults();
    const figuresDir = path.join(dataDir, "catalog", "index");
    const bins = () => fs.readdirSync(figuresDir).filter((n) => n.endsWith(".bin"));
    try {
      // two server processes of one machine, over the same catalog and results
      const make = () => {
        const analysis = fakeAnalysis(RESULTS);
        return { analysis, index: createCatalogIndexes(source(ALBUMS), analysis, { tracks: { yielder: () => NO_YIELD, analysisStore: { DATA_DIR: dataDir }, figuresDir } }).tracks };
      };
      const one = make();
      const two = make();
      await Promise.all([one.index.ready(), two.index.ready()]);
      expect(one.analysis.reads + two.analysis.reads).toBe(0);
      expect(bins()).toHaveLength(1);
      expect(one.index.currentFigures()!.bytes.file).toBe(path.join(figuresDir, bins()[0]));
      expect(two.index.currentFigures()!.bytes.file).toBe(one.index.currentFigures()!.bytes.file);
      // what a visitor is shown is what figures held in memory give
      const { index: here } = setup();
      for (const q of [Q(), Q({ bpm: { min: 90, max: 125 } }), Q({ sort: "-duration" }), Q({ keys: ["A minor"] })]) {
        expect(await one.index.query(q)).toEqual(await here.query(q));
      }
      // a result without a fingerprint lands: the refresh serves it, and its figures' bytes
      // (fingerprints, passages) are those of the file already there: no second copy on the disk
      one.analysis.set("k4.mp3", analysisOf(61, 180, "B minor"));
      one.analysis.bump();
      await one.index.query(Q());
      await one.index.ready();
      expect(await titles(one.index, { keys: ["B minor"] })).toEqual(["Ocean Drive"]);
      expect(bins()).toHaveLength(1);
      expect(one.index.currentFigures()!.bytes.file).toBe(two.index.currentFigures()!.bytes.file);
      one.index.stop();
      two.index.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("keeps the figures in memory, and says so, when their file cannot be written (a full or unwritable disk)", async () => {
    const dataDir = storedResults();
    // the index's directory is a file: nothing can be written under it
    const blocker = path.join(dataDir, "not-a-directory");
    fs.writeFileSync(blocker, "");
    const errors: string[] = [];
    const logger = { error: (_: unknown, msg: string) => errors.push(msg), info: () => undefined } as unknown as Logger;
    try {
      const index = createCatalogIndexes(source(ALBUMS), fakeAnalysis(RESULTS), { tracks: { yielder: () => NO_YIELD, analysisStore: { DATA_DIR: dataDir }, figuresDir: path.join(blocker, "index"), logger } }).tracks;
      const { index: here } = setup();
      expect(await index.query(Q({ sort: "bpm" }))).toEqual(await here.query(Q({ sort: "bpm" })));
      expect(index.currentFigures()!.bytes.file).toBeNull();
      expect(errors).toEqual(["could not write the track index's figures file; keeping the figures in this process's memory"]);
      index.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("reads the figures in this thread, and says so, when its worker cannot open the store", async () => {
    const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "track-index-")), "a-file");
    fs.writeFileSync(blocker, "");
    const errors: string[] = [];
    const logger = { error: (_: unknown, msg: string) => errors.push(msg) } as unknown as Logger;
    try {
      const analysis = fakeAnalysis(RESULTS);
      // DATA_DIR is a file: the store cannot be created under it
      const index = createCatalogIndexes(source(ALBUMS), analysis, { tracks: { yielder: () => NO_YIELD, analysisStore: { DATA_DIR: blocker }, logger } }).tracks;
      expect(await titles(index, { sort: "bpm" })).toEqual(["Samba Sunrise", "Highlife", "Ocean Mind Healing", "Minded", "Deep Sleep", "Ocean Drive"]);
      expect(analysis.reads).toBeGreaterThan(0);
      expect(errors).toEqual(["the track index's build worker could not read the analysis figures; reading them here"]);
    } finally {
      fs.rmSync(path.dirname(blocker), { recursive: true, force: true });
    }
  });

  it("returns the heap pages freed by a build when asked, and tells the operator how long that paused", async () => {
    const infos: { msg: string; pauseMs: number }[] = [];
    const logger = { info: (o: { pauseMs: number }, msg: string) => infos.push({ msg, pauseMs: o.pauseMs }), error: () => undefined } as unknown as Logger;
    const index = createCatalogIndexes(source(ALBUMS), fakeAnalysis(RESULTS), { tracks: { yielder: () => NO_YIELD, releaseFreedPages: true, logger } }).tracks;
    await index.ready();
    expect(infos).toEqual([{ msg: "track index built; freed heap pages returned", pauseMs: expect.any(Number) }]);
    expect(await titles(index, { bpm: { min: 90, max: 125 } })).toEqual(["Highlife", "Ocean Mind Healing", "Samba Sunrise"]);
  });
});
