import type { Family } from "./families.ts";

/**
 * What each leaf of the product-rules §9 genre tree sounds like in the sample (issue #32, ADR
 * 0121): an album's tracks are pieces of its genre's family (families.ts), so a House album is
 * four-on-the-floor house, a Relaxing one ambient pads or piano, a Bossa Nova one plucked
 * acoustic, and "More like this" from a track lists its own genre first. A family serves
 * several genres, as in a real catalog; every leaf of the tree keeps albums.
 * Keyed by the lower-cased leaf name, then by the top genre.
 */
const BY_LEAF: Record<string, Family> = {
  // dance floors: uptempo breaks; house is House's alone, so that "More like this" from a House
  // track, whose nearest pieces are the other house pieces, lists House (LIKE_PER_RECORDING
  // spreads a page over several pieces)
  "italo disco": "breakbeat", party: "breakbeat", "sweet sixteen": "breakbeat", "new year": "breakbeat",
  "cuban street beats": "breakbeat", "puerto rican": "breakbeat", "dominican republic": "breakbeat", panama: "breakbeat",
  colombia: "breakbeat", nigeria: "breakbeat", ghana: "breakbeat", "south africa": "breakbeat", korea: "breakbeat",
  quinceañera: "breakbeat", "new year songs mexican": "breakbeat",
  // piano and voice
  "christian uplifting": "ballad", "mother's day": "ballad", "father's day": "ballad", "valentine's day": "ballad",
  "easy listening": "ballad", "cuban bolero": "ballad", "cuban soul": "ballad", english: "ballad", "french jazz": "ballad",
  "french chanson & jazz": "acoustic", "christian country gospel": "acoustic", "bar mitzvah": "strings",
  // pads
  "om music": "ambient", "mind healing": "ambient", "nature sounds": "ambient", tibet: "ambient", mongolia: "ambient",
  // strings
  "christian holidays": "strings", "jewish holidays": "strings", "hindu holidays": "strings", "cuban gospel": "strings",
  "traditional italian": "strings", chinese: "strings", japan: "strings", taiwan: "strings", khmer: "strings", thai: "strings",
  vietnam: "strings", algeria: "strings", libya: "strings", moroccan: "strings", mauritania: "strings", sudan: "strings",
};
const BY_TOP: Record<string, Family> = {
  house: "house", relaxing: "ambient", jazz: "ballad", holidays: "ballad", gospel: "acoustic", religion: "ballad",
  children: "acoustic", teens: "acoustic", occasion: "acoustic", brazilian: "acoustic", latin: "acoustic", african: "acoustic",
  asian: "strings", french: "acoustic", italian: "acoustic", cuban: "acoustic",
};

export function familyOfGenre(path: readonly string[]): Family {
  for (let i = path.length - 1; i >= 1; i--) {
    const hit = BY_LEAF[path[i].toLowerCase()];
    if (hit) return hit;
  }
  return BY_TOP[path[0].toLowerCase()] ?? "acoustic";
}

/**
 * The top genre whose own the first half of a family's pieces are, when the family serves
 * others too (the rest serve those): "More like this" from a track of the home genre finds the
 * same pieces under that genre first.
 */
export const FAMILY_HOME: Readonly<Record<Family, string>> = {
  house: "House", ambient: "Relaxing", ballad: "Jazz", acoustic: "Brazilian", breakbeat: "Cuban", strings: "Asian",
};
