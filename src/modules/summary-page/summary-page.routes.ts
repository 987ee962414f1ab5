import { basename, dirname } from "node:path";
import sendFile from "@fastify/send";
import { setImmediate } from "node:timers/promises";
import type { FastifyReply, FastifyRequest, HTTPMethods } from "fastify";
import { Type } from "typebox";
import { DomainError, notFound } from "../../errors.ts";
import { setPageSecurityHeaders, styleNonce } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import { captionCues, cuesToSrt, cuesToWebVtt, downloadName, pageToText } from "../../pages/exports.ts";
import { pageToJson, pageToMarkdown } from "../../pages/page-data.ts";
import { pageParts, pageSearch, renderPage, renderPagePart } from "../../pages/render-page.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
import type { LinkViews } from "../experiences/link-views.ts";
import { safeFontFamily } from "../../pages/theme.ts";
import type { PageView } from "../../pages/view-model.ts";
import { assetRoutes, type AssetRouteDeps } from "./asset.routes.ts";
import { pageEditRoutes, type PageEditRouteDeps } from "./page-edits.routes.ts";
import {
  DATA_TYPES,
  linkProblem,
  messageAnswer,
  openedLink,
  openLinkFirst,
  parseLinkPath,
  send,
  sendData,
  type DataFormat,
  type Format,
} from "./link-answers.ts";
import { preferredEncoding, type MadePage, type PageCache } from "./page-cache.ts";
import { recordingIndexOf, type SummaryPageService, type VersionedPage } from "./summary-page.service.ts";

export interface SummaryPageRouteDeps extends PageEditRouteDeps, AssetRouteDeps {
  experiences: Pick<ExperiencesService, "openLink">;
  summaryPage: SummaryPageService;
  pageCache: PageCache;
  linkViews: Pick<LinkViews, "record">;
}

type ExportFormat = "md" | "txt" | "vtt" | "srt" | "json";

/** What a link's downloads are, and the content type of each. */
const EXPORTS: Record<ExportFormat, string> = {
  ...DATA_TYPES,
  vtt: "text/vtt; charset=utf-8",
  srt: "application/x-subrip; charset=utf-8",
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
    part: number | null;
  },
): Promise<MadePage> {
  const view = await page.view();
  // The view of a long meeting takes a while to build and its page a while to render: the event loop is
  // let go between the two.
  await setImmediate();
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
    part: html.part,
  }).bytes;
  return { contentType: "text/html; charset=utf-8", styleNonce: nonce, body };
}

const TextMode = Type.Optional(Type.Union([Type.Literal("cleaned"), Type.Literal("verbatim")]));
/** A part of a long transcript, 1-based (transcript-parts.ts). */
const Part = Type.Integer({ minimum: 1, maximum: 1_000_000 });

/**
 * The page's own options: `text=verbatim` shows the transcript as stored instead of cleaned for reading;
 * `part` the part of a long transcript to show (past the last part, the last).
 */
const PageQuery = Type.Object({ text: TextMode, part: Type.Optional(Part) });

/**
 * What the page's script asks for of a long transcript: a part's lines by its number or by one of its lines,
 * in the text mode the page shows, of the lines it counted its parts in (`v`, their signature).
 */
const TranscriptQuery = Type.Object({
  text: TextMode,
  part: Type.Optional(Part),
  line: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  v: Type.String({ maxLength: 200 }),
});

/** Which parts of the transcript mention `q`, in the text mode and of the lines (`v`) the page shows. */
const SearchQuery = Type.Object({
  text: TextMode,
  q: Type.String({ minLength: 1, maxLength: 200 }),
  v: Type.String({ maxLength: 200 }),
});

/** Asked for parts of lines the page was not made of: lines were added or hidden since. */
const CHANGED =
  "The transcript has changed since this page was made (lines were added or hidden), so its parts have moved: load the page again";

/** The form the page route answers in: by the link's suffix, else by Accept. */
const pageFormatOf = (request: FastifyRequest) =>
  parseLinkPath((request.params as { link: string }).link, request.headers.accept).format;

/** A download's problem is told in its own kind: JSON for JSON, Markdown for Markdown, else text. */
const exportProblemFormat = (format: string): DataFormat =>
  format === "json" || format === "md" ? format : "txt";

/** Every method but the page's own GET and HEAD, for the addresses that are no route under a link. */
const OTHER_METHODS: HTTPMethods[] = ["DELETE", "OPTIONS", "PATCH", "POST", "PUT"];

/** Registers the page's assets and fonts, the page a link opens (HTML, JSON, Markdown or text), its downloads and the edits made through it. */
export async function summaryPageRoutes(app: Server, deps: SummaryPageRouteDeps): Promise<void> {
  const { experiences, summaryPage, pageAssets, webFonts, pageCache, linkViews } = deps;

  assetRoutes(app, deps);

  // Every answer under /s/ already carries the page headers (app.ts); a page's own CSP replaces them.
  await app.register((scope, _options, registered) => {
    const links = scope as Server;
    openLinkFirst(links, experiences);

    // An address under a live link that is no route is the app's 404.
    const noRoute = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
    links.route({ method: OTHER_METHODS, url: "/s/:link", schema: { hide: true }, handler: noRoute });
    links.all("/s/:token/*", { schema: { hide: true } }, noRoute);

    links.get(
      "/s/:link",
      {
        schema: { hide: true, params: Type.Object({ link: Type.String() }), querystring: PageQuery },
        config: { linkProblemFormat: (request) => pageFormatOf(request) },
      },
      async (request, reply) => {
        const { token, format } = parseLinkPath(request.params.link, request.headers.accept);
        reply.header("vary", "Accept");
        let page;
        try {
          page = await summaryPage.openVersioned(openedLink(request), token);
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
          part: request.query.part ?? null,
        };
        // Besides the link and its content version, the bytes depend on the format, the font, the assets and
        // the transcript's form and part.
        const part = format === "html" ? html.part : null;
        const form = [format, font, html.scriptUrl, html.stylesheetUrl, html.verbatim, part].join(" ");
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
        config: {
          linkProblemFormat: (request) => exportProblemFormat((request.params as { format: string }).format),
        },
      },
      async (request, reply) => {
        const format = request.params.format as ExportFormat;
        const problemFormat = exportProblemFormat(format);
        let page;
        try {
          page = await summaryPage.open(openedLink(request), request.params.token);
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

    // The stored recordings a video or analytics page plays when its link names none (docs/MEDIA.md), by their
    // place (`recording.…`, `recording-2.…`): only under a live link, with range requests so players can seek.
    links.get(
      "/s/:token/media/:name",
      { schema: { hide: true, params: Type.Object({ token: Type.String(), name: Type.String() }) } },
      async (request, reply) => {
        const index = recordingIndexOf(request.params.name);
        if (index === null) throw notFound("recording");
        const recording = await summaryPage.openRecording(openedLink(request), index);
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

    // A long transcript's parts, as the page's script asks for them (docs/PAGES.md, A very long meeting).
    links.get(
      "/s/:token/transcript",
      { schema: { hide: true, params: Type.Object({ token: Type.String() }), querystring: TranscriptQuery } },
      async (request, reply) => {
        const page = await summaryPage.openVersioned(openedLink(request), request.params.token);
        const view = await page.view();
        const context = {
          selfPath: request.params.token,
          verbatim: request.query.text === "verbatim",
          part: request.query.part ?? null,
        };
        const parts = pageParts(view, context);
        if (request.query.v !== parts.signature) throw new DomainError("conflict", CHANGED);
        const { line } = request.query;
        const part = line === undefined ? context.part : (parts.partOf(line) ?? null);
        if (line !== undefined && part === null) throw notFound(`Line ${line}`);
        if (part === null || part > parts.count) {
          throw new DomainError("not_found", `This transcript has ${parts.count} parts`);
        }
        const made = await pageCache.get(
          { link: page.linkId, version: page.contentKey, form: `transcript ${context.verbatim} ${part}` },
          () =>
            Promise.resolve({
              contentType: "text/html; charset=utf-8",
              styleNonce: null,
              body: renderPagePart(view, { ...context, part }).bytes,
            }),
          (size) => preferredEncoding(request.headers["accept-encoding"], size),
        );
        setPageSecurityHeaders(reply, { frameAncestors: page.frameAncestors });
        reply.header("vary", "Accept-Encoding").type(made.page.contentType);
        if (made.encoding !== "identity") reply.header("content-encoding", made.encoding);
        return reply.send(made.bytes);
      },
    );

    links.get(
      "/s/:token/search",
      { schema: { hide: true, params: Type.Object({ token: Type.String() }), querystring: SearchQuery } },
      async (request, reply) => {
        const page = await summaryPage.openVersioned(openedLink(request), request.params.token);
        const context = {
          selfPath: request.params.token,
          verbatim: request.query.text === "verbatim",
          part: null,
        };
        const search = pageSearch(await page.view(), context);
        if (request.query.v !== search.signature) throw new DomainError("conflict", CHANGED);
        const parts: number[] = [];
        // A part at a time, the event loop free between: a long transcript's first search cleans every line.
        for (let part = 1; part <= search.parts; part++) {
          if (search.mentions(part, request.query.q)) parts.push(part);
          await setImmediate();
        }
        setPageSecurityHeaders(reply, { frameAncestors: page.frameAncestors });
        return { parts };
      },
    );

    pageEditRoutes(links, deps);
    registered();
  });
}
