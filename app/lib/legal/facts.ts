/**
 * The figures the privacy notice, the privacy policy and the receipt state (issue #16). They
 * come from the server's configuration (app/.server/privacy-facts.ts), so what the visitor reads
 * is what the site does.
 */
export interface PrivacyFacts {
  /** LEAD_RETENTION_DAYS: a delivered lead's personal data is erased this many days after delivery. */
  retentionDays: number;
  /** LEADS_RATE_LIMIT per LEADS_RATE_WINDOW_SECONDS */
  rateLimit: number;
  rateWindowSeconds: number;
  /**
   * The "sounds like" search by an uploaded file (issue #19): REFERENCE_TTL_DAYS, REFERENCE_RATE_LIMIT
   * per REFERENCE_RATE_WINDOW_SECONDS, and REFERENCE_REFUSED_RATE_LIMIT files refused per the same window (issue #41).
   */
  reference: { ttlDays: number; rateLimit: number; refusedRateLimit: number; rateWindowSeconds: number };
}

const UNITS = [
  { seconds: 86_400, one: "day", many: "days" },
  { seconds: 3_600, one: "hour", many: "hours" },
  { seconds: 60, one: "minute", many: "minutes" },
  { seconds: 1, one: "second", many: "seconds" },
] as const;

/** 600 → "10 minutes", 3600 → "1 hour", 90 → "90 seconds": the largest unit that divides it. */
export function durationInWords(seconds: number): string {
  const unit = UNITS.find((u) => seconds >= u.seconds && seconds % u.seconds === 0) ?? UNITS[3];
  const n = seconds / unit.seconds;
  return `${n} ${n === 1 ? unit.one : unit.many}`;
}

/** Fills `{name}` placeholders; an unknown name stays as written, so a missing value shows. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
