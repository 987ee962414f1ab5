import type { Readable } from "node:stream";
import { Type } from "typebox";
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
import type { MediaService } from "../media/media.service.ts";
import { MediaFileQuery } from "../media/media.schemas.ts";
import type { TranscriptParser } from "../ingestion/transcript-pool.ts";
import type { TranscriptCue } from "../ingestion/transcript.ts";
import type { JobsService } from "../jobs/jobs.service.ts";
import { INSIGHT_GROUPS, type PageMessage } from "../../pages/view-model.ts";
import { BRAND_FIELD_LABELS, SETTINGS_FIELD_LABELS } from "../../pages/console/labels.ts";
import type {
  BrandField,
  BrandForm,
  ConsoleLine,
  ConversationListPage,
  ConversationOverview,
  ImportField,
  SettingsField,
  SettingsForm,
} from "../../pages/console/view-model.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
import type { SummaryPageService } from "../summary-page/summary-page.service.ts";
import {
  brandBodyOf,
  brandFieldOf,
  FormRefused,
  formValidator,
  messageOf,
  relabel,
} from "./console-forms.ts";
import { ImportFields } from "./console.schemas.ts";

/** Conversations on one page of the console's list. */
export const CONSOLE_PAGE_SIZE = 20;
/** Lines shown either side of the line a search hit opens a conversation's page at. */
const EXCERPT_AROUND = 3;

/** A transcript file as uploaded: its name decides how it is read. */
export interface UploadedTranscript {
  fileName: string;
  bytes: Buffer;
}

const SETTINGS_FIELDS: readonly SettingsField[] = ["name", "customDomain", "frameAncestors", "voiceProfiles"];

const checkImportFields = formValidator(ImportFields, "/console/import");
const checkAppSettings = formValidator(UpdateAppBody, "/console/settings");

/** The field a message of the settings' rules is about: each message names it first. */
const settingsFieldOf = (message: string): SettingsField =>
  SETTINGS_FIELDS.find((field) => message.startsWith(`${field} `)) ?? "name";

/** A refusal of the settings form, its message naming the field by the form's label. */
const settingsRefusal = (message: string, status: number) => {
  const field = settingsFieldOf(message);
  return new FormRefused(field, relabel(message, field, SETTINGS_FIELD_LABELS[field]), status);
};

/** A refusal of the brand form: the API's `brand.color.background …` said with the form's label. */
const brandRefusal = (message: string, status: number) => {
  const path = message.split(" ")[0] ?? "";
  const field: BrandField = brandFieldOf(path.replace(/^brand\./, "")) ?? "logo";
  return new FormRefused(field, relabel(message, path, BRAND_FIELD_LABELS[field]), status);
};

/** What the console does beyond the API's own services: it reads and writes through them. */
export class ConsoleService {
  constructor(
    private readonly deps: {
      conversations: ConversationsService;
      jobs: JobsService;
      ingestion: IngestionService;
      apps: AppsService;
      transcripts: TranscriptParser;
      summaryPage: Pick<SummaryPageService, "conversationView">;
      media: Pick<MediaService, "submitUpload" | "requireEngine" | "recordingsOf">;
      experiences: Pick<ExperiencesService, "listAppLinks">;
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
    const ids = shown.map(({ conversation }) => conversation.id);
    const [latestJobs, unnamed] = await Promise.all([
      this.deps.jobs.latestJobs(appId, ids),
      this.deps.conversations.withUnnamedLines(ids),
    ]);
    return {
      conversations: shown.map(({ conversation, members }) => ({
        id: conversation.id,
        name: conversation.name,
        startTime: conversation.start_time,
        memberNames: members.map((member) => member.name),
        unnamedSpeaker: unnamed.has(conversation.id),
        jobState: latestJobs.get(conversation.id)?.status ?? null,
        jobMessage: latestJobs.get(conversation.id)?.message ?? null,
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
   * One conversation as its console page shows it: members, the latest job, the analysis (summary, topics,
   * how many insights of each type), its links, newest first, whether its members' voices can be saved, and
   * with `lineId` (a search hit's line) that visible line with the lines around it. Throws not_found.
   */
  async conversationOverview(
    appId: string,
    conversationId: string,
    lineId?: string,
  ): Promise<ConversationOverview> {
    const [conversation, view, statuses, links, app, recordings] = await Promise.all([
      this.deps.conversations.getConversation(appId, conversationId),
      this.deps.summaryPage.conversationView(appId, conversationId),
      this.deps.jobs.latestJobs(appId, [conversationId]),
      this.deps.experiences.listAppLinks(appId, { conversationId, limit: 1000, offset: 0 }),
      this.deps.apps.getApp(appId),
      this.deps.media.recordingsOf(conversationId),
    ]);
    return {
      id: conversation.id,
      name: conversation.name,
      startTime: conversation.startTime,
      memberNames: conversation.members.map((member) => member.name),
      unnamedSpeaker: view.messages.some((message) => !message.hidden && message.speakerName === null),
      lineCount: view.messages.filter((message) => !message.hidden).length,
      jobState: statuses.get(conversationId)?.status ?? null,
      jobMessage: statuses.get(conversationId)?.message ?? null,
      analysedBy: conversation.analysis?.engines.summary ?? null,
      summary: view.summary.map((item) => item.text),
      topics: view.topics.filter((topic) => topic.kind === "chapter").map((topic) => topic.text),
      insightCounts: INSIGHT_GROUPS.map(({ type, label }) => ({
        label,
        count: view.insights.filter((insight) => insight.type === type).length,
      })),
      links: links.map((link) => ({ ...link, conversationName: conversation.name })),
      members: conversation.members.map(({ id, name, voice, suggestedVoice }) => ({
        id,
        name,
        ...(voice && { voice }),
        ...(suggestedVoice && { suggestedVoice }),
      })),
      voicesSavable: app.voiceProfiles && recordings.some((recording) => "file" in recording),
      excerpt: lineId === undefined ? null : excerptOf(view.messages, lineId),
    };
  }

  /**
   * Imports a WebVTT (.vtt), SRT (.srt) or `process/text` JSON (.json) file as a new conversation named
   * `name` (the field's bytes, else the JSON's name), both read and validated as the API reads a body.
   * Throws FormRefused (`file` or `name`).
   */
  async importTranscript(appId: string, nameBytes: Buffer, file: UploadedTranscript): Promise<Accepted> {
    const name = importName(nameBytes);
    const named = name.trim() === "" ? {} : { name };
    const read = await this.read(file);
    return "cues" in read
      ? this.deps.ingestion.importTranscript(appId, read.cues, named)
      : this.deps.ingestion.submit(appId, { ...read.submission, ...named });
  }

  /**
   * Imports a recording (any file that is not a transcript) as a new conversation, with the form's recording
   * options as the API's `enableSpeakerDiarization`, `diarizationSpeakerCount` and `channelMetadata`: the file
   * streams to the media service as it arrives (docs/MEDIA.md), by the API's rules and in its words. A file that
   * does not look like a recording (by its name or type) and is refused is told it is neither a transcript nor
   * a recording Recap reads. Throws FormRefused naming the field.
   */
  async importMedia(
    appId: string,
    fields: MediaImportFields,
    file: { fileName: string; contentType: string; stream: Readable },
  ): Promise<Accepted> {
    const name = importName(fields.name);
    const query = mediaQueryOf(fields, name.trim() === "" ? file.fileName : name);
    const kind = file.contentType.startsWith("video/") ? "video" : "audio";
    const contentType = file.contentType.startsWith(`${kind}/`) ? file.contentType : null;
    const recording = looksLikeRecording(file.fileName, file.contentType);
    const refusal = (field: ImportField, error: DomainError) =>
      recording
        ? new FormRefused(field, formWording(error.message), statusOf(error))
        : new FormRefused("file", `${NOT_A_TRANSCRIPT}, or a recording: ${formWording(error.message)}`, 415);
    try {
      this.deps.media.requireEngine({ diarization: false });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw refusal("file", error);
    }
    try {
      return await this.deps.media.submitUpload(
        appId,
        file.stream,
        { kind, contentType, declaredBytes: null },
        query,
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const field = mediaFieldOf(error.message, query);
      if (field !== "file") throw new FormRefused(field, formWording(error.message), statusOf(error));
      throw refusal("file", error);
    }
  }

  /**
   * Changes the app's name, custom domain, frame ancestors and voice profiles switch with PATCH /v1/app's schema
   * and service, so
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
      voiceProfiles: form.voiceProfiles !== undefined,
    };
    if (!checkAppSettings(body)) throw settingsRefusal(messageOf(checkAppSettings.errors), 400);
    try {
      return (await this.deps.apps.updateSettings(appId, body, false)).app;
    } catch (error) {
      if (!(error instanceof DomainError) || statusOf(error) >= 500) throw error;
      throw settingsRefusal(error.message, statusOf(error));
    }
  }

  /**
   * Replaces the app's brand (what its summary pages take when a link sets none) with PATCH /v1/app's schema
   * and service; an empty field sets nothing. Throws FormRefused naming the field by its label.
   */
  async updateBrand(appId: string, form: BrandForm): Promise<App> {
    const body = { brand: brandBodyOf(form) };
    if (!checkAppSettings(body)) throw brandRefusal(messageOf(checkAppSettings.errors), 400);
    try {
      return (await this.deps.apps.updateSettings(appId, body, false)).app;
    } catch (error) {
      if (!(error instanceof DomainError) || statusOf(error) >= 500) throw error;
      throw brandRefusal(error.message, statusOf(error));
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

/** The import form's fields for a recording as sent: text fields as their bytes (read by the input rules). */
export interface MediaImportFields {
  name: Buffer;
  diarization: boolean;
  speakerCount: string;
  /** The speaker on channel 1 and on channel 2. */
  channels: [Buffer, Buffer];
}

const NOT_A_TRANSCRIPT = "file must be a WebVTT (.vtt), SRT (.srt) or JSON (.json) transcript";

/** Audio and video by their name or the type the browser gave them. */
const MEDIA_EXTENSIONS = /\.(mp3|wav|m4a|aac|ogg|oga|opus|weba|webm|flac|mp4|m4v|mov|mkv)$/i;
const looksLikeRecording = (fileName: string, contentType: string) =>
  MEDIA_EXTENSIONS.test(fileName) || /^(audio|video)\//.test(contentType);

const checkSpeakerCount = formValidator(
  Type.Object({ diarizationSpeakerCount: MediaFileQuery.properties.diarizationSpeakerCount }),
  "/console/import",
);

/**
 * The upload query the API would be sent for the form's recording options. Throws FormRefused naming the field
 * (a speaker count that is no whole number of 1 to 32, a channel's name that breaks the input rules).
 */
function mediaQueryOf(fields: MediaImportFields, name: string): MediaFileQuery {
  const channelMetadata = fields.channels.flatMap((bytes, index) => {
    const field = `channel${index + 1}` as const;
    let speaker: string;
    try {
      speaker = decodeUtf8(bytes, field);
      checkInput("body", { [field]: speaker });
    } catch (error) {
      throw new FormRefused(field, (error as Error).message, 400);
    }
    return speaker.trim() === "" ? [] : [{ channel: index + 1, speaker: { name: speaker.trim() } }];
  });
  const typed = fields.speakerCount.trim();
  const count = typed === "" ? undefined : /^\d+$/.test(typed) ? Number(typed) : typed;
  if (count !== undefined && !checkSpeakerCount({ diarizationSpeakerCount: count })) {
    throw new FormRefused("speakerCount", formWording(messageOf(checkSpeakerCount.errors)), 400);
  }
  return {
    name,
    ...(fields.diarization && { enableSpeakerDiarization: true }),
    ...(typeof count === "number" && { diarizationSpeakerCount: count }),
    ...(channelMetadata.length > 0 && { channelMetadata: JSON.stringify(channelMetadata) }),
  };
}

/** The form's field a refusal of the media service is about, by the option its message names. */
function mediaFieldOf(message: string, query: MediaFileQuery): ImportField {
  const channel = /channelMetadata\[(\d+)\]/.exec(message);
  if (channel) {
    const entries = JSON.parse(query.channelMetadata ?? "[]") as { channel: number }[];
    return entries[Number(channel[1])]?.channel === 2 ? "channel2" : "channel1";
  }
  if (message.startsWith("diarizationSpeakerCount")) return "speakerCount";
  if (message.startsWith("enableSpeakerDiarization")) return "diarization";
  return "file";
}

/** The API's message in the form's words: its options named by the form's labels. */
const formWording = (message: string) =>
  message
    .replace(/^body: /, "")
    .replace(/^diarizationSpeakerCount/, "Number of speakers")
    .replace(/^enableSpeakerDiarization/, "“Tell the speakers apart”")
    .replace("enableSpeakerDiarization=true", "“Tell the speakers apart” ticked");

/** The import form's name from the field's bytes, read as the API reads a body. Throws FormRefused (`name`). */
function importName(nameBytes: Buffer): string {
  let name: string;
  try {
    name = decodeUtf8(nameBytes, "name");
    checkInput("body", { name });
  } catch (error) {
    throw new FormRefused("name", (error as Error).message, 400);
  }
  if (!checkImportFields({ name })) throw new FormRefused("name", messageOf(checkImportFields.errors), 400);
  return name;
}

/** A visible line with EXCERPT_AROUND visible lines either side; null when it is not a visible line. */
function excerptOf(messages: PageMessage[], lineId: string): ConsoleLine[] | null {
  const visible = messages.filter((message) => !message.hidden);
  const at = visible.findIndex((message) => message.id === lineId);
  if (at < 0) return null;
  return visible
    .slice(Math.max(0, at - EXCERPT_AROUND), at + EXCERPT_AROUND + 1)
    .map(({ id, speakerName, offset, text }) => ({ id, speakerName, offset, text, current: id === lineId }));
}
