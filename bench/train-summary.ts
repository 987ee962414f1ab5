/**
 * Learns the summary scorer's weights on QMSum train (never reads val): a ridge regression from each
 * candidate sentence's standardised features (src/analysis/summary-features.ts) to how much of it the
 * human summary says, i.e. the share of the readable sentence's word pairs (bigrams) that occur in the
 * meeting's reference summary, standardised within the meeting. Solved in closed form (normal
 * equations), so the same data always gives the same weights.
 *
 * Usage: node --import tsx bench/train-summary.ts [--write]
 *   prints the weights and their fit; --write also writes them to src/analysis/summary-weights.ts.
 * Then re-tune the budget and redundancy with bench/tune.ts and check with `npm run eval -- train`.
 */
import { prepareSentences } from "../src/analysis/analyze.ts";
import { FEATURE_NAMES, summaryCandidates } from "../src/analysis/summary-features.ts";
import { DEFAULT_SUMMARY_OPTIONS } from "../src/analysis/summary.ts";
import { readableSentence } from "../src/analysis/tidy.ts";
import { solve } from "./linear.ts";
import { rougeTokens } from "./metrics/rouge.ts";
import { loadSplit } from "./qmsum.ts";
import { writeWeights } from "./weights-file.ts";

/** Ridge penalty: keeps correlated features (rarity, commonness) from trading huge opposite weights. */
const RIDGE = 1;

/** Share of a sentence's bigrams that occur in the reference (ROUGE-2 precision against it). */
function bigramPrecision(text: string, referenceBigrams: ReadonlySet<string>): number {
  const tokens = rougeTokens(text);
  let found = 0;
  for (let i = 0; i + 1 < tokens.length; i++)
    if (referenceBigrams.has(`${tokens[i]} ${tokens[i + 1]}`)) found++;
  return found / Math.max(1, tokens.length - 1);
}

/** Values to mean 0 and standard deviation 1 (all 0 when constant). */
function standardised(values: readonly number[]): number[] {
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length));
  return values.map((v) => (sd > 0 ? (v - mean) / sd : 0));
}

const size = FEATURE_NAMES.length;
const gram = Array.from({ length: size }, () => new Array<number>(size).fill(0));
const moments = new Array<number>(size).fill(0);
const rows: { features: number[]; target: number }[] = [];
for (const meeting of loadSplit("train")) {
  const sentences = prepareSentences(meeting.input);
  const speakers = meeting.input.messages.map((m) => m.memberId ?? m.speakerName);
  const candidates = summaryCandidates(sentences, speakers, DEFAULT_SUMMARY_OPTIONS);
  const reference = rougeTokens(meeting.referenceSummary);
  const bigrams = new Set(reference.slice(1).map((token, i) => `${reference[i] ?? ""} ${token}`));
  const targets = standardised(
    candidates.map((c) => bigramPrecision(readableSentence(sentences[c.index]?.text ?? ""), bigrams)),
  );
  candidates.forEach((candidate, i) => rows.push({ features: candidate.features, target: targets[i] ?? 0 }));
}
for (const { features, target } of rows) {
  for (let j = 0; j < size; j++) {
    moments[j] = (moments[j] ?? 0) + (features[j] ?? 0) * target;
    const line = gram[j] ?? [];
    for (let k = 0; k < size; k++) line[k] = (line[k] ?? 0) + (features[j] ?? 0) * (features[k] ?? 0);
  }
}
for (let j = 0; j < size; j++) (gram[j] ?? [])[j] = ((gram[j] ?? [])[j] ?? 0) + RIDGE;
const weights = solve(gram, moments).map((w) => Math.round(w * 10_000) / 10_000);

// Fit: share of the target's variance the weights explain over all train candidates.
let residual = 0;
let total = 0;
for (const { features, target } of rows) {
  const predicted = features.reduce((sum, value, j) => sum + value * (weights[j] ?? 0), 0);
  residual += (target - predicted) ** 2;
  total += target ** 2;
}
process.stdout.write(`${rows.length} train candidates, R² ${(1 - residual / total).toFixed(3)}\n`);
FEATURE_NAMES.forEach((name, j) => process.stdout.write(`  ${name.padEnd(14)} ${weights[j]}\n`));

if (process.argv.includes("--write")) {
  const out = writeWeights({
    file: "summary-weights.ts",
    name: "SUMMARY_WEIGHTS",
    description:
      "Learned weights of the summary scorer, one per feature of summary-features.ts (FEATURE_NAMES order).",
    script: "bench/train-summary.ts",
    features: FEATURE_NAMES,
    weights,
  });
  process.stdout.write(`wrote ${out}\n`);
}
