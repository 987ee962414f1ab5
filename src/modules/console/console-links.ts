import { DomainError } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import {
  CreateExperienceBody,
  UpdateExperienceBody,
  type ExperienceCreated,
  type ExperienceLink,
  type LinkState,
} from "../experiences/experiences.schemas.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
import type { ConsoleLink, LinkForm, LinkListPage, LinkPreview } from "../../pages/console/view-model.ts";
import { readingText } from "../../pages/reading-text.ts";
import type { PageView } from "../../pages/view-model.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { Brand } from "../experiences/experiences.schemas.ts";
import type { SummaryPageService } from "../summary-page/summary-page.service.ts";
import { LINK_EDIT_FIELD_LABELS, LINK_FIELD_LABELS } from "../../pages/console/labels.ts";
import {
  brandBodyOf,
  brandFieldOf,
  FormRefused,
  formValidator,
  messageOf,
  relabel,
} from "./console-forms.ts";

/** Links on one page of the console's list. */
export const LINKS_PAGE_SIZE = 20;

export const LINK_FORM_FIELDS = [
  "name",
  "label",
  "videoUrl",
  "audioUrl",
  "logo",
  "favicon",
  "background",
  "topicsFilter",
  "insightsFilter",
  "fontFamily",
  "summaryURLExpiresIn",
] as const;
export const LINK_FORM_CHECKBOXES = ["readOnly", "enableCustomDomain", "hideShareButton"] as const;

/** The link-edit form as posted: a label, and the expiry kept, set to a UTC date and time, or removed. */
export interface LinkEditForm {
  label: string;
  expiry: "keep" | "at" | "never";
  expiresAt: string;
}

const checkCreate = formValidator(CreateExperienceBody, "/console/links");
const checkUpdate = formValidator(UpdateExperienceBody, "/console/links", "PATCH");

type Labels = Record<string, string>;

/**
 * A refusal of a link form: the API names the body's field first (`color.background must be …`); the form's
 * field is found from it, and the message names that field by its label (`Background colour must be …`).
 * A speaker's picture keeps the API's name, which holds the member's id.
 */
function refusal(message: string, status: number, labels: Labels): FormRefused {
  const path = message.split(" ")[0] ?? "";
  const avatar = /^speakerAvatarURLs(?:\.(.+)|\[(.+)\])$/.exec(path);
  if (avatar) return new FormRefused(`avatar.${avatar[1] ?? avatar[2]}`, message, status);
  const field = brandFieldOf(path) ?? path.split(/[.[]/)[0] ?? "";
  const label = labels[field];
  return new FormRefused(field, label === undefined ? message : relabel(message, path, label), status);
}

/** The service's refusals of a value as the form's; anything else (a revoked link: 410) is not the form's. */
async function refusedByService<T>(work: () => Promise<T>, labels: Labels): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === "invalid") {
      throw refusal(error.message, statusOf(error), labels);
    }
    throw error;
  }
}

/** A whole number as typed becomes a number; anything else stays a string for the schema to refuse. */
const integerOrText = (value: string) => (/^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value);

/** The API's create body from the form: an empty field is left out, as a client leaves out what it does not set. */
export function createBodyOf(form: LinkForm): Record<string, unknown> {
  const given = (value: string) => (value.trim() === "" ? undefined : value);
  const body: Record<string, unknown> = {
    name: form.name,
    label: given(form.label),
    videoUrl: given(form.videoUrl),
    audioUrl: given(form.audioUrl),
    ...brandBodyOf(form),
    summaryURLExpiresIn:
      given(form.summaryURLExpiresIn) === undefined ? undefined : integerOrText(form.summaryURLExpiresIn),
    readOnly: form.readOnly,
    enableCustomDomain: form.enableCustomDomain,
    hideShareButton: form.hideShareButton,
    speakerAvatarURLs: Object.fromEntries(
      Object.entries(form.avatars).filter(([, url]) => url.trim() !== ""),
    ),
  };
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}

/** A date and time typed in a datetime-local input (no zone) is read as UTC; anything else goes as typed. */
function instantOf(value: string): string {
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.exec(value.trim());
  if (!local) return value;
  return `${value.trim()}${local[1] ? "" : ":00"}Z`;
}

/** How much of the conversation the link preview shows. */
const PREVIEW_LINES = 3;
const PREVIEW_TOPICS = 3;

/** What the preview shows of the conversation: its first visible lines, first topics and surest action item. */
function previewOf(view: PageView): LinkPreview {
  const chapters = view.topics.filter((topic) => topic.kind === "chapter");
  return {
    lines: view.messages
      .filter((message) => !message.hidden)
      .slice(0, PREVIEW_LINES)
      .map((message) => ({
        speaker: message.speakerName,
        text: readingText(message.text),
        offset: message.offset,
      })),
    topics: (chapters.length > 0 ? chapters : view.topics)
      .slice(0, PREVIEW_TOPICS)
      .map((topic) => topic.text),
    actionItem: view.insights.find((insight) => insight.type === "action_item")?.text ?? null,
  };
}

/** What the create-link form shows besides its values: the conversation, its members, the preview, the app's brand. */
export interface LinkFormContext {
  conversation: { id: string; name: string };
  members: { id: string; name: string }[];
  preview: LinkPreview;
  brand: Brand;
}

/** The console's summary links: the same schemas and the same ExperiencesService as the API. */
export class ConsoleLinks {
  constructor(
    private readonly deps: {
      experiences: ExperiencesService;
      conversations: ConversationsService;
      summaryPage: Pick<SummaryPageService, "conversationView">;
      apps: Pick<AppsService, "getApp">;
    },
  ) {}

  /** The conversation as the create-link form shows it, and the app's brand. Throws not_found. */
  async formContext(appId: string, conversationId: string): Promise<LinkFormContext> {
    const [view, app] = await Promise.all([
      this.deps.summaryPage.conversationView(appId, conversationId),
      this.deps.apps.getApp(appId),
    ]);
    return {
      conversation: { id: conversationId, name: view.title },
      members: view.attendees.map(({ id, name }) => ({ id, name })),
      preview: previewOf(view),
      brand: app.brand,
    };
  }

  /** Creates a link from the form, checked as POST /v1/conversations/{id}/experiences checks it. Throws FormRefused. */
  async create(appId: string, conversationId: string, form: LinkForm): Promise<ExperienceCreated> {
    const body = createBodyOf(form);
    if (!checkCreate(body)) throw refusal(messageOf(checkCreate.errors), 400, LINK_FIELD_LABELS);
    return refusedByService(
      () => this.deps.experiences.createSummaryLink(appId, conversationId, body as CreateExperienceBody),
      LINK_FIELD_LABELS,
    );
  }

  /** One page (from 1) of the app's links, newest first, optionally of one state. */
  async list(appId: string, state: LinkState | null, page: number): Promise<LinkListPage> {
    const rows = await this.deps.experiences.listAppLinks(appId, {
      ...(state !== null && { state }),
      limit: LINKS_PAGE_SIZE + 1,
      offset: (page - 1) * LINKS_PAGE_SIZE,
    });
    const shown = rows.slice(0, LINKS_PAGE_SIZE);
    const names = await this.deps.conversations.namesOf(appId, [
      ...new Set(shown.map((link) => link.conversationId)),
    ]);
    return {
      links: shown.map((link) => ({ ...link, conversationName: names.get(link.conversationId) ?? "" })),
      state,
      page,
      hasNext: rows.length > LINKS_PAGE_SIZE,
    };
  }

  /** One link of the app, with its conversation's name. Throws not_found for a link the app cannot see. */
  async find(
    appId: string,
    { conversationId, experienceId }: { conversationId: string; experienceId: string },
  ): Promise<ConsoleLink> {
    const conversation = await this.deps.conversations.getConversation(appId, conversationId);
    const link = await this.deps.experiences.getLink(appId, conversationId, experienceId);
    return { ...link, conversationName: conversation.name };
  }

  /** Relabels the link and moves or removes its expiry, checked as PATCH checks them. Throws FormRefused. */
  async update(
    appId: string,
    conversationId: string,
    experienceId: string,
    form: LinkEditForm,
  ): Promise<ExperienceLink> {
    const body: Record<string, unknown> = { label: form.label.trim() === "" ? null : form.label };
    if (form.expiry === "never") body.expiresAt = null;
    if (form.expiry === "at") body.expiresAt = instantOf(form.expiresAt);
    if (!checkUpdate(body)) throw refusal(messageOf(checkUpdate.errors), 400, LINK_EDIT_FIELD_LABELS);
    return refusedByService(
      () =>
        this.deps.experiences.updateLink(appId, conversationId, experienceId, body as UpdateExperienceBody),
      LINK_EDIT_FIELD_LABELS,
    );
  }

  revoke(appId: string, conversationId: string, experienceId: string): Promise<void> {
    return this.deps.experiences.revokeLink(appId, conversationId, experienceId);
  }
}
