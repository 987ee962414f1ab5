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

export const lines = () => $$<HTMLLIElement>(".line");
