import { html, raw, type Raw } from "../escape.ts";
import { PAGE_HEAD_META } from "../render-page.ts";

/** The bundled stylesheet and script of the console (null when not built: the pages still work). */
export interface ConsoleAssets {
  stylesheetUrl: string | null;
  scriptUrl: string | null;
}

/** What frames every console page: the assets, and the name of the app signed in to (null: signed out). */
export interface ConsoleFrame {
  assets: ConsoleAssets;
  /** Shown in the header with the navigation and the sign-out button, so the owner sees which app this is. */
  appName: string | null;
}

export interface ConsolePage {
  title: string;
  frame: ConsoleFrame;
  /** Reloads the page every few seconds when the script cannot (a job still running). */
  refreshWithoutScript?: boolean;
  body: Raw;
  /** One inline stylesheet, allowed by the response's CSP nonce (the link preview's brand). */
  style?: { nonce: string; css: string };
}

/**
 * A text, password, search or file input (or a textarea) with its label, and the server's message about it
 * when there is one.
 */
export function field(options: {
  label: string;
  name: string;
  /** An input's type, or "textarea". */
  type: string;
  value?: string;
  /** Under the label, what the field takes. */
  hint?: string;
  error?: string | undefined;
  attributes?: Raw;
}): Raw {
  const id = `field-${options.name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const described = [options.hint && hintId, options.error && errorId].filter(Boolean).join(" ");
  const common = html`id="${id}" name="${options.name}" ${options.error ? html`aria-invalid="true"` : ""}
  ${described ? html`aria-describedby="${described}"` : ""} ${options.attributes ?? ""}`;
  return html`<div class="field">
    <label for="${id}">${options.label}</label>
    ${options.hint && html`<p class="field-hint" id="${hintId}">${options.hint}</p>`}
    ${
      options.type === "textarea"
        ? html`<textarea ${common}>${options.value ?? ""}</textarea>`
        : html`<input
            type="${options.type}"
            ${common}
            ${options.value !== undefined ? html`value="${options.value}"` : ""}
          />`
    }
    ${options.error && html`<p class="field-error" id="${errorId}">${options.error}</p>`}
  </div>`;
}

/** Every console page: the same head, navigation and landmarks. */
export function renderConsolePage(page: ConsolePage): string {
  const { assets, appName } = page.frame;
  return html`<!doctype html>
    <html lang="en">
      <head>
        ${PAGE_HEAD_META}
        <title>${page.title} · Recap console</title>
        ${page.refreshWithoutScript && html`<noscript><meta http-equiv="refresh" content="3" /></noscript>`}
        ${assets.stylesheetUrl && html`<link rel="stylesheet" href="${assets.stylesheetUrl}" />`}
        ${
          page.style &&
          html`<style nonce="${page.style.nonce}">
            ${raw(page.style.css)}
          </style>`
        }
        ${assets.scriptUrl && html`<script src="${assets.scriptUrl}" defer></script>`}
      </head>
      <body>
        <header class="console-header">
          <a class="brand" href="/console">Recap console</a>
          ${
            appName !== null &&
            html`<nav aria-label="Console">
                <a href="/console/conversations">Conversations</a>
                <a href="/console/import">Import</a>
                <a href="/console/links">Links</a>
                <a href="/console/settings">Settings</a>
              </nav>
              <form method="post" action="/console/sign-out" class="session">
                <span class="signed-in-as">App: <strong>${appName}</strong></span>
                <button type="submit" class="secondary">Sign out</button>
              </form>`
          }
        </header>
        <main id="main">
          <h1>${page.title}</h1>
          ${page.body}
        </main>
      </body>
    </html>`.html;
}

/** A refusal or failure as a console page, with the way back. */
export function renderConsoleError(message: string, frame: ConsoleFrame): string {
  return renderConsolePage({
    title: "Something went wrong",
    frame,
    body: html`<p class="notice" role="alert">${message}</p>
      <p><a href="/console">Back to the console</a></p>`,
  });
}
