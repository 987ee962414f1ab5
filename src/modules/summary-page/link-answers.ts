import type { FastifyReply, FastifyRequest } from "fastify";
import { DomainError } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { countRequestNow } from "../../http/rate-limit.ts";
import { setPageSecurityHeaders, styleNonce } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import { renderLinkProblemPage } from "../../pages/render-error-page.ts";
import {
  SummaryLinkGone,
  type ExperiencesService,
  type OpenLink,
} from "../experiences/experiences.service.ts";

// How everything under /s/ opens its link and answers in the form asked for: the link is opened first, by
// the links scope's hook, so that every address under an unknown, expired or revoked link answers as the
// link does (docs/PAGES.md, The link).

declare module "fastify" {
  interface FastifyRequest {
    /** The link a request under /s/ names, opened before anything else reads the request (`openedLink`). */
    summaryLink: OpenLink | null;
  }
  interface FastifyContextConfig {
    /** The form a route under /s/ answers a link problem in; by default `{"message"}` JSON, as the API's errors. */
    linkProblemFormat?: (request: FastifyRequest) => Format;
  }
}

export type DataFormat = "json" | "md" | "txt";
export type Format = "html" | DataFormat;

/** The content type of each data form. */
export const DATA_TYPES: Record<DataFormat, string> = {
  json: "application/json; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  txt: "text/plain; charset=utf-8",
};

/** One answer under /s/ in its data forms, each made only when it is the one asked for. */
interface DataAnswer {
  status: number;
  frameAncestors: string[];
  json(): unknown;
  markdown(): string;
  text(): string;
}

/** A data answer that is also a page. */
interface PageAnswer extends DataAnswer {
  html(styleNonce: string): string;
}

/** `TOKEN`, `TOKEN.json`, `TOKEN.md` or `TOKEN.txt`, and the format asked for by suffix or Accept. */
export function parseLinkPath(link: string, accept: string | undefined): { token: string; format: Format } {
  const match = /^(.*?)(?:\.(json|md|txt))?$/.exec(link);
  const token = match?.[1] ?? link;
  const suffix = match?.[2] as DataFormat | undefined;
  if (suffix) return { token, format: suffix };
  const wants = (accept ?? "").toLowerCase();
  if (wants.includes("text/html") || wants === "") return { token, format: "html" };
  if (wants.includes("application/json")) return { token, format: "json" };
  if (wants.includes("text/markdown")) return { token, format: "md" };
  return { token, format: "html" };
}

export function sendData(reply: FastifyReply, format: DataFormat, answer: DataAnswer): FastifyReply {
  reply.status(answer.status);
  setPageSecurityHeaders(reply, { frameAncestors: answer.frameAncestors });
  if (format === "json") return reply.type(DATA_TYPES.json).send(answer.json());
  if (format === "md") return reply.type(DATA_TYPES.md).send(answer.markdown());
  return reply.type(DATA_TYPES.txt).send(answer.text());
}

export function send(reply: FastifyReply, format: Format, answer: PageAnswer): FastifyReply {
  if (format !== "html") return sendData(reply, format, answer);
  const nonce = styleNonce();
  reply.status(answer.status);
  setPageSecurityHeaders(reply, { styleNonce: nonce, frameAncestors: answer.frameAncestors });
  return reply.type("text/html; charset=utf-8").send(answer.html(nonce));
}

/** An answer that is only a message. */
export function messageAnswer(status: number, message: string, frameAncestors: string[]): DataAnswer {
  return {
    status,
    frameAncestors,
    json: () => ({ message }),
    markdown: () => `${message}\n`,
    text: () => `${message}\n`,
  };
}

/**
 * The answer for a link that opens nothing (expired, revoked, unknown, wrong host, conversation gone), at
 * the status the error table gives its code, or null for any other error. It says nothing about any
 * conversation, and nothing may frame it.
 */
export function linkProblem(error: unknown): PageAnswer | null {
  const gone = error instanceof SummaryLinkGone;
  if (!gone && !(error instanceof DomainError && error.code === "not_found")) return null;
  const message = gone ? error.message : "Summary link not found";
  return {
    ...messageAnswer(statusOf(error), message, []),
    html: (nonce) => renderLinkProblemPage(gone ? error.reason : "not_found", nonce),
  };
}

/** The link a request under /s/ names: the first path segment after /s/, without a data form's suffix. */
function tokenOf(request: FastifyRequest): string {
  const params = request.params as { link?: string; token?: string };
  return params.token ?? parseLinkPath(params.link ?? "", undefined).token;
}

/** The link the scope's hook opened for this request. */
export function openedLink(request: FastifyRequest): OpenLink {
  if (request.summaryLink === null) throw new Error("The request's summary link was not opened");
  return request.summaryLink;
}

/**
 * Opens the link of every request in `links` before its body is parsed or anything in it is validated, and
 * answers a link that opens nothing at once, in the form the route gives (`linkProblemFormat`) or, without
 * one, as JSON. The request is counted against the address's rate limit first, so guessing links is
 * limited as before.
 */
export function openLinkFirst(links: Server, experiences: Pick<ExperiencesService, "openLink">): void {
  const countRequest = countRequestNow(links);
  links.decorateRequest("summaryLink", null);
  links.addHook("onRequest", async (request, reply) => {
    await countRequest(request, reply);
    try {
      request.summaryLink = await experiences.openLink(tokenOf(request), request.host);
    } catch (error) {
      const problem = linkProblem(error);
      if (!problem) throw error;
      const formatOf = request.routeOptions.config.linkProblemFormat;
      // The page's form follows Accept.
      reply.header("vary", "Accept");
      return send(reply, formatOf ? formatOf(request) : "json", problem);
    }
  });
}
