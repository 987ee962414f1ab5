/** The page script's shared DOM helpers. */
export const $ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document) =>
  root.querySelector<T>(selector);
export const $$ = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document) => [
  ...root.querySelectorAll<T>(selector),
];

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
export const scrollBehavior = (): ScrollBehavior => (reducedMotion() ? "auto" : "smooth");

export function announce(message: string): void {
  const status = $("#status");
  if (!status) return;
  status.textContent = "";
  window.setTimeout(() => (status.textContent = message), 30);
}

/** An edit control, as the server renders them (data-action names its handler in editing.ts). */
export function controlButton(action: string, label: string, text: string): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "control";
  button.dataset.action = action;
  button.setAttribute("aria-label", label);
  button.textContent = text;
  return button;
}

/** Puts a screen reader's note on how to move in a roving-tabindex widget just before it; elements point to it by `id`. */
export function addMovingHelp(widget: Element, id: string, text: string): void {
  const help = document.createElement("p");
  help.id = id;
  help.className = "visually-hidden";
  help.textContent = text;
  widget.before(help);
}

export const lines = () => $$<HTMLLIElement>(".line");

/** Whether the page shows the transcript as stored (?text=verbatim), not cleaned for reading. */
export const verbatim = () => $('[data-text-mode="verbatim"][aria-current]') !== null;

/** The link's own address, under which its parts, search and edits are asked for. */
export const linkPath = () => location.pathname.replace(/\/+$/, "");

/** Whether an element is laid out (not display: none, nor inside such). */
export const shown = (element: HTMLElement) => element.offsetParent !== null;

/** Scrolls a line into view (below the sticky toolbar), marks it and, if asked, focuses it. */
export function showLine(
  line: HTMLElement,
  options: { focus?: boolean; block?: ScrollLogicalPosition } = {},
) {
  line.scrollIntoView({ block: options.block ?? "center", behavior: scrollBehavior() });
  for (const other of $$(".line.is-target")) other.classList.remove("is-target");
  line.classList.add("is-target");
  if (options.focus) line.focus({ preventScroll: true });
}
