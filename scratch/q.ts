import { loadReal } from "../scripts/lib/bench-real.ts";
import { realMixPassages } from "../scripts/lib/bench-reference.ts";
import { buildPassageIndex, MAX_TRACK_PASSAGES, passageCandidates, trackPassageCodes } from "../app/.server/catalog/tracks/passage-index.ts";
import { referenceAnchors, segmentDistance, segmentWindows, windowScales } from "../app/.server/analysis/segments.ts";
const data = await loadReal(() => {});
if (typeof data === "string") throw 0;
const D = Number(process.argv[2] ?? 100000);
const mix = realMixPassages(data, { minShare: Number(process.argv[3] ?? 0) });
const R = data.tracks.length;
const n = R + D;
const codes = new Uint32Array(n * MAX_TRACK_PASSAGES);
const used = new Uint8Array(n);
const segOf = (t: number) => (t < R ? data.full[t].segments! : mix(`d${t}`));
for (let t = 0; t < n; t++) { const c = trackPassageCodes(segOf(t)); if (c) { codes.set(c, t * MAX_TRACK_PASSAGES); used[t] = c.length; } }
const index = buildPassageIndex(codes, used, n);
for (const [limit, budget] of [[240, 24000], [240, 96000], [960, 96000]]) {
  let inCand = 0, exact1 = 0, exact10 = 0, exactAll1 = 0;
  for (let q = 0; q < R; q++) {
    const w = segmentWindows(referenceAnchors(data.excerpt[q].segments))!;
    const r = passageCandidates(index, w, () => true, { limit, budget });
    const cand = [...r.tracks];
    if (!cand.includes(q)) continue;
    inCand++;
    const sets = cand.map((t) => segmentWindows(segOf(t))!);
    const sc = windowScales(sets);
    const ds = cand.map((t, i) => ({ t, d: segmentDistance(w, sets[i], sc) })).sort((a, b) => a.d - b.d);
    const place = ds.findIndex((x) => x.t === q);
    if (place === 0) exact1++;
    if (place < 10) exact10++;
  }
  console.log(`D ${D} limit ${limit} budget ${budget}: source in candidates ${inCand}/${R}; after exact re-rank top1 ${exact1} top10 ${exact10}`);
}
