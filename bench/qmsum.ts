import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { AnalysisInput, AnalysisResult } from "../src/analysis/types.ts";
import type { Detection, GoldAction } from "./metrics/actions.ts";

/** Where the QMSum splits live: $QMSUM_DIR, else the copy in datasets/qmsum. */
export const QMSUM_DIR = process.env["QMSUM_DIR"] ?? resolve(import.meta.dirname, "../datasets/qmsum");

interface QmsumFile {
  meeting_transcripts: { speaker: string; content: string }[];
  general_query_list: { query: string; answer: string }[];
  specific_query_list: { query: string; answer: string; relevant_text_span: [string, string][] }[];
  topic_list: { topic: string; relevant_text_span: [string, string][] }[];
}

export interface Meeting {
  name: string;
  input: AnalysisInput;
  /** Human answer to the whole-meeting query ("Summarize the whole meeting." or its variant). */
  referenceSummary: string;
  /** Human topic label index of each turn (every turn gets one; see referenceTopicLabels). */
  referenceTopics: number[];
  /** How many topics the people marked (the length of topic_list; a topic may come back, so segments can be more). */
  referenceTopicCount: number;
  bytes: number;
  /** Specific queries about decisions (isDecisionQuery), with their answers and turn spans. */
  decisionQueries: DecisionQuery[];
  /**
   * Turn spans of the meeting's other specific queries whose answer reports an outcome (OUTCOME_ANSWER):
   * decisions the annotators wrote down without being asked about one ("They all agreed that speech
   * recognition could be taken out").
   */
  outcomeSpans: [number, number][];
  /** Hand-labelled action items (datasets/qmsum/<split>/actions/<name>.json), or null when not labelled. */
  goldActions: GoldAction[] | null;
}

/** A QMSum specific query about a decision: its human answer and the turn spans (inclusive) it rests on. */
export interface DecisionQuery {
  query: string;
  answer: string;
  spans: [number, number][];
}

/**
 * A query about what was decided: "Summarize the decision…", "What did the group decide about…", "What was
 * the conclusion…", "What did the team agree…" (not "disagree"). 72 queries in 53 train meetings, 25 in 17
 * val meetings.
 */
export const DECISION_QUERY = /decid|decision|conclu|\bagree/i;

/** An answer that reports what was decided, whatever the query asked. */
export const OUTCOME_ANSWER =
  /\b(?:decided?|decision|agreed|agreement|concluded|conclusion|settled|chose|chosen|opted|went for|go with|would use|will use)\b/i;

const spansOf = (query: QmsumFile["specific_query_list"][number]): [number, number][] =>
  query.relevant_text_span
    .map(([a, b]): [number, number] => [Number(a), Number(b)])
    .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));

function decisionQueries(file: QmsumFile): DecisionQuery[] {
  return file.specific_query_list
    .filter((q) => DECISION_QUERY.test(q.query))
    .map((q) => ({ query: q.query, answer: q.answer, spans: spansOf(q) }));
}

function outcomeSpans(file: QmsumFile): [number, number][] {
  return file.specific_query_list
    .filter((q) => !DECISION_QUERY.test(q.query) && OUTCOME_ANSWER.test(q.answer))
    .flatMap(spansOf);
}

/**
 * One topic per turn from QMSum's spans: spans are applied in order of their start (later starts win
 * where spans overlap); turns outside every span belong to the topic before them (or the first topic).
 */
export function referenceTopicLabels(file: QmsumFile): number[] {
  const n = file.meeting_transcripts.length;
  const labels = new Array<number>(n).fill(-1);
  const spans = file.topic_list
    .flatMap((topic, t) => topic.relevant_text_span.map(([a, b]) => ({ t, a: Number(a), b: Number(b) })))
    .filter((s) => Number.isFinite(s.a) && Number.isFinite(s.b))
    .sort((x, y) => x.a - y.a || x.b - y.b);
  for (const { t, a, b } of spans) for (let i = Math.max(0, a); i <= Math.min(n - 1, b); i++) labels[i] = t;
  const first = labels.find((l) => l >= 0) ?? 0;
  let previous = first;
  return labels.map((l) => {
    if (l >= 0) previous = l;
    return previous;
  });
}

function loadGoldActions(path: string, name: string): GoldAction[] | null {
  const labels = join(dirname(path), "actions", `${name}.json`);
  if (!existsSync(labels)) return null;
  return (JSON.parse(readFileSync(labels, "utf8")) as { items: GoldAction[] }).items;
}

export function loadMeeting(path: string, name: string): Meeting {
  const raw = readFileSync(path, "utf8");
  const file = JSON.parse(raw) as QmsumFile;
  const start = "2024-01-01T09:00:00.000Z";
  const input: AnalysisInput = {
    conversationStartTime: start,
    messages: file.meeting_transcripts.map((turn, i) => ({
      id: String(1_000_000_000_000_000 + i),
      text: turn.content,
      memberId: turn.speaker,
      speakerName: turn.speaker,
      startTime: null,
    })),
  };
  return {
    name,
    input,
    referenceSummary: file.general_query_list[0]?.answer ?? "",
    referenceTopics: referenceTopicLabels(file),
    referenceTopicCount: file.topic_list.length,
    decisionQueries: decisionQueries(file),
    outcomeSpans: outcomeSpans(file),
    bytes: Buffer.byteLength(raw),
    goldActions: loadGoldActions(path, name),
  };
}

/** The action items and follow-ups of an analysis of a meeting, each at the turn (message index) it rests on. */
export function detectedActions(meeting: Meeting, result: AnalysisResult): Detection[] {
  const turnOf = new Map(meeting.input.messages.map((message, i) => [message.id, i]));
  return result.insights.flatMap((insight) => {
    if (insight.type === "question") return [];
    const turn = turnOf.get(insight.messageIds[0] ?? "");
    return turn === undefined ? [] : [{ turn, type: insight.type }];
  });
}

/** QMSum's three kinds of meeting: AMI's product design (ES, IS, TS), ICSI's research groups, and committees. */
export type MeetingKind = "product design" | "research" | "committee";

export const MEETING_KINDS: readonly MeetingKind[] = ["product design", "research", "committee"];

/** A QMSum meeting's kind, from its name: "ES2002a" product design, "Bed003" research, "covid_1" committee. */
export function meetingKind(name: string): MeetingKind {
  if (/^(?:ES|IS|TS)\d/.test(name)) return "product design";
  return /^B[a-z]{2}\d/.test(name) ? "research" : "committee";
}

/** The meetings (or rows named after them) of one kind. */
export const ofKind = <T extends { name: string }>(items: readonly T[], kind: MeetingKind): T[] =>
  items.filter((item) => meetingKind(item.name) === kind);

/** Every meeting of a split ("train" or "val"), sorted by name. */
export function loadSplit(split: string): Meeting[] {
  const dir = join(QMSUM_DIR, split);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => loadMeeting(join(dir, f), f.replace(/\.json$/, "")));
}
