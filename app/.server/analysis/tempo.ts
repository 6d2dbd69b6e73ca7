import { trackBeats } from "./beat-tracker.ts";
import { backbeatMeasures, backbeatOctave, type BackbeatMeasures } from "./backbeat.ts";
import { onsetStrength, type OnsetEnvelope } from "./onset.ts";
import { autocorrelation, highestNear, peakNear, refinePeak, spectrumTimesAutocorrelation, tempogram } from "./periodicity.ts";

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
 *    over 6–16 s (ADR 0126: looped pad samples pulse within a note, not across notes);
 * 6. a second opinion (ADR 0133): a tempo found by another method (the envelope's spectrum
 *    times its autocorrelation, Peeters 2006) must agree with it up to an octave or a third,
 *    or no tempo is named (Zapata, Davies and Gómez 2014: estimators that disagree flag the
 *    pieces they get wrong).
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
  /** The second method's tempo (ADR 0133), when one was found. */
  secondOpinion?: number;
  /** The second method's tempo is not the candidate's, an octave or a third of it: no tempo is named (ADR 0133). */
  disputed?: boolean;
  /** The backbeat's measures at the level named and what they did to it (ADR 0159; the bench and labs/tempo-octave.ts print them). */
  backbeat?: BackbeatMeasures & { move: number; fromBpm: number };
}

/** Below this pulse clarity no tempo is named: chosen from the evaluation set (ADR 0105). */
export const MIN_TEMPO_CONFIDENCE = 0.12;

/** The tempi reported (BPM): every notated tempo a buyer filters by, a metrical level apart at the ends. */
const MIN_BPM = 50;
const MAX_BPM = 210;
/** The tempo prior: log-Gaussian around PRIOR_BPM, PRIOR_OCTAVES wide (one standard deviation). */
const PRIOR_BPM = 120;
const PRIOR_OCTAVES = 1;
const WINDOW_SECONDS = 6;
/** How far (a share of the period) the beat may sway between windows and still count as the same tempo. */
const TEMPO_SWAY = 0.08;
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
 * MIN_PERSISTENCE (ADR 0126: chosen on the real tuning part). Clearer pulses are not asked,
 * so a tempo that drifts (whose long-lag autocorrelation fades) keeps its answer.
 */
const PERSIST_BELOW_CONFIDENCE = 0.3;
const MIN_PERSISTENCE = 0.07;
const PERSIST_FROM_SECONDS = 6;
const PERSIST_TO_SECONDS = 16;
/**
 * The octave decider (ADR 0132, after Percival and Tzanetakis 2014, who settle the octave with a
 * classifier fitted on annotated music): the level chosen is doubled when
 * OCTAVE_TEMPO × log2(bpm / PRIOR_BPM) + OCTAVE_HALF × (the whole excerpt's autocorrelation at
 * half its period) + OCTAVE_BIAS > 0. A logistic regression on those two measures — the
 * listener's tempo prior and the faster level's periodicity — fitted on the real tuning part's
 * half-tempo and right answers, deciding at a probability of 0.6. In effect it acts on the
 * slowest answers: the faster level needs an autocorrelation of 0.09 at 60 BPM, 0.67 at 80,
 * 0.91 at 90 and more than 1 (never) from about 94 BPM up.
 */
const OCTAVE_TEMPO = -4.35;
const OCTAVE_HALF = 3.09;
const OCTAVE_BIAS = -4.63;
/**
 * The second opinion (ADR 0133, after Zapata, Davies and Gómez 2014, whose committee of beat
 * trackers abstains where its members disagree): the tempo, on a grid of SECOND_OPINION_STEP
 * BPM over the reported range, where the envelope's spectrum times its autocorrelation (Peeters
 * 2006) is highest under the same tempo prior. The answer stands when that tempo is within
 * AGREE of it, of twice or half, or of three times or a third of it (the levels accuracy 2
 * forgives), or of a rival level the metre and the accents already weighed against it (their
 * verdict stands); otherwise no tempo is named. Chosen on the real tuning part (ADR 0133: of
 * its 270 answers, the wrong ones 9 → 5, 2 right at accuracy 2 lost).
 */
const SECOND_OPINION_STEP = 0.5;
const AGREE = 0.04;
const SAME_PULSE = [1, 2, 1 / 2, 3, 1 / 3];
/** The bar periods, in beats, that the meter check looks for (Klapuri et al. 2006: two to four beats a measure). */
const BEATS_A_BAR = [2, 3, 4];
/** Less sound than this (seconds) has no tempo to find. */
const MIN_SOUND_SECONDS = 4;

export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  const { bpm, confidence } = measureTempo(pcm, sampleRate);
  return { bpm, confidence };
}

export function measureTempo(pcm: Float32Array, sampleRate: number): TempoMeasures {
  return measureEnvelope(onsetStrength(pcm, sampleRate));
}

export function measureEnvelope(env: OnsetEnvelope): TempoMeasures {
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
  // The octave decider (ADR 0132): a level this slow is doubled unless its half has (nearly) no
  // periodicity; the pulse's clarity and persistence stay those of the level it doubles (the
  // same pulse, counted twice as often).
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
  const candidateBpm = Math.round(beatsRate(beats, period, fr) * 10) / 10;
  const named = confidence >= MIN_TEMPO_CONFIDENCE && !ambiguous && !unsteady;
  // the second opinion (ADR 0133), asked only of an answer that would be named
  const secondOpinion = named ? secondTempo(env.strength, fr) : undefined;
  // a level the metre and the accents already weighed against the answer, and rejected, is no
  // new disagreement (a louder 96 against a softer 120, ADR 0117's second round)
  const disputed =
    secondOpinion !== undefined &&
    !SAME_PULSE.some((k) => Math.abs(secondOpinion - candidateBpm * k) <= AGREE * candidateBpm * k) &&
    !(levels ?? []).some((l) => Math.abs(secondOpinion - l.bpm) <= AGREE * l.bpm);
  // the backbeat's octave (issue #43, ADR 0159), asked only of an answer that is named: the
  // level halved or doubled where the drums say the beat is there; clarity and confidence stay
  // the level's (the same pulse), the second opinion's verdict stands (an octave agrees with it)
  if (named && !disputed) {
    const measures = backbeatMeasures(env, period, beats);
    const move = measures ? backbeatOctave(measures, candidateBpm, { min: MIN_BPM, max: MAX_BPM }) : 1;
    const backbeat = measures && { ...measures, move, fromBpm: candidateBpm };
    if (move !== 1) {
      const movedBeats = trackBeats(env.strength, period * move);
      const movedBpm = Math.round(beatsRate(movedBeats, period * move, fr) * 10) / 10;
      return { bpm: movedBpm, confidence, candidateBpm: movedBpm, beats: movedBeats.length, ambiguous, levels, phase, persistence, secondOpinion, disputed, backbeat };
    }
    return { bpm: candidateBpm, confidence, candidateBpm, beats: beats.length, ambiguous, levels, phase, persistence, secondOpinion, disputed, backbeat };
  }
  return { bpm: named && !disputed ? candidateBpm : null, confidence, candidateBpm, beats: beats.length, ambiguous, levels, phase, persistence, secondOpinion, disputed };
}

/** The beats' mean rate (BPM) when the tracker kept near the period, else the period's. */
function beatsRate(beats: number[], period: number, fr: number): number {
  if (beats.length >= 4) {
    const mean = (beats[beats.length - 1] - beats[0]) / (beats.length - 1);
    if (Math.abs(mean / period - 1) < 0.15) return (60 * fr) / mean;
  }
  return (60 * fr) / period;
}

/** The second method's tempo (ADR 0133): Peeters's product under the tempo prior, at its highest on the grid; undefined when it is 0 everywhere. */
function secondTempo(strength: Float32Array, frameRate: number): number | undefined {
  const bpms: number[] = [];
  for (let b = MIN_BPM; b <= MAX_BPM; b += SECOND_OPINION_STEP) bpms.push(b);
  const score = spectrumTimesAutocorrelation(strength, frameRate, bpms);
  let best = -1;
  for (let k = 0; k < bpms.length; k++) if (score[k] > 0 && (best < 0 || score[k] * prior(bpms[k]) > score[best] * prior(bpms[best]))) best = k;
  return best < 0 ? undefined : bpms[best];
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

/**
 * The phase check (ADR 0126): which of two levels at 3:2, 4:3 or 5:4 the accents' phase
 * supports. Both levels share a tatum (the fast period over b, the slow over a, for a ratio a:b)
 * and a cycle of a × b tatums (a 3/4 bar and a 6/8 bar are both six eighths). The tatums are
 * tracked (Ellis 2007's beat tracker at the tatum period), the onset strength at each is folded
 * by its place in the cycle, the cycle's strongest place is taken as the downbeat (where both
 * levels have a beat), and the places only one level has are compared: in 3/4, the eighths 2
 * and 4 (the quarter-note level's beats 2 and 3); in 6/8, the eighth 3 (the dotted quarter's
 * second beat). Returns the slow level's share of the two means (0.5: no lean), null when the
 * periods are not at such a ratio or too few tatums were tracked. Tracking the tatums, not the
 * fast level's beats, keeps both levels' places on the same footing (a tracked beat sits on
 * an onset by construction; a place interpolated between beats does not).
 */
function phaseShare(env: Float32Array, fastPeriod: number, slowPeriod: number): number | null {
  const ratio = slowPeriod / fastPeriod;
  const pair = ([[3, 2], [4, 3], [5, 4]] as const).find(([a, b]) => Math.abs(ratio / (a / b) - 1) < 0.06);
  if (!pair) return null;
  const [a, b] = pair;
  const n = a * b;
  const tatum = fastPeriod / b;
  const tatums = trackBeats(env, tatum);
  if (tatums.length < 4 * n) return null;
  const sum = new Float64Array(n);
  const count = new Float64Array(n);
  const reach = Math.max(1, Math.round(tatum / 4));
  tatums.forEach((t, i) => {
    let s = 0;
    for (let f = Math.max(0, t - reach); f <= Math.min(env.length - 1, t + reach); f++) s = Math.max(s, env[f]);
    sum[i % n] += s;
    count[i % n]++;
  });
  const h = Array.from(sum, (v, k) => (count[k] ? v / count[k] : 0));
  let down = 0;
  for (let k = 1; k < n; k++) if (h[k] > h[down]) down = k;
  let fastOnly = 0;
  for (let k = 1; k < a; k++) fastOnly += h[(down + k * b) % n] / (a - 1);
  let slowOnly = 0;
  for (let k = 1; k < b; k++) slowOnly += h[(down + k * a) % n] / (b - 1);
  return fastOnly + slowOnly > 0 ? slowOnly / (fastOnly + slowOnly) : 0.5;
}

/**
 * The pulse's persistence (ADR 0126): the whole excerpt's onset autocorrelation at its highest
 * within ±3 % of each multiple of `period` from PERSIST_FROM_SECONDS to PERSIST_TO_SECONDS,
 * averaged — how much the onsets still repeat several bars later (Foote and Uchihashi's beat
 * spectrum read at long lags). Held notes whose looped samples pulse, started at random times,
 * repeat within a note (the 6 s tempogram windows) but not across notes.
 */
function persistenceAt(strength: Float32Array, period: number, frameRate: number): number {
  const from = Math.max(1, Math.round((PERSIST_FROM_SECONDS * frameRate) / period));
  const to = Math.max(from, Math.round((PERSIST_TO_SECONDS * frameRate) / period));
  const acf = autocorrelation(strength, Math.ceil(to * period * 1.03) + 1);
  let total = 0;
  for (let k = from; k <= to; k++) total += Math.max(-1, highestNear(acf, k * period));
  return total / (to - from + 1);
}

/** Whether two periods are at a ratio that makes a wrong metrical level (2:3, 3:4, 4:5 or their inverses), within 4 %. */
function rivalLevel(a: number, b: number): boolean {
  const r = Math.max(a, b) / Math.min(a, b);
  return [3 / 2, 4 / 3, 5 / 4].some((k) => Math.abs(r / k - 1) < 0.04);
}

/** The log-Gaussian tempo prior at `bpm`, 1 at PRIOR_BPM. */
function prior(bpm: number): number {
  const octaves = Math.log2(bpm / PRIOR_BPM);
  return Math.exp(-0.5 * (octaves / PRIOR_OCTAVES) ** 2);
}

/**
 * The pulse clarity at `period`: in each window the autocorrelation's height at the period,
 * or at the nearest peak within TEMPO_SWAY of it (a tempo that breathes or drifts moves the
 * peak from window to window), averaged over the windows.
 */
function clarity(rows: Float64Array[], period: number): number {
  let sum = 0;
  for (const row of rows) {
    const lo = Math.max(1, Math.floor(period * (1 - TEMPO_SWAY)));
    const hi = Math.min(row.length - 1, Math.ceil(period * (1 + TEMPO_SWAY)));
    let best = -Infinity;
    for (let lag = lo; lag <= hi; lag++) best = Math.max(best, row[lag]);
    sum += best;
  }
  return sum / rows.length;
}

/** The share of the sounding beat-long stretches of the envelope (`period` frames each) that hold an onset. */
function coverage(strength: Float32Array, sounding: Uint8Array, period: number): number {
  const slot = Math.max(1, Math.round(period));
  let slots = 0;
  let hit = 0;
  for (let start = 0; start + slot <= strength.length; start += slot) {
    let sound = 0;
    let onset = false;
    for (let f = start; f < start + slot; f++) {
      sound += sounding[f];
      if (strength[f] > 0) onset = true;
    }
    if (sound * 2 < slot) continue;
    slots++;
    if (onset) hit++;
  }
  return slots === 0 ? 0 : hit / slots;
}
