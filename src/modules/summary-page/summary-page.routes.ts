import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import { DomainError } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { setPageSecurityHeaders, styleNonce } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import { pageToJson, pageToMarkdown } from "../../pages/page-data.ts";
import { renderLinkProblemPage } from "../../pages/render-error-page.ts";
import { renderPage } from "../../pages/render-page.ts";
import { SummaryLinkGone } from "../experiences/experiences.service.ts";
import type { PageAssets } from "./page-assets.ts";
import { pageEditRoutes, type PageEditRouteDeps } from "./page-edits.routes.ts";
import type { SummaryPageService } from "./summary-page.service.ts";

export interface SummaryPageRouteDeps extends PageEditRouteDeps {
  summaryPage: SummaryPageService;
  pageAssets: PageAssets;
}

type Format = "html" | "json" | "md";

/** One answer under /s/, each of its three forms made only when it is the one asked for. */
interface PageAnswer {
  status: number;
  frameAncestors: string[];
  json(): unknown;
  markdown(): string;
  html(styleNonce: string): string;
}

/** `TOKEN`, `TOKEN.json` or `TOKEN.md`, and the format asked for by suffix or Accept. */
function parseLinkPath(link: string, accept: string | undefined): { token: string; format: Format } {
  const match = /^(.*?)(?:\.(json|md))?$/.exec(link);
  const token = match?.[1] ?? link;
  const suffix = match?.[2] as "json" | "md" | undefined;
  if (suffix) return { token, format: suffix };
  const wants = (accept ?? "").toLowerCase();
  if (wants.includes("text/html") || wants === "") return { token, format: "html" };
  if (wants.includes("application/json")) return { token, format: "json" };
  if (wants.includes("text/markdown")) return { token, format: "md" };
  return { token, format: "html" };
}

function send(reply: FastifyReply, format: Format, answer: PageAnswer): FastifyReply {
  const { frameAncestors } = answer;
  reply.status(answer.status);
  if (format === "json") {
    setPageSecurityHeaders(reply, { frameAncestors });
    return reply.type("application/json; charset=utf-8").send(answer.json());
  }
  if (format === "md") {
    setPageSecurityHeaders(reply, { frameAncestors });
    return reply.type("text/markdown; charset=utf-8").send(answer.markdown());
  }
  const nonce = styleNonce();
  setPageSecurityHeaders(reply, { styleNonce: nonce, frameAncestors });
  return reply.type("text/html; charset=utf-8").send(answer.html(nonce));
}

/**
 * The answer for a link that opens nothing (expired, revoked, unknown, wrong host, conversation gone), at
 * the status the error table gives its code, or null for any other error. It says nothing about any
 * conversation, and nothing may frame it.
 */
function linkProblem(error: unknown): PageAnswer | null {
  const gone = error instanceof SummaryLinkGone;
  if (!gone && !(error instanceof DomainError && error.code === "not_found")) return null;
  const message = gone ? error.message : "Summary link not found";
  return {
    status: statusOf(error),
    frameAncestors: [],
    json: () => ({ message }),
    markdown: () => `${message}\n`,
    html: (nonce) => renderLinkProblemPage(gone ? error.reason : "not_found", nonce),
  };
}

/** Registers the page's assets, the page a link opens (HTML, JSON or Markdown) and the edits made through it. */
export async function summaryPageRoutes(app: Server, deps: SummaryPageRouteDeps): Promise<void> {
  const { summaryPage, pageAssets } = deps;

  app.get(
    "/assets/:name",
    { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const asset = pageAssets.get(request.params.name);
      if (!asset) return reply.status(404).send({ message: "Asset not found" });
      const versioned = (request.query as Record<string, unknown>).v === asset.version;
      return reply
        .header("content-type", asset.contentType)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", versioned ? "public, max-age=31536000, immutable" : "public, max-age=300")
        .header("etag", `"${asset.version}"`)
        .send(asset.body);
    },
  );

  // Every answer under /s/ already carries the page headers (app.ts); a page's own CSP replaces them.
  await app.register((scope, _options, registered) => {
    const links = scope as Server;

    links.get(
      "/s/:link",
      { schema: { hide: true, params: Type.Object({ link: Type.String() }) } },
      async (request, reply) => {
        const { token, format } = parseLinkPath(request.params.link, request.headers.accept);
        reply.header("vary", "Accept");
        let page;
        try {
          page = await summaryPage.open(token, request.host);
        } catch (error) {
          const problem = linkProblem(error);
          if (problem) return send(reply, format, problem);
          throw error;
        }
        const { view, frameAncestors } = page;
        return send(reply, format, {
          status: 200,
          frameAncestors,
          json: () => pageToJson(view),
          markdown: () => pageToMarkdown(view),
          html: (nonce) =>
            renderPage(view, {
              styleNonce: nonce,
              scriptUrl: pageAssets.urlFromPage("page.js"),
              stylesheetUrl: pageAssets.urlFromPage("page.css"),
              selfPath: token,
            }),
        });
      },
    );

    pageEditRoutes(links, deps);
    registered();
  });
}
