import { KEY_NAMES, PITCH_CLASSES, type NumberRange, type TrackSort } from "./track-query.ts";

/**
 * The track view's URL values (issue #10, ADR 0102): tempo and length ranges, keys and the
 * sort, as the URL writes them (`bpm=90-120`, `duration=-59`, `key=A minor`, `sort=-bpm`).
 * Parsing never throws: a value that cannot be read is ignored, never a 500. Only what
 * url-state.ts needs lives here (it is in every React page's shared chunk); the presets and
 * labels the track view shows are in track-filters.ts.
 */

/** Highest tempo a range keeps; an end above it is clamped (no music is counted faster). */
export const MAX_BPM = 400;
/** Longest length a range keeps, in seconds (3 hours). */
export const MAX_DURATION_SECONDS = 3 * 60 * 60;

const NUMBER = String.raw`\s*(\d+(?:\.\d*)?)?\s*`;
const RANGE = new RegExp(`^${NUMBER}-${NUMBER}$`);
const SINGLE = /^\s*(\d+(?:\.\d*)?)\s*$/;

/**
 * `LO-HI`, inclusive, whole numbers from 0 to `max`. Either end may be open ("-90": up to 90,
 * "120-": from 120); a reversed range is turned round ("120-90" is 90–120); "120" alone is
 * exactly 120; an end past `max` is clamped to it. A lower end of 0 or an upper end at `max`
 * is no bound at all, so the same filter has one spelling (and one page-cache entry, ADR
 * 0080). Anything else ("abc", "1-2-3", "", "-") is no range: null.
 */
export function parseRange(value: string | null | undefined, max: number): NumberRange | null {
  if (!value || value.length > 40) return null;
  let lo: number | null;
  let hi: number | null;
  const single = SINGLE.exec(value);
  const m = single ? null : RANGE.exec(value);
  if (single) {
    lo = hi = Number(single[1]);
  } else if (m) {
    lo = m[1] === undefined ? null : Number(m[1]);
    hi = m[2] === undefined ? null : Number(m[2]);
  } else {
    return null;
  }
  const whole = (n: number | null) => (n === null || !Number.isFinite(n) ? null : Math.min(max, Math.max(0, Math.round(n))));
  lo = whole(lo);
  hi = whole(hi);
  if (lo !== null && hi !== null && lo > hi) [lo, hi] = [hi, lo];
  if (lo === 0) lo = null;
  if (hi === max) hi = null;
  if (lo === null && hi === null) return null;
  return { min: lo, max: hi };
}

/** The URL value of a range: "90-120", "-89", "121-". */
export function serializeRange(range: NumberRange): string {
  return `${range.min ?? ""}-${range.max ?? ""}`;
}

/**
 * The custom range's two number inputs, as a form without JavaScript submits them
 * (`bpm_min=90&bpm_max=120`); the URL state reads them as `bpm=90-120` and writes that.
 */
export const RANGE_FIELDS = {
  bpm: { min: "bpm_min", max: "bpm_max" },
  duration: { min: "duration_min", max: "duration_max" },
} as const;

/** A range parameter (`bpm`, `duration`), or its form's two fields when they carry a value (they win). */
export function parseRangeParam(params: URLSearchParams, name: keyof typeof RANGE_FIELDS, max: number): NumberRange | null {
  const fields = RANGE_FIELDS[name];
  const lo = (params.get(fields.min) ?? "").trim();
  const hi = (params.get(fields.max) ?? "").trim();
  if (params.has(fields.min) || params.has(fields.max)) return lo || hi ? parseRange(`${lo}-${hi}`, max) : null;
  return parseRange(params.get(name), max);
}

/** Flat names of the pitch classes, and sharps past the octave's white keys, as the analysis's sharps. */
const ENHARMONIC: Record<string, string> = {
  CB: "B",
  DB: "C#",
  EB: "D#",
  FB: "E",
  GB: "F#",
  AB: "G#",
  BB: "A#",
  "E#": "F",
  "B#": "C",
};

const KEY_PATTERN = /^([a-g])\s*(#|♯|b|♭|-?sharp|-?flat)?\s*(major|maj|minor|min|moll|dur|m)?$/i;

/**
 * A key as the filter names it (KEY_NAMES: "C major", "A# minor"), from the ways people write
 * keys: "a minor", "Am", "A min", "Bb major", "B♭", "A#m", "f sharp minor". A bare note is
 * major; a lower-case "m" after the note is minor ("Am"), an upper-case "M" major. Flats
 * become the sharps the analysis names (app/.server/analysis/key.ts). Anything else: null.
 */
export function normalizeKey(value: string): string | null {
  const text = value.trim().replace(/\s+/g, " ");
  if (!text || text.length > 20) return null;
  const m = KEY_PATTERN.exec(text);
  if (!m) return null;
  const letter = m[1].toUpperCase();
  const accidental = (m[2] ?? "").toLowerCase();
  const sharp = accidental === "#" || accidental === "♯" || accidental.endsWith("sharp");
  const flat = accidental === "b" || accidental === "♭" || accidental.endsWith("flat");
  let pitch = letter + (sharp ? "#" : flat ? "B" : "");
  pitch = ENHARMONIC[pitch] ?? pitch;
  if (!(PITCH_CLASSES as readonly string[]).includes(pitch)) return null;
  const quality = m[3] ?? "";
  const minor = quality === "m" || /^(minor|min|moll)$/i.test(quality);
  return `${pitch} ${minor ? "minor" : "major"}`;
}

/** Keys normalised, unknown ones dropped, each once, in KEY_NAMES order (one spelling per filter). */
export function normalizeKeys(values: readonly string[]): string[] {
  const chosen = new Set<string>();
  for (const v of values.slice(0, 100)) {
    const key = normalizeKey(v);
    if (key) chosen.add(key);
  }
  return KEY_NAMES.filter((k) => chosen.has(k));
}

/** `sort=` values a visitor can choose; `relevance` only means something with a search, `similarity` with `like=`. */
export const TRACK_SORTS: readonly TrackSort[] = ["similarity", "title", "bpm", "-bpm", "duration", "-duration", "relevance"];

/** The sort when `sort=` is absent: similarity with `like=` (issue #19), relevance with a search, the title otherwise. */
export const defaultTrackSort = (q: string, like = ""): TrackSort => (like ? "similarity" : q ? "relevance" : "title");

/** `sort=` as given when it is one of TRACK_SORTS (relevance only with a search, similarity only with `like=`), else the default. */
export function parseTrackSort(value: string | null, q: string, like = ""): TrackSort {
  const v = (value ?? "").trim().toLowerCase() as TrackSort;
  if (!TRACK_SORTS.includes(v) || (v === "relevance" && !q) || (v === "similarity" && !like)) return defaultTrackSort(q, like);
  return v;
}

/** Longest `like=` value kept: a track id (album id, ":", index) or a reference id. */
export const MAX_LIKE_LENGTH = 220;
/** A track id (`${albumId}:${trackIndex}`) or a reference id (`ref-` and 22 base64url characters). */
const LIKE_PATTERN = /^(ref-[A-Za-z0-9_-]{22}|\S{1,200}:\d{1,4})$/;

/** `like=` when it names a track or a reference; "" otherwise (never an error: ADR 0102). */
export function parseLike(value: string | null): string {
  const v = (value ?? "").trim();
  return v.length <= MAX_LIKE_LENGTH && LIKE_PATTERN.test(v) ? v : "";
}


/**
 * "More like this" (issue #19, DESIGN.md §3c): the track view of the tracks that sound like
 * this one, written as the contract gives it (the page cache reads it in its canonical form).
 */
export function moreLikeThisHref(trackId: string): string {
  return `/catalog?type=music&view=tracks&like=${encodeURIComponent(trackId)}`;
}
