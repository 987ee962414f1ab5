import { html } from "../escape.ts";
import { field, renderConsolePage, type ConsoleFrame } from "./layout.ts";
import type { AppSettingsView, SettingsField, SettingsForm } from "./view-model.ts";

/** Which secret a rotation replaces: the app secret (tokens, console sessions) or the webhook signing secret. */
export type RotatedSecret = "app" | "webhook";

const ROTATION = {
  app: {
    path: "/console/settings/rotate-secret",
    title: "Rotate the app secret?",
    effect:
      "A new app secret replaces the current one at once: every access token issued with the old one stops " +
      "working, and every console session ends except this one. Your servers need the new secret to ask for tokens.",
    button: "Rotate the app secret",
    shownTitle: "Your new app secret",
    label: "New app secret",
  },
  webhook: {
    path: "/console/settings/rotate-webhook-secret",
    title: "Rotate the webhook signing secret?",
    effect: "Webhooks from now on are signed with a new secret; your receiver must check signatures with it.",
    button: "Rotate the webhook secret",
    shownTitle: "Your new webhook signing secret",
    label: "New webhook signing secret",
  },
} as const;

/** The app's settings and the form changing them; `form` and `errors` are a refused post's values and messages. */
export function renderSettings(
  frame: ConsoleFrame,
  app: AppSettingsView,
  options: { form?: SettingsForm; errors?: Partial<Record<SettingsField, string>>; saved?: boolean } = {},
): string {
  const form = options.form ?? {
    name: app.name,
    customDomain: app.customDomain ?? "",
    frameAncestors: app.frameAncestors.join("\n"),
  };
  return renderConsolePage({
    title: "Settings",
    frame,
    body: html`${options.saved && html`<p class="notice" role="status">Settings saved.</p>`}
      <dl class="card facts">
        <dt>App id</dt>
        <dd><code>${app.appId}</code></dd>
        <dt>Name</dt>
        <dd>${app.name}</dd>
        <dt>Custom domain</dt>
        <dd>${app.customDomain ?? "None"}</dd>
        <dt>Frame ancestors</dt>
        <dd>
          ${
            app.frameAncestors.length === 0
              ? "None: no other site may embed your pages"
              : html`<ul>
                  ${app.frameAncestors.map((origin) => html`<li><code>${origin}</code></li>`)}
                </ul>`
          }
        </dd>
      </dl>
      <h2>Change settings</h2>
      <form method="post" action="/console/settings" class="card" novalidate>
        ${field({
          label: "Name",
          name: "name",
          type: "text",
          value: form.name,
          error: options.errors?.name,
        })}
        ${field({
          label: "Custom domain",
          name: "customDomain",
          type: "text",
          value: form.customDomain,
          hint: "A host name such as summaries.example.com; empty for none.",
          error: options.errors?.customDomain,
          attributes: html`spellcheck="false"`,
        })}
        ${field({
          label: "Frame ancestors",
          name: "frameAncestors",
          type: "textarea",
          value: form.frameAncestors,
          hint: "Sites that may embed your pages: one origin a line, such as https://example.com.",
          error: options.errors?.frameAncestors,
          attributes: html`rows="4" spellcheck="false"`,
        })}
        <button type="submit">Save settings</button>
      </form>
      <h2>Secrets</h2>
      <div class="card actions">
        <a href="${ROTATION.app.path}">Rotate the app secret…</a>
        <a href="${ROTATION.webhook.path}">Rotate the webhook signing secret…</a>
      </div>`,
  });
}

/** The confirmation before a rotation: what it ends, and the button doing it. */
export function renderRotateConfirmation(frame: ConsoleFrame, secret: RotatedSecret): string {
  const rotation = ROTATION[secret];
  return renderConsolePage({
    title: rotation.title,
    frame,
    body: html`<form method="post" action="${rotation.path}" class="card">
      <p>${rotation.effect}</p>
      <p>The new secret is shown once, on the next page.</p>
      <div class="actions">
        <button type="submit" class="danger">${rotation.button}</button>
        <a href="/console/settings">Cancel</a>
      </div>
    </form>`,
  });
}

/** The new secret, shown this once (the answer is not stored: Cache-Control: no-store). */
export function renderNewSecret(frame: ConsoleFrame, secret: RotatedSecret, value: string): string {
  const rotation = ROTATION[secret];
  return renderConsolePage({
    title: rotation.shownTitle,
    frame,
    body: html`<div class="card">
      <p class="notice" role="status">
        Copy it now and keep it somewhere safe: it is shown only this once and cannot be shown again.
      </p>
      <div class="field">
        <label for="new-secret">${rotation.label}</label>
        <textarea id="new-secret" class="secret" rows="3" readonly spellcheck="false">${value}</textarea>
      </div>
      <p><a href="/console/settings">Back to settings</a></p>
    </div>`,
  });
}
