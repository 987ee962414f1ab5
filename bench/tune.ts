/**
 * Tunes the summary's budget, redundancy penalty and sentence length limits on QMSum train by
 * coordinate descent (one setting at a time over a small grid), maximising mean (ROUGE-1 + ROUGE-2 +
 * ROUGE-L) / 3 of the whole summary (overview line and attributed sentences). The sentence scorer's
 * weights are learned by bench/train-summary.ts, which runs first. Never reads val.
 *
 * Usage: node --import tsx bench/tune.ts [passes]
 */
import { prepareSentences, speakersOf } from "../src/analysis/analyze.ts";
import { DEFAULT_SEGMENTATION_OPTIONS } from "../src/analysis/segmentation.ts";
import { DEFAULT_SUMMARY_OPTIONS, summaryItems, type SummaryOptions } from "../src/analysis/summary.ts";
import { findTopics } from "../src/analysis/topics.ts";
import { rouge } from "./metrics/rouge.ts";
import { loadSplit } from "./qmsum.ts";

const meetings = loadSplit("train").map((m) => {
  const sentences = prepareSentences(m.input);
  const ids = m.input.messages.map((message) => message.id);
  return {
    input: m.input,
    sentences,
    topics: findTopics(sentences, ids, speakersOf(m.input), DEFAULT_SEGMENTATION_OPTIONS),
    reference: m.referenceSummary,
  };
});

function score(options: SummaryOptions): { objective: number; r1: number; r2: number; rl: number } {
  let r1 = 0;
  let r2 = 0;
  let rl = 0;
  for (const { input, sentences, topics, reference } of meetings) {
    const text = summaryItems(input, sentences, topics, options)
      .map((item) => item.text)
      .join(" ");
    const s = rouge(text, reference);
    r1 += s.rouge1;
    r2 += s.rouge2;
    rl += s.rougeL;
  }
  const n = meetings.length;
  return { objective: (r1 + r2 + rl) / 3 / n, r1: r1 / n, r2: r2 / n, rl: rl / n };
}

type NumericSetting = "wordBudget" | "redundancy" | "minWords" | "maxWords";
const grid: Record<NumericSetting, number[]> = {
  wordBudget: [55, 60, 65, 70, 75, 80, 90, 110, 150],
  redundancy: [0, 0.2, 0.4, 0.6, 0.8, 1],
  minWords: [5, 6, 8, 10],
  maxWords: [40, 60, 80],
};
const passes = Number(process.argv[2] ?? 1);

let best: SummaryOptions = { ...DEFAULT_SUMMARY_OPTIONS };
let bestScore = score(best);
process.stdout.write(
  `start ${JSON.stringify({ ...best, weights: undefined })} ${JSON.stringify(bestScore)}\n`,
);
for (let pass = 0; pass < passes; pass++) {
  for (const [key, values] of Object.entries(grid) as [NumericSetting, number[]][]) {
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
process.stdout.write(
  `best ${JSON.stringify({ ...best, weights: undefined })} ${JSON.stringify(bestScore)}\n`,
);
