import type { LanguageModelSettings } from "../../config.ts";
import type { SummaryItem } from "../types.ts";
import { citedStatements, QuestionAnswer, readQuestionAnswer } from "./answers.ts";
import { createModelChat } from "./client.ts";
import { QUESTION_INSTRUCTIONS, questionPrompt, transcriptBudget, type QuestionExcerpt } from "./prompts.ts";

/** The model could not be asked, or its answer could not be read: `message` says why, for the caller. */
export class ModelFailed extends Error {}

/** Answers a question from excerpts of conversations with the configured model (docs/SEARCH.md, Ask). */
export interface QuestionAnswerer {
  /**
   * The answer's sentences that cite only lines the model was shown (citedStatements, as the summary's are);
   * none when the model found no answer or cited nothing it was shown. Throws ModelFailed.
   */
  answer(question: string, excerpts: QuestionExcerpt[]): Promise<SummaryItem[]>;
}

/** A QuestionAnswerer on the OpenAI-compatible API of docs/LLM.md, with half its context for the excerpts. */
export function createQuestionAnswerer(settings: LanguageModelSettings): QuestionAnswerer {
  const chat = createModelChat(settings);
  const budget = transcriptBudget(settings.contextTokens);
  return {
    async answer(question, excerpts) {
      const { prompt, messageIds } = questionPrompt(question, excerpts, budget);
      let answer: unknown;
      try {
        answer = await chat.complete(QUESTION_INSTRUCTIONS, prompt, "question_answer", QuestionAnswer);
      } catch (error) {
        throw new ModelFailed(await chat.failure(error));
      }
      const sentences = readQuestionAnswer(answer);
      if (sentences === null) throw new ModelFailed('its "answer" does not match the schema');
      return citedStatements(sentences, new Set(messageIds));
    },
  };
}
