import type { Brand, ExperienceKind, LinkState } from "../../modules/experiences/experiences.schemas.ts";
import { html, safeHttpUrl, type Raw } from "../escape.ts";
import { DEFAULT_COLOURS } from "../theme.ts";
import { formatOffset } from "../view-model.ts";
import { LINK_EDIT_FIELD_LABELS, LINK_FIELD_LABELS } from "./labels.ts";
import { checkbox, colourField, field, renderConsolePage, type ConsoleFrame } from "./layout.ts";
import { brandedInput, previewCss } from "./link-preview.ts";
import type { ConsoleLink, LinkForm, LinkListPage, LinkPreview, PreviewLine } from "./view-model.ts";

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
/** A time in UTC, which the console's script writes in the viewer's zone; `none` when there is none. */
export const when = (iso: string | null, none: string): Raw =>
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

type TextField = Exclude<keyof LinkForm, "readOnly" | "enableCustomDomain" | "hideShareButton" | "avatars">;
const text = (
  form: LinkForm,
  errors: Errors,
  name: TextField,
  placeholder = "",
  appDefault?: { value: string | undefined; hint: string },
) =>
  field({
    label: LINK_FIELD_LABELS[name],
    name,
    type: "text",
    value: form[name],
    error: errors[name],
    ...(appDefault !== undefined && { hint: appDefault.hint }),
    attributes: html`${placeholder ? html`placeholder="${placeholder}"` : ""} data-preview="${name}"
    ${appDefault?.value ? html`data-app-default="${appDefault.value}"` : ""}`,
  });

const COLOUR_FIELDS = ["background", "topicsFilter", "insightsFilter"] as const;

/** What an empty brand field of a link means: the app's value, or the page's own when the app has none. */
function defaultsHint(appValue: string | undefined, none: string): string {
  return appValue === undefined ? `Empty: ${none}.` : `Empty: the app's, ${appValue}.`;
}

/** A brand field's app value and the hint saying it. */
const appDefault = (value: string | undefined, none: string) => ({ value, hint: defaultsHint(value, none) });

/** The brand's fields of the create-link form; each empty one takes the app's brand (shown), then the page's. */
function brandFields(form: LinkForm, errors: Errors, brand: Brand): Raw {
  const colours = COLOUR_FIELDS.map((name) => {
    const appValue = brand.color?.[name];
    return colourField({
      label: LINK_FIELD_LABELS[name],
      name,
      value: form[name],
      fallback: appValue ?? DEFAULT_COLOURS[name],
      hint: defaultsHint(appValue, "the page's default"),
      error: errors[name],
      attributes: html`data-preview="${name}" data-app-default="${appValue ?? ""}"`,
    });
  });
  return html`<fieldset>
    <legend>Brand</legend>
    ${colours}
    ${text(form, errors, "fontFamily", "e.g. Source Sans 3", appDefault(brand.font?.family, "a system font"))}
    ${text(form, errors, "logo", "https://…", appDefault(brand.logo, "no logo"))}
    ${text(form, errors, "favicon", "https://…", appDefault(brand.favicon, "no favicon"))}
  </fieldset>`;
}

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

/** A line of the preview: its speaker, its text shortened to a couple of lines, its time. */
function previewLine(line: PreviewLine): Raw {
  const text = line.text.length > 160 ? `${line.text.slice(0, 157).trimEnd()}…` : line.text;
  return html`<p class="preview-line">
    ${line.speaker && html`<span class="preview-speaker">${line.speaker}</span>`} ${text}
    ${line.offset !== null && html`<span class="preview-muted">${formatOffset(line.offset)}</span>`}
  </p>`;
}

/**
 * A miniature of the summary page's header, topics, first action item and first lines (this conversation's
 * own), in the brand typed so far; an empty brand field shows the app's (`data-app-default` on the inputs).
 */
function preview(form: LinkForm, conversationName: string, content: LinkPreview, brand: Brand): Raw {
  const logo = safeHttpUrl(form.logo.trim() || brand.logo);
  return html`<section class="link-preview" aria-labelledby="preview-heading" data-link-preview>
    <h2 id="preview-heading" class="visually-hidden">Preview of the summary page</h2>
    <div class="preview-header">
      <img class="preview-logo" alt="Logo" height="32" ${logo ? html`src="${logo}"` : "hidden"} />
      <p class="preview-title">${conversationName}</p>
    </div>
    <div class="preview-card">
      ${
        content.topics.length > 0 &&
        html`<p class="preview-heading">Topics</p>
          <p>
            ${content.topics.map((topic) => html`<span class="preview-chip preview-topic">${topic}</span> `)}
          </p>`
      }
      ${
        content.actionItem !== null &&
        html`<p class="preview-heading">Action items</p>
          <p><span class="preview-chip preview-insight">${content.actionItem}</span></p>`
      }
      <p class="preview-heading">Transcript</p>
      ${
        content.lines.length > 0
          ? content.lines.map(previewLine)
          : html`<p class="preview-muted">No lines yet.</p>`
      }
    </div>
  </section>`;
}

/** What an empty Video or Audio URL means (docs/MEDIA.md, The summary page). */
const OWN_MEDIA_HINT =
  "Empty: the page plays the conversation's own recording, when it was made from one (uploaded or fetched); " +
  "a conversation without one needs a URL here.";

/** The create-link form for one conversation, with the brand's preview; `errors` are the API's messages by field. */
export function renderLinkForm(
  frame: ConsoleFrame,
  page: {
    conversation: { id: string; name: string };
    members: { id: string; name: string }[];
    /** This conversation's first lines, topics and action item, for the preview. */
    preview: LinkPreview;
    /** The app's brand: what an empty brand field means. */
    brand: Brand;
    form: LinkForm;
    errors?: Errors;
    styleNonce: string;
  },
): string {
  const { form, conversation, brand } = page;
  const errors = page.errors ?? {};
  const lifetimes: [string, string][] = LIFETIMES.map(([seconds, name]) => [String(seconds), name]);
  if (!lifetimes.some(([value]) => value === form.summaryURLExpiresIn)) {
    lifetimes.push([form.summaryURLExpiresIn, `${form.summaryURLExpiresIn} seconds`]);
  }
  return renderConsolePage({
    title: "Create a link",
    frame,
    style: { nonce: page.styleNonce, css: previewCss(brandedInput(form, brand)) },
    body: html`<p>To the summary of “<strong>${conversation.name}</strong>”.</p>
      <div class="link-create">
        <form method="post" action="/console/conversations/${conversation.id}/links" class="card">
          ${select({
            label: LINK_FIELD_LABELS.name,
            name: "name",
            value: form.name,
            error: errors.name,
            choices: KINDS.map((kind) => [kind, KIND_NAMES[kind]]),
          })}
          ${text(form, errors, "label")}
          ${text(form, errors, "videoUrl", "https://…", { value: undefined, hint: OWN_MEDIA_HINT })}
          ${text(form, errors, "audioUrl", "https://…", { value: undefined, hint: OWN_MEDIA_HINT })}
          ${brandFields(form, errors, brand)} ${avatarFields(page.members, form, errors)}
          ${select({
            label: LINK_FIELD_LABELS.summaryURLExpiresIn,
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
            <a href="/console/conversations/${conversation.id}">Cancel</a>
          </div>
        </form>
        ${preview(form, conversation.name, page.preview, brand)}
      </div>`,
  });
}

/**
 * The new link's URL, to copy (selectable without the script, a Copy button with it) and to open. Only the
 * token's hash is kept, so this is the one time it can be shown.
 */
export function renderLinkCreated(
  frame: ConsoleFrame,
  link: { url: string; conversationId: string; conversationName: string },
): string {
  return renderConsolePage({
    title: "Link created",
    frame,
    body: html`<div class="card">
      <p>Anyone with this link can open the summary of “<strong>${link.conversationName}</strong>”.</p>
      <p class="notice" role="status">
        Copy it now: only a fingerprint of it is kept, so this page is the only time it can be shown.
      </p>
      <div class="field">
        <label for="link-url">Link</label>
        <div class="input-row">
          <input id="link-url" type="text" readonly value="${link.url}" />
          <button type="button" data-copy="link-url" hidden>Copy</button>
        </div>
        <p class="copy-status" role="status" aria-live="polite"></p>
      </div>
      <div class="actions">
        <a class="button" href="${link.url}" target="_blank" rel="noopener">Open the page</a>
        <a href="/console/conversations/${link.conversationId}">Back to “${link.conversationName}”</a>
        <a href="/console/links">All links</a>
      </div>
    </div>`,
  });
}

/** A cell a phone leaves out (the link's own page shows it), so a row's action stays on the screen. */
const WIDE = html`class="wide-only"`;

/**
 * What a link is, in the row's first cell: among several conversations' links its conversation's name first
 * (on a phone too, where the other columns are left out), then its label, or "No label" with the end of its
 * token, so unlabelled links of one conversation are still told apart.
 */
function linkIdentity(link: ConsoleLink, withConversation: boolean): Raw {
  const label =
    link.label ??
    html`<span class="muted">No label${link.hint === null ? "" : html` <code>…${link.hint}</code>`}</span>`;
  if (!withConversation) return html`${label}`;
  return html`<span class="link-conversation">${link.conversationName}</span>
    <span class="link-label">${label}</span>`;
}

function linkRow(link: ConsoleLink, withConversation: boolean): Raw {
  const name = link.label ?? `…${link.hint ?? ""}`;
  return html`<tr>
    <th scope="row">${linkIdentity(link, withConversation)}</th>
    <td><span class="state state-link-${link.state}">${STATE_NAMES[link.state]}</span></td>
    <td ${WIDE}>${KIND_NAMES[link.name]}</td>
    <td ${WIDE}>${link.hint === null ? "" : html`<code>…${link.hint}</code>`}</td>
    <td>${link.views}</td>
    <td ${WIDE}>${link.distinctViewers}</td>
    <td ${WIDE}>${when(link.lastViewedAt, "Never")}</td>
    <td ${WIDE}>${when(link.expiresAt, "Never")}</td>
    <td class="row-actions">
      <a href="/console/links/${link.conversationId}/${link.id}"
        >Manage<span class="visually-hidden"> ${name}</span></a
      >
    </td>
  </tr>`;
}

/** Links, newest first, with their views; the conversation's column only where links of several are listed. */
export function linksTable(links: ConsoleLink[], withConversation: boolean): Raw {
  return html`<table class="links">
    <caption class="visually-hidden">
      Summary links, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">${withConversation ? "Conversation and label" : "Label"}</th>
        <th scope="col">State</th>
        <th scope="col" ${WIDE}>Kind</th>
        <th scope="col" ${WIDE}>Ends with</th>
        <th scope="col">Views</th>
        <th scope="col" ${WIDE}>Viewers</th>
        <th scope="col" ${WIDE}>Last view</th>
        <th scope="col" ${WIDE}>Expires</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${links.map((link) => linkRow(link, withConversation))}
    </tbody>
  </table>`;
}

function linksPageLink(state: LinkState | null, page: number, label: string, rel: string): Raw {
  const query = new URLSearchParams({ ...(state && { state }), page: String(page) });
  return html`<a rel="${rel}" href="/console/links?${query.toString()}">${label}</a>`;
}

/** The app's links, newest first, filtered by state, with their views. */
export function renderLinks(frame: ConsoleFrame, listed: LinkListPage): string {
  const table = linksTable(listed.links, true);
  const empty = listed.state
    ? html`<p>No ${STATE_NAMES[listed.state].toLowerCase()} links.</p>`
    : html`<p>
        No links yet. Create one from one of your <a href="/console/conversations">conversations</a>.
      </p>`;
  return renderConsolePage({
    title: "Links",
    frame,
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
export function renderLinkManage(frame: ConsoleFrame, link: ConsoleLink, state: LinkEditState = {}): string {
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
    frame,
    body: html`<div class="card">
        <dl class="facts">
          <dt>State</dt>
          <dd><span class="state state-link-${link.state}">${STATE_NAMES[link.state]}</span></dd>
          <dt>Conversation</dt>
          <dd><a href="/console/conversations/${link.conversationId}">${link.conversationName}</a></dd>
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
                label: LINK_EDIT_FIELD_LABELS.label,
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
                  label: LINK_EDIT_FIELD_LABELS.expiresAt,
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
export function renderRevokeConfirmation(frame: ConsoleFrame, link: ConsoleLink): string {
  const name = link.label ?? `the link ending …${link.hint ?? ""}`;
  return renderConsolePage({
    title: "Revoke this link?",
    frame,
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
