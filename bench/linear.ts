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
 */
export function fitLogistic(rows: readonly LabelledRow[], l2: number): { bias: number; weights: number[] } {
  const size = rows[0]?.features.length ?? 0;
  const mean = new Array<number>(size).fill(0);
  const sd = new Array<number>(size).fill(0);
  for (const row of rows) row.features.forEach((v, j) => (mean[j] = (mean[j] ?? 0) + v / rows.length));
  for (const row of rows)
    row.features.forEach((v, j) => (sd[j] = (sd[j] ?? 0) + (v - (mean[j] ?? 0)) ** 2 / rows.length));
  const scale = sd.map((v) => (v > 0 ? Math.sqrt(v) : 1));
  const xs = rows.map((row) => [1, ...row.features.map((v, j) => (v - (mean[j] ?? 0)) / (scale[j] ?? 1))]);
  let w = new Array<number>(size + 1).fill(0);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const hessian = Array.from({ length: size + 1 }, () => new Array<number>(size + 1).fill(0));
    const gradient = new Array<number>(size + 1).fill(0);
    xs.forEach((x, r) => {
      const z = x.reduce((sum, v, j) => sum + v * (w[j] ?? 0), 0);
      const p = 1 / (1 + Math.exp(-z));
      const residual = (rows[r]?.label ?? 0) - p;
      const weight = p * (1 - p);
      for (let j = 0; j <= size; j++) {
        const xj = x[j] ?? 0;
        gradient[j] = (gradient[j] ?? 0) + residual * xj;
        if (xj === 0) continue;
        const line = hessian[j] ?? [];
        for (let k = 0; k <= size; k++) line[k] = (line[k] ?? 0) + weight * xj * (x[k] ?? 0);
      }
    });
    for (let j = 1; j <= size; j++) {
      gradient[j] = (gradient[j] ?? 0) - l2 * (w[j] ?? 0);
      (hessian[j] ?? [])[j] = ((hessian[j] ?? [])[j] ?? 0) + l2;
    }
    const delta = solve(hessian, gradient);
    w = w.map((v, j) => v + (delta[j] ?? 0));
    if (Math.max(...delta.map(Math.abs)) < CONVERGED) break;
  }
  const weights = Array.from({ length: size }, (_, j) => (w[j + 1] ?? 0) / (scale[j] ?? 1));
  const bias = (w[0] ?? 0) - weights.reduce((sum, v, j) => sum + v * (mean[j] ?? 0), 0);
  return { bias: round4(bias), weights: weights.map(round4) };
}
