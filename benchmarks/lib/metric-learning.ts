/**
 * Neighbourhood components analysis (Goldberger, Roweis, Hinton & Salakhutdinov 2004) for
 * issue #29's learned step (ADR 0123): a linear map L of the z-scored fingerprint values,
 * plus non-negative weights of pairwise terms that are not differences of values (the tempo
 * and key terms), fitted so that each seed's soft nearest neighbour, among the tracks of OTHER
 * albums (the evaluation's rule: the seed's own album never counts), is of the seed's group:
 *
 *   D(i, j) = |L (x_i − x_j)|² + Σ_e w_e T_e(i, j),   p_ij = exp(−D_ij) / Σ_k exp(−D_ik),
 *   loss = −Σ_i log Σ_{j in i's group} p_ij + λ |θ − θ₀|²  (θ₀: the starting metric),
 *
 * by Adam over a fixed number of steps from θ₀ (deterministic: no random start). Shapes of L:
 * "diag" (one weight per value: the scan's own form), "parts" (a full map inside each of the
 * fingerprint's parts, nothing across them: each part keeps its own distance for the
 * explanation's words) and "full".
 */

export type Shape = "diag" | "parts" | "full";

export interface NcaProblem {
  /** n × d values, z-scored over the pool */
  x: Float64Array[];
  /** the terms that are not value differences: e × n × n (T_e(i, j)) */
  terms: Float64Array[];
  group: Int32Array;
  album: Int32Array;
  /**
   * Each seed's weight in the loss (default 1: every seed counts the same, so a group of 40
   * tracks counts 8 times one of 5). `groupBalanced` gives each group the same total (ADR 0131:
   * three soundtracks held 110 of 194 tuning seeds and decided the fit, ADR 0128).
   */
  weight?: Float64Array;
}

/**
 * Seed weights giving every group the same total weight: 1 / (the group's seeds), a macro mean
 * over groups; with `cap`, a group's total is min(its seeds, cap) (a group of 40 counts as 10
 * seeds at cap 10, a group of 5 as 5).
 */
export function groupBalanced(group: Int32Array, cap?: number): Float64Array {
  const count = new Map<number, number>();
  for (const g of group) count.set(g, (count.get(g) ?? 0) + 1);
  return Float64Array.from(group, (g) => (cap === undefined ? 1 / count.get(g)! : Math.min(1, cap / count.get(g)!)));
}

export interface NcaOptions {
  shape: Shape;
  /** for "parts": each value's part (0, 1, …) */
  partOf?: Int32Array;
  /** the starting metric: a d × d map (row-major) and the terms' weights */
  l0: Float64Array;
  w0: Float64Array;
  /** terms whose weight is held at w0 (the like= scan's early stop needs the tempo and key terms: ADR 0116) */
  fixedTerms?: boolean;
  /**
   * Hold the map's mean |L Δ|² over the pool's pairs at θ₀'s after each step: with the terms'
   * weights held too, the tempo and key terms keep their share of the distance (the like= scan
   * stops early on them, ADR 0116), and the softmax keeps θ₀'s sharpness.
   */
  keepScale?: boolean;
  lambda: number;
  steps: number;
  rate: number;
}

export interface NcaModel {
  /** d × d, row-major (zeros outside the shape) */
  l: Float64Array;
  w: Float64Array;
  d: number;
}

/** Whether entry (r, c) of L is free under the shape. */
function freeMask(shape: Shape, d: number, partOf?: Int32Array): Uint8Array {
  const m = new Uint8Array(d * d);
  for (let r = 0; r < d; r++) {
    for (let c = 0; c < d; c++) {
      m[r * d + c] = shape === "full" || (shape === "diag" && r === c) || (shape === "parts" && partOf![r] === partOf![c]) ? 1 : 0;
    }
  }
  return m;
}

/** The distance matrix (n × n) of a model over the problem's values and terms. */
export function ncaDistances(p: Pick<NcaProblem, "x" | "terms">, model: NcaModel): Float64Array {
  const n = p.x.length;
  const d = model.d;
  const y = p.x.map((v) => {
    const out = new Float64Array(d);
    for (let r = 0; r < d; r++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += model.l[r * d + c] * v[c];
      out[r] = s;
    }
    return out;
  });
  const D = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let r = 0; r < d; r++) s += (y[i][r] - y[j][r]) ** 2;
      for (let e = 0; e < p.terms.length; e++) s += model.w[e] * p.terms[e][i * n + j];
      D[i * n + j] = D[j * n + i] = s;
    }
  }
  return D;
}

/** The NCA loss (mean over seeds, weighted by `weight`) and its gradient in L and w; `diagonal`: only L's diagonal is wanted. */
export function lossAndGradient(p: NcaProblem, model: NcaModel, diagonal: boolean): { loss: number; gl: Float64Array; gw: Float64Array } {
  const n = p.x.length;
  const d = model.d;
  const D = ncaDistances(p, model);
  // a diagonal L needs only M's diagonal (d times less work: what makes a cross-validation of
  // the site's form affordable on two shared cores)
  const M = new Float64Array(d * d);
  const gw = new Float64Array(model.w.length);
  const c = new Float64Array(n);
  const delta = new Float64Array(d);
  let loss = 0;
  let seeds = 0;
  for (let i = 0; i < n; i++) {
    const wi = p.weight ? p.weight[i] : 1;
    let min = Infinity;
    for (let j = 0; j < n; j++) if (p.album[j] !== p.album[i] && D[i * n + j] < min) min = D[i * n + j];
    let z = 0;
    let g = 0;
    for (let j = 0; j < n; j++) {
      c[j] = 0;
      if (p.album[j] === p.album[i]) continue;
      const e = Math.exp(-(D[i * n + j] - min));
      c[j] = e;
      z += e;
      if (p.group[j] === p.group[i]) g += e;
    }
    if (g === 0 || wi === 0) continue; // no track of the group outside the seed's album
    seeds += wi;
    const P = g / z;
    loss -= wi * Math.log(P);
    // ∂(−log P_i)/∂D_ij = [j in group] p_ij / P_i − p_ij
    for (let j = 0; j < n; j++) {
      if (c[j] === 0) continue;
      const pij = c[j] / z;
      const coef = wi * ((p.group[j] === p.group[i] ? pij / P : 0) - pij);
      if (coef === 0) continue;
      for (let k = 0; k < d; k++) delta[k] = p.x[i][k] - p.x[j][k];
      if (diagonal) for (let a = 0; a < d; a++) M[a * d + a] += coef * delta[a] * delta[a];
      else
        for (let a = 0; a < d; a++) {
          const da = coef * delta[a];
          for (let b = 0; b < d; b++) M[a * d + b] += da * delta[b];
        }
      for (let e = 0; e < p.terms.length; e++) gw[e] += coef * p.terms[e][i * n + j];
    }
  }
  // ∂/∂L of Σ coef |L Δ|² = 2 L M
  const gl = new Float64Array(d * d);
  if (diagonal) {
    for (let r = 0; r < d; r++) gl[r * d + r] = (2 * model.l[r * d + r] * M[r * d + r]) / seeds;
    for (let e = 0; e < gw.length; e++) gw[e] /= seeds;
    return { loss: loss / seeds, gl, gw };
  }
  for (let r = 0; r < d; r++) {
    for (let b = 0; b < d; b++) {
      let s = 0;
      for (let a = 0; a < d; a++) s += model.l[r * d + a] * M[a * d + b];
      gl[r * d + b] = (2 * s) / seeds;
    }
  }
  for (let e = 0; e < gw.length; e++) gw[e] /= seeds;
  return { loss: loss / seeds, gl, gw };
}

/** Fits the model (Adam, `steps` steps, from the starting metric). */
export function ncaFit(p: NcaProblem, o: NcaOptions, log?: (line: string) => void): NcaModel {
  const d = p.x[0].length;
  const mask = freeMask(o.shape, d, o.partOf);
  const model: NcaModel = { l: Float64Array.from(o.l0, (v, i) => (mask[i] ? v : 0)), w: o.w0.slice(), d };
  const params = d * d + model.w.length;
  const m1 = new Float64Array(params);
  const m2 = new Float64Array(params);
  const b1 = 0.9;
  const b2 = 0.999;
  const target = meanSpread(p, model);
  for (let step = 1; step <= o.steps; step++) {
    const { loss, gl, gw } = lossAndGradient(p, model, o.shape === "diag");
    if (log && (step === 1 || step % 50 === 0)) log(`  step ${step}: loss ${loss.toFixed(4)}`);
    for (let k = 0; k < params; k++) {
      const isL = k < d * d;
      if (isL && !mask[k]) continue;
      if (!isL && o.fixedTerms) continue;
      const e = k - d * d;
      const value = isL ? model.l[k] : model.w[e];
      const start = isL ? o.l0[k] : o.w0[e];
      const g = (isL ? gl[k] : gw[e]) + 2 * o.lambda * (value - start);
      m1[k] = b1 * m1[k] + (1 - b1) * g;
      m2[k] = b2 * m2[k] + (1 - b2) * g * g;
      const update = (o.rate * (m1[k] / (1 - b1 ** step))) / (Math.sqrt(m2[k] / (1 - b2 ** step)) + 1e-8);
      if (isL) model.l[k] -= update;
      else model.w[e] = Math.max(0, model.w[e] - update);
    }
    if (o.keepScale) {
      const f = Math.sqrt(target / meanSpread(p, model));
      for (let k = 0; k < d * d; k++) model.l[k] *= f;
    }
  }
  return model;
}

/** The mean of |L (x_i − x_j)|² over the pool's pairs: 2 × the summed variance of L x. */
export function meanSpread(p: Pick<NcaProblem, "x">, model: Pick<NcaModel, "l" | "d">): number {
  const { d } = model;
  const n = p.x.length;
  const mean = new Float64Array(d);
  const sq = new Float64Array(d);
  for (const v of p.x) {
    for (let r = 0; r < d; r++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += model.l[r * d + c] * v[c];
      mean[r] += s / n;
      sq[r] += (s * s) / n;
    }
  }
  let total = 0;
  for (let r = 0; r < d; r++) total += 2 * Math.max(0, sq[r] - mean[r] * mean[r]);
  return total;
}
