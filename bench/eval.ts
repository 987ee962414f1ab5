/**
 * Quality of the analysis on QMSum, with every baseline computed in the same run:
 * - the whole-meeting summary against the human one: ROUGE-1/2/L F1 (the project's scorer) and stemmed
 *   summary-level ROUGE-Lsum, beside Lead, TextRank and a greedy extractive oracle at the same length;
 *   and the same for the summary's sentences alone (no overview line, no "Speaker: " labels), beside
 *   the summary without its statement rule and outcomes, and the baselines cut to that length;
 * - the topic segmentation against the human topic spans: Pk and WindowDiff, beside one segment and
 *   fixed windows;
 * - decisions against the spans and answers of QMSum's decision queries (bench/eval-decisions.ts);
 * - action items and follow-ups against the hand-labelled gold items (datasets/qmsum/ACTIONS.md), by the
 *   phrasing rules, which learn nothing from train;
 * - questions per meeting, and the analysis time of the largest meeting.
 *
 * Usage: node --import tsx bench/eval.ts [val|train]   (writes bench/results/eval.txt for val,
 * bench/results/eval-<split>.txt otherwise)
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import {
  analyzeConversation,
  prepareSentences,
  speakersOf,
  topicSegmentStarts,
} from "../src/analysis/analyze.ts";
import { DEFAULT_SEGMENTATION_OPTIONS } from "../src/analysis/segmentation.ts";
import { DEFAULT_SUMMARY_OPTIONS, summaryParts, type SummaryParts } from "../src/analysis/summary.ts";
import { findTopics } from "../src/analysis/topics.ts";
import { leadSummary, oracleSummary, textRankSummary } from "./baselines.ts";
import { evaluateActions, reportActions, type ActionRow } from "./eval-actions.ts";
import {
  evaluateDecisions,
  judgeDecisions,
  reportDecisions,
  reportJudged,
  type DecisionRow,
  type JudgedRow,
} from "./eval-decisions.ts";
import { rouge, rougeLsum, rougeSentences, rougeTokens, type RougeScores } from "./metrics/rouge.ts";
import { fixedWindows, pk, standardWindow, startsFromLabels, windowDiff } from "./metrics/segeval.ts";
import { loadSplit, type Meeting } from "./qmsum.ts";
import { median, readWithWink, timeInterleaved } from "./timing.ts";

const SYSTEMS = ["Recap", "Lead", "TextRank", "Oracle"] as const;
type System = (typeof SYSTEMS)[number];
/** The sentences alone: Recap's, Recap's without the statement rule and outcomes ("Before"), the baselines'. */
const ALONE_SYSTEMS = ["Recap", "Before", "Lead", "TextRank", "Oracle"] as const;
type AloneSystem = (typeof ALONE_SYSTEMS)[number];
type Scores = RougeScores & { rougeLsum: number };

/** A summary's sentences without the overview line and the speaker labels: the outcomes, then the quotes. */
const sentencesAlone = (parts: SummaryParts): string[] =>
  [...parts.outcomes, ...parts.quotes].flatMap((item) => rougeSentences(item.text));

interface Row {
  name: string;
  words: number;
  rouge: Record<System, Scores>;
  /** Words of the sentences alone, and their scores. */
  wordsAlone: number;
  alone: Record<AloneSystem, Scores>;
  questions: number;
  segments: number;
  referenceSegments: number;
  /** How many topics people marked (topic_list), which the chapter count is compared with. */
  referenceTopicCount: number;
  pk: { system: number; windowsSame: number; windowsTrain: number; single: number };
  wd: { system: number; windowsSame: number; windowsTrain: number; single: number };
  decisions: DecisionRow[];
  judged: JudgedRow[];
}

/** Mean reference segment length (in messages) over the train split: the fixed-window size baseline. */
function trainSegmentLength(train: readonly Meeting[]): number {
  let turns = 0;
  let segments = 0;
  for (const meeting of train) {
    turns += meeting.referenceTopics.length;
    segments += startsFromLabels(meeting.referenceTopics).length;
  }
  return turns / Math.max(1, segments);
}

function evaluateMeeting(meeting: Meeting, windowLength: number): Row {
  const result = analyzeConversation(meeting.input);
  const sentences = prepareSentences(meeting.input);
  const summarySentences = result.summary.flatMap((s) => rougeSentences(s.text));
  const words = rougeTokens(summarySentences.join(" ")).length;
  const reference = meeting.referenceSummary;
  const referenceSentences = rougeSentences(reference);
  const score = (candidate: string[]): Scores => ({
    ...rouge(candidate.join(" "), reference),
    rougeLsum: rougeLsum(candidate, referenceSentences),
  });

  const topics = findTopics(
    sentences,
    meeting.input.messages.map((m) => m.id),
    speakersOf(meeting.input),
    DEFAULT_SEGMENTATION_OPTIONS,
  );
  const alone = sentencesAlone(summaryParts(meeting.input, sentences, topics, result.insights));
  const before = sentencesAlone(
    summaryParts(meeting.input, sentences, topics, result.insights, {
      ...DEFAULT_SUMMARY_OPTIONS,
      statementsOnly: false,
      maxOutcomes: 0,
    }),
  );
  const wordsAlone = rougeTokens(alone.join(" ")).length;

  const n = meeting.input.messages.length;
  const referenceStarts = startsFromLabels(meeting.referenceTopics);
  const k = standardWindow(referenceStarts, n);
  const system = topicSegmentStarts(meeting.input, undefined, sentences);
  const same = fixedWindows(system.length, n);
  const train = fixedWindows(Math.max(1, Math.round(n / windowLength)), n);
  const single = [0];
  return {
    name: meeting.name,
    words,
    rouge: {
      Recap: score(summarySentences),
      Lead: score(leadSummary(sentences, words)),
      TextRank: score(textRankSummary(sentences, words)),
      Oracle: score(oracleSummary(sentences, words, reference)),
    },
    wordsAlone,
    alone: {
      Recap: score(alone),
      Before: score(before),
      Lead: score(leadSummary(sentences, wordsAlone)),
      TextRank: score(textRankSummary(sentences, wordsAlone)),
      Oracle: score(oracleSummary(sentences, wordsAlone, reference)),
    },
    questions: result.insights.filter((insight) => insight.type === "question").length,
    segments: system.length,
    referenceSegments: referenceStarts.length,
    referenceTopicCount: meeting.referenceTopicCount,
    pk: {
      system: pk(referenceStarts, system, n, k),
      windowsSame: pk(referenceStarts, same, n, k),
      windowsTrain: pk(referenceStarts, train, n, k),
      single: pk(referenceStarts, single, n, k),
    },
    wd: {
      system: windowDiff(referenceStarts, system, n, k),
      windowsSame: windowDiff(referenceStarts, same, n, k),
      windowsTrain: windowDiff(referenceStarts, train, n, k),
      single: windowDiff(referenceStarts, single, n, k),
    },
    decisions: evaluateDecisions(meeting, result),
    judged: judgeDecisions(meeting, result),
  };
}

/** Median analysis time of the split's largest meeting, beside wink-nlp reading the same text in alternation. */
function timeLargest(meetings: readonly Meeting[]): string {
  const largest = meetings.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const nlp = winkNLP(model, ["sbd", "pos"]);
  const text = largest.input.messages.map((m) => m.text).join("\n\n");
  const [baseline, analysis] = timeInterleaved(
    () => readWithWink(nlp, text),
    () => analyzeConversation(largest.input),
    9,
    3,
  );
  const ratio = median(analysis) / median(baseline);
  return (
    `Analysis time of the largest meeting (${largest.name}, ${largest.input.messages.length} turns): ` +
    `${median(analysis).toFixed(0)} ms median of 9 runs; wink-nlp reading the same text (baseline, in ` +
    `alternation) ${median(baseline).toFixed(0)} ms; ratio ${ratio.toFixed(2)}×.`
  );
}

const mean = (values: readonly number[]): number =>
  values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const pct = (value: number): string => (value * 100).toFixed(2).padStart(6);

function report(split: string, rows: readonly Row[], windowLength: number): string[] {
  const lines: string[] = [];
  const m = (pick: (r: Row) => number): number => mean(rows.map(pick));
  lines.push(`Recap analysis quality on QMSum ${split} (${rows.length} meetings)`);
  lines.push(`Generated by: npm run eval -- ${split}   (node --import tsx bench/eval.ts ${split})`);
  lines.push("");
  lines.push("Whole-meeting summary vs the human answer (F1 x100, mean over meetings).");
  lines.push("ROUGE-1/2/L: the project's scorer (lowercase alphanumeric tokens, no stemming, LCS over the");
  lines.push(
    "whole text). ROUGE-Lsum: summary-level LCS over sentences with Porter stemming, as papers report.",
  );
  lines.push(
    `Baselines are cut to the same word count as Recap's summary for each meeting (mean ${m((r) => r.words).toFixed(0)} words).`,
  );
  lines.push("");
  lines.push("| system                 | ROUGE-1 | ROUGE-2 | ROUGE-L | ROUGE-Lsum |");
  lines.push("| ---------------------- | ------- | ------- | ------- | ---------- |");
  const labels: Record<System, string> = {
    Recap: "Recap",
    Lead: "Lead",
    TextRank: "TextRank",
    Oracle: "Oracle (greedy, upper)",
  };
  for (const system of SYSTEMS) {
    const s = (pick: (scores: Row["rouge"][System]) => number) => pct(m((r) => pick(r.rouge[system])));
    lines.push(
      `| ${labels[system].padEnd(22)} | ${s((x) => x.rouge1)}  | ${s((x) => x.rouge2)}  | ${s((x) => x.rougeL)}  | ${s((x) => x.rougeLsum)}     |`,
    );
  }
  lines.push("");
  lines.push(
    `The summary's sentences alone: no overview line, no "Speaker: " labels (mean ${m((r) => r.wordsAlone).toFixed(0)} words);`,
  );
  lines.push("baselines cut to that word count for each meeting.");
  lines.push("");
  lines.push("| sentences alone                          | ROUGE-1 | ROUGE-2 | ROUGE-L | ROUGE-Lsum |");
  lines.push("| ---------------------------------------- | ------- | ------- | ------- | ---------- |");
  const aloneLabels: Record<AloneSystem, string> = {
    Recap: "Recap (outcomes, then statements)",
    Before: "Recap, no statement rule, no outcomes",
    Lead: "Lead",
    TextRank: "TextRank",
    Oracle: "Oracle (greedy, upper)",
  };
  for (const system of ALONE_SYSTEMS) {
    const s = (pick: (scores: Scores) => number) => pct(m((r) => pick(r.alone[system])));
    lines.push(
      `| ${aloneLabels[system].padEnd(40)} | ${s((x) => x.rouge1)}  | ${s((x) => x.rouge2)}  | ${s((x) => x.rougeL)}  | ${s((x) => x.rougeLsum)}     |`,
    );
  }
  const beatsR2 = rows.filter(
    (r) => r.rouge.Recap.rouge2 > Math.max(r.rouge.Lead.rouge2, r.rouge.TextRank.rouge2),
  ).length;
  lines.push("");
  lines.push(`Recap's ROUGE-2 is above both Lead and TextRank on ${beatsR2} of ${rows.length} meetings.`);
  lines.push("");
  lines.push(
    "Topic segmentation vs the human topic spans (over messages; lower is better; mean over meetings).",
  );
  lines.push("k = half the mean reference segment length of each meeting.");
  lines.push(
    `Mean segments: Recap ${m((r) => r.segments).toFixed(1)}, reference ${m((r) => r.referenceSegments).toFixed(1)}; train mean segment length ${windowLength.toFixed(1)} messages.`,
  );
  const countWithinOne = rows.filter((r) => Math.abs(r.segments - r.referenceTopicCount) <= 1).length;
  lines.push(
    `Chapter count within ±1 of the topics people marked (mean ${m((r) => r.referenceTopicCount).toFixed(1)}): ${countWithinOne} of ${rows.length} meetings (${((100 * countWithinOne) / rows.length).toFixed(0)} %); one chapter: ${rows.filter((r) => r.segments === 1).length}.`,
  );
  lines.push("");
  lines.push("| segmentation                               | Pk     | WindowDiff |");
  lines.push("| ------------------------------------------ | ------ | ---------- |");
  for (const [label, key] of [
    ["Recap", "system"],
    ["fixed windows, as many segments as Recap", "windowsSame"],
    ["fixed windows, train mean segment length", "windowsTrain"],
    ["one segment (no boundaries)", "single"],
  ] as const) {
    lines.push(`| ${label.padEnd(42)} | ${pct(m((r) => r.pk[key]))} | ${pct(m((r) => r.wd[key]))}     |`);
  }
  lines.push("");
  const questions = rows.map((r) => r.questions);
  lines.push(
    `Questions per meeting: mean ${mean(questions).toFixed(1)}, most ${Math.max(0, ...questions)}, fewest ${Math.min(...questions)}.`,
  );
  return lines;
}

function perMeeting(rows: readonly Row[]): string[] {
  const lines = [
    "Per meeting: words, ROUGE-2 (Recap / Lead / TextRank / Oracle), Pk (Recap / one segment), questions",
  ];
  for (const r of rows) {
    const r2 = SYSTEMS.map((system) => pct(r.rouge[system].rouge2)).join(" ");
    lines.push(
      `${r.name.padEnd(18)} ${String(r.words).padStart(4)}  R2 ${r2}  Pk ${pct(r.pk.system)} ${pct(r.pk.single)}  Q ${String(r.questions).padStart(2)}`,
    );
  }
  return lines;
}

const split = process.argv[2] ?? "val";
const meetings = loadSplit(split);
const train = split === "train" ? meetings : loadSplit("train");
const windowLength = trainSegmentLength(train);
const rows = meetings.map((meeting) => evaluateMeeting(meeting, windowLength));
const actionRows = (list: readonly Meeting[]): ActionRow[] => list.flatMap(evaluateActions);
const lines = [
  ...report(split, rows, windowLength),
  timeLargest(meetings),
  "",
  ...reportDecisions(
    split,
    rows.flatMap((row) => row.decisions),
    split === "train" ? [] : train.flatMap((meeting) => evaluateDecisions(meeting)),
  ),
  "",
  ...reportJudged(
    split,
    rows.flatMap((row) => row.judged),
  ),
  "",
  ...reportActions(split, actionRows(meetings), split === "train" ? [] : actionRows(train)),
  "",
  ...perMeeting(rows),
];
const text = lines.join("\n") + "\n";
process.stdout.write(text);
const out = resolve(import.meta.dirname, "results", split === "val" ? "eval.txt" : `eval-${split}.txt`);
writeFileSync(out, text);
