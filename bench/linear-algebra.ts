/** Small dense linear algebra for the training scripts (a few dozen features). */

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
