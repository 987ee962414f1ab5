import { ModelFailed, type QuestionAnswerer } from "../../analysis/llm/answerer.ts";
import type { QuestionExcerpt } from "../../analysis/llm/prompts.ts";
import { DomainError } from "../../errors.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { AskAnswer, AskBody } from "./ask.schemas.ts";
import type { Passage, SearchService } from "./search.service.ts";

/** How many of the best matches, each with the lines either side, a question is answered from. */
const PASSAGES = 8;
const LINES_AROUND = 2;

export const NOT_FOUND = "Not found in your conversations.";
export const NO_MODEL =
  "Asking needs a language model: set RECAP_LLM_URL and RECAP_LLM_MODEL to an OpenAI-compatible API and restart (docs/LLM.md). Search works without one.";

/** Excerpts of the passages for the model, each line once (passages of one conversation may overlap). */
function excerptsOf(passages: Passage[]): QuestionExcerpt[] {
  const shown = new Set<string>();
  return passages.flatMap(({ conversation, lines }) => {
    const fresh = lines.filter((line) => !shown.has(line.id));
    for (const line of fresh) shown.add(line.id);
    if (fresh.length === 0) return [];
    const texts = fresh.map(({ id, text, from }) => ({ id, text, speakerName: from.name ?? null }));
    return [{ conversation, lines: texts }];
  });
}

/**
 * Answers a question about an app's conversations from the lines search finds for it, with the configured
 * language model (docs/SEARCH.md, Ask); each sentence of the answer cites lines the model was shown.
 */
export class AskService {
  constructor(
    private readonly deps: {
      search: Pick<SearchService, "passages">;
      conversations: Pick<ConversationsService, "requireVisible">;
      /** null: no model is configured. */
      answerer: QuestionAnswerer | null;
    },
  ) {}

  /**
   * The answer, with the lines it cites; no answer and a message when search finds nothing or no sentence
   * cites a line the model was shown. Throws `conflict` without a model (the 409: the app's setup, not the request, is what is missing), `unavailable` when it fails, `not_found` for
   * a conversation the app cannot see, `invalid` for a question with no word to search for.
   */
  async ask(appId: string, body: AskBody): Promise<AskAnswer> {
    const { answerer } = this.deps;
    if (answerer === null) throw new DomainError("conflict", NO_MODEL);
    for (const id of body.conversationIds ?? []) await this.deps.conversations.requireVisible(appId, id);
    const passages = await this.deps.search.passages(appId, body.question, {
      limit: PASSAGES,
      around: LINES_AROUND,
      ...(body.conversationIds && { conversationIds: body.conversationIds }),
    });
    const excerpts = excerptsOf(passages);
    if (excerpts.length === 0) return { answer: [], sources: [], message: NOT_FOUND };
    let answer;
    try {
      answer = await answerer.answer(body.question.trim(), excerpts);
    } catch (error) {
      if (!(error instanceof ModelFailed)) throw error;
      throw new DomainError("unavailable", `The language model could not answer: ${error.message}`);
    }
    if (answer.length === 0) return { answer: [], sources: [], message: NOT_FOUND };
    const conversationOf = new Map(
      passages.flatMap((passage) => passage.lines.map((line) => [line.id, passage.conversation.id] as const)),
    );
    const cited = [...new Set(answer.flatMap((sentence) => sentence.messageIds))];
    return {
      answer: answer.map(({ text, messageIds }) => ({ text, messageIds })),
      sources: cited.map((messageId) => ({ conversationId: conversationOf.get(messageId) ?? "", messageId })),
    };
  }
}
