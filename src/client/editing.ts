/**
 * Inline edits on editable links, one handler per data-action, each saving through the link and updating
 * the page. The link's own path authorises every request (no cookie involved).
 */
import { initials } from "../pages/initials.ts";
import { readingText } from "../pages/reading-text.ts";
import { $, $$, announce, controlButton, linkPath, verbatim } from "./dom.ts";
import { wireEditMode } from "./edit-mode.ts";

const announceFailure = (error: unknown) =>
  announce(error instanceof Error ? error.message : "Saving failed.");

async function save(path: string, body: unknown): Promise<void> {
  const response = await fetch(linkPath() + path, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "omit",
  });
  if (!response.ok) {
    const message = ((await response.json().catch(() => ({}))) as { message?: string }).message;
    throw new Error(message ?? `Saving failed (${response.status})`);
  }
}

/** Replaces `target` with a small form; resolves after a successful save or a cancel. */
function editInline(
  target: HTMLElement,
  trigger: HTMLElement,
  options: {
    label: string;
    multiline?: boolean;
    /** The text to edit, when the page shows another form of it. */
    stored?: string | undefined;
    /** How a saved value is shown. */
    shown?: (value: string) => string;
    submit: (value: string) => Promise<void>;
  },
): void {
  if (target.hidden) return;
  const form = document.createElement("form");
  form.className = "editor";
  const field = document.createElement(options.multiline ? "textarea" : "input");
  field.value = options.stored ?? target.textContent ?? "";
  field.setAttribute("aria-label", options.label);
  field.dir = "auto";
  if (field instanceof HTMLTextAreaElement) field.rows = 3;
  const saveButton = document.createElement("button");
  saveButton.type = "submit";
  saveButton.className = "control";
  saveButton.textContent = "Save";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "control";
  cancel.textContent = "Cancel";
  form.append(field, saveButton, cancel);
  target.hidden = true;
  trigger.hidden = true;
  target.after(form);
  field.focus();

  const close = () => {
    form.remove();
    target.hidden = false;
    trigger.hidden = false;
    trigger.focus();
  };
  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = field.value.trim();
    if (value === "") {
      announce("The text cannot be empty.");
      return;
    }
    saveButton.disabled = true;
    options
      .submit(value)
      .then(() => {
        target.textContent = options.shown ? options.shown(value) : value;
        close();
        announce("Saved.");
      })
      .catch((error: unknown) => {
        saveButton.disabled = false;
        announceFailure(error);
      });
  });
}

const messagePath = (line: HTMLElement) => `/messages/${encodeURIComponent(line.id.slice(2))}`;
const insightPath = (item: HTMLElement) => `/insights/${encodeURIComponent(item.dataset.insightId ?? "")}`;

function renameConversation(button: HTMLButtonElement): void {
  const title = $("[data-field=title]");
  if (!title) return;
  editInline(title, button, {
    label: "Conversation name",
    submit: async (name) => {
      await save("/conversation", { name });
      document.title = `${name} · Summary`;
    },
  });
}

function renameMember(button: HTMLButtonElement): void {
  const attendee = button.closest<HTMLElement>("[data-member-id]");
  const id = attendee?.dataset.memberId ?? "";
  const name = attendee && $(".attendee-name", attendee);
  if (!name) return;
  editInline(name, button, {
    label: "Speaker name",
    submit: async (value) => {
      await save(`/members/${encodeURIComponent(id)}`, { name: value });
      for (const other of $$(`[data-member-name="${CSS.escape(id)}"]`)) other.textContent = value;
      const avatar = $(".avatar-initials", attendee);
      if (avatar) avatar.textContent = initials(value);
      button.setAttribute("aria-label", `Rename speaker ${value}`);
    },
  });
}

/** Edits a line's stored text (data-text where the page shows it cleaned), then shows it as the page does. */
function editMessage(button: HTMLButtonElement): void {
  const line = button.closest<HTMLElement>(".line");
  const text = line && $(".line-text", line);
  if (!line || !text) return;
  text.replaceChildren(text.textContent ?? "");
  editInline(text, button, {
    label: "Line text",
    multiline: true,
    stored: line.dataset.text,
    shown: (value) => (verbatim() ? value : readingText(value)),
    submit: async (value) => {
      await save(messagePath(line), { text: value });
      if (verbatim() || readingText(value) === value) delete line.dataset.text;
      else line.dataset.text = value;
      line.classList.toggle("is-sound", readingText(value) === "");
      window.setTimeout(() => document.dispatchEvent(new Event("recap:transcript-changed")), 0);
    },
  });
}

/** Marks a line hidden or restored as the server renders it: class, button and badge. */
function showHidden(line: HTMLElement, button: HTMLButtonElement, hide: boolean): void {
  line.classList.toggle("is-hidden", hide);
  button.textContent = hide ? "Restore" : "Hide";
  button.setAttribute("aria-label", hide ? "Restore this line" : "Hide this line");
  const head = $(".line-head", line);
  $(".badge", line)?.remove();
  if (hide && head) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = "Hidden from the API and read-only links";
    const controls = $(".controls", head);
    if (controls) controls.before(badge);
    else head.append(badge);
  }
}

function toggleHidden(button: HTMLButtonElement): void {
  const line = button.closest<HTMLElement>(".line");
  if (!line) return;
  const hide = !line.classList.contains("is-hidden");
  save(messagePath(line), { hidden: hide })
    .then(() => {
      showHidden(line, button, hide);
      announce(hide ? "Line hidden." : "Line restored.");
    })
    .catch(announceFailure);
}

function editInsight(button: HTMLButtonElement): void {
  const item = button.closest<HTMLElement>("[data-insight-id]");
  const text = item && $(".item-text", item);
  if (!item || !text) return;
  editInline(text, button, {
    label: "Insight text",
    multiline: true,
    submit: (value) => save(insightPath(item), { text: value }),
  });
}

/** "Show all (n)" and "Dismissed (n)" follow the group's lists after an item moves between them. */
function recount(group: HTMLElement): void {
  const shown = $$(":scope > ul.items > li, :scope > details.more li", group).length;
  const dismissed = $<HTMLDetailsElement>(":scope > details.dismissed", group);
  const more = $(":scope > details.more .count", group);
  if (more) more.textContent = `(${shown})`;
  if (!dismissed) return;
  const count = $$("li", dismissed).length;
  const label = $(".count", dismissed);
  if (label) label.textContent = `(${count})`;
  dismissed.hidden = count === 0;
}

/** Puts an insight in its group's dismissed list or back in its shown list, with the controls it has there. */
function moveInsight(item: HTMLElement, dismissed: boolean): void {
  const group = item.closest<HTMLElement>(".insight-group");
  const target = group && $(dismissed ? ":scope > details.dismissed ul" : ":scope > ul.items", group);
  const controls = $(".controls", item);
  if (!group || !controls) return;
  controls.replaceChildren(
    ...(dismissed
      ? [controlButton("restore-insight", "Restore this insight", "Restore")]
      : [
          controlButton("edit-insight", "Edit this insight", "Edit"),
          controlButton("dismiss-insight", "Dismiss this insight", "Dismiss"),
        ]),
  );
  if (target) target.append(item);
  else {
    // The group showed none: its list comes back in place of the "none were found" note.
    const list = document.createElement("ul");
    list.className = "items";
    list.append(item);
    const empty = $(":scope > .empty", group);
    if (empty) empty.replaceWith(list);
    else $("h3", group)?.after(list);
  }
  recount(group);
}

function dismissInsight(button: HTMLButtonElement): void {
  const item = button.closest<HTMLElement>("[data-insight-id]");
  if (!item) return;
  save(insightPath(item), { dismissed: true })
    .then(() => {
      const next = item.nextElementSibling ?? item.previousElementSibling;
      const group = item.closest<HTMLElement>(".insight-group");
      moveInsight(item, true);
      announce("Insight dismissed. It can be restored from the dismissed list.");
      const focusable: HTMLElement | null =
        next?.querySelector<HTMLElement>("a, button:not([hidden])") ??
        $<HTMLElement>("h3", group ?? document);
      if (focusable) {
        if (!focusable.matches("a, button")) focusable.tabIndex = -1;
        focusable.focus();
      }
    })
    .catch(announceFailure);
}

function restoreInsight(button: HTMLButtonElement): void {
  const item = button.closest<HTMLElement>("[data-insight-id]");
  if (!item) return;
  save(insightPath(item), { dismissed: false })
    .then(() => {
      moveInsight(item, false);
      announce("Insight restored.");
      $<HTMLElement>("[data-action=dismiss-insight]", item)?.focus();
    })
    .catch(announceFailure);
}

const EDIT_ACTIONS = new Map<string, (button: HTMLButtonElement) => void>([
  ["rename-conversation", renameConversation],
  ["rename-member", renameMember],
  ["edit-message", editMessage],
  ["toggle-hidden", toggleHidden],
  ["edit-insight", editInsight],
  ["dismiss-insight", dismissInsight],
  ["restore-insight", restoreInsight],
]);

export function wireEditing(): void {
  const toggle = $<HTMLButtonElement>("#edit-toggle");
  if (document.body.dataset.editable !== "true" || !toggle) return;
  wireEditMode(toggle);
  document.addEventListener("click", (event) => {
    const button =
      event.target instanceof Element ? event.target.closest<HTMLButtonElement>("button[data-action]") : null;
    if (button) EDIT_ACTIONS.get(button.dataset.action ?? "")?.(button);
  });
}
