import { PREVIEW_SECONDS } from "./preview.ts";

/**
 * The preview's waveform (issue #9): drawn from the bars the server measured, never from
 * audio decoded in the browser. One SVG path of vertical strokes, one per 0.1 s of the
 * 10-second preview, mirrored about the middle; a clip shorter than the preview fills only its
 * part, so the progress (time ÷ 10 s) lines up with the bars under it.
 */

/** Bars across the preview: ten a second. */
export const WAVEFORM_BARS = PREVIEW_SECONDS * 10;
/** Each bar takes 3 units: a 2-unit stroke and a 1-unit gap. */
export const WAVEFORM_WIDTH = WAVEFORM_BARS * 3;
export const WAVEFORM_HEIGHT = 40;

/** Peaks as the browser receives them: whole numbers 0…100, loudest bar of the clip = 100. */
export function quantizePeaks(peaks: readonly number[]): number[] {
  const bars = peaks.slice(0, WAVEFORM_BARS);
  const max = bars.reduce((m, p) => (Number.isFinite(p) && p > m ? p : m), 0);
  return bars.map((p) => (max > 0 && Number.isFinite(p) && p > 0 ? Math.min(100, Math.round((p / max) * 100)) : 0));
}

/**
 * The path's `d`: for bar i, a vertical line at x = 3i + 1 whose height follows its peak
 * (whole units, at least 2 so silence still shows a line), centred on the middle. The first bar
 * is absolute; then each bar is a relative move from where the last one ended and a stroke the
 * other way (down, up, down…), "m3 2v-26": about 7 bytes a bar instead of 9, as a track view
 * has a dozen of these (issue #32, ADR 0121).
 */
export function waveformPath(peaks: readonly number[]): string {
  const half = WAVEFORM_HEIGHT / 2;
  let d = "";
  let end = 0; // the last bar's end, as an offset from the middle (+ below, - above)
  const n = (v: number) => (v < 0 ? String(v) : ` ${v}`);
  for (let i = 0; i < Math.min(peaks.length, WAVEFORM_BARS); i++) {
    const p = Math.min(100, Math.max(0, peaks[i] || 0));
    const h = Math.max(1, Math.round((p / 100) * (half - 1)));
    const down = i % 2 === 0;
    const start = down ? -h : h;
    if (i === 0) d = `M1 ${half - h}v${2 * h}`;
    else d += `m3${n(start - end)}v${down ? 2 * h : -2 * h}`;
    end = -start;
  }
  return d;
}
