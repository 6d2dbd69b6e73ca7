import { describe, expect, it } from "vitest";
import { FIELDS } from "./fingerprint.ts";
import { catalogScales, compare, createModel, explain, keyRelation, LEARNED, scanDistance, seedTables, tempoTerm, WEIGHTS, type Sounding } from "./similarity.ts";
import { KEY_NAMES } from "../../lib/catalog/track-query.ts";

// The distance of ADR 0104, as a person reads it: tempo octaves, keys on the circle of
// fifths, and the words each result is listed with (issue #19).

const key = (name: string) => KEY_NAMES.indexOf(name);

describe("tempo", () => {
  it("the same tempo is closest, then a few BPM off; far tempi cost the most", () => {
    expect(tempoTerm(120, 120).term).toBe(0);
    expect(tempoTerm(120, 120).relation).toBe("same");
    expect(tempoTerm(120, 124).relation).toBe("near");
    expect(tempoTerm(120, 124).term).toBeLessThan(tempoTerm(120, 130).term);
    expect(tempoTerm(120, 95).relation).toBe("far");
    expect(tempoTerm(120, 95).term).toBeGreaterThan(tempoTerm(120, 130).term);
  });

  it("half and double the seed's tempo count as close (a half-time feel), a little behind the same tempo", () => {
    expect(tempoTerm(120, 60).relation).toBe("half");
    expect(tempoTerm(120, 240).relation).toBe("double");
    expect(tempoTerm(120, 61).term).toBeLessThan(tempoTerm(120, 100).term);
    expect(tempoTerm(120, 60).term).toBeGreaterThan(tempoTerm(120, 120).term);
    expect(tempoTerm(87, 174).relation).toBe("double");
  });

  it("no beat is close to no beat, and far from a beat", () => {
    expect(tempoTerm(null, null).term).toBe(0);
    expect(tempoTerm(null, 120).term).toBeGreaterThan(tempoTerm(120, 130).term);
    expect(tempoTerm(120, null).relation).toBe("none");
  });
});

describe("keys on the circle of fifths", () => {
  it("same key, then the relative key, then neighbours, then the parallel key, then further round the circle", () => {
    const c = key("C major");
    const order = [
      ["C major", "same"],
      ["A minor", "relative"],
      ["G major", "neighbour"],
      ["F major", "neighbour"],
      ["C minor", "parallel"],
      ["D major", "far"],
      ["F# major", "far"],
    ] as const;
    let previous = -1;
    for (const [name, relation] of order) {
      const r = keyRelation(c, key(name));
      expect(r.relation, name).toBe(relation);
      expect(r.term, name).toBeGreaterThanOrEqual(previous);
      previous = r.term;
    }
    // the tritone is the far side of the circle
    expect(keyRelation(c, key("F# major")).term).toBeGreaterThan(keyRelation(c, key("D major")).term);
  });

  it("works from a minor seed too: its relative major, and the minors a fifth away", () => {
    expect(keyRelation(key("E minor"), key("G major")).relation).toBe("relative");
    expect(keyRelation(key("E minor"), key("B minor")).relation).toBe("neighbour");
    expect(keyRelation(key("E minor"), key("A minor")).relation).toBe("neighbour");
    expect(keyRelation(key("E minor"), key("E major")).relation).toBe("parallel");
  });

  it("an unknown key is neither near nor far", () => {
    expect(keyRelation(null, key("C major")).relation).toBe("unknown");
    expect(keyRelation(key("C major"), null).term).toBeGreaterThan(keyRelation(key("C major"), key("G major")).term);
  });
});

/** A fingerprint whose every byte is `v`, except the ones given. */
const bytes = (v: number, set: Record<number, number> = {}) => {
  const out = new Uint8Array(FIELDS.length).fill(v);
  for (const [i, x] of Object.entries(set)) out[Number(i)] = x;
  return out;
};
const timbre = FIELDS.findIndex((f) => f.part === "timbre");
const energy = FIELDS.findIndex((f) => f.part === "energy");
const rhythm = FIELDS.findIndex((f) => f.part === "rhythm");

describe("the distance and its explanation", () => {
  // a catalog where every field spreads over about 40 steps
  const catalog = new Uint8Array(FIELDS.length * 3);
  catalog.fill(80, 0, FIELDS.length);
  catalog.fill(120, FIELDS.length, 2 * FIELDS.length);
  catalog.fill(160, 2 * FIELDS.length);
  const model = createModel(catalogScales(catalog, 3));
  const seed: Sounding = { fingerprint: bytes(120), bpm: 120, key: key("C major") };

  it("reads like the issue's example: tempo against the seed's, the key's relation, the similar parts", () => {
    const other: Sounding = { fingerprint: bytes(121, { [rhythm]: 135, [rhythm + 1]: 135 }), bpm: 122, key: key("A minor") };
    const c = compare(model, seed, other);
    expect(explain(c, 120, 122)).toBe("122 BPM (reference 120) · relative key · similar timbre · similar energy");
  });

  it("names a half-time tempo and leaves out what is not similar", () => {
    const other: Sounding = { fingerprint: bytes(121, { [timbre]: 250, [timbre + 1]: 0, [timbre + 2]: 250 }), bpm: 61, key: key("F# minor") };
    const text = explain(compare(model, seed, other), 120, 61);
    expect(text).toMatch(/^61 BPM, half the reference's 120 · /);
    expect(text).not.toContain("timbre");
    expect(text).not.toContain("key");
  });

  it("grows with each difference, and the scan's fast form agrees with it", () => {
    const near: Sounding = { fingerprint: bytes(122), bpm: 121, key: key("C major") };
    const louder: Sounding = { fingerprint: bytes(122, { [energy]: 200 }), bpm: 121, key: key("C major") };
    const offKey: Sounding = { ...near, key: key("F# major") };
    const offTempo: Sounding = { ...near, bpm: 150 };
    const dNear = compare(model, seed, near).distance;
    expect(compare(model, seed, louder).distance).toBeGreaterThan(dNear);
    expect(compare(model, seed, offTempo).distance).toBeGreaterThan(dNear);
    expect(compare(model, seed, offKey).distance).toBeGreaterThan(dNear);
    const tables = seedTables(seed);
    for (const other of [near, louder, offKey, offTempo]) {
      expect(scanDistance(model, tables, other.fingerprint, 0, other.bpm ?? 0, other.key ?? 31)).toBeCloseTo(compare(model, seed, other).distance, 9);
    }
  });
});

describe("the words are true of the pair (issue #29)", () => {
  it('"similar rhythm" is said only of pairs whose rhythm parts are close, never of far ones, and is said of some', () => {
    // 120 tracks of random fingerprints: every pair's words against its measured parts
    let state = 2929;
    const next = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
    const tracks: Sounding[] = Array.from({ length: 120 }, () => ({ fingerprint: Uint8Array.from(FIELDS, () => Math.floor(next() * 256)), bpm: 80 + Math.floor(next() * 80), key: Math.floor(next() * 24) }));
    const vectors = new Uint8Array(tracks.length * FIELDS.length);
    tracks.forEach((t, i) => vectors.set(t.fingerprint, i * FIELDS.length));
    const sigma = catalogScales(vectors, tracks.length);
    const model = createModel(sigma);
    let said = 0;
    let far = 0;
    for (const a of tracks) {
      for (const b of tracks) {
        if (a === b) continue;
        const c = compare(model, a, b);
        const words = explain(c, a.bpm, b.bpm);
        if (c.parts.rhythm >= 2) {
          far++;
          expect(words).not.toContain("similar rhythm");
        }
        if (words.includes("similar rhythm")) {
          said++;
          expect(c.parts.rhythm).toBeLessThan(1);
          // each rhythm field within 1.5 of the catalog's spreads, not only their mean
          FIELDS.forEach((f, i) => {
            if (f.part === "rhythm") expect(Math.abs(a.fingerprint[i] - b.fingerprint[i]) / sigma[i]).toBeLessThan(1.5);
          });
        }
      }
    }
    expect(said).toBeGreaterThan(50);
    expect(far).toBeGreaterThan(1000);
  });
});


describe("the site's learned metric (ADR 0125)", () => {
  it("is the fitted map, fitted on tuning music only, and ranks by it", async () => {
    const map = (await import("./similarity-map.json", { with: { type: "json" } })).default;
    const { HELD_OUT_GROUPS, NEW_HELD_OUT_GROUPS, SOURCES } = await import("../../../benchmarks/lib/real-music.ts");
    // never fitted on a held-out group (ADR 0118's six nor ADR 0131's new ones), nor on a package the corpus does not list
    expect(map.fittedOn.part).toBe("tuning");
    expect(map.fittedOn.groups.filter((g: string) => HELD_OUT_GROUPS.includes(g) || NEW_HELD_OUT_GROUPS.includes(g))).toEqual([]);
    const listed = new Set(SOURCES.map((s) => s.pkg));
    expect(map.fittedOn.packages.filter((p: string) => !listed.has(p))).toEqual([]);
    expect(map.fields).toHaveLength(FIELDS.length);
    expect(LEARNED.fields).toEqual(map.fields);
    // the default model weighs each value by the map (÷ σ²), ADR 0104's only when asked
    const sigma = Float64Array.from(FIELDS, (_, i) => 10 + i);
    const site = createModel(sigma);
    const before = createModel(sigma, WEIGHTS);
    FIELDS.forEach((_, i) => expect(site.fieldWeights[i]).toBeCloseTo(map.fields[i] / sigma[i] ** 2, 12));
    expect([site.tempo, site.key]).toEqual([map.tempo, map.key]);
    expect(Array.from(site.fieldWeights)).not.toEqual(Array.from(before.fieldWeights));
  });

  it("leaves the words to the parts as measured: the same pair reads the same under either metric", () => {
    let state = 125;
    const next = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
    const tracks: Sounding[] = Array.from({ length: 40 }, () => ({ fingerprint: Uint8Array.from(FIELDS, () => Math.floor(next() * 256)), bpm: 80 + Math.floor(next() * 80), key: Math.floor(next() * 24) }));
    const vectors = new Uint8Array(tracks.length * FIELDS.length);
    tracks.forEach((t, i) => vectors.set(t.fingerprint, i * FIELDS.length));
    const sigma = catalogScales(vectors, tracks.length);
    const site = createModel(sigma);
    const before = createModel(sigma, WEIGHTS);
    for (const a of tracks.slice(0, 10)) {
      for (const b of tracks) {
        if (a === b) continue;
        const learned = compare(site, a, b);
        expect(learned.parts).toEqual(compare(before, a, b).parts);
        expect(explain(learned, a.bpm, b.bpm)).toBe(explain(compare(before, a, b), a.bpm, b.bpm));
        // and the scan's fast form agrees with the learned distance
        expect(scanDistance(site, seedTables(a), b.fingerprint, 0, b.bpm ?? 0, b.key ?? 31)).toBeCloseTo(learned.distance, 9);
      }
    }
  });
});
