/**
 * Tunes the summary weights on QMSum train by coordinate descent (one weight at a time over a small
 * grid), maximising mean (ROUGE-1 + ROUGE-2 + ROUGE-L) / 3. Never reads val.
 *
 * Usage: node --import tsx bench/tune.ts
 */
import { prepareSentences } from "../src/analysis/analyze.ts";
import { rouge } from "./metrics/rouge.ts";
import {
  DEFAULT_SUMMARY_OPTIONS,
  selectSummarySentences,
  type SummaryOptions,
} from "../src/analysis/summary.ts";
import { loadSplit } from "./qmsum.ts";

const meetings = loadSplit("train").map((m) => ({
  sentences: prepareSentences(m.input),
  reference: m.referenceSummary,
}));

function score(options: SummaryOptions): { objective: number; r1: number; r2: number; rl: number } {
  let r1 = 0;
  let r2 = 0;
  let rl = 0;
  for (const { sentences, reference } of meetings) {
    const text = selectSummarySentences(sentences, options)
      .map((p) => p.text)
      .join(" ");
    const s = rouge(text, reference);
    r1 += s.rouge1;
    r2 += s.rouge2;
    rl += s.rougeL;
  }
  const n = meetings.length;
  return { objective: (r1 + r2 + rl) / 3 / n, r1: r1 / n, r2: r2 / n, rl: rl / n };
}

const grid: Partial<Record<keyof SummaryOptions, number[]>> = {
  cues: [0.5, 1, 1.5, 2, 3],
  centrality: [2, 3, 4, 6],
  position: [0.25, 0.5, 1],
  wordBudget: [110, 130, 150],
  keywords: [0, 0.5, 1],
  positionDecay: [0.1, 0.2, 0.3, 0.5],
  redundancy: [0.1, 0.3, 0.5, 0.8],
  minWords: [5, 6, 8, 10],
  maxWords: [40, 60, 80],
  questionFactor: [0.5, 0.75, 1],
  phrases: [0, 0.25, 0.5, 0.75, 1],
};
const passes = Number(process.argv[2] ?? 1);

let best: SummaryOptions = { ...DEFAULT_SUMMARY_OPTIONS };
let bestScore = score(best);
process.stdout.write(`start ${JSON.stringify(best)} ${JSON.stringify(bestScore)}\n`);
for (let pass = 0; pass < passes; pass++) {
  for (const [key, values] of Object.entries(grid) as [keyof SummaryOptions, number[]][]) {
    for (const value of values) {
      if (best[key] === value) continue;
      const candidate = { ...best, [key]: value };
      const s = score(candidate);
      if (s.objective > bestScore.objective + 1e-6) {
        best = candidate;
        bestScore = s;
        process.stdout.write(`  ${key}=${value} ${JSON.stringify(s)}\n`);
      }
    }
  }
}
process.stdout.write(`best ${JSON.stringify(best)} ${JSON.stringify(bestScore)}\n`);
