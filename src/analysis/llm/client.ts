import type OpenAI from "openai";
import type { TSchema } from "typebox";
import type { LanguageModelSettings } from "../../config.ts";
import { parseContent } from "./answers.ts";

type OpenAIModule = typeof OpenAI;

/** The model answered, but not with something usable (no content, not JSON). */
class UnusableAnswer extends Error {}

/** Why a request failed, in words for the log (never the key or the transcript). */
function describe(error: unknown, timeoutSeconds: number, OpenAI: OpenAIModule): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return `no answer within ${timeoutSeconds} s`;
  if (error instanceof OpenAI.APIConnectionError) return `could not reach the model (${error.message})`;
  if (error instanceof OpenAI.APIError && error.status !== undefined) return `answered HTTP ${error.status}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The official client for the configured server: one retry, the configured timeout, no logging. */
function clientFor(OpenAI: OpenAIModule, settings: LanguageModelSettings): OpenAI {
  return new OpenAI({
    baseURL: settings.url,
    // The client refuses to start without a key; without one, no Authorization header is sent at all.
    apiKey: settings.apiKey ?? "unused",
    ...(settings.apiKey === null && { defaultHeaders: { Authorization: null } }),
    organization: null,
    project: null,
    timeout: settings.timeoutSeconds * 1000,
    // One retry on a connection error, 408, 409, 429 or 5xx (the client's rule), then the caller falls back.
    maxRetries: 1,
    logLevel: "off",
  });
}

/** Asks the configured model with structured output; what the refiner and the answers to questions share. */
export interface ModelChat {
  /**
   * The JSON the model answered to a system and a user message, asked to match `schema` (not checked here).
   * Rejects on a failed request or an answer without JSON content.
   */
  complete: (instructions: string, prompt: string, name: string, schema: TSchema) => Promise<unknown>;
  /** Why `complete` rejected, in words for a log or a message (never the key or the transcript). */
  failure: (error: unknown) => Promise<string>;
}

/**
 * A chat with an OpenAI-compatible chat-completions API (docs/LLM.md) through the official `openai` client,
 * loaded only here, when a model is configured: without one it costs no memory.
 */
export function createModelChat(settings: LanguageModelSettings): ModelChat {
  const openai = import("openai").then(({ default: OpenAI }) => ({
    OpenAI,
    client: clientFor(OpenAI, settings),
  }));
  return {
    async complete(instructions, prompt, name, schema) {
      const { client } = await openai;
      const completion = await client.chat.completions.create({
        model: settings.model,
        messages: [
          { role: "system", content: instructions },
          { role: "user", content: prompt },
        ],
        response_format: { type: "json_schema", json_schema: { name, strict: true, schema: { ...schema } } },
      });
      // A server that is not OpenAI-compatible may answer 200 with another shape.
      const content = (completion as Partial<typeof completion>).choices?.[0]?.message?.content;
      if (typeof content !== "string" || content.trim() === "")
        throw new UnusableAnswer("the answer is empty");
      try {
        return parseContent(content);
      } catch {
        throw new UnusableAnswer("the answer is not JSON");
      }
    },
    async failure(error) {
      return describe(error, settings.timeoutSeconds, (await openai).OpenAI);
    },
  };
}
