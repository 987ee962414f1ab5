/**
 * Edit mode: an editable link reads like a read-only one until the viewer turns editing on. Then the rename
 * and insight buttons show, and one set of line controls follows the line in focus or under the pointer, so
 * a long meeting does not get thousands of buttons (docs/PAGES.md, "Editing through a link").
 */
import { $, $$, announce, controlButton } from "./dom.ts";

/** The one set of line controls, moved to the line in focus (a long meeting has thousands of lines). */
function lineControls(): HTMLElement {
  const controls = document.createElement("span");
  controls.className = "controls";
  controls.append(
    controlButton("edit-message", "Edit this line", "Edit"),
    controlButton("toggle-hidden", "Hide this line", "Hide"),
  );
  return controls;
}

function moveLineControls(controls: HTMLElement, line: HTMLElement): void {
  // Not while a line is being edited: its editor's Cancel returns focus to these controls.
  if (controls.parentElement?.closest(".line") === line || $(".lines .editor")) return;
  const hidden = line.classList.contains("is-hidden");
  const toggle = $<HTMLButtonElement>("[data-action=toggle-hidden]", controls);
  if (toggle) {
    toggle.textContent = hidden ? "Restore" : "Hide";
    toggle.setAttribute("aria-label", hidden ? "Restore this line" : "Hide this line");
  }
  $(".line-head", line)?.append(controls);
}

/**
 * Edit mode: an editable link reads like a read-only one until the viewer presses "Edit this summary";
 * then the rename buttons show, and edit controls appear on the line or insight in focus (or under the
 * pointer).
 */
export function wireEditMode(toggle: HTMLButtonElement): void {
  const buttons = $$("[data-action]").filter((button) => button.closest("[data-js]") === null);
  const controls = lineControls();
  const set = (on: boolean) => {
    toggle.setAttribute("aria-pressed", String(on));
    document.body.classList.toggle("is-editing", on);
    for (const button of buttons) button.hidden = !on;
    if (!on) controls.remove();
    announce(on ? "Editing is on." : "Editing is off.");
  };
  toggle.addEventListener("click", () => set(toggle.getAttribute("aria-pressed") !== "true"));
  const follow = (event: Event) => {
    const line = event.target instanceof Element ? event.target.closest<HTMLElement>(".line") : null;
    if (line && document.body.classList.contains("is-editing")) moveLineControls(controls, line);
  };
  $(".lines")?.addEventListener("focusin", follow);
  $(".lines")?.addEventListener("mouseover", follow);
}
