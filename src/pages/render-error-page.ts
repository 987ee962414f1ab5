import { html, raw } from "./escape.ts";
import { PAGE_HEAD_META } from "./render-page.ts";

export type LinkProblem = "expired" | "revoked" | "not_found";

const COPY: Record<LinkProblem, { title: string; text: string }> = {
  expired: {
    title: "This link has expired",
    text: "The summary link you followed has reached the end of its lifetime. Ask its owner for a new link.",
  },
  revoked: {
    title: "This link was revoked",
    text: "The owner of this summary link has turned it off. Ask them for a new link.",
  },
  not_found: {
    title: "Link not found",
    text: "This summary link does not exist. Check that you copied the whole address.",
  },
};

/**
 * The page for an expired, revoked, tampered or unknown link. It says nothing about any conversation and
 * needs no script; its only style lives in the shared stylesheet (or the nonce'd rule below).
 */
export function renderLinkProblemPage(problem: LinkProblem, styleNonce: string): string {
  const copy = COPY[problem];
  return html`<!doctype html>
    <html lang="en">
      <head>
        ${PAGE_HEAD_META}
        <title>${copy.title}</title>
        <style nonce="${styleNonce}">
          ${raw(
            "body{font:16px/1.5 system-ui,sans-serif;background:#f5f6f8;color:#16181d;margin:0;padding:0 1rem}" +
              "main{max-width:36rem;margin:15vh auto;padding:2rem;background:#fff;border-radius:12px}" +
              "h1{font-size:1.5rem;margin:0 0 .5rem}",
          )}
        </style>
      </head>
      <body>
        <main>
          <h1>${copy.title}</h1>
          <p>${copy.text}</p>
        </main>
      </body>
    </html> `.html;
}
