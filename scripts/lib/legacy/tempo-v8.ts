// Version 8 of the analyzer (ADR 0132), kept unchanged for bench:tempo's "before" column (ADR 0133):
// version 7's decision (the same frozen helpers) and ADR 0132's octave decider.
import { onsetStrength } from "./onset-v3.ts";
// The periodicity measures and the beat tracker that version 7 read (app/.server/analysis/
// periodicity.ts and beat-tracker.ts) are the frozen copies' of the versions that wrote them
// (the same code; ADR 0127's move into periodicity.ts changed no line of them).
import { clarity, coverage, peakNear, prior, refinePeak, rivalLevel, tempogram, trackBeats } from "./tempo-v4.ts";
import { autocorrelation } from "./tempo-v5.ts";
// Version 7 changed none of these from version 6 (the same code, constants and values).
import { highestNear, persistenceAt, phaseShare } from "./tempo-v6.ts";

/**
 * Tempo from a mono excerpt at a low sample rate (~11 kHz, see analyze.ts), by the methods of
 * the literature (ADR 0105, which replaces ADR 0090's BeatRoot and percussive-onset rule):
 * 1. an onset-strength envelope (onset.ts: multi-band flux, 10 ms frames);
 * 2. an autocorrelation tempogram: the envelope's normalised autocorrelation in 6 s windows
 *    every 2 s, averaged — a tempo that drifts or breathes still peaks near its mean;
 * 3. the beat period: the tempogram weighted by a log-Gaussian tempo prior (Ellis 2007;
 *    librosa's `tempo`); where a level at 2:3, 3:4 or 4:5 of the best peaks too, the level the
 *    bar holds a whole number of times (a meter check after Klapuri et al. 2006), the accents'
 *    phase settling the winner and its rival (a 3/4 or a 6/8 bar, ADR 0126), and no tempo
 *    when the two stay close (ADR 0117: a wrong tempo is worse than none); then the metrical
 *    level a listener taps (the level twice or three times as fast when it is nearly as clear,
 *    below; ADR 0127), and an octave decider fitted on real music for the slowest answers (ADR 0132);
 * 4. the beats: Ellis's dynamic-programming beat tracker at that period; the tempo reported is
 *    the mean rate of the beats it finds (the dominant tempo of a drifting track);
 * 5. the confidence: the pulse clarity (Lartillot et al. 2008), the tempogram's height at the
 *    beat period, times the share of beats that hold an onset. Below MIN_TEMPO_CONFIDENCE
 *    there is no tempo (tones, drones, pads, noise, silence); a faint pulse must also persist
 *    over 6–16 s (ADR 0126: looped pad samples pulse within a note, not across notes).
 */

export interface TempoEstimate {
  bpm: number | null;
  confidence: number;
}

/** What the decision rests on (the bench and the tests print it). */
export interface TempoMeasures extends TempoEstimate {
  /** The tempo found, whether or not it passed the cut-off; null when there was nothing to measure. */
  candidateBpm: number | null;
  /** Beats the tracker placed. */
  beats: number;
  /** Another level, not an octave of the one found, was nearly as likely: no tempo is named. */
  ambiguous?: boolean;
  /** The rival levels weighed (the bench prints them). */
  levels?: { bpm: number; score: number; support: number }[];
  /** The phase check's share for the slower of the winner and its rival (0.5: no lean either way; ADR 0126). */
  phase?: number;
  /** How well a faint pulse holds over 6–16 s (measured under PERSIST_BELOW_CONFIDENCE only; ADR 0126). */
  persistence?: number;
}

/** Below this pulse clarity no tempo is named: chosen from the evaluation set (ADR 0105). */
export const MIN_TEMPO_CONFIDENCE = 0.12;

/** The tempi reported (BPM): every notated tempo a buyer filters by, a metrical level apart at the ends. */
const MIN_BPM = 50;
const MAX_BPM = 210;
const WINDOW_SECONDS = 6;
const WINDOW_HOP_SECONDS = 2;
/** How high the tempogram at twice the tempo must be, against the chosen level's, to take it instead (ADR 0105). */
const FASTER_LEVEL = 0.9;
const FASTER_CLARITY = 0.5;
/** ADR 0127: 80 → 90, chosen on the real tuning part (its half-tempo answers 19 → 13, none made wrong). */
const SLOW_BPM = 90;
const SLOW_FASTER_LEVEL = 0.45;
const SLOW_FASTER_CLARITY = 0.25;
/** Rival levels scoring under this share of the best's (prior-weighted tempogram) are not weighed. */
const RIVAL_FLOOR = 0.5;
/**
 * When the runner-up level's support is at least this share of the winner's, the levels are
 * ambiguous and no tempo is named (ADR 0117: a wrong tempo is worse than none). Version 4's
 * threshold, kept; its second round measured 0.6–0.95 on the real tuning part.
 */
const AMBIGUITY = 0.8;
/**
 * How far the accents' phase must lean (the slower level's share of the accents, from 0.5) to
 * settle a winner and its rival (ADR 0126: 0.05 chosen on the real tuning part, 0.02–0.1
 * measured; ADR 0127: 0.02 on the tuning part with MMA's compound and waltz grooves, three more
 * answers, all right, in both of its folds).
 */
const PHASE_MARGIN = 0.02;
/**
 * The level three times as fast (ADR 0127): a level chosen under TRIPLE_BELOW_BPM whose third of
 * the period is nearly as clear (TRIPLE_LEVEL of its clarity) is taken as a bar of three beats
 * (a fast waltz's bar); chosen on the real tuning part (its fast waltzes), 0.5–0.9 measured.
 */
const TRIPLE_BELOW_BPM = 70;
const TRIPLE_LEVEL = 0.9;
/**
 * Under this pulse clarity the pulse must also hold over 6–16 s: the whole excerpt's onset
 * autocorrelation near each multiple of the period in that span, averaged, at least
 * MIN_PERSISTENCE (ADR 0126: chosen on the real tuning part; persistenceAt, version 6's). Clearer pulses are not asked,
 * so a tempo that drifts (whose long-lag autocorrelation fades) keeps its answer.
 */
const PERSIST_BELOW_CONFIDENCE = 0.3;
const MIN_PERSISTENCE = 0.07;
/** The bar periods, in beats, that the meter check looks for (Klapuri et al. 2006: two to four beats a measure). */
const BEATS_A_BAR = [2, 3, 4];
/** Less sound than this (seconds) has no tempo to find. */
const MIN_SOUND_SECONDS = 4;

/** The tempo prior's centre (BPM): tempo-v4.ts's prior, which the octave decider reads too. */
const PRIOR_BPM = 120;
/** ADR 0132's octave decider: doubled when OCTAVE_TEMPO × log2(bpm / 120) + OCTAVE_HALF × acf(half the period) + OCTAVE_BIAS > 0. */
const OCTAVE_TEMPO = -4.35;
const OCTAVE_HALF = 3.09;
const OCTAVE_BIAS = -4.63;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const { bpm, confidence } = measureTempo(pcm, sampleRate);
  return { bpm, confidence };
}

export function measureTempo(pcm: Float32Array, sampleRate: number): TempoMeasures {
  return measureEnvelope(onsetStrength(pcm, sampleRate));
}

export function measureEnvelope(env: ReturnType<typeof onsetStrength>): TempoMeasures {
  const none: TempoMeasures = { bpm: null, confidence: 0, candidateBpm: null, beats: 0 };
  const fr = env.frameRate;
  if (env.soundingFrames / fr < MIN_SOUND_SECONDS) return none;
  const minLag = Math.floor((60 / MAX_BPM) * fr);
  const maxLag = Math.ceil((60 / MIN_BPM) * fr);
  const tg = tempogram(env.strength, Math.round(WINDOW_SECONDS * fr), Math.round(WINDOW_HOP_SECONDS * fr), maxLag + 1);
  if (!tg) return none;
  const gram = tg.mean;
  // Each local peak of the tempogram (a slope next to a peak is the same period) is a candidate
  // period, scored by its height under the tempo prior.
  const candidates: { lag: number; score: number }[] = [];
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (!(gram[lag] >= gram[lag - 1] && gram[lag] >= gram[lag + 1])) continue;
    candidates.push({ lag, score: gram[lag] * prior((60 * fr) / lag) });
  }
  candidates.sort((a, b) => b.score - a.score);
  if (candidates.length === 0 || !(candidates[0].score > 0)) return none;
  let bestLag = candidates[0].lag;
  // The rival levels (issue #28, ADR 0117): candidates at 2:3, 3:4 or 4:5 of the best's period,
  // or their inverses — the levels of a triplet feel, a dotted or 3+3+2 rhythm, a hemiola —
  // scoring at least RIVAL_FLOOR of it. Octaves and triples are not rivals: they are the same
  // pulse, and the faster-level rule below picks among them. Each level is weighed by its
  // score times the metre's support for it (meterSupport: a beat the bar holds two, three or
  // four times, after Klapuri, Eronen and Astola's 2006 meter model); the heaviest is the beat.
  // Its runner-up is the heaviest level that is a rival of it — not an octave of it, which is
  // the same pulse (ADR 0126). The two levels are ambiguous when the runner-up comes within
  // AMBIGUITY of the winner; the accents' phase (phaseShare, ADR 0126) then settles the pair
  // when it leans one way by more than PHASE_MARGIN — for either level, also when the meter
  // check alone was not ambiguous — and no tempo is named when it does not.
  let ambiguous = false;
  let levels: TempoMeasures["levels"];
  let phase: number | undefined;
  const contenders = [candidates[0], ...candidates.filter((c) => rivalLevel(c.lag, candidates[0].lag) && c.score >= RIVAL_FLOOR * candidates[0].score)];
  if (contenders.length > 1) {
    const acf = autocorrelation(env.strength, Math.ceil(maxLag * (Math.max(...BEATS_A_BAR) + 0.2)));
    const judged = contenders
      .map((c) => ({ lag: c.lag, score: c.score / candidates[0].score, support: meterSupport(acf, refinePeak(gram, c.lag)) }))
      .map((j) => ({ ...j, weight: j.score * j.support }))
      .sort((a, b) => b.weight - a.weight);
    levels = judged.map((j) => ({ bpm: Math.round((600 * fr) / j.lag) / 10, score: j.score, support: j.support }));
    const winner = judged[0];
    bestLag = winner.lag;
    const rival = judged.find((j, i) => i > 0 && rivalLevel(j.lag, winner.lag));
    if (rival) {
      ambiguous = rival.weight >= AMBIGUITY * winner.weight;
      const pw = refinePeak(gram, winner.lag);
      const pr = refinePeak(gram, rival.lag);
      const share = phaseShare(env.strength, Math.min(pw, pr), Math.max(pw, pr));
      if (share !== null) {
        phase = share;
        // how far the accents lean toward the winner (positive) or the rival (negative)
        const lean = pw > pr ? share - 0.5 : 0.5 - share;
        if (lean < -PHASE_MARGIN) {
          bestLag = rival.lag;
          ambiguous = false;
        } else if (lean > PHASE_MARGIN) ambiguous = false;
      }
    }
  }
  // The metrical level. A beat whose two-beat pattern (kick on 1 and 3, snare on 2 and 4; a
  // swing ride's "ding, ding-a") repeats better than the beat itself peaks at half its rate, and
  // the prior does not always pull it back. The level twice as fast is taken when it is clear
  // (FASTER_CLARITY) and nearly as clear as the level chosen (FASTER_LEVEL of it); or, when the
  // level chosen is under SLOW_BPM — a rate people rarely tap when a faster pulse is there to
  // tap (their preferred rate is near 120, Moelants 2002) — when it is fairly clear
  // (SLOW_FASTER_CLARITY) and 0.45 as clear (SLOW_FASTER_LEVEL) as the level chosen.
  const fastLag = peakNear(gram, bestLag / 2);
  const fastBpm = (60 * fr) / fastLag;
  const fastClarity = clarity(tg.rows, fastLag);
  const chosenClarity = clarity(tg.rows, bestLag);
  const faster =
    (fastClarity >= FASTER_CLARITY && fastClarity >= FASTER_LEVEL * chosenClarity) ||
    (fastBpm / 2 < SLOW_BPM && fastClarity >= SLOW_FASTER_CLARITY && fastClarity >= SLOW_FASTER_LEVEL * chosenClarity);
  if (fastBpm <= MAX_BPM && faster) bestLag = fastLag;
  else if ((60 * fr) / bestLag < TRIPLE_BELOW_BPM) {
    // the same question for a bar of three (ADR 0127): a waltz at 190 peaks at its bar, 63 BPM,
    // where the phase check rightly prefers the bar to the hemiola's 95; its beat is three times as fast
    const tripleLag = peakNear(gram, bestLag / 3);
    if ((60 * fr) / tripleLag <= MAX_BPM && clarity(tg.rows, tripleLag) >= TRIPLE_LEVEL * chosenClarity) bestLag = tripleLag;
  }
  let period = refinePeak(gram, bestLag);
  // ADR 0132's octave decider; the pulse's clarity and persistence stay the level's it doubles
  const pulsePeriod = period;
  if ((120 * fr) / period <= MAX_BPM) {
    const half = highestNear(autocorrelation(env.strength, Math.ceil((period / 2) * 1.03) + 1), period / 2);
    if (OCTAVE_TEMPO * Math.log2((60 * fr) / period / PRIOR_BPM) + OCTAVE_HALF * half + OCTAVE_BIAS > 0) {
      bestLag = peakNear(gram, bestLag / 2);
      period = refinePeak(gram, bestLag);
    }
  }
  // A steady beat sounds in (nearly) every beat; onsets bunched in a few places — the partials
  // of two chords beating while one fades into the next — repeat within the bunch only.
  const confidence = Math.max(0, Math.min(1, clarity(tg.rows, pulsePeriod) * coverage(env.strength, env.sounding, pulsePeriod)));
  const beats = trackBeats(env.strength, period);
  // A pulse this faint must also hold over the excerpt (ADR 0126): a pad whose looped samples
  // pulse within each held note has a clear period for a few seconds, lost at the next note.
  const persistence = confidence < PERSIST_BELOW_CONFIDENCE ? persistenceAt(env.strength, pulsePeriod, fr) : undefined;
  const unsteady = persistence !== undefined && persistence < MIN_PERSISTENCE;
  // the dominant tempo: the beats' mean rate, when the tracker kept near the period
  let bpm = (60 * fr) / period;
  if (beats.length >= 4) {
    const mean = (beats[beats.length - 1] - beats[0]) / (beats.length - 1);
    if (Math.abs(mean / period - 1) < 0.15) bpm = (60 * fr) / mean;
  }
  const candidateBpm = Math.round(bpm * 10) / 10;
  return { bpm: confidence >= MIN_TEMPO_CONFIDENCE && !ambiguous && !unsteady ? candidateBpm : null, confidence, candidateBpm, beats: beats.length, ambiguous, levels, phase, persistence };
}

/**
 * The metre's support for a beat period (after Klapuri, Eronen and Astola 2006, whose meter
 * model favours a tactus that the measure holds a whole number of times): the whole excerpt's
 * autocorrelation at its highest within ±3 % of 2, 3 or 4 periods, floored at a small value.
 * A 3+3+2 rhythm in 4/4 at 120 makes the tempogram peak at 80 (three eighths); the bar, every
 * 2 s, is four beats at 120 but 2.67 at 80, so the bar's repetition supports 120 only.
 */
function meterSupport(acf: Float64Array, period: number): number {
  return Math.max(0.01, ...BEATS_A_BAR.map((m) => highestNear(acf, m * period)));
}

