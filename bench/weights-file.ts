/** How a trainer (bench/train-summary.ts, bench/tune-segments.ts) writes its learned weights into src/analysis. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";

export interface WeightsFile {
  /** The file in src/analysis, e.g. "summary-weights.ts". */
  file: string;
  /** The exported constant, e.g. "SUMMARY_WEIGHTS". */
  name: string;
  /** The doc comment's first sentence: whose weights they are and in which order. */
  description: string;
  /** The script that writes the file, from the repository's root. */
  script: string;
  /** One name per weight, written as a comment beside it. */
  features: readonly string[];
  weights: readonly number[];
}

/** Writes the weights as a TypeScript module and returns its path. */
export function writeWeights(weights: WeightsFile): string {
  const out = resolve(import.meta.dirname, "../src/analysis", weights.file);
  writeFileSync(
    out,
    `/**
 * ${weights.description}
 * Written by \`node --import tsx ${weights.script} --write\` from QMSum train; do not edit by hand.
 */
export const ${weights.name}: readonly number[] = [
${weights.features.map((feature, j) => `  ${weights.weights[j]}, // ${feature}`).join("\n")}
];
`,
  );
  return out;
}
