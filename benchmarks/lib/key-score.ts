import { KEY_NAMES } from "./tempo-set.ts";

/** MIREX key score: 1 the same key, 0.5 a fifth away (same mode), 0.3 the relative, 0.2 the parallel. */
export function keyScore(found: string | null, truth: string): number {
  if (!found) return 0;
  const parse = (k: string) => {
    const [n, m] = k.split(" ");
    return { t: KEY_NAMES.indexOf(n), minor: m === "minor" };
  };
  const f = parse(found);
  const t = parse(truth);
  const d = (f.t - t.t + 12) % 12;
  if (f.minor === t.minor) return d === 0 ? 1 : d === 7 || d === 5 ? 0.5 : 0;
  // relative: A minor for C major (9 semitones up), C major for A minor (3 up)
  if (!t.minor && f.minor && d === 9) return 0.3;
  if (t.minor && !f.minor && d === 3) return 0.3;
  return d === 0 ? 0.2 : 0;
}

