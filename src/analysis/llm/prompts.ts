import type { AnalysisInput, AnalysisMessage, AnalysisResult, InsightItem, SummaryItem } from "../types.ts";

/**
 * Characters per token, the usual estimate for English with the tokenizers of common models. It only sizes
 * the parts a meeting is cut into; a model whose tokenizer is less efficient needs a smaller budget.
 */
const CHARS_PER_TOKEN = 4;

/** One request's share of the meeting: its transcript lines and the ids it may cite. */
export interface TranscriptPart {
  lines: string[];
  /** The ids of its messages, in order. */
  messageIds: string[];
}

/** A chapter (a local topic of kind "chapter") as the model sees it: an id for its answer and its lines. */
export interface ChapterRef {
  id: string;
  /** Index in the local result's topics. */
  topicIndex: number;
  messageIds: Set<string>;
}

/** An action item the local rules found, for the model's verdict. */
export interface CandidateRef {
  id: string;
  /** Index in the local result's insights. */
  insightIndex: number;
  insight: InsightItem;
}

/** Characters of transcript one request may carry: half the context, the rest is instructions and answer. */
export function transcriptBudget(contextTokens: number): number {
  return Math.floor(contextTokens / 2) * CHARS_PER_TOKEN;
}

function lineOf(message: Pick<AnalysisMessage, "id" | "speakerName" | "text">, budget: number): string {
  // One line per message, whatever the text or the name holds (a newline would start a false line).
  const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
  const line = `[${message.id}] ${oneLine(message.speakerName ?? "") || "Unknown speaker"}: ${oneLine(message.text)}`;
  return line.length <= budget ? line : `${line.slice(0, Math.max(0, budget - 1))}…`;
}

/**
 * Cuts the transcript into consecutive parts of at most `budget` characters, at message boundaries; a
 * single message longer than the budget is cut short. Each line reads `[message id] speaker: text`.
 */
export function splitTranscript(messages: AnalysisMessage[], budget: number): TranscriptPart[] {
  const parts: TranscriptPart[] = [];
  let current: TranscriptPart = { lines: [], messageIds: [] };
  let size = 0;
  for (const message of messages) {
    const line = lineOf(message, budget);
    if (current.lines.length > 0 && size + line.length + 1 > budget) {
      parts.push(current);
      current = { lines: [], messageIds: [] };
      size = 0;
    }
    current.lines.push(line);
    current.messageIds.push(message.id);
    size += line.length + 1;
  }
  if (current.lines.length > 0) parts.push(current);
  return parts;
}

/** The local chapters and action-item candidates, each with the id the model's answer names it by. */
export function refsOf(local: AnalysisResult): { chapters: ChapterRef[]; candidates: CandidateRef[] } {
  const chapters: ChapterRef[] = [];
  local.topics.forEach((topic, topicIndex) => {
    if (topic.kind === "chapter") {
      chapters.push({ id: `C${chapters.length + 1}`, topicIndex, messageIds: new Set(topic.messageIds) });
    }
  });
  const candidates: CandidateRef[] = [];
  local.insights.forEach((insight, insightIndex) => {
    if (insight.type === "action_item") {
      candidates.push({ id: `A${candidates.length + 1}`, insightIndex, insight });
    }
  });
  return { chapters, candidates };
}

export const PART_INSTRUCTIONS = `You help write the record of a meeting from its transcript. Answer with JSON that matches the schema, nothing else.
Each transcript line reads "[message id] speaker: text". Cite lines only by ids that appear in square brackets in the transcript you are given, copied exactly; never invent one.
- summary: at most 6 sentences, in the third person and the past tense ("The team decided …", "Ann asked Bob to …"), saying what this part of the meeting discussed, decided and left to do. No quotations, no filler. Each sentence lists in messageIds the ids of the lines it rests on.
- decisions: each decision this part of the meeting took, at most 4, as one sentence in the past tense that states what was decided ("The team chose a rubber case for the remote."); none when nothing was settled. Proposals, questions and opinions nobody agreed to are not decisions. Each lists in messageIds the ids of the lines where it was proposed and agreed.
- chapters: for each chapter listed, a title of two to six words naming its subject (a noun phrase, never a speaker's name or a form of address), using words said in that chapter's lines, with messageIds taken from that chapter's lines.
- actionItems: for each candidate listed, isTask says whether it is a task someone is to do after the meeting; opinions, requirements of the thing being designed, questions asking for information and the meeting's own procedure are not. assignee: who is to do it, by name as the transcript writes it, or null; dueBy: the due date as YYYY-MM-DD when one is stated, or null; text: the task as one short sentence ("Carol will ask finance for the tax tables by Thursday."); messageIds: the candidate's line and any line that settles who or when.`;

export const COMBINE_INSTRUCTIONS = `You write the summary of a meeting from the summaries of its consecutive parts. Answer with JSON that matches the schema, nothing else.
Write at most 8 sentences in the third person and the past tense, covering the whole meeting in order: its purpose, what was discussed and decided, and what is left to do. Each sentence lists in messageIds the message ids, copied exactly, of the part sentences it rests on; never invent one.`;

function meetingDate(input: AnalysisInput): string {
  const start = new Date(input.conversationStartTime);
  const weekday = start.toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
  return `The meeting started on ${weekday} ${start.toISOString().slice(0, 10)}.`;
}

/** The user message asking about one part: the date (for due dates), the lines, its chapters and candidates. */
export function partPrompt(
  input: AnalysisInput,
  part: TranscriptPart,
  position: { index: number; count: number },
  chapters: ChapterRef[],
  candidates: CandidateRef[],
): string {
  const chapterLines = chapters.flatMap((chapter) => {
    const ids = part.messageIds.filter((id) => chapter.messageIds.has(id));
    return ids.length === 0 ? [] : [`${chapter.id}: [${ids[0]}] to [${ids.at(-1)}]`];
  });
  const candidateLines = candidates.map(
    ({ id, insight }) => `${id}: [${insight.messageIds.join(", ")}] ${insight.text.replace(/\s+/g, " ")}`,
  );
  return [
    meetingDate(input),
    "",
    `Transcript, part ${position.index} of ${position.count}:`,
    ...part.lines,
    "",
    "Chapters to title (id: their first and last line in this part):",
    ...(chapterLines.length > 0 ? chapterLines : ["(none)"]),
    "",
    "Candidate action items (id: [message ids] text):",
    ...(candidateLines.length > 0 ? candidateLines : ["(none)"]),
  ].join("\n");
}

/** The user message asking for one summary of the parts' summaries. */
export function combinePrompt(statements: SummaryItem[]): string {
  return [
    "Summaries of the meeting's parts, in order (message ids, then the sentence):",
    ...statements.map((item) => `[${item.messageIds.join(", ")}] ${item.text}`),
  ].join("\n");
}

/** Statements grouped so that each group's prompt fits the budget (a very long meeting is combined in rounds). */
export function groupForBudget(statements: SummaryItem[], budget: number): SummaryItem[][] {
  const groups: SummaryItem[][] = [];
  let current: SummaryItem[] = [];
  let size = 0;
  for (const statement of statements) {
    const length = statement.text.length + statement.messageIds.join(", ").length + 4;
    if (current.length > 0 && size + length > budget) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(statement);
    size += length;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Lines a question is answered from: a stretch of one conversation around a line that matched it. */
export interface QuestionExcerpt {
  conversation: { name: string; startTime: string };
  lines: { id: string; speakerName: string | null; text: string }[];
}

export const QUESTION_INSTRUCTIONS = `You answer a question about meetings from excerpts of their transcripts. Answer with JSON that matches the schema, nothing else.
Each transcript line reads "[message id] speaker: text". Answer in at most 4 short sentences, using only what the lines say. Each sentence lists in messageIds the ids of the lines it rests on, copied exactly from the square brackets; never invent one. When the excerpts do not answer the question, give an empty answer.`;

/**
 * The user message asking a question: the excerpts, each under its meeting's name and date, in at most `budget`
 * characters (the first excerpts, which are the best matches, are kept whole; a later one that does not fit is
 * left out), and the question. Returns the prompt and the ids of the lines it shows.
 */
export function questionPrompt(
  question: string,
  excerpts: QuestionExcerpt[],
  budget: number,
): { prompt: string; messageIds: string[] } {
  const blocks: string[] = [];
  const messageIds: string[] = [];
  let size = 0;
  for (const excerpt of excerpts) {
    const date = excerpt.conversation.startTime.slice(0, 10);
    const lines = excerpt.lines.map((line) => lineOf(line, budget));
    const block = [`Meeting "${excerpt.conversation.name.replace(/\s+/g, " ")}", ${date}:`, ...lines].join(
      "\n",
    );
    if (blocks.length > 0 && size + block.length + 2 > budget) break;
    blocks.push(block);
    messageIds.push(...excerpt.lines.map((line) => line.id));
    size += block.length + 2;
  }
  const asked = `Question: ${question.replace(/\s+/g, " ").trim()}`;
  return { prompt: [...blocks, asked].join("\n\n"), messageIds };
}
