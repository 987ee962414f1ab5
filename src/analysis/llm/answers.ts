import { Type, type Static, type TSchema } from "typebox";
import { Value } from "typebox/value";
import { dueByOfDay } from "../due-by.ts";
import { TITLE_FRAMING_WORDS } from "../lexicon.ts";
import { stemOf } from "../stem.ts";
import type { DecisionItem, InsightItem, SummaryItem, TopicItem } from "../types.ts";
import type { CandidateRef, ChapterRef, TranscriptPart } from "./prompts.ts";

// Strict structured output (OpenAI's `strict: true`) wants every property required and no other property.
const closed = { additionalProperties: false } as const;
const MessageIds = Type.Array(Type.String());
const Statement = Type.Object({ text: Type.String(), messageIds: MessageIds }, closed);
const ChapterTitle = Type.Object(
  { chapter: Type.String(), title: Type.String(), messageIds: MessageIds },
  closed,
);
const Verdict = Type.Object(
  {
    candidate: Type.String(),
    isTask: Type.Boolean(),
    assignee: Type.Union([Type.String(), Type.Null()]),
    dueBy: Type.Union([Type.String(), Type.Null()]),
    text: Type.String(),
    messageIds: MessageIds,
  },
  closed,
);
const PART_FIELDS = {
  summary: Type.Array(Statement),
  decisions: Type.Array(Statement),
  chapters: Type.Array(ChapterTitle),
  actionItems: Type.Array(Verdict),
};

/** The answer about one part of the meeting (`response_format` json_schema). */
export const PartAnswer = Type.Object(PART_FIELDS, closed);
/** The answer combining the parts' summaries. */
export const CombinedAnswer = Type.Object({ summary: PART_FIELDS.summary }, closed);

export type Statement = Static<typeof Statement>;
export type ChapterTitle = Static<typeof ChapterTitle>;
export type Verdict = Static<typeof Verdict>;

/** Each field of a part's answer, or why it cannot be used; a field can fail while the others hold. */
export type PartFields = {
  [K in keyof typeof PART_FIELDS]: { value: Static<(typeof PART_FIELDS)[K]> } | { problem: string };
};

function fieldOf<S extends TSchema>(
  answer: Record<string, unknown>,
  key: string,
  schema: S,
): { value: Static<S> } | { problem: string } {
  const value = answer[key];
  return Value.Check(schema, value) ? { value } : { problem: `its "${key}" does not match the schema` };
}

/**
 * The JSON in an answer's content; a server that does not enforce the schema may wrap it in a Markdown code
 * fence, which is taken off. Throws a SyntaxError when it is not JSON.
 */
export function parseContent(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(content);
  return JSON.parse(fenced?.[1] ?? content);
}

/** Reads a part's answer field by field, so that a schema mismatch in one keeps the others. */
export function readPartAnswer(answer: unknown): PartFields {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    const problem = { problem: "the answer is not a JSON object" };
    return { summary: problem, decisions: problem, chapters: problem, actionItems: problem };
  }
  const fields = answer as Record<string, unknown>;
  return {
    summary: fieldOf(fields, "summary", PART_FIELDS.summary),
    decisions: fieldOf(fields, "decisions", PART_FIELDS.decisions),
    chapters: fieldOf(fields, "chapters", PART_FIELDS.chapters),
    actionItems: fieldOf(fields, "actionItems", PART_FIELDS.actionItems),
  };
}

/** The combined summary, or null when the answer does not match its schema. */
export function readCombinedAnswer(answer: unknown): Statement[] | null {
  return Value.Check(CombinedAnswer, answer) ? answer.summary : null;
}

const tidy = (text: string) => text.replace(/\s+/g, " ").trim();
const citesOnly = (messageIds: string[], allowed: Set<string>) =>
  messageIds.length > 0 && messageIds.every((id) => allowed.has(id));

/**
 * The model's statements that cite at least one message and only messages it was shown (`allowed`); a
 * statement that cites none, or an id it was not shown, is dropped, as is an empty or overlong one.
 */
export function citedStatements(statements: Statement[], allowed: Set<string>): SummaryItem[] {
  return statements
    .map((statement) => ({ text: tidy(statement.text), messageIds: [...new Set(statement.messageIds)] }))
    .filter(
      (item) => item.text.length > 0 && item.text.length <= 1000 && citesOnly(item.messageIds, allowed),
    );
}

/** At most this many decisions a part: a part of a meeting seldom settles more, and the local analysis keeps 8 a meeting. */
export const DECISIONS_A_PART = 4;

/**
 * The decisions the model proposed for each part, in conversation order: each must cite at least one line and
 * only lines of the part it was shown (as a summary sentence must, citedStatements); at most DECISIONS_A_PART
 * a part, the first ones it gave.
 */
export function citedDecisions(answers: { part: TranscriptPart; decisions: Statement[] }[]): DecisionItem[] {
  return answers.flatMap(({ part, decisions }) => {
    const position = new Map(part.messageIds.map((id, index) => [id, index]));
    const first = (item: DecisionItem) => Math.min(...item.messageIds.map((id) => position.get(id) ?? 0));
    return citedStatements(decisions, new Set(part.messageIds))
      .slice(0, DECISIONS_A_PART)
      .sort((a, b) => first(a) - first(b));
  });
}

/** Lowercased words and numbers of any script ("Q3", "São"); an apostrophe or hyphen splits a word. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/**
 * Whether a title says only what the lines say: it has at least one word that is not framing
 * (TITLE_FRAMING_WORDS), and each such word appears in the lines, compared by stem ("Battery costs" is
 * supported by "two batteries cost too much"). A speaker's name in the line prefix does not count.
 */
export function titleSupported(title: string, lines: string[]): boolean {
  const content = wordsOf(title).filter((word) => !TITLE_FRAMING_WORDS.has(word));
  const said = new Set(lines.flatMap(wordsOf).map(stemOf));
  return content.length > 0 && content.every((word) => said.has(stemOf(word)));
}

/**
 * A title for each chapter the model titled with evidence: cited lines all in that chapter and in the part
 * the model was shown, and every content word of the title in the text of those of the chapter's lines
 * (`texts`, by message id) that the part holds (titleSupported). A chapter seen in several parts takes the
 * title from the part holding most of it.
 */
export function chapterTitles(
  answers: { part: TranscriptPart; titles: ChapterTitle[] }[],
  chapters: ChapterRef[],
  texts: ReadonlyMap<string, string>,
): Map<number, string> {
  const best = new Map<number, { title: string; lines: number }>();
  for (const { part, titles } of answers) {
    const shown = new Set(part.messageIds);
    for (const answer of titles) {
      const chapter = chapters.find((c) => c.id === answer.chapter);
      const title = tidy(answer.title);
      if (!chapter || title.length === 0 || title.length > 80) continue;
      const allowed = new Set([...chapter.messageIds].filter((id) => shown.has(id)));
      if (!citesOnly(answer.messageIds, allowed)) continue;
      const lines = [...allowed].map((id) => texts.get(id) ?? "");
      if (!titleSupported(title, lines)) continue;
      const previous = best.get(chapter.topicIndex);
      if (!previous || allowed.size > previous.lines)
        best.set(chapter.topicIndex, { title, lines: allowed.size });
    }
  }
  return new Map([...best].map(([index, { title }]) => [index, title]));
}

/**
 * The verdict on each candidate that cites lines of the part it was shown in, one of them the candidate's
 * own; a verdict without that evidence is dropped and its candidate stays as found.
 */
export function citedVerdicts(
  answers: { part: TranscriptPart; verdicts: Verdict[] }[],
  candidates: CandidateRef[],
): Map<number, Verdict> {
  const verdicts = new Map<number, Verdict>();
  for (const { part, verdicts: given } of answers) {
    const shown = new Set(part.messageIds);
    for (const verdict of given) {
      const candidate = candidates.find((c) => c.id === verdict.candidate);
      if (!candidate || verdicts.has(candidate.insightIndex)) continue;
      if (!citesOnly(verdict.messageIds, shown)) continue;
      if (!verdict.messageIds.some((id) => candidate.insight.messageIds.includes(id))) continue;
      verdicts.set(candidate.insightIndex, verdict);
    }
  }
  return verdicts;
}

/** The topics with the model's chapter titles in place of the local ones. */
export function withTitles(topics: TopicItem[], titles: Map<number, string>): TopicItem[] {
  return topics.map((topic, index) => ({ ...topic, text: titles.get(index) ?? topic.text }));
}

/**
 * A `YYYY-MM-DD` the model gave, as the API's dueBy for a task said at `saidAt` (dueByOfDay: never before
 * it was said); null for anything else or a day already past.
 */
function dueDate(value: string | null, saidAt: Date): string | null {
  if (value === null || !/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return null;
  const date = new Date(`${value.trim()}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value.trim()
    ? null
    : dueByOfDay(value.trim(), saidAt);
}

/**
 * The insights after the model's verdicts: a candidate judged not a task is dropped; one judged a task takes
 * the model's wording, assignee and due date, each only when given (an empty one keeps the local value).
 * A new assignee name is resolved to a member when stored, so the local member link goes with the old name.
 */
export function withVerdicts(
  insights: InsightItem[],
  verdicts: Map<number, Verdict>,
  saidAt: (insight: InsightItem) => Date,
): InsightItem[] {
  return insights.flatMap((insight, index) => {
    const verdict = verdicts.get(index);
    if (!verdict) return [insight];
    if (!verdict.isTask) return [];
    const text = tidy(verdict.text);
    const named = tidy(verdict.assignee ?? "");
    const assignee = named.length > 0 && named.length <= 100 ? named : null;
    const sameAssignee = assignee === null || assignee.toLowerCase() === insight.assigneeName?.toLowerCase();
    return [
      {
        ...insight,
        text: text.length > 0 && text.length <= 300 ? text : insight.text,
        assigneeName: assignee ?? insight.assigneeName,
        assigneeMemberId: sameAssignee ? insight.assigneeMemberId : null,
        dueBy: dueDate(verdict.dueBy, saidAt(insight)) ?? insight.dueBy,
      },
    ];
  });
}

/** The answer to a question about the conversations (`response_format` json_schema). */
export const QuestionAnswer = Type.Object({ answer: Type.Array(Statement) }, closed);

/** The answer's sentences, or null when the answer does not match its schema. */
export function readQuestionAnswer(answer: unknown): Statement[] | null {
  return Value.Check(QuestionAnswer, answer) ? answer.answer : null;
}
