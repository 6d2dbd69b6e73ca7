// music-tempo 1.0.3 ships no types; this declares the part of its API the version-2 estimator uses
// (legacy/tempo-v2.ts, bench:tempo only; ADR 0090). Documented at the package's README: `new MusicTempo(pcm, params)`.
declare module "music-tempo" {
  export default class MusicTempo {
    constructor(audioData: Float32Array | number[], params?: Record<string, number>);
    /** Beats per minute, as a string with three decimals. */
    tempo: string;
    /** Seconds between beats of the best beat-tracking agent. */
    beatInterval: number;
    /** Beat times, in seconds. */
    beats: number[];
    /** Onset strength per analysis frame, normalised to mean 0 and standard deviation 1. */
    spectralFlux: number[];
  }
}
