import { describe, expect, it } from "vitest";
import { KEY_NAMES } from "./track-query.ts";
import { LENGTH_PRESETS, lengthLabel, TEMPO_PRESETS, tempoLabel } from "./track-filters.ts";
import { MAX_BPM, normalizeKey, normalizeKeys, parseRange, parseTrackSort, serializeRange } from "./track-params.ts";

describe("ranges (issue #10: bad, reversed and open ranges are normalised or ignored)", () => {
  it("reads closed, open and single-value ranges", () => {
    expect(parseRange("90-120", MAX_BPM)).toEqual({ min: 90, max: 120 });
    expect(parseRange(" 90 - 120 ", MAX_BPM)).toEqual({ min: 90, max: 120 });
    expect(parseRange("-90", MAX_BPM)).toEqual({ min: null, max: 90 });
    expect(parseRange("120-", MAX_BPM)).toEqual({ min: 120, max: null });
    expect(parseRange("128", MAX_BPM)).toEqual({ min: 128, max: 128 });
  });

  it("turns reversed ranges round and rounds to whole numbers", () => {
    expect(parseRange("120-90", MAX_BPM)).toEqual({ min: 90, max: 120 });
    expect(parseRange("89.6-120.4", MAX_BPM)).toEqual({ min: 90, max: 120 });
  });

  it("clamps huge numbers; a bound at either end is no bound", () => {
    expect(parseRange("100-99999999999999999999999", MAX_BPM)).toEqual({ min: 100, max: null });
    // nothing is faster than the cap: "from 500" is "from 400", which no tempo reaches
    expect(parseRange("500-", MAX_BPM)).toEqual({ min: MAX_BPM, max: null });
    expect(parseRange("0-90", MAX_BPM)).toEqual({ min: null, max: 90 });
    expect(parseRange("0-400", MAX_BPM)).toBeNull();
    expect(parseRange("0", MAX_BPM)).toEqual({ min: null, max: 0 });
  });

  it("ignores what it cannot read", () => {
    for (const bad of ["", "-", "abc", "1-2-3", "--90", "90..120", "1e3-", "NaN-5", "x-90", "9".repeat(50), null, undefined]) {
      expect(parseRange(bad, MAX_BPM), String(bad)).toBeNull();
    }
  });

  it("writes what it reads", () => {
    for (const v of ["90-120", "-89", "121-", "60-60"]) expect(serializeRange(parseRange(v, MAX_BPM)!)).toBe(v);
  });

  it("presets cover every whole tempo and length exactly once", () => {
    const count = (presets: typeof TEMPO_PRESETS, n: number) =>
      presets.filter(({ range }) => (range.min ?? 0) <= n && n <= (range.max ?? Infinity)).length;
    for (let bpm = 30; bpm <= 300; bpm++) expect(count(TEMPO_PRESETS, bpm), `${bpm} BPM`).toBe(1);
    for (let s = 1; s <= 600; s++) expect(count(LENGTH_PRESETS, s), `${s} s`).toBe(1);
  });

  it("labels chips by preset name, else by the range", () => {
    expect(tempoLabel({ min: null, max: 89 })).toBe("Tempo: Slow (under 90)");
    expect(tempoLabel({ min: 100, max: 128 })).toBe("Tempo: 100–128 BPM");
    expect(tempoLabel({ min: null, max: 100 })).toBe("Tempo: Up to 100 BPM");
    expect(lengthLabel({ min: 241, max: null })).toBe("Length: Over 4 min");
    expect(lengthLabel({ min: 90, max: null })).toBe("Length: From 1:30");
    expect(lengthLabel({ min: 75, max: 100 })).toBe("Length: 1:15–1:40");
  });
});

describe("keys (issue #10: key normalisation)", () => {
  it("reads the ways people write keys, as the analysis's sharp names", () => {
    const cases: Record<string, string> = {
      "a minor": "A minor",
      "A Minor": "A minor",
      Am: "A minor",
      "A min": "A minor",
      "A#m": "A# minor",
      "Bb major": "A# major",
      "B♭": "A# major",
      "Bbm": "A# minor",
      "f sharp minor": "F# minor",
      "Gb": "F# major",
      "Cb major": "B major",
      "E#": "F major",
      C: "C major",
      "C#": "C# major",
      "c# maj": "C# major",
      "  D   minor ": "D minor",
      "A# minor": "A# minor",
    };
    for (const [input, key] of Object.entries(cases)) expect(normalizeKey(input), input).toBe(key);
  });

  it("gives every one of the 24 keys back as itself", () => {
    for (const key of KEY_NAMES) expect(normalizeKey(key)).toBe(key);
    expect(new Set(KEY_NAMES).size).toBe(24);
  });

  it("drops unknown keys", () => {
    for (const bad of ["", "H", "X minor", "A dorian", "A##", "minor", "12", "A minor minor", "x".repeat(200)]) {
      expect(normalizeKey(bad), bad).toBeNull();
    }
  });

  it("de-duplicates and orders the chosen keys as the filter lists them", () => {
    expect(normalizeKeys(["Am", "a minor", "C", "A minor", "Bb", "nope"])).toEqual(["C major", "A# major", "A minor"]);
  });
});

describe("sort", () => {
  it("takes title, tempo and length orders; relevance only with a search", () => {
    expect(parseTrackSort(null, "")).toBe("title");
    expect(parseTrackSort(null, "blue")).toBe("relevance");
    expect(parseTrackSort("-duration", "")).toBe("-duration");
    expect(parseTrackSort(" BPM ", "")).toBe("bpm");
    expect(parseTrackSort("relevance", "")).toBe("title");
    expect(parseTrackSort("title", "blue")).toBe("title");
    expect(parseTrackSort("random", "blue")).toBe("relevance");
  });
});
