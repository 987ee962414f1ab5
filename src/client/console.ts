// The console's script: its pages work without it. On a running import's page it polls the page itself
// and swaps in the new status, instead of reloading the whole page every few seconds; on the create-link
// form it redraws the brand's preview as the owner types; beside each colour's text field it shows a colour
// input kept in step with it; on a new link it copies the URL.
import { HEX_COLOUR } from "../pages/colour.ts";
import { safeHttpUrl } from "../pages/escape.ts";
import { previewVariables } from "../pages/console/link-preview.ts";
import { localiseTimes } from "./local-time.ts";

const FINISHED = new Set(["completed", "failed"]);
const POLL_MS = 1500;

async function followJob(status: HTMLElement): Promise<void> {
  while (!FINISHED.has(status.dataset.jobStatus ?? "")) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const response = await fetch(location.href, { headers: { accept: "text/html" } });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const next = page.querySelector<HTMLElement>("[data-job-status]");
    if (!next) return;
    if (next.dataset.jobStatus !== status.dataset.jobStatus) {
      status.dataset.jobStatus = next.dataset.jobStatus ?? "";
      status.replaceChildren(...next.childNodes);
    }
  }
}

localiseTimes();

const jobStatus = document.querySelector<HTMLElement>("[data-job-status]");
if (jobStatus) void followJob(jobStatus);

/**
 * Sets the summary page's custom properties on the preview (through the CSSOM, which the CSP allows). An
 * empty field shows what the link's page would: the app's value (`data-app-default`), else the page's.
 */
function followBranding(preview: HTMLElement): void {
  const value = (name: string) => {
    const input = document.querySelector<HTMLInputElement>(`[data-preview="${name}"]`);
    return input?.value.trim() || input?.dataset.appDefault || "";
  };
  const logo = preview.querySelector<HTMLImageElement>(".preview-logo");
  const redraw = () => {
    const variables = previewVariables({
      background: value("background"),
      topicsFilter: value("topicsFilter"),
      insightsFilter: value("insightsFilter"),
      fontFamily: value("fontFamily"),
    });
    for (const [name, colour] of Object.entries(variables)) preview.style.setProperty(name, colour);
    const url = safeHttpUrl(value("logo"));
    if (logo && url !== logo.getAttribute("src")) {
      if (url === null) logo.removeAttribute("src");
      else logo.src = url;
      logo.hidden = url === null;
    }
  };
  document.addEventListener("input", (event) => {
    if ((event.target as HTMLElement).matches("[data-preview]")) redraw();
  });
}

/**
 * A colour input beside a colour's text field: shown, and kept in step both ways. Picking writes the text
 * (and tells the preview); typing a whole #RRGGBB moves the picker; an emptied field puts it back on what an
 * empty field means (`data-colour-fallback`).
 */
function pairColour(picker: HTMLInputElement): void {
  const text = document.getElementById(picker.dataset.colourFor ?? "") as HTMLInputElement | null;
  if (!text) return;
  picker.hidden = false;
  picker.addEventListener("input", () => {
    text.value = picker.value;
    text.dispatchEvent(new Event("input", { bubbles: true }));
  });
  text.addEventListener("input", () => {
    const typed = text.value.trim();
    if (HEX_COLOUR.test(typed)) picker.value = typed.toLowerCase();
    else if (typed === "") picker.value = text.dataset.colourFallback ?? picker.value;
  });
}

/** A Copy button next to a readonly input: copies its text and says so. */
function enableCopy(button: HTMLButtonElement): void {
  const input = document.getElementById(button.dataset.copy ?? "") as HTMLInputElement | null;
  const status = button.closest(".field")?.querySelector(".copy-status");
  if (!input) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    input.select();
    navigator.clipboard.writeText(input.value).then(
      () => status && (status.textContent = "Copied."),
      () => status && (status.textContent = "Could not copy; select the link and copy it."),
    );
  });
}

const preview = document.querySelector<HTMLElement>("[data-link-preview]");
if (preview) followBranding(preview);
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) enableCopy(button);
for (const picker of document.querySelectorAll<HTMLInputElement>("input[data-colour-for]"))
  pairColour(picker);
