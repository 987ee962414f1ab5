import { DomainError } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { VOICE_FIELD_LABELS } from "../../pages/console/labels.ts";
import type {
  ConsoleVoice,
  VoiceField,
  VoiceForm,
  VoiceListView,
  VoiceSaveResult,
} from "../../pages/console/view-model.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import { ConfirmVoiceBody, EnrolVoiceBody, UpdateVoiceBody, type Voice } from "../voices/voices.schemas.ts";
import type { VoicesService } from "../voices/voices.service.ts";
import { FormRefused, formValidator, messageOf, relabel } from "./console-forms.ts";

const checkUpdate = formValidator(UpdateVoiceBody, "/console/voices", "PATCH");
const checkEnrol = formValidator(EnrolVoiceBody, "/console/conversations");
const checkConfirm = formValidator(ConfirmVoiceBody, "/console/conversations");

/** A refusal of the rename form: the API's message names the field first (`email must …`), said by its label. */
function refusal(message: string, status: number): FormRefused<VoiceField> {
  const field: VoiceField = message.startsWith("email ") ? "email" : "name";
  return new FormRefused(field, relabel(message, field, VOICE_FIELD_LABELS[field]), status);
}

/** A voice as the console shows it: each conversation it was heard in with its name (null: deleted since). */
const consoleVoiceOf = (voice: Voice, names: Map<string, string>): ConsoleVoice => ({
  id: voice.id,
  name: voice.name,
  email: voice.email,
  speechSeconds: voice.speechSeconds,
  needsRefresh: voice.needsRefresh,
  createdAt: voice.createdAt,
  updatedAt: voice.updatedAt,
  conversations: voice.conversations.map((id) => ({ id, name: names.get(id) ?? null })),
});

/** The console's voice profiles: the same schemas and the same VoicesService as /v1/voices. */
export class ConsoleVoices {
  constructor(
    private readonly deps: {
      voices: Pick<VoicesService, "list" | "get" | "update" | "delete" | "enrol" | "confirm" | "reject">;
      conversations: Pick<ConversationsService, "namesOf">;
      apps: Pick<AppsService, "getApp">;
    },
  ) {}

  /** The app's voices, oldest first, each with the names of the conversations it was heard in, and the switch. */
  async list(appId: string): Promise<VoiceListView> {
    const [voices, app] = await Promise.all([this.deps.voices.list(appId), this.deps.apps.getApp(appId)]);
    const names = await this.deps.conversations.namesOf(appId, [
      ...new Set(voices.flatMap((voice) => voice.conversations)),
    ]);
    return { voices: voices.map((voice) => consoleVoiceOf(voice, names)), voiceProfiles: app.voiceProfiles };
  }

  /** One voice of the app. Throws not_found. */
  async find(appId: string, voiceId: string): Promise<ConsoleVoice> {
    const voice = await this.deps.voices.get(appId, voiceId);
    return consoleVoiceOf(voice, await this.deps.conversations.namesOf(appId, voice.conversations));
  }

  /**
   * Renames the voice and sets or (empty) removes its e-mail, checked as PATCH /v1/voices/{id} checks them.
   * Throws FormRefused naming the field, not_found.
   */
  async rename(appId: string, voiceId: string, form: VoiceForm): Promise<void> {
    const body = { name: form.name, email: form.email.trim() === "" ? null : form.email.trim() };
    if (!checkUpdate(body)) throw refusal(messageOf(checkUpdate.errors), 400);
    try {
      await this.deps.voices.update(appId, voiceId, body);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === "not_found" || statusOf(error) >= 500)
        throw error;
      throw refusal(error.message, statusOf(error));
    }
  }

  delete(appId: string, voiceId: string): Promise<void> {
    return this.deps.voices.delete(appId, voiceId);
  }

  /**
   * Saves the member's voice as POST /v1/voices does: a new voice, the same person's refined, or the API's refusal
   * with its status (voices off, an unnamed member, too little speech, the embedding model missing, …).
   */
  async save(
    appId: string,
    conversationId: string,
    memberId: string,
  ): Promise<{ result: VoiceSaveResult; status: number }> {
    const body = { conversationId, memberId };
    if (!checkEnrol(body)) return refused(memberId, messageOf(checkEnrol.errors), 400);
    return answered(memberId, async () => {
      const { voice, created } = await this.deps.voices.enrol(appId, body);
      const outcome = created ? ("saved" as const) : ("refined" as const);
      return { result: { memberId, outcome, voiceId: voice.id, message: "" }, status: created ? 201 : 200 };
    });
  }

  /** Confirms the voice suggested for the member as PUT …/members/{id}/voice does, or the API's refusal. */
  confirm(
    appId: string,
    conversationId: string,
    memberId: string,
    voiceId: string,
  ): Promise<{ result: VoiceSaveResult; status: number }> {
    if (!checkConfirm({ voiceId }))
      return Promise.resolve(refused(memberId, messageOf(checkConfirm.errors), 400));
    return answered(memberId, async () => {
      await this.deps.voices.confirm(appId, conversationId, memberId, voiceId);
      return { result: { memberId, outcome: "confirmed", voiceId, message: "" }, status: 200 };
    });
  }

  /** Undoes the voice that named the member, or rejects the one suggested, as DELETE …/members/{id}/voice does. */
  undo(
    appId: string,
    conversationId: string,
    memberId: string,
  ): Promise<{ result: VoiceSaveResult; status: number }> {
    return answered(memberId, async () => {
      await this.deps.voices.reject(appId, conversationId, memberId);
      return { result: { memberId, outcome: "undone", voiceId: null, message: "" }, status: 200 };
    });
  }
}

function refused(memberId: string, message: string, status: number) {
  return { result: { memberId, outcome: "refused" as const, voiceId: null, message }, status };
}

/** What `act` did, or the API's refusal of it (a DomainError) with its status. */
async function answered(
  memberId: string,
  act: () => Promise<{ result: VoiceSaveResult; status: number }>,
): Promise<{ result: VoiceSaveResult; status: number }> {
  try {
    return await act();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return refused(memberId, error.message, statusOf(error));
  }
}
