/**
 * product-rules §9 "Catalog": subscriber counts of 1,000,000 or more as "x.xM", of 1,000 or more as
 * "x.xK", smaller counts as they are.
 */
export function formatSubscribers(count: number): string {
  if (!Number.isFinite(count)) return "0";
  if (count >= 1_000_000) return `${(count / 1_000_000).toFixed(1)}M`;
  if (count >= 1_000) return `${(count / 1_000).toFixed(1)}K`;
  return String(Math.max(0, Math.trunc(count)));
}

// Formatters are made once: making an Intl.DateTimeFormat costs some 50 µs (measured, Node 24),
// using one about 1 µs, and a page formats a date per card (issue #18). In the browser the first
// Intl formatter of a page loads ICU's locale data, tens of milliseconds on a phone: so they are
// made on first use, not when the module is evaluated (the catalog's first load), and whole
// counts are grouped without Intl (ADR 0147).
let usNumber: Intl.NumberFormat | undefined;
let usReleaseDate: Intl.DateTimeFormat | undefined;

/**
 * A count with en-US thousands separators ("1,234"): whole numbers up to 2^53 by hand (the
 * catalog's totals, rendered during hydration), anything else through Intl.
 */
export function formatCount(count: number): string {
  const value = Number.isFinite(count) ? count : 0;
  if (Number.isSafeInteger(value)) {
    const digits = String(Math.abs(value));
    let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
    for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
    return value < 0 ? `-${grouped}` : grouped;
  }
  usNumber ??= new Intl.NumberFormat("en-US");
  return usNumber.format(value);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(value: string): Date | null {
  if (!value) return null;
  // A bare date is a calendar date, not a UTC midnight that shifts a day in the Americas.
  const date = DATE_ONLY.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** product-rules §2 "Single card": a release date formatted like "Jan 5, 2024"; "" when unparseable. */
export function formatReleaseDate(value: string): string {
  const date = parseDate(value);
  if (!date) return "";
  usReleaseDate ??= new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
  return usReleaseDate.format(date);
}

/**
 * product-rules §2 "Channel card": "Updated {local date}". The server renders a fixed-locale UTC date;
 * the browser re-renders it in the visitor's locale and time zone after hydration.
 */
export function formatUpdated(value: string, locale?: string, timeZone?: string): string {
  const date = parseDate(value);
  if (!date) return "";
  return `Updated ${updatedFormat(locale, timeZone).format(date)}`;
}

/** the date format of `toLocaleDateString(locale, { timeZone })`, one per locale and zone (the code asks for two) */
const updatedFormats = new Map<string, Intl.DateTimeFormat>();
function updatedFormat(locale?: string, timeZone?: string): Intl.DateTimeFormat {
  const key = `${locale ?? ""}\u0000${timeZone ?? ""}`;
  let format = updatedFormats.get(key);
  if (!format) {
    if (updatedFormats.size >= 8) updatedFormats.clear(); // bounded, should a caller ever pass varied zones
    format = new Intl.DateTimeFormat(locale, timeZone ? { timeZone } : undefined);
    updatedFormats.set(key, format);
  }
  return format;
}

const wholeSeconds = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);

/**
 * A track's length as `m:ss` (issue #9, the album sheet): "2:05", "0:30", "61:04". Rounded
 * to the second: a decoded MP3 runs a few hundredths over its true length (encoder padding).
 */
export function formatDuration(seconds: number): string {
  const s = wholeSeconds(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The same length as an ISO 8601 duration for schema.org (`PT2M5S`, `PT1H1M4S`, `PT0S`). */
export function isoDuration(seconds: number): string {
  const s = wholeSeconds(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts = `${h ? `${h}H` : ""}${m ? `${m}M` : ""}${rest || (!h && !m) ? `${rest}S` : ""}`;
  return `PT${parts}`;
}
