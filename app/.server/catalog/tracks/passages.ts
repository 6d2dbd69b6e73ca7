import { passageDistance, windowScales } from "../../analysis/segments.ts";

/**
 * A reference file's second stage (issue #29, ADR 0122): the like= scan's kept candidates
 * (LIKE_LIMIT nearest by the whole-track fingerprint, like.ts) put in the order of their
 * passage nearest to the reference's (segments.ts). The first stage is the index's (≤ 64
 * bytes a track in memory); the passages are read from the analysis store for these
 * candidates only. A candidate whose analysis has no anchors yet (analysed before version 5,
 * while the catalog is analysed again) follows the others, in the scan's order: the anchors'
 * distance and the fingerprint's are not on one scale. Since ADR 0134 a candidate's distance
 * also measures the points between two of its consecutive windows (passageDistance): an
 * excerpt's 20 s rarely start where a stored window does.
 */
export function rankByPassages(candidates: Int32Array, windowsOf: (t: number) => Uint8Array | null, reference: Uint8Array): Int32Array {
  const measured: { t: number; d: number; at: number }[] = [];
  const without: number[] = [];
  const sets: Uint8Array[] = [];
  for (const t of candidates) {
    const w = windowsOf(t);
    if (w) sets.push(w);
  }
  const scales = windowScales(sets);
  candidates.forEach((t, at) => {
    const w = windowsOf(t);
    if (w) measured.push({ t, d: passageDistance(reference, w, scales), at });
    else without.push(t);
  });
  // ties keep the scan's order (itself by distance, then title order: like.ts)
  measured.sort((a, b) => a.d - b.d || a.at - b.at);
  return Int32Array.from([...measured.map((m) => m.t), ...without]);
}
