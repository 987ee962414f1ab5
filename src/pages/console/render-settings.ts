import type { Brand } from "../../modules/experiences/experiences.schemas.ts";
import { html, Raw } from "../escape.ts";
import { DEFAULT_COLOURS } from "../theme.ts";
import { BRAND_FIELD_LABELS, SETTINGS_FIELD_LABELS } from "./labels.ts";
import { checkbox, colourField, field, renderConsolePage, type ConsoleFrame } from "./layout.ts";
import type { AppSettingsView, BrandField, BrandForm, SettingsField, SettingsForm } from "./view-model.ts";

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

/** The brand's fields as the form shows them: the app's brand, or a refused post's values. */
function brandFormOf(brand: Brand): BrandForm {
  return {
    logo: brand.logo ?? "",
    favicon: brand.favicon ?? "",
    background: brand.color?.background ?? "",
    topicsFilter: brand.color?.topicsFilter ?? "",
    insightsFilter: brand.color?.insightsFilter ?? "",
    fontFamily: brand.font?.family ?? "",
  };
}

const COLOURS = ["background", "topicsFilter", "insightsFilter"] as const;

/** The form of the app's brand: what every link's page takes for the fields the link leaves empty. */
function brandForm(form: BrandForm, errors: Partial<Record<BrandField, string>>): Raw {
  const text = (name: "fontFamily" | "logo" | "favicon", placeholder: string) =>
    field({
      label: BRAND_FIELD_LABELS[name],
      name,
      type: "text",
      value: form[name],
      error: errors[name],
      attributes: html`placeholder="${placeholder}" spellcheck="false"`,
    });
  return html`<form method="post" action="/console/settings/brand" class="card" novalidate>
    <p>
      Every link's page takes these for what the link itself leaves empty, earlier links included. Empty here:
      the page's own.
    </p>
    ${COLOURS.map((name) =>
      colourField({
        label: BRAND_FIELD_LABELS[name],
        name,
        value: form[name],
        fallback: DEFAULT_COLOURS[name],
        hint: `Empty: the page's, ${DEFAULT_COLOURS[name]}.`,
        error: errors[name],
      }),
    )}
    ${text("fontFamily", "e.g. Source Sans 3")} ${text("logo", "https://…")} ${text("favicon", "https://…")}
    <button type="submit">Save the brand</button>
  </form>`;
}

/** The app's brand as the facts list shows it. */
function brandFacts(brand: Brand): Raw {
  const colours = COLOURS.flatMap((name) => {
    const colour = brand.color?.[name];
    return colour === undefined ? [] : [html`<li>${BRAND_FIELD_LABELS[name]}: <code>${colour}</code></li>`];
  });
  const others = [
    brand.font?.family && html`<li>Font: ${brand.font.family}</li>`,
    brand.logo && html`<li>Logo: <code>${brand.logo}</code></li>`,
    brand.favicon && html`<li>Favicon: <code>${brand.favicon}</code></li>`,
  ].filter((item): item is Raw => item instanceof Raw);
  const items = [...colours, ...others];
  return items.length === 0
    ? html`None: pages use their own colours and font`
    : html`<ul>
        ${items}
      </ul>`;
}

/**
 * The app's settings and the forms changing them (its settings, its brand); `form`, `brandForm` and
 * `errors` are a refused post's values and messages, `saved` which form was just saved.
 */
export function renderSettings(
  frame: ConsoleFrame,
  app: AppSettingsView,
  options: {
    form?: SettingsForm;
    brandForm?: BrandForm;
    errors?: Partial<Record<SettingsField | BrandField, string>>;
    saved?: "settings" | "brand";
  } = {},
): string {
  const form = options.form ?? {
    name: app.name,
    customDomain: app.customDomain ?? "",
    frameAncestors: app.frameAncestors.join("\n"),
    ...(app.voiceProfiles && { voiceProfiles: "on" }),
  };
  const errors = options.errors ?? {};
  return renderConsolePage({
    title: "Settings",
    frame,
    body: html`${options.saved === "settings" && html`<p class="notice" role="status">Settings saved.</p>`}
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
        <dt>Brand</dt>
        <dd>${brandFacts(app.brand)}</dd>
        <dt>Voice profiles</dt>
        <dd>
          ${app.voiceProfiles ? "Kept: named voices can be saved (POST /v1/voices)" : "Off: no voice is kept"}
        </dd>
      </dl>
      <h2>Change settings</h2>
      <form method="post" action="/console/settings" class="card" novalidate>
        ${field({
          label: SETTINGS_FIELD_LABELS.name,
          name: "name",
          type: "text",
          value: form.name,
          error: errors.name,
        })}
        ${field({
          label: SETTINGS_FIELD_LABELS.customDomain,
          name: "customDomain",
          type: "text",
          value: form.customDomain,
          hint: "A host name such as summaries.example.com; empty for none.",
          error: errors.customDomain,
          attributes: html`spellcheck="false"`,
        })}
        ${field({
          label: SETTINGS_FIELD_LABELS.frameAncestors,
          name: "frameAncestors",
          type: "textarea",
          value: form.frameAncestors,
          hint: "Sites that may embed your pages: one origin a line, such as https://example.com.",
          error: errors.frameAncestors,
          attributes: html`rows="4" spellcheck="false"`,
        })}
        ${checkbox(
          "voiceProfiles",
          SETTINGS_FIELD_LABELS.voiceProfiles,
          form.voiceProfiles !== undefined,
          errors.voiceProfiles,
        )}
        <p class="field-hint">
          A voice profile keeps a named speaker's voice as numbers (no audio) to recognise them later; off
          keeps the profiles already saved (docs/VOICES.md).
        </p>
        <button type="submit">Save settings</button>
      </form>
      <h2 id="brand">Brand</h2>
      ${options.saved === "brand" && html`<p class="notice" role="status">Brand saved.</p>`}
      ${brandForm(options.brandForm ?? brandFormOf(app.brand), errors)}
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
