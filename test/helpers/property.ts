import type { Parameters } from "fast-check";

/**
 * fast-check parameters with a seed that can be replayed: `RECAP_TEST_SEED` pins it, otherwise each run
 * draws one and prints it (fast-check's failure report names it too), so a failure found once is
 * found again with `RECAP_TEST_SEED=<seed>`.
 */
export function replayable<T>(name: string, parameters: Parameters<T> = {}): Parameters<T> {
  const pinned = process.env.RECAP_TEST_SEED;
  const seed = pinned === undefined || pinned === "" ? Math.floor(Math.random() * 2 ** 31) : Number(pinned);
  if (!Number.isInteger(seed)) throw new Error(`RECAP_TEST_SEED must be an integer, not "${pinned}"`);
  console.log(`${name}: fast-check seed ${seed} (replay: RECAP_TEST_SEED=${seed})`);
  return { ...parameters, seed };
}
