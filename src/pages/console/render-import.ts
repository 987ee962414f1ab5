import { html } from "../escape.ts";
import { checkbox, field, renderConsolePage, type ConsoleFrame } from "./layout.ts";
import type { ImportField, ImportForm, JobState } from "./view-model.ts";

/**
 * The import form; `errors` are the server's messages, by field. A recording's options come before the file:
 * the form sends its fields in this order, and a recording is streamed on as it arrives.
 */
export function renderImport(
  frame: ConsoleFrame,
  form: Partial<ImportForm> & { errors?: Partial<Record<ImportField, string>> } = {},
): string {
  const errors = form.errors ?? {};
  return renderConsolePage({
    title: "Import a transcript or a recording",
    frame,
    body: html`<p>
        A WebVTT or SRT file (a speaker is read from <code>&lt;v Name&gt;</code> or a
        <code>Name:</code> prefix), a JSON body of <code>POST /v1/process/text</code>, or an audio or video
        recording to transcribe (MP3, WAV, M4A, Ogg, WebM, FLAC, MP4, MOV, AMR…, whatever its file is called;
        the server needs a speech engine). A recording is checked and transcribed as
        <code>POST /v1/process/audio</code> does, with the options below.
      </p>
      <form method="post" action="/console/import" enctype="multipart/form-data" class="card">
        ${field({
          label: "Name",
          name: "name",
          type: "text",
          value: form.name ?? "",
          error: errors.name,
          attributes: html`maxlength="1000"`,
        })}
        <fieldset>
          <legend>For a recording</legend>
          ${checkbox(
            "diarization",
            "Tell the speakers apart (speaker diarization)",
            form.diarization ?? false,
            errors.diarization,
          )}
          ${field({
            label: "Number of speakers",
            name: "speakerCount",
            type: "number",
            value: form.speakerCount ?? "",
            hint: "With diarization, when you know it; empty: found from the recording.",
            error: errors.speakerCount,
            attributes: html`min="1" max="32" step="1" inputmode="numeric"`,
          })}
          ${[1, 2].map((channel) =>
            field({
              label: `Speaker on channel ${channel}`,
              name: `channel${channel}`,
              type: "text",
              value: form.channels?.[channel - 1] ?? "",
              hint:
                channel === 1
                  ? "For a recording with one speaker on each channel (a call: agent left, customer right): their names. Empty: the channels are mixed and their lines are not named."
                  : undefined,
              error: errors[channel === 1 ? "channel1" : "channel2"],
              attributes: html`maxlength="200"`,
            }),
          )}
        </fieldset>
        ${field({
          label: "File (.vtt, .srt, .json, or a recording)",
          name: "file",
          type: "file",
          error: errors.file,
          attributes: html`required
          accept=".vtt,.srt,.json,text/vtt,application/x-subrip,application/json,audio/*,video/*"`,
        })}
        <button type="submit">Import</button>
      </form>`,
  });
}

const STATUS_TEXT: Record<JobState, string> = {
  scheduled: "Waiting to be processed…",
  in_progress: "Processing…",
  completed: "Completed: the conversation is analysed.",
  failed: "Failed.",
};

/**
 * A job's progress; while it runs the page reloads itself (the script, or a refresh without it). Once it
 * has ended, the ways on: the conversation's page, a link to it, another import.
 */
export function renderJob(
  frame: ConsoleFrame,
  job: { id: string; status: JobState; conversationId: string; message?: string; progress?: number },
  conversationName: string | null,
): string {
  const finished = job.status === "completed" || job.status === "failed";
  const conversation = `/console/conversations/${job.conversationId}`;
  const next =
    conversationName === null
      ? html`<p>
          Its conversation has been deleted. <a href="/console/import">Import another transcript</a>
        </p>`
      : html`<p>“<strong>${conversationName}</strong>”</p>
          <div class="actions">
            ${job.status === "completed" && html`<a class="button" href="${conversation}/links/new">Create a link</a>`}
            <a href="${conversation}">Open the conversation</a>
            <a href="/console/import">Import another transcript</a>
          </div>`;
  return renderConsolePage({
    title: "Import",
    frame,
    refreshWithoutScript: !finished,
    body: html`<div class="card" data-job-status="${job.status}" role="status" aria-live="polite">
      <p class="state state-${job.status}">
        ${job.status === "failed" && job.message !== undefined ? `Failed: ${job.message}` : STATUS_TEXT[job.status]}
      </p>
      ${
        job.progress !== undefined &&
        !finished &&
        html`<p>
          <label
            >Transcribed
            <progress max="100" value="${String(job.progress)}">${String(job.progress)}%</progress>
            ${String(job.progress)}%</label
          >
        </p>`
      }
      ${finished && next}
    </div>`,
  });
}
