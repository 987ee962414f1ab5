import { HEX_COLOUR } from "../colour.ts";
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

const input = (type: string, attributes: Raw, value: string | undefined) =>
  html`<input type="${type}" ${attributes} ${value !== undefined ? html`value="${value}"` : ""} />`;

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
  /** Shown on the input's line, after it (a colour field's picker). */
  beside?: Raw;
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
        : options.beside
          ? html`<div class="input-row">${input(options.type, common, options.value)} ${options.beside}</div>`
          : input(options.type, common, options.value)
    }
    ${options.error && html`<p class="field-error" id="${errorId}">${options.error}</p>`}
  </div>`;
}

/** A checkbox with its label beside it; `error` is the API's message about it. */
export function checkbox(name: string, label: string, checked: boolean, error: string | undefined): Raw {
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  return html`<div class="field checkbox">
    <input
      id="${id}"
      name="${name}"
      type="checkbox"
      ${checked ? "checked" : ""}
      ${error ? html`aria-invalid="true" aria-describedby="${errorId}"` : ""}
    />
    <label for="${id}">${label}</label>
    ${error && html`<p class="field-error" id="${errorId}">${error}</p>`}
  </div>`;
}

/**
 * A colour field: the text input (#RRGGBB, empty for the default) is what is sent and works without the
 * script; beside it a colour input, which the script shows and keeps in step with the text. `fallback` is
 * what an empty field means (the app's colour or the page's), where the picker starts.
 */
export function colourField(options: {
  label: string;
  name: string;
  value: string;
  fallback: string;
  hint: string;
  error?: string | undefined;
  attributes?: Raw;
}): Raw {
  const typed = options.value.trim();
  return field({
    label: options.label,
    name: options.name,
    type: "text",
    value: options.value,
    hint: options.hint,
    error: options.error,
    attributes: html`placeholder="#RRGGBB" spellcheck="false" autocomplete="off"
    data-colour-fallback="${options.fallback}" ${options.attributes ?? ""}`,
    beside: html`<input
      type="color"
      class="colour-picker"
      id="field-${options.name}-picker"
      aria-label="${options.label}: pick"
      value="${HEX_COLOUR.test(typed) ? typed.toLowerCase() : options.fallback}"
      data-colour-for="field-${options.name}"
      hidden
    />`,
  });
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
                <a href="/console/search">Search</a>
                <a href="/console/import">Import</a>
                <a href="/console/links">Links</a>
                <a href="/console/voices">Voices</a>
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

/** Titles of refusals by status; any other is a failure. */
const ERROR_TITLES: Record<number, string> = {
  400: "That could not be done",
  403: "Refused",
  404: "Not found",
  410: "Gone",
  429: "Too many attempts",
};

/** The ways on from a page that is not the one the owner wanted. */
const waysOn = (frame: ConsoleFrame): Raw =>
  frame.appName === null
    ? html`<p><a href="/console/sign-in">Sign in</a></p>`
    : html`<ul>
        <li><a href="/console/conversations">Conversations</a></li>
        <li><a href="/console/links">Links</a></li>
        <li><a href="/console/voices">Voices</a></li>
        <li><a href="/console/settings">Settings</a></li>
      </ul>`;

/** A refusal or failure as a console page, titled by its status, with the ways on. */
export function renderConsoleError(message: string, frame: ConsoleFrame, status: number): string {
  return renderConsolePage({
    title: ERROR_TITLES[status] ?? "Something went wrong",
    frame,
    body: html`<p class="notice" role="alert">${message}</p>
      ${waysOn(frame)}`,
  });
}

/** An address under /console/ that is no console page. */
export function renderNotFound(frame: ConsoleFrame): string {
  return renderConsolePage({
    title: "Page not found",
    frame,
    body: html`<p>There is no such page in the console: the address may be mistyped, or out of date.</p>
      ${waysOn(frame)}`,
  });
}
