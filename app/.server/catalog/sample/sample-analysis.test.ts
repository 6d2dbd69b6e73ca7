import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ANALYZER_VERSION } from "../../analysis/analyze.ts";
import { fileIdentity } from "../../analysis/stage/source.ts";
import { AnalysisStore } from "../../analysis/stage/store.ts";
import { openSqliteDatabase } from "../../analysis/stage/store-sqlite.ts";
import { clipKey } from "./generate.ts";
import { applicableSampleResults, readShippedSampleAnalysis, SAMPLE_AUDIO_MTIME, seedSampleAnalysis, sha256 } from "./sample-analysis.ts";
import { SAMPLE_TRACKS } from "./tracks.ts";

// Issue #19 "A newcomer sees the figures at once": the sample's shipped analysis is stored
// before the stage walks, under the identity each file has (or will have), so the walk finds
// nothing to do; a file with other bytes is analysed as any other.

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sample-analysis-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the shipped sample analysis", () => {
  const shipped = readShippedSampleAnalysis()!;

  it("holds every piece's tempo, key and fingerprint for this analyzer", () => {
    expect(shipped.analyzerVersion).toBe(ANALYZER_VERSION);
    for (const [i] of SAMPLE_TRACKS.entries()) {
      const piece = shipped.pieces[clipKey(i + 1)];
      expect(piece.analysis.fingerprint, clipKey(i + 1)).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(piece.analysis.key).toBe(SAMPLE_TRACKS[i].key);
    }
  });

  it("is stored before the audio is written, under the identity the written file will have, and the walk then finds nothing to do", async () => {
    const media = tempDir();
    const store = new AnalysisStore(openSqliteDatabase(path.join(tempDir(), "analysis.sqlite")));
    try {
      expect(await seedSampleAnalysis(store, media, 1_000)).toBe(SAMPLE_TRACKS.length);
      const figures = await store.figuresAfter(null, 100);
      expect(figures.rows).toHaveLength(SAMPLE_TRACKS.length);
      expect(figures.rows.every((r) => r.fingerprint && r.bpm !== undefined && r.musicalKey)).toBe(true);
      // the writer gives each piece SAMPLE_AUDIO_MTIME: the walk observes the identity stored
      const observed = SAMPLE_TRACKS.map((_, i) => ({ key: clipKey(i + 1), identity: fileIdentity({ size: shipped.pieces[clipKey(i + 1)].bytes, mtimeMs: SAMPLE_AUDIO_MTIME.getTime() }) }));
      expect(await store.reconcile(observed, 2_000)).toBe(0);
      // a second start stores nothing again
      expect(await seedSampleAnalysis(store, media, 3_000)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("is not used for a file whose bytes differ from the ones it was made from", () => {
    const media = tempDir();
    fs.writeFileSync(path.join(media, clipKey(1)), "not the sample piece");
    const results = applicableSampleResults(media);
    expect(results.map((r) => r.key)).not.toContain(clipKey(1));
    expect(results).toHaveLength(SAMPLE_TRACKS.length - 1);
    expect(sha256(new Uint8Array(fs.readFileSync(path.join(media, clipKey(1)))))).not.toBe(shipped.pieces[clipKey(1)].sha256);
  });
});
