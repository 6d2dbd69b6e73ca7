import { trackBeats } from "./beat-tracker.ts";
import { ONSET_MU, type OnsetEnvelope } from "./onset.ts";

/*
 * The backbeat's octave (issue #43, ADR 0159): whether the level tempo.ts named is a backbeat's
 * eighth note or a two-step's half bar, from where the drums' bands sound between its beats.
 * Apart from tempo.ts, which decides the level; measureEnvelope asks this of a named tempo only.
 */

/**
 * The backbeat's octave (issue #43, ADR 0159: backbeatOctave). Chosen on the groove set
 * (benchmarks/groove-set.ts) and the real tuning part with the replay lab (labs/tempo-octave.ts).
 */
const BACKBEAT_HALF_TO_BPM = 105;
const BACKBEAT_SCORE = 0.25;
const BACKBEAT_MARGIN = 0.1;
/** The hats' band (2.6 kHz), its index in onset.ts's bands. */
const HAT_BAND = 5;
const HAT_LEAN = 0.15;
const EMPTY_QUARTERS = 0.03;
const QUIET_STEP = 0.23;
const QUIET_HAT_OVER_LOW = 0.1;
const QUIET_EMPTY = 0.01;
const QUIET_EMPTY_HALVES = 0.05;
const TWO_STEP_SCORE = 0.5;
const TWO_STEP_QUARTERS = [0.1, 0.3] as const;

/** What the backbeat's octave weighs at the level named (ADR 0159). */
export interface BackbeatMeasures {
  /** ADR 0148's backbeat score (backbeatScore) at twice the period, at it and at half of it. */
  slower: number;
  level: number;
  faster: number;
  /** The onsets on the level's quarter and half subdivisions, over those on its beats. */
  quarters: number;
  halves: number;
  /** How much the level's beats alternate strong and weak: the hats' band, the low bands (80–320 Hz), all onsets. */
  hats: number;
  low: number;
  steps: number;
}

/**
 * The backbeat's octave (issue #43, ADR 0159; ADR 0148's backbeat check, gated by where the
 * onsets and the hats sound between the level's beats). Returns 2 (the level is the eighth note
 * of a backbeat: its half is the beat), 1/2 (the level is a two-step's half bar) or 1.
 * - halve, to at most BACKBEAT_HALF_TO_BPM: the kick and the snare alternate at twice the
 *   period (backbeatScore, ADR 0148), the hats' band leans at the level (the on-beat eighths
 *   carry the snare's rattle, the off-beat ones the hat alone) and nothing sounds on the
 *   level's quarter subdivisions (an eighth-note groove has no 32nd notes; real music named at
 *   its beat has its eighths and sixteenths there);
 * - halve, the drums quiet under a band (the snare's lean lost in the chords'): the level's beats
 *   alternate strong and weak, the hats' band more than the low bands, and nothing sounds between them;
 * - double, to at most the highest tempo reported (`reported`, tempo.ts): the kick and the snare alternate at half the period and onsets
 *   sound on the level's quarter subdivisions (a drum-and-bass two-step's eighths at 180 named 90).
 * Chosen on the groove set and the real tuning part (ADR 0159); the real held-out part read once.
 */
export function backbeatOctave(m: BackbeatMeasures, bpm: number, reported: { min: number; max: number }): number {
  if (bpm / 2 >= reported.min && bpm / 2 <= BACKBEAT_HALF_TO_BPM) {
    if (m.slower >= BACKBEAT_SCORE && m.slower >= m.level + BACKBEAT_MARGIN && m.hats >= HAT_LEAN && m.quarters <= EMPTY_QUARTERS) return 2;
    if (m.steps >= QUIET_STEP && m.hats >= m.low + QUIET_HAT_OVER_LOW && m.quarters <= QUIET_EMPTY && m.halves <= QUIET_EMPTY_HALVES) return 2;
  }
  if (bpm * 2 <= reported.max && m.quarters >= TWO_STEP_QUARTERS[0] && m.quarters <= TWO_STEP_QUARTERS[1] && m.faster >= TWO_STEP_SCORE && m.faster >= m.level + BACKBEAT_MARGIN) return 1 / 2;
  return 1;
}

/** The backbeat's measures at `period` (its `beats` tracked); undefined without the hats' band or with fewer than 9 beats. */
export function backbeatMeasures(env: OnsetEnvelope, period: number, beats: number[]): BackbeatMeasures | undefined {
  if (env.bandEnergies.length <= HAT_BAND || beats.length < 9) return undefined;
  const grid = subdivisions(env, beats, period);
  const onBeats = (b: number, parity: number) => [0, 2, 4, 6].reduce((s, p) => s + grid[b][(p + parity) * 4], 0) / 4;
  const at = (b: number, k: number) => grid[b].filter((_, pos) => pos % 4 === k).reduce((s, v) => s + v, 0) / 8;
  const alternation = (bs: number[]) => {
    const even = bs.reduce((s, b) => s + onBeats(b, 0), 0);
    const odd = bs.reduce((s, b) => s + onBeats(b, 1), 0);
    return Math.abs(even - odd) / (even + odd + 1e-9);
  };
  const all = grid.length - 1;
  const onsets = at(all, 0) + 1e-9;
  return {
    slower: backbeatScore(env, period * 2),
    level: backbeatScore(env, period),
    faster: backbeatScore(env, period / 2),
    quarters: (at(all, 1) + at(all, 3)) / 2 / onsets,
    halves: at(all, 2) / onsets,
    hats: alternation([HAT_BAND]),
    low: alternation([0, 1, 2]),
    steps: alternation([all]),
  };
}

/**
 * Where the onsets sound against the beats: for each band's rises (μ-law, as onset.ts measures
 * them) and the onset strength (last), the mean of the highest value near each beat and each of
 * its quarter subdivisions, on a cycle of 8 beats × 4 places (place (i mod 8) × 4 + k).
 */
function subdivisions(env: OnsetEnvelope, beats: number[], period: number): number[][] {
  const bands = env.bandEnergies;
  const n = env.strength.length;
  let mean = 0;
  for (const e of bands) for (let f = 0; f < n; f++) mean += e[f];
  mean /= n;
  const scale = ONSET_MU / mean;
  const signals: Float32Array[] = bands.map((e) => {
    const rise = new Float32Array(n);
    let prev = Math.log1p(scale * e[0]);
    for (let f = 1; f < n; f++) {
      const l = Math.log1p(scale * e[f]);
      rise[f] = Math.max(0, l - prev);
      prev = l;
    }
    return rise;
  });
  signals.push(env.strength);
  const reach = Math.max(1, Math.round(period / 12));
  const sum = signals.map(() => new Float64Array(32));
  const count = new Float64Array(32);
  for (let i = 0; i + 1 < beats.length; i++) {
    for (let k = 0; k < 4; k++) {
      const t = Math.round(beats[i] + ((beats[i + 1] - beats[i]) * k) / 4);
      const pos = (i % 8) * 4 + k;
      count[pos]++;
      signals.forEach((s, b) => (sum[b][pos] += highestIn(s, t - reach, t + reach)));
    }
  }
  return sum.map((s) => Array.from(s, (v, pos) => (count[pos] ? v / count[pos] : 0)));
}

/**
 * ADR 0148's backbeat score at a period: the beats tracked there, each band's energy at each beat
 * (its highest from an eighth of a beat before to a quarter after) summed over the even and the
 * odd beats of each block of 8 beats, each band's lean (even − odd) / (even + odd); a block's
 * score is the strongest lean of the snare's bands (160 Hz–1.3 kHz) against the kick band's
 * (80 Hz): its size where they lean opposite ways, its size less twice the kick band's where
 * they lean alike; averaged over the blocks (a tracker slipping a beat flips both signs).
 */
function backbeatScore(env: OnsetEnvelope, period: number): number {
  const beats = trackBeats(env.strength, period);
  const reach = Math.max(1, Math.round(period / 8));
  const at = env.bandEnergies.map((energy) =>
    beats.map((t) => highestIn(energy, t - reach, t + 2 * reach)),
  );
  let total = 0;
  let blocks = 0;
  for (let from = 0; from + 8 <= beats.length; from += 8) {
    const lean = at.map((values) => {
      let even = 0;
      let odd = 0;
      for (let i = from; i < from + 8; i++) {
        if (i % 2) odd += values[i];
        else even += values[i];
      }
      return even + odd > 0 ? (even - odd) / (even + odd) : 0;
    });
    let best = 0;
    for (let b = 1; b <= Math.min(4, lean.length - 1); b++) best = Math.max(best, lean[b] * lean[0] < 0 ? Math.abs(lean[b]) : Math.abs(lean[b]) - 2 * Math.abs(lean[0]));
    total += best;
    blocks++;
  }
  return blocks ? total / blocks : 0;
}

/** The highest value of `signal` from frame `from` to frame `to` (both kept inside it); 0 when none is above. */
function highestIn(signal: ArrayLike<number>, from: number, to: number): number {
  let best = 0;
  for (let f = Math.max(0, from); f <= Math.min(signal.length - 1, to); f++) best = Math.max(best, signal[f]);
  return best;
}
