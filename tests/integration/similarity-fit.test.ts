import { describe, expect, it } from "vitest";
import { groupBalanced, lossAndGradient, ncaFit, type NcaProblem } from "../../benchmarks/lib/metric-learning.ts";
import { HELD_OUT_GROUPS, macroMean, NEW_HELD_OUT_GROUPS, realCorpus, scoreRanking, SOURCES } from "../../benchmarks/lib/real-music.ts";

// ADR 0131: the learned metric's fit with every group weighing the same, the diagonal shortcut,
// and the corpus's parts (new held-out groups apart from ADR 0118's six and from tuning).

/** A deterministic pseudo-random stream (no Math.random: the same problem every run). */
const stream = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;

/**
 * Tracks in groups of `sizes`, two albums a group: value 0 tells the first group from the
 * others (+1 against −1), value 1 tells the other groups apart among themselves (one place
 * each; the first group anywhere on it), value 2 is noise.
 */
function problem(sizes: number[]): NcaProblem {
  const next = stream(131);
  const x: Float64Array[] = [];
  const group: number[] = [];
  const album: number[] = [];
  sizes.forEach((size, g) => {
    for (let k = 0; k < size; k++) {
      const noise = () => 0.4 * (next() - 0.5);
      const place = g === 0 ? 4 * (next() - 0.5) : (g - sizes.length / 2) * 0.8;
      x.push(Float64Array.of((g === 0 ? 1 : -1) + noise(), place + noise(), 4 * (next() - 0.5)));
      group.push(g);
      album.push(g * 2 + (k % 2));
    }
  });
  const n = x.length;
  return { x, terms: [new Float64Array(n * n)], group: Int32Array.from(group), album: Int32Array.from(album) };
}

const identity = (d: number, s = 0.5) => Float64Array.from({ length: d * d }, (_, i) => (i % (d + 1) === 0 ? s : 0));

describe("the learned metric's fit (ADR 0131)", () => {
  it("gives every group the same total weight when balanced", () => {
    const w = groupBalanced(Int32Array.from([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2]));
    const total = (g: number, groups: number[]) => groups.reduce((s, x, i) => (x === g ? s + w[i] : s), 0);
    const groups = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2];
    expect([0, 1, 2].map((g) => total(g, groups))).toEqual([1, 1, 1]);
  });

  it("computes the diagonal's gradient alone as the full gradient's diagonal, and as the loss's slope", () => {
    const p = problem([6, 4, 4]);
    p.weight = groupBalanced(p.group);
    const model = { l: identity(3), w: Float64Array.of(0), d: 3 };
    const full = lossAndGradient(p, model, false);
    const diag = lossAndGradient(p, model, true);
    expect(diag.loss).toBeCloseTo(full.loss, 12);
    for (let r = 0; r < 3; r++) {
      expect(diag.gl[r * 3 + r]).toBeCloseTo(full.gl[r * 3 + r], 10);
      const h = 1e-6;
      const moved = { ...model, l: Float64Array.from(model.l) };
      moved.l[r * 3 + r] += h;
      const slope = (lossAndGradient(p, moved, true).loss - diag.loss) / h;
      expect(diag.gl[r * 3 + r]).toBeCloseTo(slope, 4);
    }
  });

  it("lets the small groups count: balanced, the fit weighs the value that tells most groups apart", () => {
    // one large group (30 tracks) told from the rest by value 0; five small groups (5 each) told apart by value 1
    const p = problem([30, 5, 5, 5, 5, 5]);
    const fit = (balanced: boolean) => {
      const q = { ...p, weight: balanced ? groupBalanced(p.group) : undefined };
      // regularised (λ 1): raising a value's weight costs, so the seeds' weighting decides which is raised
      const m = ncaFit(q, { shape: "diag", l0: identity(3), w0: Float64Array.of(0), lambda: 1, steps: 150, rate: 0.01 });
      return { v0: m.l[0], v1: m.l[4], noise: Math.abs(m.l[8]) };
    };
    const seeds = fit(false);
    const groups = fit(true);
    // both shrink the noise (from 0.5); counted by seeds, the large group's cue stays above the
    // small groups' (measured 0.83 against 0.77), balanced, the five small groups' cue wins (0.94 against 0.84)
    expect(Math.max(seeds.noise, groups.noise)).toBeLessThan(0.45);
    expect(seeds.v1).toBeLessThan(seeds.v0);
    expect(groups.v1).toBeGreaterThan(groups.v0);
    expect(groups.v1 / groups.v0).toBeGreaterThan(1.1 * (seeds.v1 / seeds.v0));
  });
});

describe("the real corpus's parts (ADR 0131)", () => {
  const candidates = (group: string, count: number) => Array.from({ length: count }, (_, i) => ({ file: `/c/${group}/${String(i).padStart(2, "0")}.ogg`, group, seconds: 120 }));

  it("keeps ADR 0118's six held-out groups as they were, puts the new ones apart, and tunes on the rest", () => {
    const tracks = realCorpus([...candidates("widelands", 20), ...candidates(NEW_HELD_OUT_GROUPS[0], 20), ...candidates("naev", 50), ...candidates("too small", 4)]);
    const part = (g: string) => [...new Set(tracks.filter((t) => t.group === g).map((t) => t.part))];
    expect(part("widelands")).toEqual(["held-out"]);
    expect(part(NEW_HELD_OUT_GROUPS[0])).toEqual(["held-out-new"]);
    expect(part("naev")).toEqual(["tuning"]);
    expect(part("too small")).toEqual([]);
    // held-out groups are cut at 16 tracks, tuning ones at 40; albums of four
    expect(tracks.filter((t) => t.group === NEW_HELD_OUT_GROUPS[0])).toHaveLength(16);
    expect(tracks.filter((t) => t.group === "naev")).toHaveLength(40);
    expect(new Set(tracks.filter((t) => t.group === "naev").map((t) => t.album)).size).toBe(10);
  });

  it("never lists a group in both held-out sets, and names a source for each new one", () => {
    expect(NEW_HELD_OUT_GROUPS.filter((g) => HELD_OUT_GROUPS.includes(g))).toEqual([]);
    expect(new Set(SOURCES.map((s) => s.pkg)).size).toBe(SOURCES.length);
  });

  it("averages over groups as well as over seeds", () => {
    const tracks = realCorpus([...candidates("naev", 40), ...candidates("btanks", 5)]);
    // a ranking that finds naev's tracks and nothing of btanks'
    const scores = scoreRanking(tracks, (a, b) => (tracks[a].group === "naev" && tracks[b].group === "naev" ? 0 : 1 + ((a * 7 + b * 3) % 5)));
    const all = scores.get("all")!;
    const macro = macroMean(scores);
    expect(scores.get("naev")!.p10).toBe(1);
    expect(macro.groups).toBe(2);
    expect(macro.p10).toBeCloseTo((scores.get("naev")!.p10 + scores.get("btanks")!.p10) / 2, 12);
    expect(all.p10).toBeGreaterThan(macro.p10);
  });
});
