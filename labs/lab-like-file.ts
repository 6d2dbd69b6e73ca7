import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { FIELDS } from "../app/.server/analysis/fingerprint.ts";
import { createModel, seedTables, type Sounding } from "../app/.server/analysis/similarity.ts";
import { FiguresBuilder } from "../app/.server/catalog/tracks/figures-builder.ts";
import { TrackFigures } from "../app/.server/catalog/tracks/figures.ts";
import { memoryBytes } from "../app/.server/catalog/tracks/figure-bytes.ts";
import { nearestTracks } from "../app/.server/catalog/tracks/like.ts";
import { cellOrder, searchVector } from "../app/.server/catalog/tracks/print-cells.ts";
import { GROUPS } from "../app/.server/catalog/tracks/print-layout.ts";
import { NearestHeap } from "../app/.server/catalog/tracks/select-lowest.ts";
import type { TrackTable } from "../app/.server/catalog/tracks/table.ts";
import { NO_YIELD } from "../app/.server/catalog/tracks/yielding.ts";
import { createPrng } from "../app/.server/catalog/sample/prng.ts";
import { LIKE_LIMIT } from "../app/lib/catalog/track-query.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * A lab for issue #42 "The index built once per cluster" (ADR 0162), not the site: can the
 * like= stage (ADR 0116's laid-out fingerprints and ADR 0124's cells) be read by every process
 * of a machine from ONE file, with positional reads (fs.readSync at offsets: the file's pages
 * live once in the kernel's page cache, shared by every process) instead of each process
 * holding its own ~150 MB at 2.5 million tracks, and still answer like= in p95 ≤ 50 ms?
 *
 *   node labs/lab-like-file.ts [--tracks 2500000 --seeds 200 --dir /tmp/like-file]
 *
 * 1. Builds the figures of `--tracks` synthetic tracks (six family centres, as bench:similarity's
 *    family prints) with the site's own code (FiguresBuilder, TrackFigures.from: layout and cells).
 * 2. Writes the like= file (the layout below), then answers `--seeds` like= views (no filter,
 *    the approximate stage, and the exact scan of a reference seed) from memory (like.ts
 *    nearestTracks, as today) and from the file (the scans below), checks both lists are the
 *    same, and prints p50 / p95 of each.
 * 3. Memory: two child processes at once hold the stage as today (each builds it: private
 *    arrays), then two that read the file; each answers the same views, then prints its
 *    /proc/self/smaps_rollup (RSS, PSS, Private_Clean + Private_Dirty) and its start → first
 *    like= answer; fincore gives the file's pages in the page cache.
 * Measures; asserts nothing.
 */
const { values: args } = parseArgs({
  options: {
    tracks: { type: "string", default: "2500000" },
    seeds: { type: "string", default: "200" },
    dir: { type: "string", default: path.join(os.tmpdir(), "lab-like-file") },
    child: { type: "string" },
    "chunk-rows": { type: "string", default: "16384" },
    /** also time views with the file's pages dropped from the page cache first (GNU dd iflag=nocache: this file only) */
    cold: { type: "boolean", default: false },
    /** skip the two-process memory part */
    "no-children": { type: "boolean", default: false },
    /** also time the approximate stage over the same cell records held in memory (no reads) */
    "records-in-memory": { type: "boolean", default: false },
  },
});
const N = Number(args.tracks);
const SEEDS = Number(args.seeds);
const D = FIELDS.length;
const CHUNK_ROWS = Number(args["chunk-rows"]);
const file = path.join(args.dir, "like-stage.bin");

// ---- synthetic figures, built with the site's code -------------------------------------------
function table(n: number): TrackTable {
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  return { count: n, titleOrder: identity, titleRank: identity, trackAlbum: Int32Array.from({ length: n }, (_, t) => Math.floor(t / 10)), audioSorted: new Uint32Array(0), byAudio: new Int32Array(0) } as unknown as TrackTable;
}

/** The site's figures in memory, with their laid-out rows at hand as `prints` (since ADR 0162 they sit behind `bytes`). */
type LabFigures = TrackFigures & { prints: Uint8Array };
async function buildFigures(n: number): Promise<LabFigures> {
  const rng = createPrng(42);
  const centres = Array.from({ length: 6 }, () => Array.from({ length: D }, () => 0.2 + rng.next() * 0.6));
  const builder = await FiguresBuilder.create(table(n), null, NO_YIELD);
  for (let t = 0; t < n; t++) {
    const c = centres[rng.int(0, 5)];
    for (let i = 0; i < D; i++) builder.prints[t * D + i] = Math.round(255 * Math.min(1, Math.max(0, c[i] + (rng.next() - 0.5) * 0.2)));
    builder.printed[t] = 1;
    builder.bpm[t] = rng.int(80, 160);
    builder.key[t] = rng.int(0, 23);
    builder.seconds[t] = rng.int(90, 420);
  }
  const figures = await TrackFigures.from(builder, NO_YIELD);
  return Object.assign(figures, { prints: figures.bytes.memory("prints")! });
}

const seedTrack = (s: number) => Math.floor(((s + 0.5) * N) / SEEDS);
const soundingOf = (f: { prints: Uint8Array; printRow: Int32Array; bpm: Uint16Array; key: Uint8Array }, t: number): Sounding => {
  const row = f.printRow[t];
  return { fingerprint: f.prints.slice(row * D, row * D + D), bpm: f.bpm[t], key: f.key[t] };
};

// ---- the like= file ----------------------------------------------------------------------------
/**
 * Layout (little-endian; every section 8-byte aligned after a 4 KiB header holding their
 * offsets as JSON): the small parts every view reads whole (scales, centroids, cellStarts,
 * printStarts: ~230 KB, read once into memory) and the large parts read per view at offsets:
 * - `cellRecords`: the rows of each cell, in cell order, RECORD bytes each: group (u16),
 *   seconds (u16), track (i32), the fingerprint (44 bytes). The approximate stage reads a
 *   cell as one contiguous read (ADR 0124 "a copy of the bytes in cell order would avoid the
 *   last miss but costs 44 bytes a track": in a file shared by every process it costs page
 *   cache once, not each process's memory);
 * - `prints`, `printTracks`, `printSeconds`: ADR 0116's layout (group order), for the exact scan;
 * - `printRow`: a track's row (the listed rows' fingerprints, listRules and soundingOf).
 */
const RECORD = 8 + 44;
type Sections = Record<string, [offset: number, bytes: number]>;
const HEADER = 4096;

function writeLikeFile(f: LabFigures, to: string): number {
  const rows = f.fingerprinted;
  const cellRecords = Buffer.alloc(rows * RECORD);
  const u16 = new Uint16Array(cellRecords.buffer, cellRecords.byteOffset, cellRecords.length / 2);
  const i32 = new Int32Array(cellRecords.buffer, cellRecords.byteOffset, cellRecords.length / 4);
  for (let j = 0; j < rows; j++) {
    const p = f.cellRows[j];
    const o = j * RECORD;
    u16[o / 2] = f.cellGroups[j];
    u16[o / 2 + 1] = f.printSeconds[p];
    i32[o / 4 + 1] = f.printTracks[p];
    cellRecords.set(f.prints.subarray(p * D, p * D + D), o + 8);
  }
  const parts: [string, ArrayBufferView][] = [
    ["scales", f.scales],
    ["centroids", f.centroids],
    ["cellStarts", f.cellStarts],
    ["printStarts", f.printStarts],
    ["printRow", f.printRow],
    ["printTracks", f.printTracks],
    ["printSeconds", f.printSeconds],
    ["prints", f.prints.subarray(0, rows * D)],
    ["cellRecords", cellRecords],
  ];
  const sections: Sections = {};
  let at = HEADER;
  for (const [name, a] of parts) {
    sections[name] = [at, a.byteLength];
    at += Math.ceil(a.byteLength / 8) * 8;
  }
  const header = Buffer.alloc(HEADER);
  header.write(JSON.stringify({ format: "like-stage", version: 1, tracks: f.printRow.length, rows, sections }));
  const tmp = `${to}.tmp`;
  const fd = fs.openSync(tmp, "w");
  fs.writeSync(fd, header, 0, HEADER, 0);
  for (const [name, a] of parts) fs.writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength), 0, a.byteLength, sections[name][0]);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, to);
  return at;
}

/** The like= stage read from the file: its small parts in memory, the rest by positional reads into one reusable buffer. */
class LikeFile {
  readonly fd: number;
  readonly sections: Sections;
  readonly rows: number;
  readonly cells: { cellStarts: Int32Array; centroids: Float32Array; cellRows: Int32Array; cellGroups: Uint16Array };
  readonly printStarts: Int32Array;
  readonly model: ReturnType<typeof createModel>;
  private readonly buf: Buffer;
  private readonly u16: Uint16Array;
  private readonly i32: Int32Array;
  constructor(at: string) {
    this.fd = fs.openSync(at, "r");
    const header = Buffer.alloc(HEADER);
    fs.readSync(this.fd, header, 0, HEADER, 0);
    const h = JSON.parse(header.toString("utf8").replace(/\0+$/, "")) as { rows: number; sections: Sections };
    this.sections = h.sections;
    this.rows = h.rows;
    const scales = new Float64Array(this.read("scales"));
    this.model = createModel(scales);
    this.cells = { cellStarts: new Int32Array(this.read("cellStarts")), centroids: new Float32Array(this.read("centroids")), cellRows: new Int32Array(0), cellGroups: new Uint16Array(0) };
    this.printStarts = new Int32Array(this.read("printStarts"));
    this.buf = Buffer.alloc(CHUNK_ROWS * RECORD);
    this.u16 = new Uint16Array(this.buf.buffer, this.buf.byteOffset, this.buf.length / 2);
    this.i32 = new Int32Array(this.buf.buffer, this.buf.byteOffset, this.buf.length / 4);
  }
  private read(name: string): ArrayBuffer {
    const [offset, bytes] = this.sections[name];
    const out = new ArrayBuffer(bytes);
    fs.readSync(this.fd, new Uint8Array(out), 0, bytes, offset);
    return out;
  }
  /** bytes [from, from + bytes) of a section into the reusable buffer */
  private chunk(name: string, from: number, bytes: number): void {
    fs.readSync(this.fd, this.buf, 0, bytes, this.sections[name][0] + from);
  }

  /** like.ts nearestTracks' approximate stage without filters, `ordered` (the kept list nearest first), from the file. */
  /**
   * The cell records held in this process's memory instead (`--records-in-memory`: the same
   * layout without the reads' copy), to tell the layout's part of the speed from the file's.
   */
  private records: { u8: Buffer; u16: Uint16Array; i32: Int32Array } | null = null;
  holdRecords(): void {
    const u8 = Buffer.from(this.read("cellRecords"));
    this.records = { u8, u16: new Uint16Array(u8.buffer, u8.byteOffset, u8.length / 2), i32: new Int32Array(u8.buffer, u8.byteOffset, u8.length / 4) };
  }

  approximate(sounding: Sounding, exclude: ReadonlySet<number>, rank: Int32Array, budget: number, limit = LIKE_LIMIT): Int32Array {
    const { fieldOrder, weights, own, tables } = seedParts(this.model, sounding);
    const all = new NearestHeap(limit + exclude.size, rank);
    const own32 = new Float32Array(D);
    searchVector(this.model, sounding.fingerprint, 0, own32);
    const order = cellOrder(this.cells, own32).order;
    const { cellStarts } = this.cells;
    const held = this.records;
    const { buf, u16, i32 } = held ? { buf: held.u8, u16: held.u16, i32: held.i32 } : { buf: this.buf, u16: this.u16, i32: this.i32 };
    let visited = 0;
    visit: for (let ci = 0; ci < order.length; ci++) {
      const c = order[ci];
      for (let from = cellStarts[c]; from < cellStarts[c + 1]; from += CHUNK_ROWS) {
        const n = Math.min(CHUNK_ROWS, cellStarts[c + 1] - from);
        if (!held) this.chunk("cellRecords", from * RECORD, n * RECORD);
        const base = held ? from * RECORD : 0;
        for (let r = 0; r < n; r++) {
          const o = base + r * RECORD;
          const g = u16[o >> 1];
          const bound = all.bound;
          let dist = tables.tempo[g >> 5] + tables.key[g & 31];
          if (dist <= bound) {
            const at = o + 8;
            for (let i = 0; i < D; i++) {
              const diff = own[i] - buf[at + fieldOrder[i]];
              dist += weights[i] * diff * diff;
              if ((i & 7) === 7 && dist > bound) break;
            }
            if (dist <= bound) all.push(dist, i32[(o >> 2) + 1]);
          }
          if (++visited >= budget) break visit;
        }
      }
    }
    return all.sorted().filter((t) => !exclude.has(t)).subarray(0, limit);
  }

  /** like.ts nearestTracks' exact scan without filters (a reference seed's first stage, ADR 0124), group by group from the file. */
  exact(sounding: Sounding, exclude: ReadonlySet<number>, rank: Int32Array, limit = LIKE_LIMIT): Int32Array {
    const { fieldOrder, weights, own, tables } = seedParts(this.model, sounding);
    const all = new NearestHeap(limit + exclude.size, rank);
    const { printStarts, buf } = this;
    const visits: number[] = [];
    for (let g = 0; g < GROUPS; g++) if (printStarts[g + 1] > printStarts[g]) visits.push(Math.floor((tables.tempo[g >> 5] + tables.key[g & 31]) * (1 << 20)) * GROUPS + g);
    const order = Float64Array.from(visits).sort();
    const tracks = new Int32Array(CHUNK_ROWS);
    const maxRows = Math.floor(buf.length / D);
    for (let v = 0; v < order.length; v++) {
      const g = order[v] % GROUPS;
      if (Math.floor(order[v] / GROUPS) / (1 << 20) > all.bound) break;
      const term = tables.tempo[g >> 5] + tables.key[g & 31];
      if (term > all.bound) continue;
      for (let from = printStarts[g]; from < printStarts[g + 1]; from += Math.min(maxRows, CHUNK_ROWS)) {
        const n = Math.min(maxRows, CHUNK_ROWS, printStarts[g + 1] - from);
        fs.readSync(this.fd, new Uint8Array(tracks.buffer, 0, n * 4), 0, n * 4, this.sections.printTracks[0] + from * 4);
        this.chunk("prints", from * D, n * D);
        let bound = all.bound;
        for (let r = 0; r < n; r++) {
          let dist = term;
          const at = r * D;
          for (let i = 0; i < D; i++) {
            const diff = own[i] - buf[at + fieldOrder[i]];
            dist += weights[i] * diff * diff;
            if ((i & 7) === 7 && dist > bound) break;
          }
          if (dist > bound) continue;
          all.push(dist, tracks[r]);
          bound = all.bound;
        }
      }
    }
    return all.sorted().filter((t) => !exclude.has(t)).subarray(0, limit);
  }
}

/** The seed's parts as like.ts makes them: the fields heaviest first, their weights, its bytes in that order, the tempo and key tables. */
function seedParts(model: ReturnType<typeof createModel>, sounding: Sounding) {
  const w = model.fieldWeights;
  const fieldOrder = Int32Array.from(w.keys()).sort((x, y) => w[y] - w[x]);
  return { fieldOrder, weights: Float64Array.from(fieldOrder, (j) => w[j]), own: Float64Array.from(fieldOrder, (j) => sounding.fingerprint[j]), tables: seedTables(sounding) };
}

// ---- measuring -----------------------------------------------------------------------------------
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const p = (xs: number[]) => `p50 ${quantile(xs, 0.5).toFixed(1)} ms p95 ${quantile(xs, 0.95).toFixed(1)} ms`;
const timed = <T>(run: () => T): [T, number] => {
  const t = performance.now();
  const out = run();
  return [out, performance.now() - t];
};
const budgetOf = (n: number) => Math.max(30_000, Math.ceil(0.08 * n));

function smaps(): Record<string, number> {
  const text = fs.readFileSync("/proc/self/smaps_rollup", "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) / 1024;
  return { rss: kb("Rss"), pss: kb("Pss"), privateMb: kb("Private_Clean") + kb("Private_Dirty"), shared: kb("Shared_Clean") + kb("Shared_Dirty") };
}

async function child(mode: string): Promise<void> {
  const rank = table(N).titleRank;
  let firstMs = 0;
  const times: number[] = [];
  if (mode === "memory") {
    // today: every process builds the figures and keeps the like= stage's arrays privately
    // only the like= stage's arrays are kept (the other figures are not this lab's part)
    const lean = await (async () => {
      const built = await buildFigures(N);
      return { prints: built.prints, printRow: built.printRow, printTracks: built.printTracks, printStarts: built.printStarts, printSeconds: built.printSeconds, bpm: built.bpm, key: built.key, cellStarts: built.cellStarts, cellRows: built.cellRows, cellGroups: built.cellGroups, centroids: built.centroids, model: built.model, bytes: memoryBytes({ prints: built.prints, cellPrints: new Uint8Array(0), postings: new Uint32Array(0), residuals: new Uint16Array(0), trackCodes: new Uint32Array(0) }), printOf: (row: number) => built.prints.slice(row * D, row * D + D) } as unknown as LabFigures;
    })();
    const f = lean;
    global.gc?.();
    for (let s = 0; s < SEEDS; s++) {
      const t = seedTrack(s);
      const [, ms] = timed(() => nearestTracks({ table: { titleRank: rank } as TrackTable, figures: lean, seed: { sounding: soundingOf(f, t), exclude: new Set([t]), cacheId: "" }, keep: null, wanted: null, ordered: true }));
      if (s === 0) firstMs = performance.now();
      times.push(ms);
    }
  } else {
    // after: the file, read at offsets; the per-track figures (bpm, key) are not the like= stage: read here per seed
    const like = new LikeFile(file);
    const printRow = new Int32Array(N);
    fs.readSync(like.fd, new Uint8Array(printRow.buffer), 0, N * 4, like.sections.printRow[0]);
    for (let s = 0; s < SEEDS; s++) {
      const t = seedTrack(s);
      const fp = Buffer.alloc(D);
      fs.readSync(like.fd, fp, 0, D, like.sections.prints[0] + printRow[t] * D);
      const [, ms] = timed(() => like.approximate({ fingerprint: fp, bpm: 120, key: 0 }, new Set([t]), rank, budgetOf(like.rows)));
      if (s === 0) firstMs = performance.now();
      times.push(ms);
    }
  }
  global.gc?.();
  process.stdout.write(`${JSON.stringify({ ready: true, firstMs, views: p(times) })}\n`);
  // hold until the parent has both processes alive, then report
  const rl = readline.createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => rl.once("line", () => resolve()));
  rl.close();
  process.stdout.write(`${JSON.stringify({ pid: process.pid, ...smaps() })}\n`);
}

async function pair(mode: string): Promise<string[]> {
  const kids = [0, 1].map(() =>
    spawn(process.execPath, ["--expose-gc", import.meta.filename, "--child", mode, "--tracks", String(N), "--seeds", String(SEEDS), "--dir", args.dir], { stdio: ["pipe", "pipe", "inherit"] }),
  );
  const lines = kids.map((k) => readline.createInterface({ input: k.stdout })[Symbol.asyncIterator]());
  const started = performance.now();
  const ready = await Promise.all(lines.map(async (l) => JSON.parse((await l.next()).value as string) as { firstMs: number; views: string }));
  const readyMs = performance.now() - started;
  for (const k of kids) k.stdin.end("report\n");
  const reports = await Promise.all(lines.map(async (l) => JSON.parse((await l.next()).value as string) as Record<string, number>));
  await Promise.all(kids.map((k) => new Promise((r) => k.once("exit", r))));
  return reports.map(
    (r, i) =>
      `${mode} process ${i + 1}: RSS ${r.rss.toFixed(0)} MB, PSS ${r.pss.toFixed(0)} MB, private ${r.privateMb.toFixed(0)} MB, shared ${r.shared.toFixed(0)} MB; ` +
      `start → first like= ${(ready[i].firstMs / 1000).toFixed(1)} s; views ${ready[i].views} (both ready after ${(readyMs / 1000).toFixed(1)} s)`,
  );
}

if (args.child) {
  await child(args.child);
} else {
  fs.mkdirSync(args.dir, { recursive: true });
  console.log(`== ${N.toLocaleString("en-US")} tracks, ${SEEDS} seeds, ${CHUNK_ROWS} rows a read`);
  const [figures, buildMs] = await (async () => {
    const t = performance.now();
    const f = await buildFigures(N);
    return [f, performance.now() - t] as const;
  })();
  console.log(`figures built in ${(buildMs / 1000).toFixed(1)} s (${figures.cellStarts.length - 1} cells)`);
  const [bytes, writeMs] = timed(() => writeLikeFile(figures, file));
  console.log(`like= file ${(bytes / 1e6).toFixed(0)} MB (${(bytes / N).toFixed(0)} bytes a track) written in ${(writeMs / 1000).toFixed(1)} s`);
  const like = new LikeFile(file);
  const rank = table(N).titleRank;
  const tbl = { titleRank: rank } as TrackTable;
  const memA: number[] = [];
  const fileA: number[] = [];
  const memE: number[] = [];
  const fileE: number[] = [];
  let sameA = 0;
  let sameE = 0;
  let recall = 0;
  // warm-up, uncounted (ADR 0124): the compiler's first runs
  for (let w = 0; w < 5; w++) {
    const t = seedTrack(w) + 1;
    const s = soundingOf(figures, t);
    nearestTracks({ table: tbl, figures, seed: { sounding: s, exclude: new Set([t]), cacheId: "" }, keep: null, wanted: null, ordered: true });
    like.approximate(s, new Set([t]), rank, budgetOf(like.rows));
    nearestTracks({ table: tbl, figures, seed: { sounding: s, exclude: new Set([t]), cacheId: "" }, keep: null, wanted: null, ordered: true, approximateFrom: Infinity });
    like.exact(s, new Set([t]), rank);
  }
  const same = (a: Int32Array, b: Int32Array) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (let k = 0; k < SEEDS; k++) {
    const t = seedTrack(k);
    const s = soundingOf(figures, t);
    const seed = { sounding: s, exclude: new Set([t]), cacheId: "" };
    const [ma, ta] = timed(() => nearestTracks({ table: tbl, figures, seed, keep: null, wanted: null, ordered: true }));
    const [fa, tfa] = timed(() => like.approximate(s, new Set([t]), rank, budgetOf(like.rows)));
    const [me, te] = timed(() => nearestTracks({ table: tbl, figures, seed, keep: null, wanted: null, ordered: true, approximateFrom: Infinity }));
    const [fe, tfe] = timed(() => like.exact(s, new Set([t]), rank));
    memA.push(ta);
    fileA.push(tfa);
    memE.push(te);
    fileE.push(tfe);
    if (same(ma.tracks, fa)) sameA++;
    if (same(me.tracks, fe)) sameE++;
    const exact12 = new Set(me.tracks.subarray(0, 12));
    recall += [...fa.subarray(0, 12)].filter((x) => exact12.has(x)).length / 12;
  }
  console.log(`approximate stage (budget ${budgetOf(like.rows).toLocaleString("en-US")}): memory ${p(memA)}; file ${p(fileA)}; same list ${sameA}/${SEEDS}; recall@12 against the exact order ${(recall / SEEDS).toFixed(3)}`);
  console.log(`exact scan (a reference seed's first stage): memory ${p(memE)}; file ${p(fileE)}; same list ${sameE}/${SEEDS}`);
  const pagesOf = () => {
    try {
      return execFileSync("fincore", ["--bytes", "--noheadings", "--output", "RES", file], { encoding: "utf8" }).trim();
    } catch {
      return "n/a";
    }
  };
  console.log(`the file's bytes in the page cache: ${pagesOf()}`);
  if (args["records-in-memory"]) {
    const held = new LikeFile(file);
    held.holdRecords();
    const times: number[] = [];
    let same = 0;
    for (let w = 0; w < 5; w++) held.approximate(soundingOf(figures, seedTrack(w) + 1), new Set([seedTrack(w) + 1]), rank, budgetOf(like.rows));
    for (let k = 0; k < SEEDS; k++) {
      const t = seedTrack(k);
      const s = soundingOf(figures, t);
      const [fromFile, tf] = timed(() => like.approximate(s, new Set([t]), rank, budgetOf(like.rows)));
      const [inMemory, tm] = timed(() => held.approximate(s, new Set([t]), rank, budgetOf(like.rows)));
      times.push(tm);
      fileA.push(tf);
      if (inMemory.length === fromFile.length && inMemory.every((x, i) => x === fromFile[i])) same++;
    }
    console.log(`approximate stage, the cell records in memory (no reads): ${p(times)}; from the file again, interleaved: ${p(fileA.slice(SEEDS))}; same list ${same}/${SEEDS}`);
  }
  if (args.cold) {
    // each view after the file's pages were dropped: what a view costs when the kernel evicted them (memory pressure)
    const cold: number[] = [];
    for (let k = 0; k < Math.min(SEEDS, 30); k++) {
      execFileSync("dd", [`if=${file}`, "iflag=nocache", "count=0", "status=none"]);
      const t = seedTrack(k) + 2;
      const s = soundingOf(figures, t);
      cold.push(timed(() => like.approximate(s, new Set([t]), rank, budgetOf(like.rows)))[1]);
    }
    console.log(`approximate stage, the file's pages dropped before each view: ${p(cold)} (${cold.length} views); page cache after: ${pagesOf()}`);
  }
  if (!args["no-children"]) for (const mode of ["memory", "file"]) for (const line of await pair(mode)) console.log(line);
  console.log(`the file's bytes in the page cache: ${pagesOf()}`);
}
