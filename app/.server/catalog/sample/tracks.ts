import { createPrng } from "./prng.ts";
import { addDecayingSine, CADENCE, chordsInKey, drumPattern, midiToHz, mix, parseKey } from "./synth.ts";

/**
 * The sample catalog's audio (issue #9 "Sample data a newcomer can see"): a dozen synthesised
 * pieces with real variety — tempi from 76 to 160 BPM, lengths from 0:30 to 3:00, three
 * beatless ambient pieces, keys major and minor — so the out-of-the-box album sheets show
 * varied lengths, tempi and keys once the analysis has measured them. Every sample album track
 * and single points to one of them (generate.ts `clipKey`).
 *
 * Each piece is one loop of four bars (the cadence of synth.ts `chordsInKey`, one chord a bar,
 * over drums, a bass and a short melody) repeated to its length: the synthesis costs a few
 * seconds of audio per track, and only the MP3 encoding scales with the length (audio-worker.ts).
 */

export interface SampleTrack {
  /** the beat's tempo; null for a beatless ambient piece */
  bpm: number | null;
  /** as the analyser names keys: sharps, "major" or "minor" */
  key: string;
  /** whole seconds */
  seconds: number;
  /** bars of chords alone before the drums come in */
  introBars?: number;
}

export const SAMPLE_TRACKS: readonly SampleTrack[] = [
  { bpm: 120, key: "A minor", seconds: 125 },
  { bpm: 92, key: "C major", seconds: 94, introBars: 1 },
  { bpm: null, key: "D major", seconds: 48 },
  { bpm: 140, key: "E minor", seconds: 160 },
  { bpm: 100, key: "F major", seconds: 30 },
  { bpm: 76, key: "G minor", seconds: 112 },
  { bpm: 128, key: "D minor", seconds: 180, introBars: 2 },
  { bpm: null, key: "B major", seconds: 75 },
  { bpm: 84, key: "A# major", seconds: 58 },
  { bpm: 160, key: "B minor", seconds: 80, introBars: 2 },
  { bpm: 110, key: "G major", seconds: 140 },
  { bpm: null, key: "F minor", seconds: 150 },
];

/** The rate the sample audio is rendered and encoded at: plenty for synthesised music, a quarter of CD data. */
export const SAMPLE_AUDIO_RATE = 22_050;
/** Mono MP3 at 32 kbit/s: 4 KB a second, 5 MB for the dozen pieces (the WAV would be 55 MB). */
export const SAMPLE_AUDIO_KBPS = 32;

/** Scale steps (semitones above the tonic) the melody picks from: the pentatonic of the mode. */
const PENTATONIC = { major: [0, 2, 4, 7, 9], minor: [0, 3, 5, 7, 10] } as const;

/** One four-bar loop of a groove: drums, chords (one a bar), a bass on beats 1 and 3, and a melody on some beats. */
function grooveLoop(track: SampleTrack & { bpm: number }, index: number, rate: number): { full: Float32Array; chordsOnly: Float32Array } {
  const beat = 60 / track.bpm;
  const seconds = 16 * beat;
  const { tonic, mode } = parseKey(track.key);
  const chords = chordsInKey({ key: track.key, seconds, sampleRate: rate, chordSeconds: 4 * beat });
  const drums = drumPattern({ bpm: track.bpm, seconds, sampleRate: rate, seed: index + 1 });
  const bass = new Float32Array(chords.length);
  const melody = new Float32Array(chords.length);
  const r = createPrng(index * 7_919 + 11);
  for (let b = 0; b < 16; b++) {
    const at = Math.round(b * beat * rate);
    const chordRoot = CADENCE[mode][Math.floor(b / 4)][0];
    if (b % 2 === 0) addDecayingSine(bass, at, midiToHz(36 + tonic + (chordRoot % 12)), 0.3, 0.3, rate);
    // a note on about half the beats, on the beat: it must not read as a faster pulse
    if (r.chance(0.55)) {
      const step = PENTATONIC[mode][r.int(0, 4)];
      addDecayingSine(melody, at, midiToHz(72 + tonic + step), 0.12, 0.18, rate);
    }
  }
  return { full: mix(drums, chords, bass, melody), chordsOnly: mix(chords, bass) };
}

const AMBIENT_CHORD_SECONDS = 6;
const AMBIENT_FADE_SECONDS = 2;

/**
 * One loop of an ambient piece: the cadence in six-second chords of near-pure tones, each fading
 * into the next over two seconds at constant power (sine and cosine), so the level never
 * swells or pulses: nothing in it is a beat (a tempo estimator must find none, issue #9).
 */
function ambientLoop(track: SampleTrack, rate: number): Float32Array {
  const { tonic, mode } = parseKey(track.key);
  const loopSeconds = 4 * AMBIENT_CHORD_SECONDS;
  const out = new Float32Array(loopSeconds * rate);
  const base = 48 + tonic;
  for (let c = 0; c < 4; c++) {
    const chord = CADENCE[mode][c];
    const notes = [...chord.map((s) => base + s), base + chord[0] - 12];
    const start = c * AMBIENT_CHORD_SECONDS;
    const sounding = (AMBIENT_CHORD_SECONDS + AMBIENT_FADE_SECONDS) * rate;
    for (let i = 0; i < sounding; i++) {
      const u = i / rate;
      const envelope =
        u < AMBIENT_FADE_SECONDS ? Math.sin((Math.PI / 2) * (u / AMBIENT_FADE_SECONDS))
        : u < AMBIENT_CHORD_SECONDS ? 1
        : Math.cos((Math.PI / 2) * ((u - AMBIENT_CHORD_SECONDS) / AMBIENT_FADE_SECONDS));
      // the loop wraps: the last chord fades out over the first one's fade-in
      const n = (Math.round(start * rate) + i) % out.length;
      let v = 0;
      // pure tones: partials a fifth or a third apart would beat (synth.ts chordsInKey)
      for (const midi of notes) v += Math.sin((2 * Math.PI * midiToHz(midi) * n) / rate);
      out[n] += envelope * v;
    }
  }
  return out;
}

function peakOf(pcm: Float32Array): number {
  let peak = 1e-9;
  for (const v of pcm) peak = Math.max(peak, Math.abs(v));
  return peak;
}

/**
 * The PCM of sample track `index` (0-based), mono at `rate`: exactly `seconds` long, the loop
 * repeated, a little quieter in its first half (so the overview waveform has a shape), faded
 * in and out so it never clicks.
 */
export function renderSampleTrack(index: number, rate = SAMPLE_AUDIO_RATE): Float32Array {
  const track = SAMPLE_TRACKS[index];
  if (!track) throw new RangeError(`no sample track ${index}`);
  const out = new Float32Array(track.seconds * rate);
  let loop: Float32Array;
  let intro: Float32Array | null = null;
  let introLength = 0;
  if (track.bpm === null) loop = ambientLoop(track, rate);
  else {
    const groove = grooveLoop({ ...track, bpm: track.bpm }, index, rate);
    loop = groove.full;
    intro = groove.chordsOnly;
    introLength = Math.round(((track.introBars ?? 0) * 4 * 60 * rate) / track.bpm);
  }
  // one gain for the whole piece: the loudest loop sample at 0.89 (-1 dBFS), nothing clips
  const gain = 0.89 / Math.max(peakOf(loop), intro ? peakOf(intro) : 0);
  const fadeOut = 1.5 * rate;
  for (let n = 0; n < out.length; n++) {
    const i = n % loop.length;
    const sample = n < introLength && intro ? intro[i] : loop[i];
    const section = n < out.length / 2 ? 0.8 : 1;
    const fade = Math.min(1, n / (0.05 * rate), (out.length - n) / fadeOut);
    out[n] = sample * gain * section * fade;
  }
  return out;
}
