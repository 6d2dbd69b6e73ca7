import type { NumberRange, TrackSort } from "./track-query.ts";
import { formatDuration } from "./format.ts";

/**
 * What the track view shows of its filters (issue #10): the tempo and length presets, the
 * chips' labels and the sort's names. The URL values themselves are read and written by
 * track-params.ts.
 */

export const sameRange = (a: NumberRange | null, b: NumberRange | null) =>
  a === b || (a !== null && b !== null && a.min === b.min && a.max === b.max);

export const TRACK_SORT_LABELS: Record<TrackSort, string> = {
  title: "Title (A–Z)",
  bpm: "Tempo (slowest first)",
  "-bpm": "Tempo (fastest first)",
  duration: "Length (shortest first)",
  "-duration": "Length (longest first)",
  relevance: "Best match",
  similarity: "Most similar",
};

export interface RangePreset {
  label: string;
  range: NumberRange;
}

/**
 * Issue #10 tempo presets: Slow under 90, Medium 90–120, Fast over 120. Tempi are whole BPM
 * (the analysis rounds them), so "under 90" is up to 89 and "over 120" from 121; the three
 * cover every tempo once.
 */
export const TEMPO_PRESETS: readonly RangePreset[] = [
  { label: "Slow (under 90)", range: { min: null, max: 89 } },
  { label: "Medium (90–120)", range: { min: 90, max: 120 } },
  { label: "Fast (over 120)", range: { min: 121, max: null } },
];

/**
 * Issue #10 length presets: under 1:00, 1–2 min, 2–4 min, over 4 min, in whole seconds
 * (the analysis rounds lengths), each length in exactly one: 2:00 is "2–4 min", 4:00 too.
 */
export const LENGTH_PRESETS: readonly RangePreset[] = [
  { label: "Under 1:00", range: { min: null, max: 59 } },
  { label: "1–2 min", range: { min: 60, max: 119 } },
  { label: "2–4 min", range: { min: 120, max: 240 } },
  { label: "Over 4 min", range: { min: 241, max: null } },
];

function rangeLabel(range: NumberRange, format: (n: number) => string, unit: string): string {
  const u = unit ? ` ${unit}` : "";
  if (range.min !== null && range.max !== null) {
    return range.min === range.max ? `${format(range.min)}${u}` : `${format(range.min)}–${format(range.max)}${u}`;
  }
  if (range.max !== null) return `Up to ${format(range.max)}${u}`;
  return `From ${format(range.min ?? 0)}${u}`;
}

/** A tempo range's chip: "Tempo: Slow (under 90)" for a preset, else "Tempo: 90–128 BPM". */
export function tempoLabel(range: NumberRange): string {
  const preset = TEMPO_PRESETS.find((p) => sameRange(p.range, range));
  return `Tempo: ${preset ? preset.label : rangeLabel(range, String, "BPM")}`;
}

/** A length range's chip: "Length: 1–2 min" for a preset, else "Length: 1:00–1:30". */
export function lengthLabel(range: NumberRange): string {
  const preset = LENGTH_PRESETS.find((p) => sameRange(p.range, range));
  return `Length: ${preset ? preset.label : rangeLabel(range, formatDuration, "")}`;
}
