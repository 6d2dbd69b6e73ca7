import { describe, expect, it } from "vitest";
import { quantizePeaks, WAVEFORM_BARS, WAVEFORM_HEIGHT, WAVEFORM_WIDTH, waveformPath } from "./waveform.ts";

/** The bars a path of M, m and v commands draws, as the browser would: [x, top, height] each. */
function bars(d: string): number[][] {
  const out: number[][] = [];
  let [x, y] = [0, 0];
  for (const [, cmd, args] of d.matchAll(/([Mmv])([^Mmv]*)/g)) {
    const v = args!.match(/-?\d+/g)!.map(Number);
    if (cmd === "M") [x, y] = [v[0]!, v[1]!];
    else if (cmd === "m") [x, y] = [x + v[0]!, y + v[1]!];
    else {
      out.push([x, Math.min(y, y + v[0]!), Math.abs(v[0]!)]);
      y += v[0]!;
    }
  }
  return out;
}

describe("the preview's waveform (issue #9)", () => {
  it("has one bar per 0.1 s of the 10-second preview", () => {
    expect(WAVEFORM_BARS).toBe(100);
    expect(WAVEFORM_WIDTH).toBe(300);
  });

  it("scales peaks to whole numbers, the loudest bar of the clip at 100", () => {
    expect(quantizePeaks([0.1, 0.2, 0.4, 0])).toEqual([25, 50, 100, 0]);
    expect(quantizePeaks([0, 0])).toEqual([0, 0]);
    expect(quantizePeaks([Number.NaN, 0.5, -1])).toEqual([0, 100, 0]);
    expect(quantizePeaks(Array.from({ length: 150 }, () => 0.3))).toHaveLength(100);
  });

  it("draws each peak as a bar centred on the middle, at least a line for silence", () => {
    const d = waveformPath([100, 50, 0]);
    expect(d).toBe("M1 1v38m3-9v-20m3 9v2");
    expect(bars(d)).toEqual([[1, 1, 38], [4, 10, 20], [7, 19, 2]]);
    for (const [x, top, height] of bars(waveformPath(Array.from({ length: 100 }, (_, i) => i)))) {
      expect(top + height / 2).toBe(WAVEFORM_HEIGHT / 2);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(WAVEFORM_WIDTH);
    }
  });

  it("a clip shorter than the preview fills only its part, so progress lines up", () => {
    const short = bars(waveformPath(Array.from({ length: 42 }, () => 80)));
    expect(short).toHaveLength(42);
    expect(short.at(-1)![0]).toBe(3 * 41 + 1);
    expect(bars(waveformPath(Array.from({ length: 130 }, () => 80)))).toHaveLength(100);
  });
});
