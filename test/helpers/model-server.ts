import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A chat-completions request as the model server received it. */
export interface ModelRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
  };
}

/**
 * How the server answers one request: the assistant message's content (an object is sent as its JSON), an
 * HTTP status with a raw body, and optionally a delay first (for timeouts).
 */
export type ModelReply = { delaySeconds?: number } & (
  { content: unknown } | { status: number; body: string }
);

export interface ModelServer {
  /** The API base to configure as RECAP_LLM_URL (ends in /v1). */
  url: string;
  /** Every request received, in order; tests clear it with `requests.length = 0`. */
  requests: ModelRequest[];
  /** Answers each request; tests replace it. */
  script: (request: ModelRequest) => ModelReply;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible server on a random port (real HTTP, `POST /v1/chat/completions`) that answers by
 * script, for the language-model tests. Anything else is a 404.
 */
export async function startModelServer(): Promise<ModelServer> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
        response.writeHead(404).end();
        return;
      }
      const received: ModelRequest = {
        path: request.url,
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as ModelRequest["body"],
      };
      model.requests.push(received);
      const reply = model.script(received);
      const send = () => {
        if ("status" in reply) {
          response.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
          return;
        }
        const content = typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content);
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: `chatcmpl-${model.requests.length}`,
            object: "chat.completion",
            created: 0,
            model: received.body.model,
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          }),
        );
      };
      if (reply.delaySeconds) setTimeout(send, reply.delaySeconds * 1000).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const model: ModelServer = {
    url: `http://127.0.0.1:${port}/v1`,
    requests: [],
    script: () => ({ status: 500, body: '{"error":{"message":"no script"}}' }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return model;
}

/** What a request showed the model: its transcript lines, chapters and candidate action items. */
export function shownTo(request: ModelRequest) {
  const prompt = request.body.messages.find((message) => message.role === "user")?.content ?? "";
  const lines = [...prompt.matchAll(/^\[(\d+)\] ([^:]+): (.*)$/gm)].map(([, id, speaker, text]) => ({
    id: id ?? "",
    speaker: speaker ?? "",
    text: text ?? "",
  }));
  const chapters = [...prompt.matchAll(/^(C\d+): \[(\d+)\] to \[(\d+)\]$/gm)].map(([, id, first, last]) => ({
    id: id ?? "",
    firstLine: first ?? "",
    lastLine: last ?? "",
  }));
  const candidates = [...prompt.matchAll(/^(A\d+): \[([\d, ]+)\] (.*)$/gm)].map(([, id, ids, text]) => ({
    id: id ?? "",
    messageIds: (ids ?? "").split(", "),
    text: text ?? "",
  }));
  /** In a request combining the parts' summaries: the statements and the ids they cite. */
  const statements = [...prompt.matchAll(/^\[([\d, ]+)\] (.*)$/gm)].map(([, ids, text]) => ({
    messageIds: (ids ?? "").split(", "),
    text: text ?? "",
  }));
  return { prompt, lines, chapters, candidates, statements };
}
