// The console's script: its pages work without it; on a running import's page it polls the page itself
// and swaps in the new status, instead of reloading the whole page every few seconds.

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

const jobStatus = document.querySelector<HTMLElement>("[data-job-status]");
if (jobStatus) void followJob(jobStatus);
