import { html, raw, type Raw } from "./escape.ts";
import type { PageMessage } from "./view-model.ts";

/** The page's lines by id, for links from the overview into the transcript. */
export type MessagesById = Map<string, PageMessage>;

/** A control the page script reveals and wires (data-action) on editable links. */
export function editButton(action: string, label: string, text = "Edit"): Raw {
  return html`<button type="button" class="control" data-action="${action}" aria-label="${label}" hidden>
    ${text}
  </button>`;
}

/** Text that jumps to (and seeks the media to) the first of its lines still on the page, or plain text. */
export function gotoLink(messageIds: string[], messagesById: MessagesById, text: string): Raw {
  const target = messageIds.find((id) => messagesById.has(id));
  if (!target) return html`<span class="item-text" dir="auto">${text}</span>`;
  const offset = messagesById.get(target)?.offset;
  return html`<a
    class="goto item-text"
    dir="auto"
    href="#m-${target}"
    data-goto="${target}"
    ${offset !== null && offset !== undefined ? raw(`data-seek="${offset}"`) : ""}
    >${text}</a
  >`;
}

/** A member's name the page script renames in place (data-member-name); a non-member's name as is. */
export function memberName(id: string | null, name: string): Raw {
  return id === null
    ? html`<strong dir="auto">${name}</strong>`
    : html`<strong data-member-name="${id}" dir="auto">${name}</strong>`;
}
