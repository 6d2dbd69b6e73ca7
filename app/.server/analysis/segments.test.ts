import { describe, expect, it } from "vitest";
import { renderFamilyTrack } from "../catalog/sample/families.ts";
import { encodeSegments, MAX_WINDOWS, passageDistance, REFERENCE_WINDOWS, referenceAnchors, SegmentMeter, segmentDistance, segmentWindows, WINDOW_BYTES, windowScales } from "./segments.ts";

// Segment anchors (issue #29, ADR 0122): a passage's shape, whatever the file's gain; a cut
// of a track is nearest to the track's own passage; every stored form is bounded, and a
// malformed one reads as none.

const RATE = 22_050;
const meter = (pcm: Float32Array, rate = RATE, block = 4096) => {
  const m = new SegmentMeter(rate);
  for (let at = 0; at < pcm.length; at += block) m.push([pcm.subarray(at, at + block)]);
  return m;
};
/** a piece made of three different sections of 30 s (house, pad, breakbeat) */
const sections = () => {
  const parts = [
    renderFamilyTrack({ family: "house", bpm: 124, key: "A minor", seconds: 30, seed: 3 }, RATE),
    renderFamilyTrack({ family: "ambient", bpm: null, key: "D major", seconds: 30, seed: 4 }, RATE),
    renderFamilyTrack({ family: "breakbeat", bpm: 136, key: "E minor", seconds: 30, seed: 5 }, RATE),
  ];
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("segment anchors", () => {
  it("are 48 bytes a 20 s window every 10 s, and move by at most a step or two with a 6 dB gain change", () => {
    const pcm = sections();
    const w = meter(pcm).windows()!;
    expect(w.length / WINDOW_BYTES).toBe(8); // 90 s: windows at 0, 10, …, 70 s
    const quiet = meter(pcm.map((v) => v * 0.5)).windows()!;
    let worst = 0;
    for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(w[i] - quiet[i]));
    expect(worst).toBeLessThanOrEqual(2);
    // the same audio handed over in other block sizes gives the same windows
    expect(meter(pcm, RATE, 1000).windows()).toEqual(w);
  });

  it("put a 20 s cut of the pad section nearest to the track's pad passage", () => {
    const pcm = sections();
    const track = meter(pcm).windows()!;
    const cut = meter(pcm.subarray(35 * RATE, 55 * RATE).map((v) => v * 0.8)).windows()!;
    expect(cut.length).toBe(WINDOW_BYTES);
    const scales = windowScales([track]);
    const d = Array.from({ length: track.length / WINDOW_BYTES }, (_, i) => segmentDistance(cut, track.subarray(i * WINDOW_BYTES, (i + 1) * WINDOW_BYTES), scales));
    const nearest = d.indexOf(Math.min(...d));
    // the window of 30–50 s or 40–60 s: inside the pad (30–60 s)
    expect([3, 4]).toContain(nearest);
    expect(segmentDistance(cut, track, scales)).toBe(Math.min(...d));
  });

  it("measure an excerpt that starts between two stored windows against the blend of both (ADR 0134)", () => {
    const pcm = sections();
    const track = meter(pcm).windows()!;
    const scales = windowScales([track]);
    // a cut of 45–65 s: 5 s after the window of 40–60 s, 5 s before the one of 50–70 s (the pad, then the breakbeat)
    const cut = meter(pcm.subarray(45 * RATE, 65 * RATE)).windows()!;
    const nearestWindow = segmentDistance(cut, track, scales);
    expect(passageDistance(cut, track, scales)).toBeLessThan(nearestWindow * 0.9);
    // another track holding a window a little nearer the cut than either of the source's two:
    // by windows alone it comes first, by the points between them the source does
    const blend = passageDistance(cut, track, scales);
    const a = track.subarray(4 * WINDOW_BYTES, 5 * WINDOW_BYTES);
    // the cut moved towards the source's window of 40–60 s, to halfway between the two distances
    const share = (nearestWindow + blend) / 2 / segmentDistance(cut, a, scales);
    const decoy = Uint8Array.from(cut, (v, i) => Math.round(v + share * (a[i] - v)));
    expect(segmentDistance(cut, decoy, scales)).toBeLessThan(nearestWindow);
    expect(segmentDistance(cut, decoy, scales)).toBeGreaterThan(blend);
    // a track of one window, and the last window of any track, are measured as before
    expect(passageDistance(cut, a, scales)).toBe(segmentDistance(cut, a, scales));
  });

  it("are bounded: a long track keeps MAX_WINDOWS, a reference REFERENCE_WINDOWS; silence has none; a malformed form reads as none", () => {
    const long = new Float32Array(Math.round((MAX_WINDOWS + 20) * 10 * 2000));
    for (let i = 0; i < long.length; i++) long[i] = Math.sin(i * 0.37) * (0.2 + 0.1 * Math.sin(i / 50_000));
    const stored = meter(long, 2000, 1 << 16).anchors()!;
    expect(segmentWindows(stored)!.length).toBe(MAX_WINDOWS * WINDOW_BYTES);
    expect(segmentWindows(referenceAnchors(stored))!.length).toBe(REFERENCE_WINDOWS * WINDOW_BYTES);
    expect(meter(new Float32Array(RATE * 30)).anchors()).toBeNull();
    expect(segmentWindows("AQ==")).toBeNull();
    expect(segmentWindows(encodeSegments(new Uint8Array(WINDOW_BYTES + 1)))).toBeNull();
    expect(segmentWindows(Buffer.from([9, ...new Uint8Array(WINDOW_BYTES)]).toString("base64"))).toBeNull();
    expect(segmentWindows("A".repeat(100_000))).toBeNull();
  });
});
