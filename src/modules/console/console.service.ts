import { DomainError } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { checkInput, decodeUtf8 } from "../../http/input-rules.ts";
import { UpdateAppBody } from "../apps/apps.schemas.ts";
import type { App, AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import {
  submissionFromText,
  type Accepted,
  type IngestionService,
  type Submission,
} from "../ingestion/ingestion.service.ts";
import { readTranscriptFile } from "../ingestion/transcript-file.ts";
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
  bytes: Buffer;
}

const SETTINGS_FIELDS: readonly SettingsField[] = ["name", "customDomain", "frameAncestors"];

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
   * `name` (the field's bytes, else the JSON's name), both read and validated as the API reads a body.
   * Throws FormRefused (`file` or `name`).
   */
  async importTranscript(appId: string, nameBytes: Buffer, file: UploadedTranscript): Promise<Accepted> {
    let name: string;
    try {
      name = decodeUtf8(nameBytes, "name");
      checkInput("body", { name });
    } catch (error) {
      throw new FormRefused("name", (error as Error).message, 400);
    }
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

  /** The file's cues (WebVTT, SRT) or its submission (JSON), read by readTranscriptFile (the API's rules). Throws FormRefused (`file`). */
  private async read(
    file: UploadedTranscript,
  ): Promise<{ cues: TranscriptCue[] } | { submission: Submission }> {
    try {
      const read = readTranscriptFile(file.fileName, file.bytes);
      if (read.format === "json") return { submission: submissionFromText(read.body) };
      return { cues: await this.deps.transcripts.parse(read.text) };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new FormRefused("file", error.message, statusOf(error));
    }
  }
}
