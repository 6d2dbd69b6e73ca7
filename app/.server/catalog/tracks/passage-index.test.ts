import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Album } from "../../../lib/catalog/types.ts";
import type { TrackQuery } from "../../../lib/catalog/track-query.ts";
import { LIKE_LIMIT } from "../../../lib/catalog/track-query.ts";
import type { TrackAnalysis } from "../../analysis/analyze.ts";
import type { AnalysisFigures, AnalysisLookup } from "../../analysis/stage/types.ts";
import { encodeFingerprint, FIELDS, fingerprintBytes } from "../../analysis/fingerprint.ts";
import { encodeSegments, segmentWindows, WINDOW_BYTES } from "../../analysis/segments.ts";
import { codebookId, decodePassageCodes, decodeWindow, encodePassageCodes, passageCodebook, scaled, type PassageCodebook } from "../../analysis/passage-codes.ts";
import type { CatalogSource } from "../index.ts";
import type { CatalogSnapshot } from "../service.ts";
import { createCatalogIndexes } from "../indexes.ts";
import { createPrng } from "../sample/prng.ts";
import { NO_YIELD } from "./yielding.ts";
import { buildPassageIndex, MAX_CELLS_PER_WINDOW, MAX_TRACK_PASSAGES, passageCandidates, passageCodesOf, restorePassageCodes, trackPassageCodes } from "./passage-index.ts";
import { reorderBySegments } from "./passage-reorder.ts";
import type { ReferenceSeed } from "./track-rows.ts";

// as a server reads them (ADR 0162): the figures' fingerprints and passages from their file
const figuresDir = fs.mkdtempSync(path.join(os.tmpdir(), "figures-"));
afterAll(() => fs.rmSync(figuresDir, { recursive: true, force: true }));

// A reference file's first stage over passages (issue #29, ADR 0129): a 20-second excerpt finds
// the catalog track it was cut from by its passage even when its whole-track fingerprint lies
// nearer to LIKE_LIMIT other tracks (the scan's kept list, ADR 0122, would drop the source),
// and the stage's work is bounded whatever the catalog.

const rng = createPrng(129);
const window = (around?: Uint8Array, noise = 3) => Uint8Array.from({ length: WINDOW_BYTES }, (_, i) => (around ? Math.min(255, Math.max(0, around[i] + Math.round((rng.next() - 0.5) * 2 * noise))) : 40 + Math.floor(rng.next() * 170)));
const windows = (list: Uint8Array[]) => {
  const out = new Uint8Array(list.length * WINDOW_BYTES);
  list.forEach((w, i) => out.set(w, i * WINDOW_BYTES));
  return out;
};
const print = (centre: number) => encodeFingerprint(FIELDS.map((f) => f.min + Math.min(1, Math.max(0, centre + (rng.next() - 0.5) * 0.02)) * (f.max - f.min)));
const analysis = (fingerprint: string, segments: string | null): TrackAnalysis => ({
  durationSeconds: 180,
  bpm: 120,
  bpmConfidence: 0.9,
  key: "C major",
  keyConfidence: 0.9,
  loudnessLufs: -14,
  previewPeaks: [0.5],
  overviewPeaks: [0.5],
  fingerprint,
  segments,
  analyzerVersion: 6,
});

// The source: its passages, one of which the reference is cut from; its fingerprint far from the
// reference's. LIKE_LIMIT + 40 decoys whose fingerprints are the reference's own and whose
// passages are other music: the whole-track scan keeps decoys only.
const excerptOf = window();
const sourcePassages = [window(), window(), excerptOf, window(), window()];
const results = new Map<string, TrackAnalysis>();
const albums: Album[] = [];
results.set("source.mp3", analysis(print(0.2), encodeSegments(windows(sourcePassages))));
albums.push({ id: "src", name: "Source", artist: "Someone", genre: "Soundtrack", artwork: "", keywords: [], featured: false, tracks: [{ s3Path: "source.mp3", Filename: "Source.mp3" }] });
const decoys = LIKE_LIMIT + 40;
for (let a = 0; a < decoys / 4; a++) {
  const tracks = Array.from({ length: 4 }, (_, i) => {
    const key = `decoy-${a}-${i}.mp3`;
    results.set(key, analysis(print(0.8), encodeSegments(windows([window(), window(), window()]))));
    return { s3Path: key, Filename: `Decoy ${a} ${i}.mp3` };
  });
  albums.push({ id: `d${a}`, name: `Decoys ${a}`, artist: `Artist ${a}`, genre: "Soundtrack", artwork: "", keywords: [], featured: false, tracks });
}

/** false: figures without passages; true: with the anchors (coded at the build); "codes": with the codes an analyser-8 analysis stores, and no anchors (ADR 0130) */
function setup(withPassages: boolean | "codes") {
  const rows: AnalysisFigures[] = [...results].map(([key, r]) => ({
    key,
    seconds: r.durationSeconds,
    bpm: r.bpm,
    musicalKey: r.key,
    fingerprint: r.fingerprint!,
    ...(withPassages === true && r.segments ? { segments: r.segments } : {}),
    ...(withPassages === "codes" && r.segments ? { passageCodes: encodePassageCodes(segmentWindows(r.segments))! } : {}),
  }));
  const lookup: AnalysisLookup = {
    version: 1,
    lookup: async (keys) => new Map(keys.flatMap((k) => (results.has(k) ? [[k, results.get(k)!] as const] : []))),
    figuresAfter: async (cursor) => (cursor ? { rows: [], next: cursor } : { rows, next: { seq: 1 } }),
  };
  const snap: CatalogSnapshot = { albums, films: [], singles: [], channels: [], genres: [], version: 1, updatedAt: "2026-11-27T00:00:00Z" };
  const source = { snapshot: () => snap, mediaUrl: (key: string) => `/media/${key}` } as unknown as CatalogSource;
  return createCatalogIndexes(source, lookup, { tracks: { yielder: () => NO_YIELD, figuresDir } }).tracks;
}

const reference: ReferenceSeed = {
  id: "ref-AAAAAAAAAAAAAAAAAAAAAA",
  status: "ready",
  label: "excerpt.mp3",
  // the excerpt's whole-track fingerprint: the decoys' (a 20 s cut sounds unlike its track's average, ADR 0122)
  sounding: { fingerprint: new Uint8Array(fingerprintBytes(print(0.8))!), bpm: 120, key: 0 },
  // its one passage: the source's third, re-encoded (a little noise)
  segments: window(excerptOf, 2),
};
const Q = (page = 1): TrackQuery => ({ q: "", genre: "", subGenres: [], bpm: null, duration: null, keys: [], sort: "similarity", page, like: reference.id });

async function listed(withPassages: boolean | "codes"): Promise<string[]> {
  const index = setup(withPassages);
  const titles: string[] = [];
  for (let page = 1; page <= Math.ceil(LIKE_LIMIT / 12); page++) {
    const r = await index.query(Q(page), reference);
    titles.push(...r.rows.map((row) => row.title));
    if (page >= r.pageCount) break;
  }
  index.stop();
  return titles;
}

describe("a reference file's first stage over passages", () => {
  it("lists the track the excerpt was cut from first, which the whole-track scan's kept list leaves out", async () => {
    // without the passage codes (figures read without passages): the scan keeps LIKE_LIMIT decoys, the source is not listed
    const before = await listed(false);
    expect(before).toHaveLength(LIKE_LIMIT);
    expect(before).not.toContain("Source");
    // with them: the passage stage adds the source to the candidates, and the re-rank puts it first
    const after = await listed(true);
    expect(after[0]).toBe("Source");
    expect(after.length).toBeLessThanOrEqual(LIKE_LIMIT);
  });

  it("builds its index from the codes the analyses stored, without their anchors (ADR 0130)", async () => {
    // the figures carry each track's stored codes and no anchors: nothing to code at the build, and the source is found
    const after = await listed("codes");
    expect(after[0]).toBe("Source");
  });

  it("reads at most its budget of postings, visits a bounded number of cells and returns at most its limit", () => {
    // 3,000 tracks of 20 passages, all near one another: every cell the query visits is full
    const count = 3_000;
    const codes = new Uint32Array(count * MAX_TRACK_PASSAGES);
    const used = new Uint8Array(count);
    const centre = window();
    for (let t = 0; t < count; t++) {
      const c = passageCodesOf(windows(Array.from({ length: 20 }, () => window(centre, 12))));
      codes.set(c, t * MAX_TRACK_PASSAGES);
      used[t] = c.length;
    }
    const index = buildPassageIndex(codes, used, count);
    expect(index.postings.length).toBeGreaterThan(12_000);
    const query = windows(Array.from({ length: 12 }, () => window(centre, 12)));
    const r = passageCandidates(index, query, () => true, { limit: 50, budget: 6_000 });
    expect(r.tracks.length).toBe(50);
    expect(r.postings).toBeLessThanOrEqual(6_000);
    expect(r.postings).toBeGreaterThan(5_000);
    expect(r.cells).toBeLessThanOrEqual(12 * MAX_CELLS_PER_WINDOW);
    // the filter is applied: no rejected track among the candidates
    const odd = passageCandidates(index, query, (t) => t % 2 === 1, { limit: 50, budget: 6_000 });
    expect([...odd.tracks].every((t) => t % 2 === 1)).toBe(true);
  });

  it("reads stored codes only when this codebook made them, else codes the anchors", () => {
    const w = windows(Array.from({ length: 17 }, () => window()));
    const anchors = encodeSegments(w);
    const stored = encodePassageCodes(w)!;
    // the stored codes are the window codes the build would make
    expect([...trackPassageCodes(null, stored)!]).toEqual([...passageCodesOf(w)]);
    expect(decodePassageCodes(stored)!.length).toBe(17);
    // another codebook's codes (a refit): not used; with the anchors they are coded again, without them there are none
    const book = passageCodebook();
    const other: PassageCodebook = { ...book, means: book.means.map((v, i) => (i === 0 ? v + 0.5 : v)) };
    expect(codebookId(other)).not.toBe(codebookId(book));
    const foreign = encodePassageCodes(w, other)!;
    expect(decodePassageCodes(foreign)).toBeNull();
    expect(trackPassageCodes(null, foreign)).toBeNull();
    expect([...trackPassageCodes(anchors, foreign)!]).toEqual([...passageCodesOf(w)]);
    // malformed or of another layout: not used
    expect(decodePassageCodes("AAAA")).toBeNull();
    expect(decodePassageCodes(Buffer.from([9, 0, 0, 0, 0, 1, 0, 1, 0]).toString("base64"))).toBeNull();
  });

  it("places the stage's tracks by the nearest point between two consecutive windows: an excerpt halfway between two stored windows moves its source up (ADR 0137)", () => {
    // eight excerpts, each halfway between its source's windows A and B (it starts 5 s after A
    // does), among 200 other tracks that each hold a window about as near the excerpt as A or B
    const own = createPrng(137);
    const near = (around?: Uint8Array, noise = 3) => Uint8Array.from({ length: WINDOW_BYTES }, (_, i) => (around ? Math.min(255, Math.max(0, around[i] + Math.round((own.next() - 0.5) * 2 * noise))) : 40 + Math.floor(own.next() * 170)));
    const book = passageCodebook();
    let byCodes = 0;
    let placedAgain = 0;
    for (let trial = 0; trial < 8; trial++) {
      const a = near();
      const b = near();
      const excerpt = Uint8Array.from(a, (v, i) => Math.round((v + b[i]) / 2));
      const gap = a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / WINDOW_BYTES;
      const count = 201;
      const codes = new Uint32Array(count * MAX_TRACK_PASSAGES);
      const used = new Uint8Array(count);
      const put = (t: number, w: Uint8Array) => {
        const c = passageCodesOf(w);
        codes.set(c, t * MAX_TRACK_PASSAGES);
        used[t] = c.length;
      };
      put(0, windows([a, b, near()]));
      for (let t = 1; t < count; t++) put(t, windows([near(), near(excerpt, gap), near()]));
      const index = buildPassageIndex(codes, used, count);
      byCodes += [...passageCandidates(index, excerpt, () => true, { limit: count, reorder: false }).tracks].indexOf(0);
      const again = [...passageCandidates(index, excerpt, () => true, { limit: count }).tracks].indexOf(0);
      expect(again).toBeGreaterThanOrEqual(0);
      placedAgain += again;
      if (trial > 0) continue;
      // the table reads give what decoding every code and measuring in 48 values gives
      const x = new Float64Array(WINDOW_BYTES);
      scaled(book, excerpt, 0, x);
      const decoded = (code: number) => decodeWindow(book, code >>> 16, code & 0xffff, new Float64Array(WINDOW_BYTES));
      const brute = (t: number) => {
        const ws = [...index.codes.subarray(index.trackStarts[t], index.trackStarts[t + 1])].map(decoded);
        let best = Infinity;
        ws.forEach((u, k) => {
          const v = ws[k + 1];
          for (let f = 0; f <= (v ? 1 : 0); f += 1 / 256) best = Math.min(best, u.reduce((s, ui, i) => s + (x[i] - ui - f * ((v ? v[i] : ui) - ui)) ** 2, 0));
        });
        return best;
      };
      const all = Int32Array.from({ length: count }, (_, t) => t);
      expect([...reorderBySegments(index, excerpt, all, 10)]).toEqual([...all].sort((s, t) => brute(s) - brute(t) || s - t).slice(0, 10));
    }
    // by the codes alone (ADR 0130's order) the sources lie far down; placed again, well up
    expect(byCodes / 8).toBeGreaterThan(20);
    expect(placedAgain).toBeLessThan(byCodes / 2);
  });

  it("gives a refresh each track's codes back in window order (the segments join consecutive windows)", () => {
    const count = 50;
    const codes = new Uint32Array(count * MAX_TRACK_PASSAGES);
    const used = new Uint8Array(count);
    for (let t = 0; t < count; t++) {
      const c = passageCodesOf(windows(Array.from({ length: 1 + (t % 20) }, () => window())));
      codes.set(c, t * MAX_TRACK_PASSAGES);
      used[t] = c.length;
    }
    const again = new Uint32Array(count * MAX_TRACK_PASSAGES);
    const usedAgain = new Uint8Array(count);
    restorePassageCodes(buildPassageIndex(codes, used, count), again, usedAgain);
    expect([...usedAgain]).toEqual([...used]);
    expect([...again]).toEqual([...codes]);
  });

  it("keeps at most MAX_TRACK_PASSAGES codes of a long track, distinct", () => {
    const long = windows(Array.from({ length: 119 }, () => window()));
    const c = passageCodesOf(long);
    expect(c.length).toBe(MAX_TRACK_PASSAGES);
    expect(new Set(c).size).toBe(c.length);
  });
});
