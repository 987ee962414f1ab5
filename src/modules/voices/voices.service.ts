import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import type { VoiceMatchingSettings } from "../../config.ts";
import type { MemberRow, VoiceProfileRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { DomainError, forbidden, invalid, notFound, unprocessable } from "../../errors.ts";
import { uuid } from "../../ids.ts";
import { isUnnamedSpeaker } from "../../media/align.ts";
import { SAMPLE_RATE, type SpeakerTurn } from "../../media/engine.ts";
import type { VoiceEmbedder } from "../../media/local/voice-embedding.ts";
import { SpeechKeeper } from "../../media/speech-keeper.ts";
import { VOICE_MODEL_HINT, type Speech } from "../../media/speech.ts";
import type { AppsService } from "../apps/apps.service.ts";
import { NO_VOICE, type ConversationsService } from "../conversations/conversations.service.ts";
import { identityKeyOf } from "../conversations/members.ts";
import type { MediaService } from "../media/media.service.ts";
import { presentVoice } from "./voices.presenter.ts";
import {
  centroidOf,
  cleanSpeech,
  cosine,
  matchVoices,
  shortlist,
  SHORTLIST_PER_SPEAKER,
  type ProfileCentroid,
  type ProfileVectors,
  type SpeakerVector,
  type Span,
  type VoiceMatch,
} from "./voice-matching.ts";
import type { ReferenceSummary, VoicesRepository } from "./voices.repository.ts";
import type { EnrolVoiceBody, UpdateVoiceBody, Voice } from "./voices.schemas.ts";

/** The least of a member's speech a voice is enrolled from (docs/VOICES.md, Minimum speech). */
const MIN_SPEECH_SECONDS = 3;
/** The most of a member's speech one enrolment reads: enough for a stable embedding, bounded in time and memory. */
const MAX_SPEECH_SECONDS = 120;
/** The most of a speaker's speech a conversation whose audio is not kept keeps their voice from. */
const KEPT_SPEECH_SECONDS = 60;
/**
 * The least clean speech (not overlapped by another speaker) a diarized speaker is matched from (docs/VOICES.md,
 * Matching): below it the embedding says more about the words than the voice, and the speaker stays "Speaker N".
 */
const MIN_MATCH_SECONDS = 2;
/** The reference embeddings a profile keeps: the latest enrolments, each from one conversation's member. */
const MAX_REFERENCES = 5;

/** A stored vector's values: float32, little-endian, whatever the machine. */
function vectorOf(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float32Array.from({ length: Math.floor(bytes.byteLength / 4) }, (_, index) =>
    view.getFloat32(index * 4, true),
  );
}

/** A vector's bytes as stored: float32, little-endian, whatever the machine. */
function vectorBytes(vector: Float32Array): Uint8Array {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes;
}

const seconds = (value: number) => Math.round(value * 10) / 10;

/** A member's speech as one embedding, and where and how much of it it was computed from. */
interface HeardSpeech {
  conversationId: string;
  memberId: string;
  vector: Float32Array;
  speechSeconds: number;
}

/**
 * An app's voice profiles (docs/VOICES.md): enrolment from a named member's speech in a stored recording, read,
 * rename and erase. The embedding is computed on this machine by the local speaker-embedding model; no audio is
 * kept.
 */
export class VoicesService {
  constructor(
    private readonly deps: {
      voices: VoicesRepository;
      transaction: Transaction<{ voices: VoicesRepository }>;
      apps: Pick<AppsService, "getApp">;
      conversations: Pick<ConversationsService, "speakerOf" | "updateMember" | "markVoice" | "unnameMember">;
      media: Pick<MediaService, "speechOf">;
      speech: Pick<Speech, "voiceEmbedder">;
      matching: VoiceMatchingSettings;
      clock: Clock;
      logger: FastifyBaseLogger;
    },
  ) {}

  /** Whether the missing embedding model was logged already: matching says so once a process. */
  private loggedNoModel = false;

  /**
   * The app's voice profiles matched with the diarized speakers of a new recording, the whole recording at once
   * (docs/VOICES.md, Matching). Each speaker's clean speech is read with `read` (at most `MAX_SPEECH_SECONDS`)
   * only when there is something to match it with; a speaker with less than `MIN_MATCH_SECONDS` is left out.
   * None when the app has voice profiles off or has none, or when the embedding model is not installed (logged
   * once). Nothing leaves the machine.
   */
  async recogniseSpeakers(
    appId: string,
    turns: readonly SpeakerTurn[],
    read: (speaker: number, spans: Span[], maxSamples: number) => Promise<Float32Array>,
  ): Promise<VoiceMatch[]> {
    if (turns.length === 0 || !(await this.deps.apps.getApp(appId)).voiceProfiles) return [];
    const listed = await this.deps.voices.listCentroidsOfApp(appId);
    if (listed.length === 0) return [];
    const embedder = this.deps.speech.voiceEmbedder();
    if (embedder === null) {
      if (!this.loggedNoModel)
        this.deps.logger.warn(`${VOICE_MODEL_HINT}; speakers are not matched with them`);
      this.loggedNoModel = true;
      return [];
    }
    const comparable = listed.filter(
      (profile) => profile.model === embedder.model && profile.dimension === embedder.dimension,
    );
    if (comparable.length === 0) return [];
    const speakers: SpeakerVector[] = [];
    for (const [speaker, spans] of cleanSpeech(turns)) {
      const cleanMs = spans.reduce((total, span) => total + span.endMs - span.startMs, 0);
      if (cleanMs < MIN_MATCH_SECONDS * 1000) continue;
      const speech = await read(speaker, spans, MAX_SPEECH_SECONDS * SAMPLE_RATE);
      if (speech.length < MIN_MATCH_SECONDS * SAMPLE_RATE) continue;
      speakers.push({ speaker, vector: embedder.embed(speech) });
    }
    if (speakers.length === 0) return [];
    const chosen = shortlist(speakers, await this.centroidsOf(appId, comparable), SHORTLIST_PER_SPEAKER);
    const profiles = new Map<string, ProfileVectors>();
    for (const { vector, ...profile } of await this.deps.voices.listVectorsOf(appId, [...chosen])) {
      const entry = profiles.get(profile.id) ?? { ...profile, references: [] };
      entry.references.push(vectorOf(vector));
      profiles.set(profile.id, entry);
    }
    const rejected = new Map<string, Float32Array[]>();
    for (const { profile_id, vector } of await this.deps.voices.listRejectedVectorsOfApp(appId)) {
      rejected.set(profile_id, [...(rejected.get(profile_id) ?? []), vectorOf(vector)]);
    }
    // A speaker who sounds at least as much like someone the owner said is not the profile's person as like the
    // profile's own references is not named or suggested as it (docs/VOICES.md, Confirming and undoing).
    return matchVoices(speakers, [...profiles.values()], embedder, this.deps.matching).filter((match) => {
      const vector = speakers.find((entry) => entry.speaker === match.speaker)?.vector;
      const against = rejected.get(match.profile.id) ?? [];
      return (
        vector === undefined ||
        against.every((other) => other.length !== vector.length || cosine(vector, other) < match.score)
      );
    });
  }

  /**
   * Saves the member's voice: a new profile (created: true), or a reference added to the app's profile of the same
   * person (the same e-mail; for a member without one, the same name on a profile without one). Throws forbidden
   * when the app has voice profiles off, not_found for a conversation or member the app cannot see, unprocessable
   * for an unnamed member, a conversation without a stored recording or too little speech, conflict while the
   * conversation is being transcribed, unavailable when the embedding model is not installed.
   */
  async enrol(appId: string, body: EnrolVoiceBody): Promise<{ voice: Voice; created: boolean }> {
    await this.requireSwitchOn(appId);
    const { conversationId, memberId } = body;
    const { member, spans } = await this.deps.conversations.speakerOf(appId, conversationId, memberId);
    if (isUnnamedSpeaker(member.name)) {
      throw unprocessable(
        `member ${memberId} is still "${member.name}": name the member first ` +
          `(PUT /v1/conversations/${conversationId}/members/${memberId}), then save the voice`,
      );
    }
    const embedder = this.requireEmbedder();
    const heard =
      (await this.keptVoiceOf(embedder, conversationId, member)) ??
      (await this.embedSpeech(embedder, conversationId, member, spans));
    const emailKey = member.email?.trim().toLowerCase() || null;
    return this.deps.transaction(async ({ voices }) => {
      const now = this.deps.clock.now().toISOString();
      const existing =
        emailKey === null
          ? await voices.findByNameWithoutEmail(appId, member.name)
          : await voices.findByEmail(appId, emailKey);
      const profileId = existing?.id ?? uuid();
      if (existing === undefined) {
        await voices.insertProfile({
          id: profileId,
          app_id: appId,
          name: member.name,
          email: member.email,
          email_key: emailKey,
          model: embedder.model,
          dimension: embedder.dimension,
          created_at: now,
          updated_at: now,
        });
      }
      await this.learn(voices, existing ?? { id: profileId, ...embedder }, embedder, heard, now);
      return { voice: await this.present(voices, appId, profileId), created: existing === undefined };
    });
  }

  /**
   * Confirms the voice suggested for a member (docs/VOICES.md, Confirming and undoing): the member takes the
   * profile's name and e-mail (merged with the conversation's member of that e-mail, as a rename is), keeps the voice
   * with the suggestion's score, and the profile learns the member's speech when there are at least
   * `MIN_SPEECH_SECONDS` of it. Confirming the member's voice again changes nothing. Throws forbidden when the app
   * has voice profiles off, not_found for a voice, conversation or member the app cannot see, conflict when the
   * voice is not the member's suggestion.
   */
  async confirm(
    appId: string,
    conversationId: string,
    memberId: string,
    voiceId: string,
  ): Promise<MemberRow> {
    await this.requireSwitchOn(appId);
    const profile = await this.require(this.deps.voices, appId, voiceId);
    const { member } = await this.deps.conversations.speakerOf(appId, conversationId, memberId);
    if (member.voice_id === voiceId) return member;
    if (member.suggested_voice_id !== voiceId) {
      throw new DomainError(
        "conflict",
        `voice ${voiceId} is not the voice suggested for member ${memberId}` +
          (member.suggested_voice_id === null
            ? ": it has no suggestion"
            : `: ${member.suggested_voice_id} is`),
      );
    }
    const holder = await this.deps.conversations.updateMember(appId, conversationId, memberId, {
      id: memberId,
      name: profile.name,
      email: profile.email ?? undefined,
    });
    await this.deps.conversations.markVoice(conversationId, holder, {
      voice_id: voiceId,
      voice_score: member.suggested_voice_score,
      diarized_name: holder === memberId ? member.name : null,
    });
    const named = await this.deps.conversations.speakerOf(appId, conversationId, holder);
    const embedder = this.deps.speech.voiceEmbedder();
    if (embedder !== null) {
      const heard = await this.embedEnoughSpeech(embedder, conversationId, named.member, named.spans);
      if (heard !== null) {
        await this.deps.transaction(async ({ voices }) => {
          const now = this.deps.clock.now().toISOString();
          await this.learn(voices, await this.require(voices, appId, voiceId), embedder, heard, now);
        });
      }
    }
    return named.member;
  }

  /**
   * Says a member is not the voice that named it or is suggested for it (docs/VOICES.md, Confirming and undoing):
   * a voice-named member gets its "Speaker N" name back, what its speech taught the profile is removed, and the
   * rejection is remembered with the embedding of the member's speech (when the app has voice profiles on and the
   * model is installed), which later matching holds against the profile. Throws not_found for a conversation or
   * member the app cannot see, or a member with neither a voice nor a suggestion.
   */
  async reject(appId: string, conversationId: string, memberId: string): Promise<MemberRow> {
    const { member, spans } = await this.deps.conversations.speakerOf(appId, conversationId, memberId);
    const profileId = member.voice_id ?? member.suggested_voice_id;
    if (profileId === null) throw notFound(`voice of member ${memberId}`);
    if (member.voice_id !== null && member.diarized_name !== null) {
      await this.deps.conversations.unnameMember(appId, conversationId, memberId, member.diarized_name);
    }
    await this.deps.conversations.markVoice(conversationId, memberId, NO_VOICE);
    const embedder = (await this.deps.apps.getApp(appId)).voiceProfiles
      ? this.deps.speech.voiceEmbedder()
      : null;
    const heard =
      embedder === null
        ? null
        : await this.embedEnoughSpeech(embedder, conversationId, member, spans, MIN_MATCH_SECONDS);
    await this.deps.transaction(async ({ voices }) => {
      const profile = await voices.find(appId, profileId);
      if (!profile) return;
      await voices.deleteReferenceFrom(profileId, conversationId, memberId);
      await this.refreshCentroid(voices, profileId, profile.dimension);
      await voices.rejectMember({
        id: uuid(),
        profile_id: profileId,
        conversation_id: conversationId,
        member_id: memberId,
        vector: heard === null ? null : vectorBytes(heard.vector),
        created_at: this.deps.clock.now().toISOString(),
      });
    });
    return (await this.deps.conversations.speakerOf(appId, conversationId, memberId)).member;
  }

  /**
   * The profiles' centroids, each computed from its references and kept when it was not yet (a profile made before
   * centroids were kept); a profile without a usable reference is left out.
   */
  private async centroidsOf(
    appId: string,
    profiles: readonly Pick<VoiceProfileRow, "id" | "dimension" | "centroid">[],
  ): Promise<ProfileCentroid[]> {
    const centroids: ProfileCentroid[] = [];
    const missing = profiles.filter((profile) => profile.centroid === null);
    const references = new Map<string, Float32Array[]>();
    for (const { id, vector } of await this.deps.voices.listVectorsOf(
      appId,
      missing.map((profile) => profile.id),
    )) {
      references.set(id, [...(references.get(id) ?? []), vectorOf(vector)]);
    }
    for (const profile of profiles) {
      let centroid = profile.centroid === null ? null : vectorOf(profile.centroid);
      if (profile.centroid === null) {
        centroid = centroidOf(references.get(profile.id) ?? [], profile.dimension);
        if (centroid !== null) {
          await this.deps.voices.update(profile.id, { centroid: vectorBytes(centroid) });
        }
      }
      if (centroid !== null && centroid.length === profile.dimension)
        centroids.push({ id: profile.id, centroid });
    }
    return centroids;
  }

  /** Keeps the profile's centroid in step with its references (null when none is left). */
  private async refreshCentroid(
    voices: VoicesRepository,
    profileId: string,
    dimension: number,
  ): Promise<void> {
    const centroid = centroidOf((await voices.listReferenceVectors(profileId)).map(vectorOf), dimension);
    await voices.update(profileId, { centroid: centroid === null ? null : vectorBytes(centroid) });
  }

  /**
   * What a live stream keeps for its speaker's voice while it runs: its speech, when the app has voice profiles on
   * and the embedding model is installed; null otherwise (nothing is kept).
   */
  async keeperFor(appId: string): Promise<SpeechKeeper | null> {
    return (await this.keepsVoices(appId)) ? new SpeechKeeper(30, KEPT_SPEECH_SECONDS) : null;
  }

  /** Whether voices are kept for the app: it has voice profiles on and the embedding model is installed. */
  private async keepsVoices(appId: string): Promise<boolean> {
    return (await this.deps.apps.getApp(appId)).voiceProfiles && this.deps.speech.voiceEmbedder() !== null;
  }

  /**
   * Keeps the voice of a live stream's speaker as one embedding (never its audio), so that the owner can save it
   * as a voice once the stream has ended (docs/VOICES.md, Enrolment). Less than a second of speech keeps nothing.
   */
  async keepLiveVoice(
    conversationId: string,
    speaker: { name: string | null; userId: string | null },
    keeper: SpeechKeeper,
  ): Promise<void> {
    const identityKey = identityKeyOf({
      from_name: speaker.name,
      from_user_id: speaker.userId,
      from_email: null,
    });
    await this.keepSample(conversationId, identityKey, keeper.speech());
  }

  /**
   * Keeps the voices of a recording's speakers (one fetched from a URL, which Recap does not keep) as one embedding
   * each, when the app keeps voices and the model is installed; each speaker's speech is read with `read` only
   * then, at most `KEPT_SPEECH_SECONDS` of it.
   */
  async keepHeardVoices(
    appId: string,
    conversationId: string,
    speakers: {
      speaker: { name: string; email: string | null };
      read: (maxSamples: number) => Promise<Float32Array>;
    }[],
  ): Promise<void> {
    if (!(await this.keepsVoices(appId))) return;
    for (const { speaker, read } of speakers) {
      const identityKey = identityKeyOf({
        from_name: speaker.name,
        from_user_id: null,
        from_email: speaker.email,
      });
      await this.keepSample(conversationId, identityKey, await read(KEPT_SPEECH_SECONDS * SAMPLE_RATE));
    }
  }

  /** Keeps one embedding of `speech` as the speaker's voice in the conversation; less than a second, nothing. */
  private async keepSample(
    conversationId: string,
    identityKey: string | null,
    speech: Float32Array,
  ): Promise<void> {
    const embedder = this.deps.speech.voiceEmbedder();
    if (embedder === null || identityKey === null || speech.length < SAMPLE_RATE) return;
    await this.deps.voices.keepSample({
      id: uuid(),
      conversation_id: conversationId,
      identity_key: identityKey,
      model: embedder.model,
      dimension: embedder.dimension,
      vector: vectorBytes(embedder.embed(speech)),
      speech_seconds: seconds(speech.length / SAMPLE_RATE),
      created_at: this.deps.clock.now().toISOString(),
    });
  }

  /**
   * The voice a live stream kept of the member's speaker, as enrolment reads it; null when none was kept (a
   * recording's conversation). Throws unprocessable when it is too short or of another embedding model.
   */
  private async keptVoiceOf(
    embedder: VoiceEmbedder,
    conversationId: string,
    member: MemberRow,
  ): Promise<HeardSpeech | null> {
    const kept = await this.deps.voices.findSampleOfMember(conversationId, member.id);
    if (kept === undefined) return null;
    if (kept.model !== embedder.model || kept.dimension !== embedder.dimension) {
      throw unprocessable(
        `member ${member.id}'s voice in conversation ${conversationId} was kept with another speaker model ` +
          `(${kept.model}) than the one installed (${embedder.model}): it cannot be saved`,
      );
    }
    if (kept.speech_seconds < MIN_SPEECH_SECONDS) {
      throw unprocessable(
        `member ${member.id} has ${kept.speech_seconds} seconds of speech in conversation ${conversationId}; ` +
          `a voice needs at least ${MIN_SPEECH_SECONDS}`,
      );
    }
    return {
      conversationId,
      memberId: member.id,
      vector: vectorOf(kept.vector),
      speechSeconds: kept.speech_seconds,
    };
  }

  private async requireSwitchOn(appId: string): Promise<void> {
    if (!(await this.deps.apps.getApp(appId)).voiceProfiles) {
      throw forbidden(
        'voice profiles are off for this app: turn them on with PATCH /v1/app {"voiceProfiles": true}',
      );
    }
  }

  private requireEmbedder(): VoiceEmbedder {
    const embedder = this.deps.speech.voiceEmbedder();
    if (embedder === null) throw new DomainError("unavailable", VOICE_MODEL_HINT);
    return embedder;
  }

  /**
   * The embedding of a member's speech in the conversation's stored recordings (at most `MAX_SPEECH_SECONDS`).
   * Throws unprocessable below `minSeconds` of it, or when no voice could be heard in it.
   */
  private async embedSpeech(
    embedder: VoiceEmbedder,
    conversationId: string,
    member: MemberRow,
    spans: Span[],
    minSeconds = MIN_SPEECH_SECONDS,
  ): Promise<HeardSpeech> {
    const memberId = member.id;
    const speech = await this.deps.media.speechOf(conversationId, spans, member, MAX_SPEECH_SECONDS);
    const speechSeconds = speech.length / SAMPLE_RATE;
    if (speechSeconds < minSeconds) {
      throw unprocessable(
        speech.length === 0
          ? `member ${memberId} has no speech in conversation ${conversationId}: a voice needs at least ` +
              `${minSeconds} seconds of the member's own lines`
          : `member ${memberId} has ${seconds(speechSeconds)} seconds of speech in conversation ${conversationId}; ` +
              `a voice needs at least ${minSeconds}`,
      );
    }
    const vector = embedder.embed(speech);
    const norm = Math.hypot(...vector);
    if (!Number.isFinite(norm) || norm === 0) {
      throw unprocessable(
        `no voice could be heard in member ${memberId}'s speech in conversation ${conversationId}`,
      );
    }
    return { conversationId, memberId, vector, speechSeconds };
  }

  /** embedSpeech, or null where it would refuse the speech (too little of it, or no voice heard in it). */
  private async embedEnoughSpeech(
    embedder: VoiceEmbedder,
    conversationId: string,
    member: MemberRow,
    spans: Span[],
    minSeconds = MIN_SPEECH_SECONDS,
  ): Promise<HeardSpeech | null> {
    try {
      return await this.embedSpeech(embedder, conversationId, member, spans, minSeconds);
    } catch (error) {
      if (error instanceof DomainError && error.code === "unprocessable") return null;
      throw error;
    }
  }

  /**
   * Adds what `heard` sounds like to the profile: a reference replacing any earlier one from the same member, and
   * replacing every reference of another embedding model (which cannot be compared with this one's); the latest
   * `MAX_REFERENCES` are kept.
   */
  private async learn(
    voices: VoicesRepository,
    profile: Pick<VoiceProfileRow, "id" | "model" | "dimension">,
    embedder: VoiceEmbedder,
    heard: HeardSpeech,
    now: string,
  ): Promise<void> {
    if (profile.model !== embedder.model || profile.dimension !== embedder.dimension) {
      await voices.deleteReferencesOf(profile.id);
    }
    await voices.deleteReferenceFrom(profile.id, heard.conversationId, heard.memberId);
    await voices.update(profile.id, {
      model: embedder.model,
      dimension: embedder.dimension,
      updated_at: now,
    });
    await voices.insertReference({
      id: uuid(),
      profile_id: profile.id,
      conversation_id: heard.conversationId,
      member_id: heard.memberId,
      vector: vectorBytes(heard.vector),
      speech_seconds: seconds(heard.speechSeconds),
      created_at: now,
    });
    await voices.keepLatestReferences(profile.id, MAX_REFERENCES);
    await this.refreshCentroid(voices, profile.id, embedder.dimension);
  }

  async list(appId: string): Promise<Voice[]> {
    const profiles = await this.deps.voices.list(appId);
    const references = new Map(profiles.map((profile) => [profile.id, [] as ReferenceSummary[]]));
    for (const reference of await this.deps.voices.listReferencesOfApp(appId)) {
      references.get(reference.profile_id)?.push(reference);
    }
    const current = this.deps.speech.voiceEmbedder();
    return profiles.map((profile) => presentVoice(profile, references.get(profile.id) ?? [], current));
  }

  /** Throws not_found for an id the app has no voice of. */
  async get(appId: string, voiceId: string): Promise<Voice> {
    return this.present(this.deps.voices, appId, voiceId);
  }

  /**
   * Renames the voice and/or sets its e-mail. Throws invalid for neither or a blank name, conflict for an e-mail
   * another of the app's voices has, not_found.
   */
  async update(appId: string, voiceId: string, change: UpdateVoiceBody): Promise<Voice> {
    if (change.name === undefined && change.email === undefined) throw invalid("body must set name or email");
    const name = change.name?.trim();
    if (name === "") throw invalid("name must not be blank");
    const email = change.email === undefined ? undefined : change.email?.trim() || null;
    return this.deps.transaction(async ({ voices }) => {
      await this.require(voices, appId, voiceId);
      if (email) {
        const holder = await voices.findByEmail(appId, email.toLowerCase());
        if (holder !== undefined && holder.id !== voiceId) {
          throw new DomainError("conflict", `email ${email} is already voice ${holder.id}'s`);
        }
      }
      await voices.update(voiceId, {
        ...(name !== undefined && { name }),
        ...(email !== undefined && { email, email_key: email?.toLowerCase() ?? null }),
        updated_at: this.deps.clock.now().toISOString(),
      });
      return this.present(voices, appId, voiceId);
    });
  }

  /**
   * Deletes the voice and its reference embeddings at once. Throws not_found. In a transaction: an enrolment to the
   * same voice holds the reference it replaces before the profile, the delete the other way round, so on
   * PostgreSQL one of them can be chosen to deadlock, and is run again.
   */
  async delete(appId: string, voiceId: string): Promise<void> {
    const deleted = await this.deps.transaction(({ voices }) => voices.delete(appId, voiceId));
    if (!deleted) throw notFound("voice");
  }

  private async require(voices: VoicesRepository, appId: string, voiceId: string): Promise<VoiceProfileRow> {
    const profile = await voices.find(appId, voiceId);
    if (!profile) throw notFound("voice");
    return profile;
  }

  private async present(voices: VoicesRepository, appId: string, voiceId: string): Promise<Voice> {
    const profile = await this.require(voices, appId, voiceId);
    return presentVoice(profile, await voices.listReferences(profile.id), this.deps.speech.voiceEmbedder());
  }
}
