/** Counts kept per meeting and summed over meetings before dividing (actions.ts, decisions.ts). */

/** The field-by-field sum of two sets of counts. */
export function addCounts<T extends { [K in keyof T]: number }>(a: T, b: T): T {
  const sum = { ...a };
  for (const key of Object.keys(b) as (keyof T)[]) sum[key] = (a[key] + b[key]) as T[keyof T];
  return sum;
}
