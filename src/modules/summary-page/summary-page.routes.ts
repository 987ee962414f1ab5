import type { FastifyReply } from "fastify";
import { basename, dirname } from "node:path";
import sendFile from "@fastify/send";
import { Type } from "typebox";
import { DomainError } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { setPageSecurityHeaders, styleNonce } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import { captionCues, cuesToSrt, cuesToWebVtt, downloadName, pageToText } from "../../pages/exports.ts";
import { pageToJson, pageToMarkdown } from "../../pages/page-data.ts";
import { renderLinkProblemPage } from "../../pages/render-error-page.ts";
import { renderPage } from "../../pages/render-page.ts";
import { SummaryLinkGone } from "../experiences/experiences.service.ts";
import type { LinkViews } from "../experiences/link-views.ts";
import { safeFontFamily } from "../../pages/theme.ts";
import type { PageView } from "../../pages/view-model.ts";
import { assetRoutes, type AssetRouteDeps } from "./asset.routes.ts";
import { pageEditRoutes, type PageEditRouteDeps } from "./page-edits.routes.ts";
import { preferredEncoding, type MadePage, type PageCache } from "./page-cache.ts";
import type { SummaryPageService, VersionedPage } from "./summary-page.service.ts";

export interface SummaryPageRouteDeps extends PageEditRouteDeps, AssetRouteDeps {
  summaryPage: SummaryPageService;
  pageCache: PageCache;
  linkViews: Pick<LinkViews, "record">;
}

type DataFormat = "json" | "md" | "txt";
type Format = "html" | DataFormat;
type ExportFormat = "md" | "txt" | "vtt" | "srt" | "json";

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

/** What a link's downloads are, and the content type of each. */
const EXPORTS: Record<ExportFormat, string> = {
  md: "text/markdown; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  vtt: "text/vtt; charset=utf-8",
  srt: "application/x-subrip; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** A download's body, or null for captions of a transcript without times. */
function exportOf(view: PageView, format: ExportFormat): string | null {
  if (format === "md") return pageToMarkdown(view);
  if (format === "txt") return pageToText(view);
  if (format === "json") return `${JSON.stringify(pageToJson(view), null, 2)}\n`;
  const cues = captionCues(view);
  if (cues.length === 0) return null;
  return format === "vtt" ? cuesToWebVtt(cues) : cuesToSrt(cues);
}

/** `TOKEN`, `TOKEN.json`, `TOKEN.md` or `TOKEN.txt`, and the format asked for by suffix or Accept. */
function parseLinkPath(link: string, accept: string | undefined): { token: string; format: Format } {
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

function sendData(reply: FastifyReply, format: DataFormat, answer: DataAnswer): FastifyReply {
  reply.status(answer.status);
  setPageSecurityHeaders(reply, { frameAncestors: answer.frameAncestors });
  if (format === "json") return reply.type(EXPORTS.json).send(answer.json());
  if (format === "md") return reply.type(EXPORTS.md).send(answer.markdown());
  return reply.type(EXPORTS.txt).send(answer.text());
}

function send(reply: FastifyReply, format: Format, answer: PageAnswer): FastifyReply {
  if (format !== "html") return sendData(reply, format, answer);
  const nonce = styleNonce();
  reply.status(answer.status);
  setPageSecurityHeaders(reply, { styleNonce: nonce, frameAncestors: answer.frameAncestors });
  return reply.type("text/html; charset=utf-8").send(answer.html(nonce));
}

/** An answer that is only a message. */
function messageAnswer(status: number, message: string, frameAncestors: string[]): DataAnswer {
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
function linkProblem(error: unknown): PageAnswer | null {
  const gone = error instanceof SummaryLinkGone;
  if (!gone && !(error instanceof DomainError && error.code === "not_found")) return null;
  const message = gone ? error.message : "Summary link not found";
  return {
    ...messageAnswer(statusOf(error), message, []),
    html: (nonce) => renderLinkProblemPage(gone ? error.reason : "not_found", nonce),
  };
}

/** Makes the form of the page asked for, from the view read now. */
async function makePage(
  page: VersionedPage,
  format: Format,
  html: {
    font: string | null;
    scriptUrl: string | null;
    stylesheetUrl: string | null;
    selfPath: string;
    verbatim: boolean;
  },
): Promise<MadePage> {
  const view = await page.view();
  if (format === "json") {
    return { contentType: EXPORTS.json, styleNonce: null, body: JSON.stringify(pageToJson(view)) };
  }
  if (format === "md") return { contentType: EXPORTS.md, styleNonce: null, body: pageToMarkdown(view) };
  if (format === "txt") return { contentType: EXPORTS.txt, styleNonce: null, body: pageToText(view) };
  // One nonce per made page: the cached bytes, compressed ones included, carry it (docs/PAGES.md, Compression and caching).
  const nonce = styleNonce();
  const body = renderPage(view, {
    styleNonce: nonce,
    scriptUrl: html.scriptUrl,
    stylesheetUrl: html.stylesheetUrl,
    fontStylesheetUrl: html.font === null ? null : `../assets/fonts/${html.font}`,
    selfPath: html.selfPath,
    verbatim: html.verbatim,
  }).bytes;
  return { contentType: "text/html; charset=utf-8", styleNonce: nonce, body };
}

/** Registers the page's assets and fonts, the page a link opens (HTML, JSON, Markdown or text), its downloads and the edits made through it. */
/** The page's own options: `text=verbatim` shows the transcript as stored instead of cleaned for reading. */
const PageQuery = Type.Object({
  text: Type.Optional(Type.Union([Type.Literal("cleaned"), Type.Literal("verbatim")])),
});

export async function summaryPageRoutes(app: Server, deps: SummaryPageRouteDeps): Promise<void> {
  const { summaryPage, pageAssets, webFonts, pageCache, linkViews } = deps;

  assetRoutes(app, deps);

  // Every answer under /s/ already carries the page headers (app.ts); a page's own CSP replaces them.
  await app.register((scope, _options, registered) => {
    const links = scope as Server;

    links.get(
      "/s/:link",
      { schema: { hide: true, params: Type.Object({ link: Type.String() }), querystring: PageQuery } },
      async (request, reply) => {
        const { token, format } = parseLinkPath(request.params.link, request.headers.accept);
        reply.header("vary", "Accept");
        let page;
        try {
          page = await summaryPage.openVersioned(token, request.host);
        } catch (error) {
          const problem = linkProblem(error);
          if (problem) return send(reply, format, problem);
          throw error;
        }
        const family = format === "html" ? safeFontFamily(page.fontFamily) : null;
        const font = family === null ? null : await webFonts.stylesheetFor(family);
        // A page view is a GET of the HTML page: data forms, HEAD and downloads are not views. Recording
        // only adds to memory; LinkViews writes it after the answer, batched (docs/PAGES.md, View counts).
        if (format === "html" && request.method === "GET") {
          linkViews.record(page.linkId, {
            address: request.ip,
            userAgent: request.headers["user-agent"] ?? "",
          });
        }
        const html = {
          font,
          scriptUrl: pageAssets.urlFromPage("page.js"),
          stylesheetUrl: pageAssets.urlFromPage("page.css"),
          selfPath: token,
          verbatim: request.query.text === "verbatim",
        };
        // Besides the link and its content version, the bytes depend on the format, the font, the assets and
        // the transcript's form.
        const form = [format, font, html.scriptUrl, html.stylesheetUrl, html.verbatim].join(" ");
        const made = await pageCache.get(
          { link: page.linkId, version: page.contentKey, form },
          () => makePage(page, format, html),
          (size) => preferredEncoding(request.headers["accept-encoding"], size),
        );
        setPageSecurityHeaders(reply, {
          ...(made.page.styleNonce !== null && { styleNonce: made.page.styleNonce }),
          frameAncestors: page.frameAncestors,
        });
        reply.header("vary", "Accept, Accept-Encoding").type(made.page.contentType);
        if (made.encoding !== "identity") reply.header("content-encoding", made.encoding);
        return reply.send(made.bytes);
      },
    );

    links.get(
      "/s/:token/export.:format",
      {
        schema: {
          hide: true,
          params: Type.Object({
            token: Type.String(),
            format: Type.Union(Object.keys(EXPORTS).map((format) => Type.Literal(format))),
          }),
        },
      },
      async (request, reply) => {
        const format = request.params.format as ExportFormat;
        // A problem is told in the download's own kind: JSON for JSON, Markdown for Markdown, else text.
        const problemFormat = format === "json" || format === "md" ? format : "txt";
        let page;
        try {
          page = await summaryPage.open(request.params.token, request.host);
        } catch (error) {
          const problem = linkProblem(error);
          if (problem) return sendData(reply, problemFormat, problem);
          throw error;
        }
        const { view, frameAncestors } = page;
        const body = exportOf(view, format);
        if (body === null) {
          const untimed = "This conversation's lines have no times, so it has no captions";
          return sendData(reply, problemFormat, messageAnswer(409, untimed, frameAncestors));
        }
        setPageSecurityHeaders(reply, { frameAncestors });
        return reply
          .type(EXPORTS[format])
          .header("content-disposition", `attachment; filename="${downloadName(view.title, format)}"`)
          .send(body);
      },
    );

    // The stored recording a video or analytics page plays when its link names none (docs/MEDIA.md): only
    // under a live link, with range requests so players can seek.
    links.get(
      "/s/:token/media/:name",
      { schema: { hide: true, params: Type.Object({ token: Type.String(), name: Type.String() }) } },
      async (request, reply) => {
        let recording;
        try {
          recording = await summaryPage.openRecording(request.params.token, request.host);
        } catch (error) {
          const problem = linkProblem(error);
          if (problem) return sendData(reply, "txt", problem);
          throw error;
        }
        const sent = await sendFile(request.raw, basename(recording.file), {
          root: dirname(recording.file),
          acceptRanges: true,
          cacheControl: false,
          etag: true,
          lastModified: true,
        });
        reply.status(sent.statusCode).headers(sent.headers);
        reply.header("cache-control", "private, no-store");
        if (recording.contentType !== null && sent.statusCode < 300) reply.type(recording.contentType);
        return reply.send(sent.stream);
      },
    );

    pageEditRoutes(links, deps);
    registered();
  });
}
