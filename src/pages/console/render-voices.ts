import { html, type Raw } from "../escape.ts";
import { VOICE_FIELD_LABELS } from "./labels.ts";
import { field, renderConsolePage, type ConsoleFrame } from "./layout.ts";
import { when } from "./render-links.ts";
import type { ConsoleVoice, VoiceField, VoiceForm, VoiceListView } from "./view-model.ts";

/** A cell a phone leaves out (the voice's own page shows it), so the row's actions stay on the screen. */
const WIDE = html`class="wide-only"`;

/** Where the app's voice profiles switch is. */
const VOICES_SWITCH = "/console/settings#field-voiceProfiles";

const speech = (seconds: number) => `${seconds.toLocaleString("en-GB")} s of speech`;

/** The conversations a voice was heard in, each a link to its console page; a deleted one said so. */
function heardIn(voice: ConsoleVoice): Raw {
  if (voice.conversations.length === 0) return html`Nowhere any more`;
  return html`<ul class="heard-in">
    ${voice.conversations.map((conversation) =>
      conversation.name === null
        ? html`<li class="muted">A deleted conversation</li>`
        : html`<li><a href="/console/conversations/${conversation.id}">${conversation.name}</a></li>`,
    )}
  </ul>`;
}

function row(voice: ConsoleVoice): Raw {
  return html`<tr>
    <th scope="row">
      <a href="/console/voices/${voice.id}">${voice.name}</a>
      ${voice.email !== null && html`<span class="muted voice-email">${voice.email}</span>`}
      ${voice.needsRefresh && stale}
    </th>
    <td ${WIDE}>${speech(voice.speechSeconds)}</td>
    <td ${WIDE}>${when(voice.createdAt, "")}</td>
    <td ${WIDE}>${when(voice.updatedAt, "")}</td>
    <td>${heardIn(voice)}</td>
    <td class="row-actions">
      <a href="/console/voices/${voice.id}">Rename<span class="visually-hidden"> ${voice.name}</span></a>
      <a href="/console/voices/${voice.id}/delete"
        >Delete<span class="visually-hidden"> ${voice.name}</span></a
      >
    </td>
  </tr>`;
}

/** Said of a voice made with another embedding model: it is not matched until saved again. */
const stale = html`<span class="notice refused voice-email">
  Needs refreshing: made with another speaker model, so it is not recognised. Save this person's voice again
  from a conversation.
</span>`;

/** Said on the voices' pages while the app keeps no new voice. */
const switchedOff = html`<p class="notice" role="status">
  Voice profiles are off for this app: no voice is saved or refined. The voices kept already can still be
  renamed and deleted. <a href="${VOICES_SWITCH}">Turn voice profiles on in the settings</a>.
</p>`;

/**
 * The app's voice profiles, oldest first, with where each was heard (two of one name each with its own
 * conversations), and the ways to rename and delete one.
 */
export function renderVoices(frame: ConsoleFrame, view: VoiceListView): string {
  const table = html`<table class="voices">
    <caption class="visually-hidden">
      Voices, oldest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col" ${WIDE}>Speech</th>
        <th scope="col" ${WIDE}>Made</th>
        <th scope="col" ${WIDE}>Last refined</th>
        <th scope="col">Heard in</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${view.voices.map(row)}
    </tbody>
  </table>`;
  return renderConsolePage({
    title: "Voices",
    frame,
    body: html`${!view.voiceProfiles && switchedOff}
      <p>
        A voice keeps a named speaker's voice as numbers, no audio. Save one with “Save this voice” beside a
        named speaker on a recorded conversation's page; saving the same person from another conversation
        refines it.
      </p>
      ${view.voices.length > 0 ? table : html`<p>No voices saved yet.</p>`}`,
  });
}

/**
 * One voice: what it is and where it was heard, the form renaming it (`form` and `errors`: a refused post's
 * values and messages; `saved`: just renamed) and the way to delete it.
 */
export function renderVoice(
  frame: ConsoleFrame,
  voice: ConsoleVoice,
  options: { form?: VoiceForm; errors?: Partial<Record<VoiceField, string>>; saved?: boolean } = {},
): string {
  const form = options.form ?? { name: voice.name, email: voice.email ?? "" };
  const errors = options.errors ?? {};
  return renderConsolePage({
    title: voice.name,
    frame,
    body: html`${options.saved && html`<p class="notice" role="status">Voice renamed.</p>`}
      <dl class="card facts">
        <dt>E-mail</dt>
        <dd>${voice.email ?? "None"}</dd>
        <dt>Speech</dt>
        <dd>${speech(voice.speechSeconds)} ${voice.needsRefresh && stale}</dd>
        <dt>Made</dt>
        <dd>${when(voice.createdAt, "")}</dd>
        <dt>Last refined</dt>
        <dd>${when(voice.updatedAt, "")}</dd>
        <dt>Heard in</dt>
        <dd>${heardIn(voice)}</dd>
      </dl>
      <h2>Rename</h2>
      <form method="post" action="/console/voices/${voice.id}" class="card" novalidate>
        ${field({
          label: VOICE_FIELD_LABELS.name,
          name: "name",
          type: "text",
          value: form.name,
          error: errors.name,
          attributes: html`autocomplete="off"`,
        })}
        ${field({
          label: VOICE_FIELD_LABELS.email,
          name: "email",
          type: "email",
          value: form.email,
          hint: "The same e-mail on a member saved later refines this voice.",
          error: errors.email,
          attributes: html`autocomplete="off" spellcheck="false"`,
        })}
        <button type="submit">Save</button>
      </form>
      <div class="card actions">
        <a href="/console/voices/${voice.id}/delete">Delete this voice…</a>
      </div>
      <p><a href="/console/voices">Back to the voices</a></p>`,
  });
}

/** Asks before deleting a voice: a form of its own, so it works without the script. */
export function renderVoiceDeleteConfirmation(frame: ConsoleFrame, voice: ConsoleVoice): string {
  return renderConsolePage({
    title: "Delete this voice?",
    frame,
    body: html`<form method="post" action="/console/voices/${voice.id}/delete" class="card">
      <p>
        The voice of “<strong>${voice.name}</strong>” will be deleted with every reference computed from its
        speech, at once. Its conversations stay as they are. This cannot be undone.
      </p>
      <div class="actions">
        <button type="submit" class="danger">Delete the voice</button>
        <a href="/console/voices/${voice.id}">Cancel</a>
      </div>
    </form>`,
  });
}
