import { renderFamilyTrack, type Family } from "./families.ts";

/**
 * The sample catalog's audio (issue #9 "Sample data a newcomer can see", issue #19 "Sample
 * data that shows it"): two dozen synthesised pieces in six recognisable families
 * (families.ts: four-on-the-floor house, breakbeat, plucked acoustic, piano ballad, ambient
 * pad, sustained strings), each family across several tempi, keys and lengths (0:30 to 3:00),
 * so the album sheets show varied figures once analysed and "More like this" on a house track
 * visibly lists house tracks first. Every sample album track and single points to one of them
 * (generate.ts `clipKey`); an album's tracks come from one family.
 *
 * Each piece is one loop of four bars repeated to its length (families.ts): the synthesis
 * costs a few seconds of audio per track, and only the MP3 encoding scales with the length
 * (audio-worker.ts). The keys and tempi are the truth the analysis is tested against
 * (tracks.test.ts): a piece whose synthesis the analyser reads otherwise is a defect there.
 */

export interface SampleTrack {
  family: Family;
  /** the beat's tempo; null for a beatless piece (ambient, strings) */
  bpm: number | null;
  /** as the analyser names keys: sharps, "major" or "minor" */
  key: string;
  /** whole seconds */
  seconds: number;
  /** the synthesis's seed (melody, noise, phases) */
  seed: number;
}

export const SAMPLE_TRACKS: readonly SampleTrack[] = [
  { family: "house", bpm: 124, key: "A minor", seconds: 125, seed: 1 },
  { family: "acoustic", bpm: 92, key: "C major", seconds: 94, seed: 10 },
  { family: "ambient", bpm: null, key: "D major", seconds: 48, seed: 18 },
  { family: "breakbeat", bpm: 136, key: "E minor", seconds: 160, seed: 6 },
  { family: "acoustic", bpm: 100, key: "G major", seconds: 30, seed: 11 },
  { family: "breakbeat", bpm: 138, key: "G minor", seconds: 112, seed: 8 },
  { family: "house", bpm: 128, key: "D minor", seconds: 180, seed: 4 },
  { family: "ambient", bpm: null, key: "B major", seconds: 75, seed: 19 },
  { family: "ballad", bpm: 72, key: "A# major", seconds: 58, seed: 14 },
  { family: "breakbeat", bpm: 140, key: "B minor", seconds: 80, seed: 7 },
  { family: "strings", bpm: null, key: "C major", seconds: 66, seed: 22 },
  { family: "ambient", bpm: null, key: "F minor", seconds: 150, seed: 20 },
  { family: "house", bpm: 122, key: "F minor", seconds: 96, seed: 2 },
  { family: "house", bpm: 126, key: "C major", seconds: 150, seed: 3 },
  { family: "house", bpm: 120, key: "G major", seconds: 64, seed: 5 },
  { family: "breakbeat", bpm: 144, key: "C# minor", seconds: 70, seed: 9 },
  { family: "acoustic", bpm: 108, key: "D major", seconds: 118, seed: 12 },
  { family: "acoustic", bpm: 96, key: "F major", seconds: 84, seed: 13 },
  { family: "ballad", bpm: 74, key: "E major", seconds: 140, seed: 15 },
  { family: "ballad", bpm: 76, key: "F major", seconds: 100, seed: 16 },
  { family: "ballad", bpm: 70, key: "C minor", seconds: 76, seed: 17 },
  { family: "ambient", bpm: null, key: "G# minor", seconds: 90, seed: 21 },
  { family: "strings", bpm: null, key: "E minor", seconds: 104, seed: 23 },
  { family: "strings", bpm: null, key: "A major", seconds: 56, seed: 24 },
];

/** The rate the sample audio is rendered and encoded at: plenty for synthesised music, a quarter of CD data. */
export const SAMPLE_AUDIO_RATE = 22_050;
/** Mono MP3 at 32 kbit/s: 4 KB a second, 9 MB for the two dozen pieces (the WAV would be 100 MB). */
export const SAMPLE_AUDIO_KBPS = 32;

/** The PCM of sample track `index` (0-based), mono at `rate`, exactly `seconds` long, faded in and out, peaking at -1 dBFS. */
export function renderSampleTrack(index: number, rate = SAMPLE_AUDIO_RATE): Float32Array {
  const track = SAMPLE_TRACKS[index];
  if (!track) throw new RangeError(`no sample track ${index}`);
  return renderFamilyTrack(track, rate);
}
