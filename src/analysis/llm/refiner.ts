import type { LanguageModelSettings } from "../../config.ts";
import type {
  AnalysisEngines,
  AnalysisInput,
  AnalysisResult,
  InsightItem,
  RefinedAnalysis,
  Refiner,
  SummaryItem,
} from "../types.ts";
import {
  chapterTitles,
  citedDecisions,
  citedStatements,
  citedVerdicts,
  CombinedAnswer,
  PartAnswer,
  readCombinedAnswer,
  readPartAnswer,
  withTitles,
  withVerdicts,
  type ChapterTitle,
  type PartFields,
  type Statement,
  type Verdict,
} from "./answers.ts";
import { createModelChat } from "./client.ts";
import {
  COMBINE_INSTRUCTIONS,
  combinePrompt,
  groupForBudget,
  PART_INSTRUCTIONS,
  partPrompt,
  refsOf,
  splitTranscript,
  transcriptBudget,
  type TranscriptPart,
} from "./prompts.ts";

type Part = keyof AnalysisEngines;
type Refs = ReturnType<typeof refsOf>;
const PARTS: Part[] = ["summary", "decisions", "chapters", "actionItems"];

/**
 * Which parts the model is asked for and which of those fell back, with the first reason: a part is the
 * model's ("llm") only when it was asked and nothing failed for it.
 */
class Outcome {
  private asked: Record<Part, boolean> = {
    summary: false,
    decisions: false,
    chapters: false,
    actionItems: false,
  };
  private readonly problems = new Map<Part, string>();

  ask(parts: Record<Part, boolean>): void {
    this.asked = parts;
  }
  /** Whether the part (or any part) is asked for and has not failed yet. */
  open(part?: Part): boolean {
    return (part ? [part] : PARTS).some((name) => this.asked[name] && !this.problems.has(name));
  }
  fail(part: Part, reason: string): void {
    if (this.open(part)) this.problems.set(part, reason);
  }
  failAll(reason: string): void {
    for (const part of PARTS) this.fail(part, reason);
  }
  engines(): AnalysisEngines {
    const engine = (part: Part) => (this.open(part) ? "llm" : "local");
    return {
      summary: engine("summary"),
      decisions: engine("decisions"),
      chapters: engine("chapters"),
      actionItems: engine("actionItems"),
    };
  }
  fallbacks(): RefinedAnalysis["fallbacks"] {
    return [...this.problems].map(([part, reason]) => ({ part, reason }));
  }
}

/**
 * A Refiner that asks an OpenAI-compatible chat-completions API (Ollama, llama.cpp's server, vLLM, LM Studio,
 * OpenAI…) through the official `openai` client, with structured output (a JSON schema), for a third-person
 * summary, decisions, chapter titles and a verdict on each candidate action item (docs/LLM.md). A meeting longer than
 * half the context is asked about in parts, one request each, and the parts' summaries are combined in one
 * more request (in rounds if they do not fit one). Each statement must cite message ids the model was shown;
 * a part whose requests fail or answer unusably stays local, and refine() never rejects.
 */
export function createModelRefiner(settings: LanguageModelSettings): Refiner {
  const { complete: ask, failure } = createModelChat(settings);
  const budget = transcriptBudget(settings.contextTokens);

  /** The parts' statements combined into one summary, in rounds when they do not fit one request. */
  async function combine(statements: SummaryItem[]): Promise<SummaryItem[] | string> {
    let current = statements;
    for (let round = 1; round <= 4; round++) {
      const groups = groupForBudget(current, budget);
      const next: SummaryItem[] = [];
      for (const group of groups) {
        const answer = readCombinedAnswer(
          await ask(COMBINE_INSTRUCTIONS, combinePrompt(group), "meeting_summary", CombinedAnswer),
        );
        if (answer === null) return "the combined summary does not match the schema";
        next.push(...citedStatements(answer, new Set(group.flatMap((item) => item.messageIds))));
      }
      if (groups.length <= 1 || next.length === 0) return next;
      current = next;
    }
    return "the parts' summaries did not fit the context after 4 rounds";
  }

  /**
   * One request per part. Each answer field that matches its schema is kept for its part; a field that does
   * not leaves its part local, and a failed request leaves every part still open local and ends the asking.
   */
  async function askEachPart(input: AnalysisInput, parts: TranscriptPart[], refs: Refs, outcome: Outcome) {
    const gathered = {
      statements: [] as SummaryItem[],
      decisions: [] as { part: TranscriptPart; decisions: Statement[] }[],
      titles: [] as { part: TranscriptPart; titles: ChapterTitle[] }[],
      verdicts: [] as { part: TranscriptPart; verdicts: Verdict[] }[],
    };
    for (const [index, part] of parts.entries()) {
      if (!outcome.open()) break;
      const where = `request ${index + 1} of ${parts.length}`;
      const shown = new Set(part.messageIds);
      const prompt = partPrompt(
        input,
        part,
        { index: index + 1, count: parts.length },
        refs.chapters.filter((chapter) => part.messageIds.some((id) => chapter.messageIds.has(id))),
        refs.candidates.filter((candidate) => shown.has(candidate.insight.messageIds[0] ?? "")),
      );
      let fields: PartFields;
      try {
        fields = readPartAnswer(await ask(PART_INSTRUCTIONS, prompt, "meeting_part", PartAnswer));
      } catch (error) {
        outcome.failAll(`${where}: ${await failure(error)}`);
        break;
      }
      if ("problem" in fields.summary) outcome.fail("summary", `${where}: ${fields.summary.problem}`);
      else gathered.statements.push(...citedStatements(fields.summary.value, shown));
      if ("problem" in fields.decisions) outcome.fail("decisions", `${where}: ${fields.decisions.problem}`);
      else gathered.decisions.push({ part, decisions: fields.decisions.value });
      if ("problem" in fields.chapters) outcome.fail("chapters", `${where}: ${fields.chapters.problem}`);
      else gathered.titles.push({ part, titles: fields.chapters.value });
      if ("problem" in fields.actionItems)
        outcome.fail("actionItems", `${where}: ${fields.actionItems.problem}`);
      else gathered.verdicts.push({ part, verdicts: fields.actionItems.value });
    }
    return gathered;
  }

  async function refine(
    input: AnalysisInput,
    local: AnalysisResult,
    outcome: Outcome,
  ): Promise<AnalysisResult> {
    const refs = refsOf(local);
    const parts = splitTranscript(input.messages, budget);
    outcome.ask({
      summary: parts.length > 0,
      decisions: parts.length > 0,
      chapters: parts.length > 0 && refs.chapters.length > 0,
      actionItems: parts.length > 0 && refs.candidates.length > 0,
    });
    const { statements, decisions, titles, verdicts } = await askEachPart(input, parts, refs, outcome);
    let result = local;
    if (outcome.open("summary")) {
      let summary: SummaryItem[] | string = statements;
      if (parts.length > 1 && statements.length > 0) {
        try {
          summary = await combine(statements);
        } catch (error) {
          summary = `combining the summaries: ${await failure(error)}`;
        }
      }
      if (typeof summary === "string") outcome.fail("summary", summary);
      else if (summary.length === 0) outcome.fail("summary", "no sentence cited lines it was shown");
      else result = { ...result, summary };
    }
    if (outcome.open("decisions")) {
      const chosen = citedDecisions(decisions);
      if (chosen.length === 0) outcome.fail("decisions", "no decision cited lines it was shown");
      else result = { ...result, decisions: chosen };
    }
    if (outcome.open("chapters")) {
      const texts = new Map(input.messages.map((message) => [message.id, message.text]));
      const chosen = chapterTitles(titles, refs.chapters, texts);
      if (chosen.size === 0)
        outcome.fail("chapters", "no title cited lines of its chapter and used only words they say");
      else result = { ...result, topics: withTitles(result.topics, chosen) };
    }
    if (outcome.open("actionItems")) {
      const chosen = citedVerdicts(verdicts, refs.candidates);
      if (chosen.size === 0) outcome.fail("actionItems", "no verdict cited its candidate's line");
      else {
        const startTimes = new Map(input.messages.map((message) => [message.id, message.startTime]));
        const saidAt = (insight: InsightItem) =>
          new Date(startTimes.get(insight.messageIds[0] ?? "") ?? input.conversationStartTime);
        result = { ...result, insights: withVerdicts(result.insights, chosen, saidAt) };
      }
    }
    return result;
  }

  return {
    async refine(input: AnalysisInput, local: AnalysisResult): Promise<RefinedAnalysis> {
      const outcome = new Outcome();
      let result = local;
      try {
        result = await refine(input, local, outcome);
      } catch (error) {
        // Not expected: each request's failure is handled where it is made. The local analysis is stored still.
        outcome.failAll(`unexpected: ${await failure(error)}`);
      }
      const engines = outcome.engines();
      return {
        result: {
          languageCode: local.languageCode,
          summary: engines.summary === "llm" ? result.summary : local.summary,
          decisions: engines.decisions === "llm" ? result.decisions : local.decisions,
          topics: engines.chapters === "llm" ? result.topics : local.topics,
          insights: engines.actionItems === "llm" ? result.insights : local.insights,
        },
        engines,
        fallbacks: outcome.fallbacks(),
      };
    },
  };
}
