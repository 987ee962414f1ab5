import { DomainError, invalid } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { parseJsonBody } from "../../http/json-body.ts";
import { UpdateAppBody } from "../apps/apps.schemas.ts";
import type { App, AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import { ProcessTextBody } from "../ingestion/ingestion.schemas.ts";
import {
  submissionFromText,
  type Accepted,
  type IngestionService,
  type Submission,
} from "../ingestion/ingestion.service.ts";
import type { TranscriptParser } from "../ingestion/transcript-pool.ts";
import type { TranscriptCue } from "../ingestion/transcript.ts";
import type { JobsService } from "../jobs/jobs.service.ts";
import type { ConversationListPage, SettingsField, SettingsForm } from "../../pages/console/view-model.ts";
import { FormRefused, formValidator, messageOf } from "./console-forms.ts";
import { ImportFields } from "./console.schemas.ts";

/** Conversations on one page of the console's list. */
export const CONSOLE_PAGE_SIZE = 20;

/** A transcript file as uploaded: its name decides how it is read. */
export interface UploadedTranscript {
  fileName: string;
  content: string;
}

const SETTINGS_FIELDS: readonly SettingsField[] = ["name", "customDomain", "frameAncestors"];

const checkProcessText = formValidator(ProcessTextBody, "/console/import");
const checkImportFields = formValidator(ImportFields, "/console/import");
const checkAppSettings = formValidator(UpdateAppBody, "/console/settings");

/** The field a message of the settings' rules is about: each message names it first. */
const settingsFieldOf = (message: string): SettingsField =>
  SETTINGS_FIELDS.find((field) => message.startsWith(`${field} `)) ?? "name";

/** What the console does beyond the API's own services: it reads and writes through them. */
export class ConsoleService {
  constructor(
    private readonly deps: {
      conversations: ConversationsService;
      jobs: JobsService;
      ingestion: IngestionService;
      apps: AppsService;
      transcripts: TranscriptParser;
    },
  ) {}

  /** One page (from 1) of the app's conversations, newest first, with members and job state. */
  async listConversations(appId: string, page: number, nameContains?: string): Promise<ConversationListPage> {
    const rows = await this.deps.conversations.listConversationRows(appId, {
      limit: CONSOLE_PAGE_SIZE + 1,
      offset: (page - 1) * CONSOLE_PAGE_SIZE,
      nameContains: nameContains?.trim(),
    });
    const shown = rows.slice(0, CONSOLE_PAGE_SIZE);
    const latestJobs = await this.deps.jobs.latestJobs(
      appId,
      shown.map(({ conversation }) => conversation.id),
    );
    return {
      conversations: shown.map(({ conversation, members }) => ({
        id: conversation.id,
        name: conversation.name,
        startTime: conversation.start_time,
        memberNames: members.map((member) => member.name),
        jobState: latestJobs.get(conversation.id)?.status ?? null,
        analysedBy:
          conversation.summary_engine === null
            ? null
            : conversation.summary_engine === "llm"
              ? "llm"
              : "local",
      })),
      page,
      hasNext: rows.length > CONSOLE_PAGE_SIZE,
    };
  }

  /**
   * Imports a WebVTT (.vtt), SRT (.srt) or `process/text` JSON (.json) file as a new conversation named
   * `name` (else the JSON's name), read and validated as the API reads them. Throws FormRefused (`file` or `name`).
   */
  async importTranscript(appId: string, name: string, file: UploadedTranscript): Promise<Accepted> {
    if (!checkImportFields({ name })) throw new FormRefused("name", messageOf(checkImportFields.errors), 400);
    const named = name.trim() === "" ? {} : { name };
    const read = await this.read(file);
    return "cues" in read
      ? this.deps.ingestion.importTranscript(appId, read.cues, named)
      : this.deps.ingestion.submit(appId, { ...read.submission, ...named });
  }

  /**
   * Changes the app's name, custom domain and frame ancestors with PATCH /v1/app's schema and service, so
   * with its rules and messages; nothing is stored when one is refused. Throws FormRefused.
   */
  async updateSettings(appId: string, form: SettingsForm): Promise<App> {
    const body = {
      name: form.name,
      customDomain: form.customDomain.trim() === "" ? null : form.customDomain,
      frameAncestors: form.frameAncestors
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== ""),
    };
    if (!checkAppSettings(body)) {
      const message = messageOf(checkAppSettings.errors);
      throw new FormRefused(settingsFieldOf(message), message, 400);
    }
    try {
      return (await this.deps.apps.updateSettings(appId, body, false)).app;
    } catch (error) {
      if (!(error instanceof DomainError) || statusOf(error) >= 500) throw error;
      throw new FormRefused(settingsFieldOf(error.message), error.message, statusOf(error));
    }
  }

  /** The file's cues (WebVTT, SRT) or its submission (JSON), by its name. Throws FormRefused (`file`). */
  private async read(
    file: UploadedTranscript,
  ): Promise<{ cues: TranscriptCue[] } | { submission: Submission }> {
    const extension = /\.([a-z]+)$/i.exec(file.fileName)?.[1]?.toLowerCase();
    try {
      if (extension === "vtt" || extension === "srt")
        return { cues: await this.deps.transcripts.parse(file.content) };
      if (extension === "json") {
        const body = parseJsonBody(file.content);
        if (!checkProcessText(body)) throw invalid(messageOf(checkProcessText.errors));
        return { submission: submissionFromText(body as ProcessTextBody) };
      }
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 400;
      throw new FormRefused("file", (error as Error).message, status);
    }
    throw new FormRefused("file", "file must be a WebVTT (.vtt), SRT (.srt) or JSON (.json) transcript", 400);
  }
}
