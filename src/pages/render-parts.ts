import { html, raw, type Raw } from "./escape.ts";
import type { TranscriptParts } from "./transcript-parts.ts";

/** A control the page script reveals and wires (data-action) on editable links. */
export function editButton(action: string, label: string, text = "Edit"): Raw {
  return html`<button type="button" class="control" data-action="${action}" aria-label="${label}" hidden>
    ${text}
  </button>`;
}

/**
 * The attributes of a link to a line: its address (its anchor, or its part's page when another part is
 * shown), the line the script jumps to, the part it is in when the transcript is in parts, and its time, to
 * which the script seeks the media.
 */
export function lineLinkAttributes(id: string, parts: TranscriptParts, seconds?: number | null): Raw {
  const part = parts.whole ? undefined : parts.partOf(id);
  const more =
    (part === undefined ? "" : ` data-part="${part}"`) +
    (seconds === null || seconds === undefined ? "" : ` data-seek="${seconds}"`);
  return html`href="${parts.href(id)}" data-goto="${id}"${raw(more)}`;
}

/** Text that jumps to (and seeks the media to) the first of its lines still on the page, or plain text. */
export function gotoLink(messageIds: string[], parts: TranscriptParts, text: string): Raw {
  const target = messageIds.find((id) => parts.message(id) !== undefined);
  if (target === undefined) return html`<span class="item-text" dir="auto">${text}</span>`;
  return html`<a
    class="goto item-text"
    dir="auto"
    ${lineLinkAttributes(target, parts, parts.message(target)?.offset)}
    >${text}</a
  >`;
}

/** A member's name the page script renames in place (data-member-name); a non-member's name as is. */
export function memberName(id: string | null, name: string): Raw {
  return id === null
    ? html`<strong dir="auto">${name}</strong>`
    : html`<strong data-member-name="${id}" dir="auto">${name}</strong>`;
}
