import { z } from "zod";
import { PayloadError } from "./errors.ts";

/**
 * Runtime validation of raw source payloads (DESIGN.md §4: validate what upstreams send).
 * Lenient by design: a bad entry is dropped and counted, it never fails the whole list.
 */

/** A string field; null/undefined become "", numbers are stringified, anything else is "". */
export const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null ? "" : String(v)))
  .catch("");

const stringList = z
  .array(z.unknown())
  .nullish()
  .transform((v) => (v ?? []).filter((s): s is string => typeof s === "string"))
  .catch([]);

const flag = z
  .union([z.boolean(), z.string(), z.number()])
  .nullish()
  .transform((v) => v === true || v === "true" || v === 1)
  .catch(false);

const requiredText = z.union([z.string(), z.number()]).transform((v) => String(v).trim()).pipe(z.string().min(1));

export const rawTrackSchema = z.object({
  s3Path: z.string().min(1),
  Filename: text,
});

export const rawAlbumSchema = z.object({
  name: requiredText,
  artist: text,
  genre: text,
  artwork: text,
  keywords: stringList,
  featured: flag,
  tracks: z
    .array(z.unknown())
    .nullish()
    .transform((list) =>
      (list ?? []).flatMap((t) => {
        const parsed = rawTrackSchema.safeParse(t);
        return parsed.success ? [parsed.data] : [];
      }),
    )
    .catch([]),
});
export type RawAlbum = z.output<typeof rawAlbumSchema>;

const isStr = (v: unknown): v is string => typeof v === "string";

/**
 * Fast path for album entries that are already exactly well-formed (the normal case, and
 * 2.5 million tracks at 250,000 albums): the same result rawAlbumSchema would give, built
 * without zod's per-field overhead. Anything else goes through the lenient zod schema.
 */
function wellFormedAlbum(v: unknown): RawAlbum | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const a = v as Record<string, unknown>;
  if (!isStr(a.name) || a.name.trim() === "" || a.name.trim() !== a.name) return undefined;
  if (!isStr(a.artist) || !isStr(a.genre) || !isStr(a.artwork) || typeof a.featured !== "boolean") return undefined;
  if (!Array.isArray(a.keywords) || !a.keywords.every(isStr)) return undefined;
  if (!Array.isArray(a.tracks)) return undefined;
  const tracks: RawAlbum["tracks"] = [];
  for (const t of a.tracks as unknown[]) {
    if (typeof t !== "object" || t === null) return undefined;
    const { s3Path, Filename } = t as Record<string, unknown>;
    if (!isStr(s3Path) || s3Path === "" || !isStr(Filename)) return undefined;
    tracks.push({ s3Path, Filename });
  }
  return { name: a.name, artist: a.artist, genre: a.genre, artwork: a.artwork, keywords: a.keywords as string[], featured: a.featured, tracks };
}

/** rawAlbumSchema with the fast path for well-formed entries. */
export const albumEntrySchema = {
  safeParse(v: unknown): { success: true; data: RawAlbum } | { success: false } {
    const fast = wellFormedAlbum(v);
    if (fast) return { success: true, data: fast };
    return rawAlbumSchema.safeParse(v);
  },
};

export const rawChannelSchema = z.object({
  name: requiredText,
  description: text,
  category: text,
  language: text,
  country: text,
  keywords: stringList,
  thumbnail: text,
  subscriberCount: z.coerce.number().nonnegative().catch(0),
  videoCount: z.coerce.number().nonnegative().catch(0),
  lastUpdated: text,
});
export type RawChannel = z.output<typeof rawChannelSchema>;

const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v == null || v === "" ? undefined : String(v)))
  .catch(undefined);

export const rawFilmSchema = z.looseObject({
  film_id: requiredText,
  title: text,
  portrait: optionalText,
  landscape: optionalText,
  artwork: z
    .union([z.array(z.unknown()), z.string()])
    .nullish()
    .transform((v) => {
      if (v == null) return undefined;
      const list = (Array.isArray(v) ? v : [v]).filter((s): s is string => typeof s === "string" && s !== "");
      return list.length ? list : undefined;
    })
    .catch(undefined),
  format: optionalText,
  film_status: text,
});
export type RawFilm = z.output<typeof rawFilmSchema>;

/** product-rules §3 "Single": the raw submission fields read (plus status, to enforce DELIVERED). */
export const rawSubmissionSchema = z.object({
  submission_id: requiredText,
  release_title: text,
  artist_name: text,
  user_id: text,
  genre: text,
  artwork: text,
  file: text,
  lyrics_language: text,
  status: optionalText,
});
export type RawSubmission = z.output<typeof rawSubmissionSchema>;

/** A group of the all-data response: an object (or, defensively, a one-element list). */
const group = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v[0] : v) ?? {},
    z.object(shape),
  ).catch(() => z.object(shape).parse({}));

/** product-rules §3 "Release detail": the all-data response's groups and the fields read. */
export const rawReleaseDetailSchema = z.object({
  submissions: group({
    submission_id: text,
    release_title: text,
    label: text,
    status: text,
    created_date: text,
    submitted_date: text,
  }),
  metadata: group({
    album: text,
    genre: text,
    sub_genre: text,
    parental_advisory: text,
    digital_release_date: text,
    isrc: text,
    upc: text,
    composer: text,
    art_work: text,
    file: text,
  }),
  artist: group({ artist_name: text }),
  user: group({ user_id: text, email: text }),
  white_label: group({ wlabel: text, domain: text }),
  single_metadata: group({ country_of_recording: text }),
});
export type RawReleaseDetail = z.output<typeof rawReleaseDetailSchema>;

export interface ParsedList<T> {
  items: T[];
  /** null entries, discarded as product-rules §3 says */
  nulls: number;
  /** entries that failed validation */
  invalid: number;
}

/**
 * Validates a list entry by entry: nulls are discarded (product-rules §3), invalid entries are dropped
 * and counted. Anything that is not a list is a PayloadError.
 */
export function parseList<T>(
  raw: unknown,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  source: string,
): ParsedList<T> {
  if (!Array.isArray(raw)) throw new PayloadError(`expected a list from ${source}`, source);
  const items: T[] = [];
  let nulls = 0;
  let invalid = 0;
  for (const entry of raw) {
    if (entry == null) {
      nulls++;
      continue;
    }
    const parsed = schema.safeParse(entry);
    if (parsed.success) items.push(parsed.data);
    else invalid++;
  }
  return { items, nulls, invalid };
}

/** product-rules §3 "Genre / SubGenre": a list of {Name}. Returns null when the payload is not a list. */
export function genreNames(raw: unknown): string[] | null {
  if (!Array.isArray(raw)) return null;
  const names: string[] = [];
  for (const entry of raw) {
    const name = entry && typeof entry === "object" ? (entry as { Name?: unknown }).Name : undefined;
    if (typeof name === "string" && name.trim() && !names.includes(name.trim())) names.push(name.trim());
  }
  return names;
}
