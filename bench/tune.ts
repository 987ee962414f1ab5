/**
 * Tunes the summary's budget, redundancy penalty and sentence length limits on QMSum train by
 * coordinate descent (one setting at a time over a small grid), maximising mean (ROUGE-1 + ROUGE-2 +
 * ROUGE-L) / 3 of the whole summary (overview line, outcomes and attributed sentences), and reports
 * the same figures of the sentences alone (no overview line, no "Speaker: " labels) beside it, for
 * the settings found and for the summary without its statement rule and outcomes. The sentence
 * scorer's weights are learned by bench/train-summary.ts, which runs first. Never reads val.
 *
 * Usage: node --import tsx bench/tune.ts [passes]
 */
import { prepareSentences, speakersOf } from "../src/analysis/analyze.ts";
import { DEFAULT_SEGMENTATION_OPTIONS } from "../src/analysis/segmentation.ts";
import { findInsights } from "../src/analysis/insights.ts";
import { DEFAULT_SUMMARY_OPTIONS, summaryParts, type SummaryOptions } from "../src/analysis/summary.ts";
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
    insights: findInsights(m.input, sentences),
    reference: m.referenceSummary,
  };
});

interface Score {
  objective: number;
  r1: number;
  r2: number;
  rl: number;
}

/** Mean ROUGE on train of the whole summary, or (`sentencesOnly`) of its outcomes and quotes without labels. */
function score(options: SummaryOptions, sentencesOnly = false): Score {
  let r1 = 0;
  let r2 = 0;
  let rl = 0;
  for (const { input, sentences, topics, insights, reference } of meetings) {
    const parts = summaryParts(input, sentences, topics, insights, options);
    const texts = sentencesOnly
      ? [...parts.outcomes, ...parts.quotes].map((item) => item.text)
      : [
          parts.overview?.text ?? "",
          ...parts.outcomes.map((item) => item.text),
          ...parts.quotes.map((q) => (q.speaker === "" ? q.text : `${q.speaker}: ${q.text}`)),
        ];
    const s = rouge(texts.join(" "), reference);
    r1 += s.rouge1;
    r2 += s.rouge2;
    rl += s.rougeL;
  }
  const n = meetings.length;
  return { objective: (r1 + r2 + rl) / 3 / n, r1: r1 / n, r2: r2 / n, rl: rl / n };
}

const figures = (s: Score): string =>
  [s.objective, s.r1, s.r2, s.rl].map((value) => (value * 100).toFixed(2)).join(" / ");
const report = (label: string, options: SummaryOptions): void => {
  process.stdout.write(
    `${label}: objective / R1 / R2 / RL  whole ${figures(score(options))}  sentences alone ${figures(score(options, true))}\n`,
  );
};

// The outcomes are not tuned: leading with them is what the summary is for, and ROUGE against QMSum's
// abstracts prefers none; their cost is reported above.
type NumericSetting = "wordBudget" | "redundancy" | "minWords" | "maxWords";
const grid: Record<NumericSetting, number[]> = {
  wordBudget: [55, 60, 65, 70, 75, 80, 90, 110, 150],
  redundancy: [0, 0.2, 0.4, 0.6, 0.8, 1],
  minWords: [5, 6, 8, 10],
  maxWords: [40, 60, 80],
};
const passes = Number(process.argv[2] ?? 1);

report("without statement rule or outcomes", {
  ...DEFAULT_SUMMARY_OPTIONS,
  statementsOnly: false,
  maxOutcomes: 0,
});
report("statement rule, no outcomes", { ...DEFAULT_SUMMARY_OPTIONS, maxOutcomes: 0 });
report("defaults", DEFAULT_SUMMARY_OPTIONS);

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
