/** Small dense linear algebra and the logistic regression of the training scripts (bench/train-*.ts): deterministic, no dependencies. */

/** Solves A x = b by Gauss-Jordan elimination with partial pivoting (A is small and positive definite). */
export function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]?.[c] ?? 0) > Math.abs(m[pivot]?.[c] ?? 0)) pivot = r;
    [m[c], m[pivot]] = [m[pivot] ?? [], m[c] ?? []];
    const row = m[c] ?? [];
    for (let r = 0; r < n; r++) {
      const other = m[r] ?? [];
      if (r === c) continue;
      const factor = (other[c] ?? 0) / (row[c] ?? 1);
      for (let k = c; k <= n; k++) other[k] = (other[k] ?? 0) - factor * (row[k] ?? 0);
    }
  }
  return m.map((row, i) => (row[n] ?? 0) / (row[i] ?? 1));
}

/** A row of a binary classification: its features and whether it is a positive (1) or not (0). */
export interface LabelledRow {
  features: readonly number[];
  label: number;
}

/**
 * Newton steps of fitLogistic, from zero, at most; it stops sooner once no weight moves by CONVERGED (far
 * below the four decimals kept). The same rows always give the same weights.
 */
const NEWTON_STEPS = 25;
const CONVERGED = 1e-9;

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * A logistic regression of the rows' labels on their features, with an L2 penalty `l2` on the standardised
 * weights (not on the bias), fitted by Newton's method; the weights are returned for the raw features,
 * rounded to four decimals. Deterministic.
 *
 * Each step reads only a row's non-zero features: the standardised Hessian and gradient follow from the raw
 * rows' weighted sums (Σ w·x·xᵀ, Σ w·x, Σ w) and the features' means and spreads, so a model over many
 * mostly-absent features costs what its present ones do.
 */
export function fitLogistic(rows: readonly LabelledRow[], l2: number): { bias: number; weights: number[] } {
  const size = rows[0]?.features.length ?? 0;
  const mean = new Array<number>(size).fill(0);
  const sd = new Array<number>(size).fill(0);
  for (const row of rows) row.features.forEach((v, j) => (mean[j] = (mean[j] ?? 0) + v / rows.length));
  for (const row of rows)
    row.features.forEach((v, j) => (sd[j] = (sd[j] ?? 0) + (v - (mean[j] ?? 0)) ** 2 / rows.length));
  const scale = sd.map((v) => (v > 0 ? Math.sqrt(v) : 1));
  const sparse = rows.map((row) => {
    const at: number[] = [];
    row.features.forEach((v, j) => {
      if (v !== 0) at.push(j);
    });
    return { at, values: at.map((j) => row.features[j] ?? 0), label: row.label };
  });
  // w[0] is the bias, w[j + 1] the weight of standardised feature j: (x_j − mean_j) / scale_j.
  let w = new Array<number>(size + 1).fill(0);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const raw = w.slice(1).map((v, j) => v / (scale[j] ?? 1));
    const offset = (w[0] ?? 0) - raw.reduce((sum, v, j) => sum + v * (mean[j] ?? 0), 0);
    const outer = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    const weighted = new Array<number>(size).fill(0);
    const residuals = new Array<number>(size).fill(0);
    let weightSum = 0;
    let residualSum = 0;
    for (const { at, values, label } of sparse) {
      let z = offset;
      for (let i = 0; i < at.length; i++) z += (raw[at[i] ?? 0] ?? 0) * (values[i] ?? 0);
      const p = 1 / (1 + Math.exp(-z));
      const residual = label - p;
      const weight = p * (1 - p);
      weightSum += weight;
      residualSum += residual;
      for (let i = 0; i < at.length; i++) {
        const j = at[i] ?? 0;
        const v = values[i] ?? 0;
        weighted[j] = (weighted[j] ?? 0) + weight * v;
        residuals[j] = (residuals[j] ?? 0) + residual * v;
        const line = outer[j] ?? [];
        for (let k = 0; k < at.length; k++)
          line[at[k] ?? 0] = (line[at[k] ?? 0] ?? 0) + weight * v * (values[k] ?? 0);
      }
    }
    const hessian = Array.from({ length: size + 1 }, () => new Array<number>(size + 1).fill(0));
    const gradient = new Array<number>(size + 1).fill(0);
    const row0 = hessian[0] ?? [];
    row0[0] = weightSum;
    gradient[0] = residualSum;
    for (let j = 0; j < size; j++) {
      const mj = mean[j] ?? 0;
      const sj = scale[j] ?? 1;
      const centred = ((weighted[j] ?? 0) - weightSum * mj) / sj;
      row0[j + 1] = centred;
      (hessian[j + 1] ?? [])[0] = centred;
      gradient[j + 1] = ((residuals[j] ?? 0) - residualSum * mj) / sj - l2 * (w[j + 1] ?? 0);
      const line = hessian[j + 1] ?? [];
      const outerLine = outer[j] ?? [];
      for (let k = 0; k < size; k++) {
        const mk = mean[k] ?? 0;
        line[k + 1] =
          ((outerLine[k] ?? 0) - mj * (weighted[k] ?? 0) - (weighted[j] ?? 0) * mk + weightSum * mj * mk) /
          (sj * (scale[k] ?? 1));
      }
      line[j + 1] = (line[j + 1] ?? 0) + l2;
    }
    const delta = solve(hessian, gradient);
    w = w.map((v, j) => v + (delta[j] ?? 0));
    if (Math.max(...delta.map(Math.abs)) < CONVERGED) break;
  }
  const weights = Array.from({ length: size }, (_, j) => (w[j + 1] ?? 0) / (scale[j] ?? 1));
  const bias = (w[0] ?? 0) - weights.reduce((sum, v, j) => sum + v * (mean[j] ?? 0), 0);
  return { bias: round4(bias), weights: weights.map(round4) };
}
