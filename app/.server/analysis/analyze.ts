import decode from "audio-decode";
import { parseBuffer } from "music-metadata";
import { FingerprintMeter } from "./fingerprint.ts";
import { SegmentMeter, segmentWindows } from "./segments.ts";
import { encodePassageCodes } from "./passage-codes.ts";
import { estimateKey } from "./key.ts";
import { LoudnessMeter } from "./loudness.ts";
import { PeakBins } from "./peaks.ts";
import { estimateTempo } from "./tempo.ts";

/**
 * The analysis engine (issue #9, ADR 0090): one audio file in, the measurements the album
 * sheet and the catalog's filters use out. Everything is bounded: the input's size, the
 * decoded length (maxSeconds), and the PCM held — the file is decoded in chunks, and only a
 * low-rate mono excerpt (tempo, key) and the first two channels for the R128 meter are kept.
 */

export interface TrackAnalysis {
  /** Exact for the whole track: decoded sample frames / sample rate. */
  durationSeconds: number;
  /** null when there is no steady beat (tones, ambient pieces). */
  bpm: number | null;
  bpmConfidence: number;
  /** e.g. "A minor", "F# major"; null when the chroma fits no key. */
  key: string | null;
  keyConfidence: number;
  /** Integrated loudness, EBU R128; null for digital silence. */
  loudnessLufs: number | null;
  /** Bars of 0.1 s over the preview clip (the first 10 s, product-rules §9 via docs/product-rules.md), 0..1. */
  previewPeaks: number[];
  /** Up to 200 bars over the whole track, 0..1. */
  overviewPeaks: number[];
  /** How the track sounds (issue #19, ADR 0104): base64 of fingerprint.ts's bytes; null for silence; absent before version 3. */
  fingerprint?: string | null;
  /** How each 20 s passage sounds, every 10 s (issue #29, ADR 0122): base64 of segments.ts's windows; null for silence; absent before version 5. */
  segments?: string | null;
  /** Each of those passages' code (passage-codes.ts, issue #29, ADR 0130), so an index build need not code them: base64; null without segments; absent before version 8. */
  passageCodes?: string | null;
  /**
   * With a `section` only (a reference file, issue #41 "What the site heard"): the whole file's
   * length in seconds, decoded when the decoding reached the file's end, else as its header
   * gives it; absent when neither knows. `durationSeconds` is then the section's.
   */
  fileSeconds?: number;
  analyzerVersion: number;
}

/**
 * Bump when results for the same audio would change, so stored analyses are redone.
 * 2: a tempo only where percussive onsets fall on the beat (ADR 0090, amended), so ambient
 * pieces analysed by version 1 at 96–192 BPM lose it.
 * 3: tempo from an onset envelope, a tempogram with a tempo prior and a beat tracker; key by
 * Temperley's profiles (ADR 0105): tracks with a beat but no drums gain a tempo; and a
 * fingerprint of how the track sounds (issue #19, ADR 0104). One bump for both: one
 * re-analysis of the catalog.
 * 4: no tempo when a 2:3, 3:4 or 4:5 level competes with the chosen one (issue #28, ADR 0117);
 * the fingerprint's explanation measured on its parts unweighted (issue #29, ADR 0118). One
 * bump for both issues.
 * 5: one bump for both issues of the round: segment anchors (issue #29, ADR 0122: a
 * reference file matched against each track's passages) and the metrical level weighed by the
 * metre's support among 2:3, 3:4 and 4:5 rivals (issue #28, ADR 0117's second round: tracks
 * version 4 left without a tempo gain one, some change level).
 * 7: the tempo's level (issue #28, ADR 0127): the beat three times as fast when a slow level's
 * third is nearly as clear (fast waltzes), the faster level for levels under 90 BPM (was 80),
 * the accents' phase settling rival levels from a lean of 0.02 (was 0.05).
 * 8: each passage window's code stored beside the anchors (issue #29, ADR 0130: an index build
 * reads them instead of coding every window at each start); and the tempo's octave (issue #28,
 * ADR 0132): slow answers doubled by an octave decider fitted on real music (on its tuning
 * part, half-tempo answers at 50–60 BPM gain their beat).
 * 9: the tempo's second opinion (issue #28, ADR 0133): no tempo is named when a second method
 * (the onset envelope's spectrum times its autocorrelation, Peeters 2006) finds a tempo that is
 * not the answer, an octave or a third of it (a committee's disagreement, Zapata et al. 2014).
 * 10: the backbeat's octave (issue #43, ADR 0159): a named tempo is halved where it is the eighth
 * note of a backbeat (drum loops and slow grooves at 60–105 BPM no longer shown at double) and
 * doubled where it is a two-step's half bar, by where the kick, the snare and the hats sound.
 */
export const ANALYZER_VERSION = 10;

/**
 * "too-slow": the analysis used its CPU budget (`cpuBudgetMs`), the file's own cost, not a busy
 * machine's (ADR 0141). "start-past-end": the section starts at or after the file's end (issue
 * #41: the file is whole; `fileSeconds` says how long it is).
 */
export type AnalysisFailure = "unreadable" | "unsupported" | "too-large" | "decode-failed" | "too-slow" | "start-past-end";

export class AnalysisError extends Error {
  readonly reason: AnalysisFailure;
  /** the file's decoded length, when the reason is "start-past-end" */
  readonly fileSeconds?: number;
  constructor(reason: AnalysisFailure, message: string, options?: { cause?: unknown; fileSeconds?: number }) {
    super(message, options);
    this.name = "AnalysisError";
    this.reason = reason;
    if (options?.fileSeconds !== undefined) this.fileSeconds = options.fileSeconds;
  }
}

export interface AnalyzeOptions {
  /** Longest decoded track accepted, in seconds (default 20 minutes). */
  maxSeconds?: number;
  /** Largest file accepted, in bytes (default 400 MiB: 20 minutes of 24-bit 48 kHz stereo WAV is 346 MB). */
  maxBytes?: number;
  /** Sees the mono excerpt tempo and key are estimated from (bench:tempo runs the previous version's estimators on it). */
  onExcerpt?: (pcm: Float32Array, sampleRate: number) => void;
  /** Only this part of the audio, in seconds (a reference file's chosen section, issue #19); the whole file when absent. */
  section?: { fromSeconds: number; toSeconds: number };
  /**
   * The CPU time this analysis may use, in ms: its own thread's (process.threadCpuUsage), so time
   * the thread waited for a core does not count (ADR 0141). Checked at each decoded chunk and
   * before the tempo and key; over it, AnalysisError("too-slow"). No bound when absent.
   */
  cpuBudgetMs?: number;
}

export const DEFAULT_MAX_SECONDS = 20 * 60;
export const DEFAULT_MAX_BYTES = 400 * 1024 * 1024;

/** Tempo and key come from the first 60 s (issue #9 allows an excerpt of 60–90 s). */
export const EXCERPT_SECONDS = 60;
/** The excerpt's rate: enough for onsets and for chroma up to ~5 kHz, a quarter of the work. */
const EXCERPT_TARGET_RATE = 11_025;
const PREVIEW_SECONDS = 10;
const OVERVIEW_BARS = 200;
/** Encoded bytes handed to the decoder at a time. */
const CHUNK_BYTES = 64 * 1024;

type Format = "mp3" | "wav" | "flac" | "opus" | "oga" | "m4a" | "aac";

export async function analyzeAudio(bytes: Uint8Array, opts: AnalyzeOptions = {}): Promise<TrackAnalysis> {
  const maxSeconds = opts.maxSeconds ?? DEFAULT_MAX_SECONDS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.byteLength > maxBytes) throw new AnalysisError("too-large", `file is ${bytes.byteLength} bytes, over the ${maxBytes}-byte bound`);
  const header = await readHeader(bytes);
  if (header.seconds !== undefined && header.seconds > maxSeconds * 1.01) {
    throw new AnalysisError("too-large", `the header gives ${Math.round(header.seconds)} s, over the ${maxSeconds} s bound`);
  }

  const overBudget = cpuBudget(opts.cpuBudgetMs);
  const pcm = await decodeInto(bytes, header, maxSeconds, opts.section, overBudget);
  overBudget();
  // the whole file's length beside a section's (issue #41): decoded when the decoder reached the end
  const fileSeconds = !opts.section ? undefined : pcm.decodedToEnd ? pcm.decodedSeconds : header.seconds;
  const durationSeconds = pcm.frames / pcm.sampleRate;
  // A file cut short in transfer still decodes, to its break: its header knows better. The
  // margin allows for headers that only estimate (an MP3 without a frame count).
  if (!opts.section && header.seconds !== undefined && durationSeconds < header.seconds * 0.9 - 0.5) {
    throw new AnalysisError("decode-failed", `truncated or damaged: ${durationSeconds.toFixed(2)} s decoded of the ${header.seconds.toFixed(2)} s its header gives`);
  }
  const excerpt = pcm.excerpt.subarray(0, pcm.excerptLength);
  opts.onExcerpt?.(excerpt, pcm.excerptRate);
  const tempo = estimateTempo(excerpt, pcm.excerptRate);
  const key = estimateKey(excerpt, pcm.excerptRate);
  const previewSeconds = Math.min(durationSeconds, PREVIEW_SECONDS);
  const segments = pcm.segments.anchors();
  return {
    durationSeconds,
    bpm: tempo.bpm,
    bpmConfidence: round(tempo.confidence, 3),
    key: key.key,
    keyConfidence: round(key.confidence, 3),
    loudnessLufs: nullableRound(pcm.loudness.integrated(), 1),
    previewPeaks: pcm.peaks.bars(previewSeconds, Math.ceil(previewSeconds * 10)),
    overviewPeaks: pcm.peaks.bars(durationSeconds, OVERVIEW_BARS),
    fingerprint: pcm.fingerprint.fingerprint(),
    segments,
    passageCodes: encodePassageCodes(segmentWindows(segments)),
    ...(fileSeconds !== undefined ? { fileSeconds } : {}),
    analyzerVersion: ANALYZER_VERSION,
  };
}

interface Header {
  format: Format;
  seconds?: number;
}

/** The container and codec, from music-metadata (headers only: no tags' pictures, no scan). */
async function readHeader(bytes: Uint8Array): Promise<Header> {
  if (bytes.byteLength === 0) throw new AnalysisError("unreadable", "the file is empty");
  let format;
  try {
    ({ format } = await parseBuffer(bytes, undefined, { duration: false, skipCovers: true, skipPostHeaders: true }));
  } catch (error) {
    throw new AnalysisError("unreadable", `not a readable audio file: ${(error as Error).message}`, { cause: error });
  }
  const container = (format.container ?? "").toLowerCase();
  const codec = (format.codec ?? "").toLowerCase();
  const found: Format | undefined =
    container === "mpeg" ? "mp3"
    : container === "wave" ? "wav"
    : container === "flac" ? "flac"
    : container === "ogg" && codec.includes("opus") ? "opus"
    : container === "ogg" && codec.includes("vorbis") ? "oga"
    : container === "adts" ? "aac"
    : /^(m4a|mp4|isom|iso\d|mp42|m4b)/.test(container) && codec.includes("aac") ? "m4a"
    : undefined;
  if (!found) {
    if (!container) throw new AnalysisError("unreadable", "not a recognised audio file");
    throw new AnalysisError("unsupported", `${format.container}${format.codec ? ` (${format.codec})` : ""} is not a supported format`);
  }
  // music-metadata measures a WAV by the bytes present, so a cut WAV looks whole to it; its
  // RIFF header still declares the full size (except when written as a stream: 0 or ~0).
  if (found === "wav") {
    const declared = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
    if (declared !== 0 && declared !== 0xffffffff && declared + 8 > bytes.byteLength) {
      throw new AnalysisError("decode-failed", `truncated: the WAV header declares ${declared + 8} bytes, the file has ${bytes.byteLength}`);
    }
  }
  return { format: found, seconds: format.duration };
}

interface Decoded {
  sampleRate: number;
  frames: number;
  excerpt: Float32Array;
  excerptLength: number;
  excerptRate: number;
  loudness: LoudnessMeter;
  peaks: PeakBins;
  fingerprint: FingerprintMeter;
  segments: SegmentMeter;
  /** the decoder reached the file's end (a section that ends after it, or no section) */
  decodedToEnd: boolean;
  /** the audio decoded, in seconds: the whole file's when decodedToEnd */
  decodedSeconds: number;
}

/**
 * A check that throws AnalysisError("too-slow") once the calling thread has used `budgetMs` of
 * CPU since it was made (user and system time; the decoder and the meters run on this thread).
 */
function cpuBudget(budgetMs: number | undefined): () => void {
  if (budgetMs === undefined) return () => undefined;
  const start = process.threadCpuUsage();
  return () => {
    const used = process.threadCpuUsage(start);
    const ms = (used.user + used.system) / 1000;
    if (ms > budgetMs) throw new AnalysisError("too-slow", `the analysis used ${Math.round(ms)} ms of CPU, over its ${budgetMs} ms budget`);
  };
}

/** Streams the file through the decoder, feeding each block of PCM to the measurements. */
async function decodeInto(
  bytes: Uint8Array,
  header: Header,
  maxSeconds: number,
  section: AnalyzeOptions["section"] | undefined,
  overBudget: () => void,
): Promise<Decoded> {
  let decoder;
  try {
    decoder = await decode[header.format]();
  } catch (error) {
    throw new AnalysisError("decode-failed", `could not start the ${header.format} decoder: ${(error as Error).message}`, { cause: error });
  }
  let out: Decoded | undefined;
  // Decimating by averaging `factor` frames is the excerpt's only low-pass; it is enough for
  // onsets and chroma, which look at energy well below the new Nyquist frequency.
  let factor = 1;
  let acc = 0;
  let accCount = 0;
  const consume = (block: { channelData: Float32Array[]; sampleRate: number }) => {
    overBudget();
    const channels = block.channelData;
    if (channels.length === 0 || channels[0].length === 0) return;
    if (!out) {
      factor = Math.max(1, Math.round(block.sampleRate / EXCERPT_TARGET_RATE));
      const excerptRate = block.sampleRate / factor;
      out = {
        sampleRate: block.sampleRate,
        frames: 0,
        excerpt: new Float32Array(Math.ceil(EXCERPT_SECONDS * excerptRate)),
        excerptLength: 0,
        excerptRate,
        loudness: new LoudnessMeter(block.sampleRate, channels.length > 1 ? 2 : 1),
        peaks: new PeakBins(block.sampleRate),
        fingerprint: new FingerprintMeter(block.sampleRate),
        segments: new SegmentMeter(block.sampleRate),
        decodedToEnd: false,
        decodedSeconds: 0,
      };
    } else if (block.sampleRate !== out.sampleRate) {
      throw new AnalysisError("decode-failed", `the sample rate changes mid-stream (${out.sampleRate} to ${block.sampleRate} Hz)`);
    }
    const frames = channels[0].length;
    if ((out.frames + frames) / out.sampleRate > maxSeconds) {
      throw new AnalysisError("too-large", `the decoded audio runs over the ${maxSeconds} s bound`);
    }
    out.loudness.push(channels);
    out.peaks.push(channels);
    out.fingerprint.push(channels);
    out.segments.push(channels);
    const excerpt = out.excerpt;
    const scale = 1 / (channels.length * factor);
    for (let i = 0; i < frames && out.excerptLength < excerpt.length; i++) {
      for (const ch of channels) acc += ch[i];
      if (++accCount === factor) {
        excerpt[out.excerptLength++] = acc * scale;
        acc = 0;
        accCount = 0;
      }
    }
    out.frames += frames;
  };
  const cut = sectionCut(section);
  try {
    for (let at = 0; at < bytes.byteLength && !cut.done; at += CHUNK_BYTES) consume(cut(await decoder(bytes.subarray(at, at + CHUNK_BYTES))));
    if (!cut.done) consume(cut(await decoder()));
  } catch (error) {
    decoder.free();
    if (error instanceof AnalysisError) throw error;
    throw new AnalysisError("decode-failed", `the ${header.format} decoder failed: ${describe(error)}`, { cause: error });
  }
  const decodedSeconds = cut.sampleRate > 0 ? cut.position / cut.sampleRate : 0;
  if (section && !cut.done && decodedSeconds > 0 && (!out || out.frames === 0)) {
    // the whole file decoded, none of it in the section: it starts at or after the end (issue #41)
    throw new AnalysisError("start-past-end", `the section starts at ${section.fromSeconds} s, the file is ${decodedSeconds.toFixed(2)} s long`, { fileSeconds: decodedSeconds });
  }
  if (!out || out.frames === 0) throw new AnalysisError("decode-failed", `the ${header.format} decoder produced no audio`);
  out.decodedToEnd = !cut.done;
  out.decodedSeconds = decodedSeconds;
  return out;
}

type Block = { channelData: Float32Array[]; sampleRate: number };

/**
 * Passes on only the frames of `section` (all of them without one); `done` once past its end, so
 * decoding can stop. `position` counts every frame decoded (at `sampleRate`), in the section or
 * not: the file's length when decoding ran to its end.
 */
function sectionCut(section: AnalyzeOptions["section"]): ((block: Block) => Block) & { done: boolean; position: number; sampleRate: number } {
  const cut = Object.assign(
    (block: Block): Block => {
      const frames = block.channelData[0]?.length ?? 0;
      // an empty block (the decoder's flush says 0 Hz) moves nothing and ends nothing
      if (!section || frames === 0) return block;
      const position = cut.position;
      cut.position += frames;
      cut.sampleRate = block.sampleRate;
      const from = Math.max(0, Math.round(section.fromSeconds * block.sampleRate) - position);
      const to = Math.min(frames, Math.round(section.toSeconds * block.sampleRate) - position);
      if (cut.position >= section.toSeconds * block.sampleRate) cut.done = true;
      return { sampleRate: block.sampleRate, channelData: to > from ? block.channelData.map((c) => c.subarray(from, to)) : [] };
    },
    { done: false, position: 0, sampleRate: 0 },
  );
  return cut;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
const nullableRound = (v: number | null, digits: number) => (v === null ? null : round(v, digits));
