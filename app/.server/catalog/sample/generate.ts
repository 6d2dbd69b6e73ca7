import type { Album } from "../../../lib/catalog/types.ts";
import { createPrng, type Prng } from "./prng.ts";
import { genreLeafPaths, NAME_MATCHED_GENRES } from "./genre-tree.ts";
import { SAMPLE_TRACKS } from "./tracks.ts";
import { FAMILIES, type Family } from "./families.ts";
import { familyOfGenre, FAMILY_HOME } from "./genre-families.ts";
import { languagesOf } from "./languages.ts";
import * as names from "./names.ts";
import { albumName, trackTitle, vocabularyFor, voiceOf, type Vocabulary } from "./names.ts";

/**
 * The deterministic sample catalog (issue #3 "Sample data"): the same seed gives the same
 * output on every machine. Everything is written in the upstreams' own raw shapes, so the
 * sample goes through the same validation and reshape code as real data.
 * Media keys are flat (no "/"), so `{MEDIA_URL}/{encodeURIComponent(key)}` (product-rules §7 "Media")
 * maps each key to exactly one file under DATA_DIR/media.
 */

export const DEFAULT_SEED = 20_240_105;
export const COVER_COUNT = 24;
/** sample audio files: one per piece of tracks.ts */
export const CLIP_COUNT = SAMPLE_TRACKS.length;
export const FILM_IMAGE_COUNT = 12;
export const CHANNEL_THUMB_COUNT = 12;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
export const coverKey = (n: number) => `cover-${pad(n)}.webp`;
/** the audio of SAMPLE_TRACKS[n - 1] */
export const clipKey = (n: number) => `track-${pad(n)}.mp3`;
export const filmPortraitKey = (n: number) => `film-portrait-${pad(n)}.webp`;
export const filmLandscapeKey = (n: number) => `film-landscape-${pad(n)}.webp`;
export const channelThumbKey = (n: number) => `channel-${pad(n)}.webp`;

const ADJECTIVES = [
  "Golden", "Midnight", "Velvet", "Silver", "Electric", "Quiet", "Endless", "Crimson", "Hidden", "Open",
  "Wild", "Gentle", "Northern", "Distant", "Bright", "Sacred", "Summer", "Winter", "Morning", "Blue",
  "Painted", "Falling", "Rising", "Secret", "Little", "Second", "Burning", "Tender", "Lucky", "Slow",
];
const NOUNS = [
  "Roads", "Skies", "Rivers", "Echoes", "Dreams", "Lights", "Waves", "Gardens", "Voices", "Horizons",
  "Streets", "Hearts", "Stories", "Colors", "Shores", "Moments", "Dances", "Tides", "Fields", "Stars",
  "Bridges", "Windows", "Letters", "Islands", "Mountains", "Candles", "Bells", "Seasons", "Footsteps", "Songs",
];
const FIRST_NAMES = [
  "Ana", "Kofi", "Mei", "Luca", "Amara", "Diego", "Yuki", "Noah", "Zara", "Tomás", "Lina", "Omar", "Sofia",
  "Kwame", "Hana", "Mateo", "Ines", "Ravi", "Elena", "Jonah", "Ayo", "Camila", "Felix", "Nadia",
];
const LAST_NAMES = [
  "Rivers", "Mensah", "Tanaka", "Costa", "Okafor", "Silva", "Moreau", "Rossi", "Kim", "Nguyen", "Haddad",
  "Alvarez", "Novak", "Osei", "Park", "Santos", "Laurent", "Bianchi", "Diallo", "Reyes", "Sato", "Keller",
];
const BAND_WORDS = ["Collective", "Ensemble", "Trio", "Quartet", "Orchestra", "Sound System", "Project", "Choir"];

const title = (r: Prng) => `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;

/** The sample pieces of each family (1-based clip numbers): an album's tracks come from one family (issue #19). */
const CLIPS_BY_FAMILY = new Map<Family, number[]>(FAMILIES.map((family) => [family, SAMPLE_TRACKS.flatMap((t, i) => (t.family === family ? [i + 1] : []))]));
/**
 * The pieces an album of top genre `top` draws from (issue #32, ADR 0121): its family's, the
 * first half of them kept for the family's home genre (genre-families.ts FAMILY_HOME) when the
 * family has four or more, so the same piece under House is House.
 */
const TOPS_OF_FAMILY = new Map<Family, Set<string>>();
for (const path of genreLeafPaths()) {
  const family = familyOfGenre(path);
  TOPS_OF_FAMILY.set(family, (TOPS_OF_FAMILY.get(family) ?? new Set()).add(path[0]));
}
function clipsOf(family: Family, top: string): number[] {
  const clips = CLIPS_BY_FAMILY.get(family)!;
  if (clips.length < 4 || TOPS_OF_FAMILY.get(family)!.size < 2) return clips;
  const half = Math.ceil(clips.length / 2);
  return top === FAMILY_HOME[family] ? clips.slice(0, half) : clips.slice(half);
}
/** The beatless interlude a quiet album holds now and then (real albums do); dance albums have none. */
const INTERLUDE_OF: Partial<Record<Family, Family[]>> = { acoustic: ["ambient", "strings"], ballad: ["strings"], strings: ["ambient"], ambient: ["strings"] };
const artistName = (r: Prng) =>
  r.chance(0.25) ? `The ${r.pick(ADJECTIVES)} ${r.pick(BAND_WORDS)}` : `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;

export interface SampleAlbumOptions {
  /**
   * Give every track an audio key of its own (`audio-{album}-{track}.mp3`) instead of one of
   * the CLIP_COUNT sample pieces, whose files do not exist: for the benchmark (issue #10), whose
   * analysis results then differ per track as a real catalog's do. The names and everything
   * else are the same as without it.
   */
  distinctAudio?: boolean;
  /**
   * The English words titles draw from (names.ts): by default `vocabularyFor(count)`, the
   * hand-written list for the sample, the long word list for benchmark catalogs, so their
   * vocabulary grows with their size (issue #32).
   */
  vocabulary?: Vocabulary;
}

/** Up to this many albums, no two tracks of the catalog share a title (a catalog as large as the default sample's). */
const UNIQUE_TITLES_UP_TO = 5_000;

/** The benchmark's audio key of track j of album i (SampleAlbumOptions.distinctAudio). */
export const distinctAudioKey = (album: number, track: number) => `audio-${album}-${track}.mp3`;

/**
 * An album as the albums source sends it (product-rules §3 "Album"): the app's Album without
 * its `id`, which is ours and derived at sync (reshape.ts). The sample adds nothing of its own.
 */
export type SampleAlbum = Omit<Album, "id">;

/**
 * Albums, one at a time (so 250,000 of them can be streamed to disk). The leaves of the spec
 * §9 genre tree are visited round-robin in a seeded order, so a few hundred albums cover every
 * filter choice. Keywords are the lower-cased path [top genre, level-1, level-2] because spec
 * §5 lower-cases the filter terms and compares them for equality. For african, asian and latin
 * the sub-genre is also in the album name, which is what product-rules §5 matches for them.
 */
export function* sampleAlbums(count: number, seed: number = DEFAULT_SEED, opts: SampleAlbumOptions = {}): Generator<SampleAlbum> {
  const r = createPrng(seed);
  const paths = genreLeafPaths();
  const order = paths.map((p) => ({ p, k: r.next() })).sort((a, b) => a.k - b.k).map((x) => x.p);
  const vocabulary = opts.vocabulary ?? vocabularyFor(count);
  const titles = count <= UNIQUE_TITLES_UP_TO ? new Set<string>() : null;
  for (let i = 0; i < count; i++) {
    const path = order[i % order.length];
    const top = path[0];
    const sub = path[1];
    // the genre decides the sound (issue #32): its family's pieces, its languages' words
    const family = familyOfGenre(path);
    const voice = voiceOf(r, languagesOf(path), vocabulary);
    const artist = names.artistName(r, voice, family);
    let name = albumName(r, voice, artist);
    if (sub && NAME_MATCHED_GENRES.has(top.toLowerCase())) {
      // product-rules §5 matches these by the sub-genre in the album name
      const forms = [`${sub} ${name}`, `${name} of ${sub}`, `${name} (${sub})`, `${sub}: ${name}`];
      name = r.pick(forms);
    }
    const featured = () => names.artistName(r, voiceOf(r, languagesOf(path), vocabulary), family);
    const trackCount = r.int(8, 12);
    const clips = clipsOf(family, top);
    const interludes = INTERLUDE_OF[family];
    const tracks = Array.from({ length: trackCount }, (_, j) => {
      const clip = clipKey(interludes && r.chance(0.06) ? r.pick(CLIPS_BY_FAMILY.get(r.pick(interludes))!) : r.pick(clips));
      let title = trackTitle(r, voice, family, featured);
      for (let attempt = 0; titles?.has(title.toLowerCase()) && attempt < 20; attempt++) title = trackTitle(r, voice, family, featured);
      if (titles?.has(title.toLowerCase())) title = `${title} (${artist} Version)`;
      titles?.add(title.toLowerCase());
      return { s3Path: opts.distinctAudio ? distinctAudioKey(i, j) : clip, Filename: title };
    });
    yield {
      name,
      artist,
      genre: top,
      artwork: coverKey(r.int(1, COVER_COUNT)),
      keywords: path.map((k) => k.toLowerCase()),
      featured: r.chance(0.15),
      tracks,
    };
  }
}

// product-rules §9 "Channel filter options".
export const CHANNEL_CATEGORIES = ["Music", "Film", "Technology", "Gaming", "Education", "Lifestyle", "News", "Sports"];
export const CHANNEL_COUNTRIES = ["USA", "UK", "Canada", "Germany", "France", "Japan", "Australia", "Brazil"];
export const CHANNEL_LANGUAGES = ["English", "Spanish", "French", "German", "Japanese", "Portuguese", "Italian"];
/** [min, max) per product-rules §9 subscriber range, plus one band below 1K */
const SUBSCRIBER_BANDS: [number, number][] = [
  [1_000, 10_000],
  [10_000, 100_000],
  [100_000, 1_000_000],
  [1_000_000, 10_000_000],
  [10_000_000, 60_000_000],
  [50, 1_000],
];

export function sampleChannels(count = 60, seed: number = DEFAULT_SEED) {
  const r = createPrng(seed ^ 0xc4a7);
  const base = Date.UTC(2026, 0, 15);
  return Array.from({ length: count }, (_, i) => {
    const category = CHANNEL_CATEGORIES[i % CHANNEL_CATEGORIES.length];
    const [min, max] = SUBSCRIBER_BANDS[i % SUBSCRIBER_BANDS.length];
    const name = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(["TV", "Studio", "Channel", "Live", "Hub", "Daily"])}`;
    return {
      name,
      description: `${category} videos from the ${name.toLowerCase()} team: ${r.pick(["weekly", "daily", "monthly"])} uploads, original content only.`,
      category,
      language: r.pick(CHANNEL_LANGUAGES),
      country: r.pick(CHANNEL_COUNTRIES),
      keywords: [category.toLowerCase(), r.pick(NOUNS).toLowerCase(), r.pick(ADJECTIVES).toLowerCase()],
      thumbnail: channelThumbKey(r.int(1, CHANNEL_THUMB_COUNT)),
      subscriberCount: r.int(min, max - 1),
      videoCount: r.int(12, 4_000),
      lastUpdated: new Date(base - r.int(0, 400) * 86_400_000).toISOString(),
    };
  });
}

const FILM_FORMATS = ["Feature Film", "Documentary", "Short Film", "Series", "Animation"];
const NON_COMPLETED_STATUSES = ["pending", "processing", "in_review", "rejected", "draft"];

/**
 * Films in the provider's item shape. About a quarter are not 'completed' (product-rules §4 "Films"
 * hides them). Image variants cycle so the card's "first available of portrait, landscape,
 * artwork" rule and the placeholder (a missing key, or no image at all) are all exercised.
 */
export function sampleFilms(count = 40, seed: number = DEFAULT_SEED) {
  const r = createPrng(seed ^ 0xf11a);
  return Array.from({ length: count }, (_, i) => {
    const img = r.int(1, FILM_IMAGE_COUNT);
    const film: Record<string, unknown> = {
      film_id: `FLM-${1001 + i}`,
      title: `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}${r.chance(0.3) ? `: ${r.pick(["A Journey", "Part One", "The Return", "Live"])}` : ""}`,
      format: r.pick(FILM_FORMATS),
      film_status: i % 4 === 3 ? r.pick(NON_COMPLETED_STATUSES) : "completed",
    };
    switch (i % 6) {
      case 0:
        Object.assign(film, { portrait: filmPortraitKey(img), landscape: filmLandscapeKey(img), artwork: [filmLandscapeKey(img)] });
        break;
      case 1:
        film.portrait = filmPortraitKey(img);
        break;
      case 2:
        film.landscape = filmLandscapeKey(img);
        break;
      case 3:
        film.artwork = [filmPortraitKey(img), filmLandscapeKey(img)];
        break;
      case 4:
        // a key with no file behind it: the card must fall back to its placeholder
        film.portrait = `film-missing-${pad(i)}.webp`;
        break;
      default:
        // no image at all
        break;
    }
    return film;
  });
}

/** Singles genres (product-rules §7 api/Genre/) and their sub-genres; Country has none on purpose. */
export const SAMPLE_SINGLE_GENRES: Record<string, string[]> = {
  Pop: ["Dance Pop", "Indie Pop", "K-Pop", "Synth-pop"],
  "Hip Hop/Rap": ["Trap", "Boom Bap", "Conscious"],
  Electronic: ["House", "Techno", "Ambient", "Drum & Bass"],
  "R&B/Soul": ["Neo Soul", "Contemporary R&B"],
  Latin: ["Reggaeton", "Salsa", "Bachata"],
  Rock: ["Alternative", "Indie Rock", "Classic Rock"],
  Jazz: ["Smooth Jazz", "Bebop"],
  Country: [],
  Reggae: ["Dancehall", "Roots"],
  World: ["Afrobeat", "Bossa Nova"],
};

/** product-rules §4: 16 test users, "US" followed by six digits. */
export const SAMPLE_TEST_USER_IDS = Array.from({ length: 16 }, (_, i) => `US${pad(900_001 + i, 6)}`);

const LANGUAGES = ["English", "Spanish", "Instrumental", "French", "Portuguese", "Korean", "Yoruba"];
const COUNTRIES = ["United States", "Nigeria", "Brazil", "United Kingdom", "Mexico", "South Korea", "France", "Ghana"];

export interface SampleMusicApi {
  /** the sample's own test users; excluded like MUSIC_API_EXCLUDED_USER_IDS */
  testUserIds: string[];
  /** `submissions/all/catalog` items, every status (the sample source applies ?status=) */
  audios: Record<string, unknown>[];
  /** `submissions/catalog/all-data/submission_id` responses by submission_id */
  details: Record<string, unknown>;
  /** `api/Genre/` */
  genres: { Name: string }[];
  /** `api/Genre/Get/SubGenres?GenreName=` by genre */
  subGenres: Record<string, { Name: string }[]>;
}

/**
 * Music-API-shaped sample: ~60 submissions including the cases the singles pipeline must
 * handle (product-rules §4): test users, repeated submission_ids, the same title+artist in another
 * case, and non-DELIVERED statuses.
 */
export function sampleMusicApi(count = 60, seed: number = DEFAULT_SEED): SampleMusicApi {
  const r = createPrng(seed ^ 0x5a11);
  const genres = Object.keys(SAMPLE_SINGLE_GENRES);
  const audios: Record<string, unknown>[] = [];
  const details: Record<string, unknown> = {};
  const base = Date.UTC(2023, 0, 1);
  for (let i = 0; i < count; i++) {
    const id = `SUB-${10_001 + i}`;
    const userId = i % 12 === 5 ? r.pick(SAMPLE_TEST_USER_IDS) : `US${pad(100_000 + r.int(0, 899_999), 6)}`;
    const genre = i === 7 ? "" : genres[i % genres.length];
    const subs = SAMPLE_SINGLE_GENRES[genre] ?? [];
    const subGenre = subs.length ? r.pick(subs) : "";
    const releaseTitle = title(r);
    const artist = artistName(r);
    const artwork = i % 10 === 9 ? "" : coverKey(r.int(1, COVER_COUNT));
    const file = i % 11 === 10 ? "" : clipKey(r.int(1, CLIP_COUNT));
    const language = r.pick(LANGUAGES);
    const status = i % 15 === 14 ? r.pick(["PENDING", "IN_REVIEW", "REJECTED"]) : "DELIVERED";
    const created = base + r.int(0, 700) * 86_400_000;
    const releaseDate = new Date(created + r.int(10, 90) * 86_400_000).toISOString().slice(0, 10);
    audios.push({
      submission_id: id,
      release_title: releaseTitle,
      artist_name: artist,
      user_id: userId,
      genre,
      artwork,
      file,
      lyrics_language: language,
      status,
    });
    const ownLabel = r.chance(0.6);
    details[id] = {
      submissions: {
        submission_id: id,
        // stray whitespace, as upstream data has; product-rules §3 trims it
        release_title: i % 9 === 0 ? ` ${releaseTitle}  ` : releaseTitle,
        label: ownLabel ? `${r.pick(LAST_NAMES)} Records` : "",
        status,
        created_date: new Date(created).toISOString(),
        submitted_date: new Date(created + 86_400_000).toISOString(),
      },
      metadata: {
        album: r.chance(0.5) ? `${title(r)} (Single)` : releaseTitle,
        genre,
        sub_genre: subGenre,
        parental_advisory: i % 8 === 3 ? "yes" : "no",
        digital_release_date: releaseDate,
        isrc: i % 6 === 4 ? "" : `US${r.pick(["NB1", "X7Q", "K2M"])}${releaseDate.slice(2, 4)}${pad(r.int(0, 99_999), 5)}`,
        upc: String(r.int(100_000_000, 999_999_999)) + pad(r.int(0, 999), 3),
        composer: `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`,
        art_work: artwork,
        file,
      },
      artist: { artist_name: artist },
      user: { user_id: userId, email: `artist${10_001 + i}@example.com` },
      white_label: { wlabel: "Northbeat White Label", domain: "music.example.com" },
      single_metadata: { country_of_recording: r.pick(COUNTRIES) },
    };
  }
  // the same submission delivered twice (de-duplicated by submission_id)
  for (const i of [2, 13, 31, 44].filter((n) => n < count)) audios.push({ ...audios[i] });
  // the same title and artist under another id and in another case (de-duplicated ignoring case)
  for (const i of [4, 18, 27, 50].filter((n) => n < count)) {
    const original = audios[i];
    const id = `SUB-${20_001 + i}`;
    audios.push({
      ...original,
      submission_id: id,
      release_title: String(original.release_title).toUpperCase(),
      artist_name: String(original.artist_name).toLowerCase(),
    });
    const detail = structuredClone(details[String(original.submission_id)]) as { submissions: Record<string, unknown> };
    detail.submissions.submission_id = id;
    details[id] = detail;
  }
  return {
    testUserIds: SAMPLE_TEST_USER_IDS,
    audios,
    details,
    genres: genres.map((Name) => ({ Name })),
    subGenres: Object.fromEntries(genres.map((g) => [g, SAMPLE_SINGLE_GENRES[g].map((Name) => ({ Name }))])),
  };
}
