import type { ExperienceKind, LinkState } from "../../modules/experiences/experiences.schemas.ts";
import { html, safeHttpUrl, type Raw } from "../escape.ts";
import { field, renderConsolePage, type ConsoleAssets } from "./layout.ts";
import { previewCss } from "./link-preview.ts";
import type { ConsoleLink, LinkForm, LinkListPage } from "./view-model.ts";

type Errors = Record<string, string | undefined>;

const KIND_NAMES: Record<ExperienceKind, string> = {
  "verbose-text-summary": "Text summary",
  "video-summary": "Video summary",
  "audio-summary": "Audio summary",
};
const STATE_NAMES: Record<LinkState, string> = { active: "Active", expired: "Expired", revoked: "Revoked" };
const KINDS = Object.keys(KIND_NAMES) as ExperienceKind[];
const STATES = Object.keys(STATE_NAMES) as LinkState[];
const LIFETIMES: [number, string][] = [
  [86_400, "1 day"],
  [604_800, "7 days"],
  [2_592_000, "30 days"],
  [7_776_000, "90 days"],
  [31_536_000, "1 year"],
  [0, "Never expires"],
];
const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const when = (iso: string | null, none: string): Raw =>
  iso === null
    ? html`${none}`
    : html`<time datetime="${iso}" data-local="date-time">${dateTime.format(new Date(iso))} UTC</time>`;

/** The form a new link starts from: the API's defaults. */
export const EMPTY_LINK_FORM: LinkForm = {
  name: "verbose-text-summary",
  label: "",
  videoUrl: "",
  audioUrl: "",
  logo: "",
  favicon: "",
  background: "",
  topicsFilter: "",
  insightsFilter: "",
  fontFamily: "",
  summaryURLExpiresIn: "2592000",
  readOnly: false,
  enableCustomDomain: false,
  hideShareButton: false,
  avatars: {},
};

/** A select with its label and the server's message, marked as `field()` marks an input. */
function select(options: {
  label: string;
  name: string;
  value: string;
  error: string | undefined;
  choices: [string, string][];
}): Raw {
  const id = `field-${options.name}`;
  const errorId = `${id}-error`;
  return html`<div class="field">
    <label for="${id}">${options.label}</label>
    <select
      id="${id}"
      name="${options.name}"
      ${options.error ? html`aria-invalid="true" aria-describedby="${errorId}"` : ""}
    >
      ${options.choices.map(
        ([value, text]) =>
          html`<option value="${value}" ${value === options.value ? "selected" : ""}>${text}</option>`,
      )}
    </select>
    ${options.error && html`<p class="field-error" id="${errorId}">${options.error}</p>`}
  </div>`;
}

function checkbox(name: string, label: string, checked: boolean, error: string | undefined): Raw {
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

type TextField = Exclude<keyof LinkForm, "readOnly" | "enableCustomDomain" | "hideShareButton" | "avatars">;
const text = (form: LinkForm, errors: Errors, name: TextField, label: string, hint = "") =>
  field({
    label,
    name,
    type: "text",
    value: form[name],
    error: errors[name],
    attributes: html`${hint ? html`placeholder="${hint}"` : ""} data-preview="${name}"`,
  });

/** A picture URL for each member; the input's id is by position, as a member id may hold any character. */
function avatarFields(members: { id: string; name: string }[], form: LinkForm, errors: Errors): Raw {
  if (members.length === 0) return html``;
  return html`<fieldset>
    <legend>Speakers' pictures</legend>
    ${members.map((member, index) => {
      const id = `field-avatar-${index}`;
      const error = errors[`avatar.${member.id}`];
      return html`<div class="field">
        <label for="${id}">Picture of ${member.name} (URL)</label>
        <input
          id="${id}"
          name="avatar.${member.id}"
          type="text"
          placeholder="https://…"
          value="${form.avatars[member.id] ?? ""}"
          ${error ? html`aria-invalid="true" aria-describedby="${id}-error"` : ""}
        />
        ${error && html`<p class="field-error" id="${id}-error">${error}</p>`}
      </div>`;
    })}
  </fieldset>`;
}

/** A miniature of the summary page's header and first lines, in the brand typed so far. */
function preview(form: LinkForm, conversationName: string): Raw {
  const logo = safeHttpUrl(form.logo);
  return html`<section class="link-preview" aria-labelledby="preview-heading" data-link-preview>
    <h2 id="preview-heading" class="visually-hidden">Preview of the summary page</h2>
    <div class="preview-header">
      <img class="preview-logo" alt="Logo" height="32" ${logo ? html`src="${logo}"` : "hidden"} />
      <p class="preview-title">${conversationName}</p>
    </div>
    <div class="preview-card">
      <p class="preview-heading">Topics</p>
      <p>
        <span class="preview-chip preview-topic">Budget</span>
        <span class="preview-chip preview-topic">Design</span>
      </p>
      <p class="preview-heading">Action items</p>
      <p><span class="preview-chip preview-insight">Send the minutes by Friday</span></p>
      <p class="preview-line"><span class="preview-speaker">Alex</span> Shall we start with the budget?</p>
      <p class="preview-muted">0:42</p>
    </div>
  </section>`;
}

/** The create-link form for one conversation, with the brand's preview; `errors` are the API's messages by field. */
export function renderLinkForm(
  assets: ConsoleAssets,
  page: {
    conversation: { id: string; name: string };
    members: { id: string; name: string }[];
    form: LinkForm;
    errors?: Errors;
    styleNonce: string;
  },
): string {
  const { form, conversation } = page;
  const errors = page.errors ?? {};
  const lifetimes: [string, string][] = LIFETIMES.map(([seconds, name]) => [String(seconds), name]);
  if (!lifetimes.some(([value]) => value === form.summaryURLExpiresIn)) {
    lifetimes.push([form.summaryURLExpiresIn, `${form.summaryURLExpiresIn} seconds`]);
  }
  return renderConsolePage({
    title: "Create a link",
    assets,
    signedIn: true,
    style: { nonce: page.styleNonce, css: previewCss(form) },
    body: html`<p>To the summary of “<strong>${conversation.name}</strong>”.</p>
      <div class="link-create">
        <form method="post" action="/console/conversations/${conversation.id}/links" class="card">
          ${select({
            label: "Kind of page",
            name: "name",
            value: form.name,
            error: errors.name,
            choices: KINDS.map((kind) => [kind, KIND_NAMES[kind]]),
          })}
          ${text(form, errors, "label", "Label (only you see it)")}
          ${text(form, errors, "videoUrl", "Video URL (video summary)", "https://…")}
          ${text(form, errors, "audioUrl", "Audio URL (audio summary)", "https://…")}
          <fieldset>
            <legend>Brand</legend>
            ${text(form, errors, "background", "Background colour", "#RRGGBB")}
            ${text(form, errors, "topicsFilter", "Topics colour", "#RRGGBB")}
            ${text(form, errors, "insightsFilter", "Insights colour", "#RRGGBB")}
            ${text(form, errors, "fontFamily", "Font family", "e.g. Source Sans 3")}
            ${text(form, errors, "logo", "Logo URL", "https://…")}
            ${text(form, errors, "favicon", "Favicon URL", "https://…")}
          </fieldset>
          ${avatarFields(page.members, form, errors)}
          ${select({
            label: "Expires",
            name: "summaryURLExpiresIn",
            value: form.summaryURLExpiresIn,
            error: errors.summaryURLExpiresIn,
            choices: lifetimes,
          })}
          ${checkbox("readOnly", "Read-only (viewers cannot edit)", form.readOnly, errors.readOnly)}
          ${checkbox("hideShareButton", "Hide the share buttons", form.hideShareButton, errors.hideShareButton)}
          ${checkbox(
            "enableCustomDomain",
            "On the app's custom domain",
            form.enableCustomDomain,
            errors.enableCustomDomain,
          )}
          <div class="actions">
            <button type="submit">Create link</button>
            <button type="submit" name="action" value="preview" class="plain">Preview</button>
            <a href="/console/conversations">Cancel</a>
          </div>
        </form>
        ${preview(form, conversation.name)}
      </div>`,
  });
}

/** The new link's URL, to copy: selectable without the script, a Copy button with it. */
export function renderLinkCreated(
  assets: ConsoleAssets,
  link: { url: string; conversationName: string },
): string {
  return renderConsolePage({
    title: "Link created",
    assets,
    signedIn: true,
    body: html`<div class="card">
      <p>Anyone with this link can open the summary of “<strong>${link.conversationName}</strong>”.</p>
      <div class="field">
        <label for="link-url">Link</label>
        <div class="copy-row">
          <input id="link-url" type="text" readonly value="${link.url}" />
          <button type="button" data-copy="link-url" hidden>Copy</button>
        </div>
        <p class="copy-status" role="status" aria-live="polite"></p>
      </div>
      <p><a href="/console/links">See all links</a></p>
    </div>`,
  });
}

function linkRow(link: ConsoleLink): Raw {
  const name = link.label ?? `…${link.hint ?? ""}`;
  return html`<tr>
    <th scope="row">${link.label ?? html`<span class="muted">No label</span>`}</th>
    <td><span class="state state-link-${link.state}">${STATE_NAMES[link.state]}</span></td>
    <td>${link.conversationName}</td>
    <td>${KIND_NAMES[link.name]}</td>
    <td>${link.hint === null ? "" : html`<code>…${link.hint}</code>`}</td>
    <td>${link.views}</td>
    <td>${link.distinctViewers}</td>
    <td>${when(link.lastViewedAt, "Never")}</td>
    <td>${when(link.expiresAt, "Never")}</td>
    <td>
      <a href="/console/links/${link.conversationId}/${link.id}" aria-label="Manage ${name}">Manage</a>
    </td>
  </tr>`;
}

function linksPageLink(state: LinkState | null, page: number, label: string, rel: string): Raw {
  const query = new URLSearchParams({ ...(state && { state }), page: String(page) });
  return html`<a rel="${rel}" href="/console/links?${query.toString()}">${label}</a>`;
}

/** The app's links, newest first, filtered by state, with their views. */
export function renderLinks(assets: ConsoleAssets, listed: LinkListPage): string {
  const table = html`<div class="table-scroll">
    <table class="links">
      <caption class="visually-hidden">
        Summary links, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">Label</th>
          <th scope="col">State</th>
          <th scope="col">Conversation</th>
          <th scope="col">Kind</th>
          <th scope="col">Ends with</th>
          <th scope="col">Views</th>
          <th scope="col">Viewers</th>
          <th scope="col">Last view</th>
          <th scope="col">Expires</th>
          <th scope="col"><span class="visually-hidden">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${listed.links.map(linkRow)}
      </tbody>
    </table>
  </div>`;
  const empty = listed.state
    ? html`<p>No ${STATE_NAMES[listed.state].toLowerCase()} links.</p>`
    : html`<p>
        No links yet. Create one from a row of your <a href="/console/conversations">conversations</a>.
      </p>`;
  return renderConsolePage({
    title: "Links",
    assets,
    signedIn: true,
    body: html`<form method="get" action="/console/links" class="search">
        <label for="state">Show</label>
        <select id="state" name="state">
          <option value="">All links</option>
          ${STATES.map(
            (state) =>
              html`<option value="${state}" ${state === listed.state ? "selected" : ""}>
                ${STATE_NAMES[state]}
              </option>`,
          )}
        </select>
        <button type="submit">Filter</button>
      </form>
      ${listed.links.length > 0 ? table : empty}
      <nav class="pages" aria-label="Pages">
        ${listed.page > 1 && linksPageLink(listed.state, listed.page - 1, "Newer", "prev")}
        ${listed.hasNext && linksPageLink(listed.state, listed.page + 1, "Older", "next")}
      </nav>`,
  });
}

/** The edit form's values as typed, and the API's messages by field. */
export interface LinkEditState {
  label?: string;
  expiry?: string;
  expiresAt?: string;
  errors?: Errors;
}

/** One link: its facts, its label and expiry to change, and the way to revoke it. */
export function renderLinkManage(
  assets: ConsoleAssets,
  link: ConsoleLink,
  state: LinkEditState = {},
): string {
  const errors = state.errors ?? {};
  const base = `/console/links/${link.conversationId}/${link.id}`;
  const expiry = state.expiry ?? "keep";
  const radio = (value: string, label: string) =>
    html`<div class="checkbox">
      <input
        type="radio"
        id="expiry-${value}"
        name="expiry"
        value="${value}"
        ${expiry === value ? "checked" : ""}
      />
      <label for="expiry-${value}">${label}</label>
    </div>`;
  const editable = link.state !== "revoked";
  return renderConsolePage({
    title: link.label ?? "Link",
    assets,
    signedIn: true,
    body: html`<div class="card">
        <dl class="facts">
          <dt>State</dt>
          <dd><span class="state state-link-${link.state}">${STATE_NAMES[link.state]}</span></dd>
          <dt>Conversation</dt>
          <dd>${link.conversationName}</dd>
          <dt>Kind</dt>
          <dd>${KIND_NAMES[link.name]}</dd>
          <dt>Ends with</dt>
          <dd>${link.hint === null ? "Not kept" : html`<code>…${link.hint}</code>`}</dd>
          <dt>Views</dt>
          <dd>${link.views} (${link.distinctViewers} distinct viewers)</dd>
          <dt>Last view</dt>
          <dd>${when(link.lastViewedAt, "Never")}</dd>
          <dt>Created</dt>
          <dd>${when(link.createdAt, "")}</dd>
          <dt>Expires</dt>
          <dd>${when(link.expiresAt, "Never")}</dd>
        </dl>
      </div>
      ${
        editable
          ? html`<form method="post" action="${base}" class="card">
              <h2>Change</h2>
              ${field({
                label: "Label (empty: no label)",
                name: "label",
                type: "text",
                value: state.label ?? link.label ?? "",
                error: errors.label,
              })}
              <fieldset>
                <legend>Expiry</legend>
                ${radio("keep", "Keep as it is")} ${radio("at", "Expire at the date and time below")}
                ${radio("never", "Never expire")}
                ${field({
                  label: "Expires at (UTC)",
                  name: "expiresAt",
                  type: "datetime-local",
                  value: state.expiresAt ?? (link.expiresAt ?? "").slice(0, 16),
                  error: errors.expiresAt,
                })}
              </fieldset>
              <div class="actions">
                <button type="submit">Save</button>
                <a href="${base}/revoke">Revoke this link…</a>
              </div>
            </form>`
          : html`<p>This link was revoked: it no longer opens, for good.</p>`
      }
      <p><a href="/console/links">Back to the links</a></p>`,
  });
}

/** Asks before revoking: a form of its own, so it works without the script. */
export function renderRevokeConfirmation(assets: ConsoleAssets, link: ConsoleLink): string {
  const name = link.label ?? `the link ending …${link.hint ?? ""}`;
  return renderConsolePage({
    title: "Revoke this link?",
    assets,
    signedIn: true,
    body: html`<div class="card">
      <p>
        “<strong>${name}</strong>” to “${link.conversationName}” will stop opening for everyone who has it
        (they will see that it was revoked). This cannot be undone.
      </p>
      <form method="post" action="/console/links/${link.conversationId}/${link.id}/revoke" class="actions">
        <button type="submit" class="danger">Revoke</button>
        <a href="/console/links/${link.conversationId}/${link.id}">Cancel</a>
      </form>
    </div>`,
  });
}
