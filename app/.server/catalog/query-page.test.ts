import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import type { TrackAnalysis } from "../analysis/analyze.ts";
import { albumJsonLd } from "../../features/catalog/json-ld.tsx";
import { albumDetail, type CatalogPageServices } from "./query-page.ts";
import { withAnalysis } from "./with-analysis.ts";

const result = (o: Partial<TrackAnalysis>): TrackAnalysis => ({
  durationSeconds: 125.07,
  bpm: 119.6,
  bpmConfidence: 0.9,
  key: "A minor",
  keyConfidence: 0.9,
  loudnessLufs: -18.9,
  previewPeaks: [0.2, 0.4, 0.1],
  overviewPeaks: [0.3],
  analyzerVersion: 1,
  ...o,
});
const track = { name: "Golden Roads", audioUrl: "/media/track-01.mp3" };

describe("an album sheet's track rows (issue #9)", () => {
  it("carry what the analysis measured: whole seconds and BPM, the key, the preview's bars", () => {
    expect(withAnalysis(track, result({}))).toEqual({ ...track, seconds: 125, bpm: 120, key: "A minor", peaks: [50, 100, 25] });
  });
  it("leave out the tempo of a piece without a beat, and a key the analysis could not name", () => {
    expect(withAnalysis(track, result({ bpm: null, key: null, previewPeaks: [] }))).toEqual({ ...track, seconds: 125 });
  });
  it("stay as they are until the track is analysed", () => {
    expect(withAnalysis(track, undefined)).toBe(track);
  });
  it("list the tracks in the album's JSON-LD as MusicRecording with ISO 8601 durations", () => {
    const album = { kind: "album" as const, id: "a1", name: "Blue Tides", artist: "Ana Costa", genre: "Jazz", image: null, tracks: [withAnalysis(track, result({})), { name: "Not yet", audioUrl: "/media/x.mp3" }] };
    const ld = albumJsonLd(album, "https://example.com", "https://example.com/catalog/albums/a1/blue-tides");
    const inAlbum = { "@type": "MusicAlbum", name: "Blue Tides", url: "https://example.com/catalog/albums/a1/blue-tides" };
    expect(ld["@type"]).toBe("MusicAlbum");
    expect(ld.numTracks).toBe(2);
    expect(JSON.parse(JSON.stringify(ld.track))).toEqual([
      { "@type": "MusicRecording", position: 1, name: "Golden Roads", byArtist: { "@type": "MusicGroup", name: "Ana Costa" }, inAlbum, duration: "PT2M5S" },
      { "@type": "MusicRecording", position: 2, name: "Not yet", byArtist: { "@type": "MusicGroup", name: "Ana Costa" }, inAlbum },
    ]);
  });
});

describe("an album page's wait for the analysis (ADR 0121, fourth session)", () => {
  const album = { kind: "album" as const, id: "a1", name: "Blue Tides", artist: "Ana Costa", genre: "Jazz", image: null, tracks: [track] };
  const services = (lookup: () => Promise<Map<string, TrackAnalysis>>) =>
    ({
      catalogIndex: { albumWithKeys: () => ({ album, keys: ["k1"] }) },
      analysis: { lookup },
    }) as unknown as CatalogPageServices;

  it("does not hold the analysis it waited for once the page has it (no timer left keeping it)", async () => {
    // a timer left to run would keep the lookup's answer reachable for ANALYSIS_WAIT_MS after
    // the page was sent: under load that promotes every page's data to the old generation
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    let answer: WeakRef<Map<string, TrackAnalysis>> | undefined;
    const found = await albumDetail(
      services(async () => {
        const m = new Map([["k1", result({})]]);
        answer = new WeakRef(m);
        return m;
      }),
      "a1",
    );
    expect(found.complete).toBe(true);
    expect(found.data?.kind === "album" && found.data.tracks[0]).toMatchObject({ bpm: 120, key: "A minor" });
    await new Promise((r) => setImmediate(r)); // a WeakRef's target is kept until the job that made it ends
    gc();
    expect(answer?.deref()).toBeUndefined();
  });
  it("still sends the page without the analysis when it does not answer in time", async () => {
    const found = await albumDetail(services(() => new Promise(() => {})), "a1");
    expect(found).toEqual({ data: album, complete: false });
  });
});
