import type { Insertable, Kysely, Updateable } from "kysely";
import type {
  Database,
  VoiceProfileRow,
  VoiceProfilesTable,
  VoiceReferenceRow,
  VoiceReferencesTable,
  VoiceRejectionsTable,
  VoiceSamplesTable,
} from "../../db/schema.ts";

/** What a profile's answer says of a reference: where it was heard and how much speech; not the vector. */
export type ReferenceSummary = Pick<
  VoiceReferenceRow,
  "profile_id" | "conversation_id" | "member_id" | "speech_seconds" | "created_at"
>;

/** A reference vector as matching reads it, with what it needs of its profile. */
export type ProfileVector = Pick<VoiceProfileRow, "id" | "name" | "email" | "model" | "dimension"> &
  Pick<VoiceReferenceRow, "vector">;

/** An app's voice profiles and their reference embeddings; every read of profiles is scoped to the app. */
export class VoicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertProfile(row: Insertable<VoiceProfilesTable>): Promise<void> {
    await this.db.insertInto("voice_profiles").values(row).execute();
  }

  find(appId: string, id: string): Promise<VoiceProfileRow | undefined> {
    return this.db
      .selectFrom("voice_profiles")
      .selectAll()
      .where("app_id", "=", appId)
      .where("id", "=", id)
      .executeTakeFirst();
  }

  list(appId: string): Promise<VoiceProfileRow[]> {
    return this.db
      .selectFrom("voice_profiles")
      .selectAll()
      .where("app_id", "=", appId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** The app's profile with this e-mail (`emailKey`: in lower case), if any. */
  findByEmail(appId: string, emailKey: string): Promise<VoiceProfileRow | undefined> {
    return this.db
      .selectFrom("voice_profiles")
      .selectAll()
      .where("app_id", "=", appId)
      .where("email_key", "=", emailKey)
      .executeTakeFirst();
  }

  /** The app's earliest profile without an e-mail whose name is `name`, whatever its case. */
  findByNameWithoutEmail(appId: string, name: string): Promise<VoiceProfileRow | undefined> {
    return this.db
      .selectFrom("voice_profiles")
      .selectAll()
      .where("app_id", "=", appId)
      .where("email_key", "is", null)
      .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
      .orderBy("created_at")
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
  }

  async update(id: string, changes: Omit<Updateable<VoiceProfilesTable>, "id" | "app_id">): Promise<void> {
    await this.db.updateTable("voice_profiles").set(changes).where("id", "=", id).execute();
  }

  /** Deletes the profile and, by the foreign key's cascade, its references; false when the app has no such one. */
  async delete(appId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("voice_profiles")
      .where("app_id", "=", appId)
      .where("id", "=", id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async insertReference(row: VoiceReferencesTable): Promise<void> {
    await this.db.insertInto("voice_references").values(row).execute();
  }

  /** The profile's references, oldest first, without their vectors. */
  listReferences(profileId: string): Promise<ReferenceSummary[]> {
    return this.db
      .selectFrom("voice_references")
      .select(["profile_id", "conversation_id", "member_id", "speech_seconds", "created_at"])
      .where("profile_id", "=", profileId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** The references of every profile of the app, oldest first, without their vectors; one query. */
  listReferencesOfApp(appId: string): Promise<ReferenceSummary[]> {
    return this.db
      .selectFrom("voice_references")
      .innerJoin("voice_profiles", "voice_profiles.id", "voice_references.profile_id")
      .select([
        "voice_references.profile_id",
        "voice_references.conversation_id",
        "voice_references.member_id",
        "voice_references.speech_seconds",
        "voice_references.created_at",
      ])
      .where("voice_profiles.app_id", "=", appId)
      .orderBy("voice_references.created_at")
      .orderBy("voice_references.id")
      .execute();
  }

  /** Each of the app's profiles with the model, length and centroid it is shortlisted by; one query. */
  listCentroidsOfApp(
    appId: string,
  ): Promise<Pick<VoiceProfileRow, "id" | "model" | "dimension" | "centroid">[]> {
    return this.db
      .selectFrom("voice_profiles")
      .select(["id", "model", "dimension", "centroid"])
      .where("app_id", "=", appId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** The profile's reference vectors, in no order. */
  async listReferenceVectors(profileId: string): Promise<Uint8Array[]> {
    const rows = await this.db
      .selectFrom("voice_references")
      .select("vector")
      .where("profile_id", "=", profileId)
      .execute();
    return rows.map((row) => row.vector);
  }

  /** The reference vectors of these profiles of the app, each with its profile's name, e-mail, model and length. */
  async listVectorsOf(appId: string, profileIds: readonly string[]): Promise<ProfileVector[]> {
    if (profileIds.length === 0) return [];
    return this.db
      .selectFrom("voice_references")
      .innerJoin("voice_profiles", "voice_profiles.id", "voice_references.profile_id")
      .select([
        "voice_profiles.id",
        "voice_profiles.name",
        "voice_profiles.email",
        "voice_profiles.model",
        "voice_profiles.dimension",
        "voice_references.vector",
      ])
      .where("voice_profiles.app_id", "=", appId)
      .where("voice_profiles.id", "in", profileIds)
      .orderBy("voice_profiles.created_at")
      .orderBy("voice_profiles.id")
      .execute();
  }

  /** Deletes every reference of the profile (those of another embedding model, replaced by a new one). */
  async deleteReferencesOf(profileId: string): Promise<void> {
    await this.db.deleteFrom("voice_references").where("profile_id", "=", profileId).execute();
  }

  /** Deletes the profile's reference from this member of this conversation, which a new enrolment replaces. */
  async deleteReferenceFrom(profileId: string, conversationId: string, memberId: string): Promise<void> {
    await this.db
      .deleteFrom("voice_references")
      .where("profile_id", "=", profileId)
      .where("conversation_id", "=", conversationId)
      .where("member_id", "=", memberId)
      .execute();
  }

  /** Deletes all but the profile's `keep` latest references. */
  async keepLatestReferences(profileId: string, keep: number): Promise<void> {
    const latest = this.db
      .selectFrom("voice_references")
      .select("id")
      .where("profile_id", "=", profileId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(keep);
    await this.db
      .deleteFrom("voice_references")
      .where("profile_id", "=", profileId)
      .where("id", "not in", latest)
      .execute();
  }

  /** Remembers that the member is not the profile's person; a second rejection of the same pair replaces the first. */
  async rejectMember(row: VoiceRejectionsTable): Promise<void> {
    await this.db
      .insertInto("voice_rejections")
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(["profile_id", "conversation_id", "member_id"])
          .doUpdateSet({ vector: row.vector, created_at: row.created_at }),
      )
      .execute();
  }

  /** The embeddings of every member said not to be one of the app's profiles, by profile; one query. */
  listRejectedVectorsOfApp(appId: string): Promise<{ profile_id: string; vector: Uint8Array }[]> {
    return this.db
      .selectFrom("voice_rejections")
      .innerJoin("voice_profiles", "voice_profiles.id", "voice_rejections.profile_id")
      .select(["voice_rejections.profile_id", "voice_rejections.vector"])
      .where("voice_profiles.app_id", "=", appId)
      .where("voice_rejections.vector", "is not", null)
      .$narrowType<{ vector: Uint8Array }>()
      .execute();
  }

  /** Keeps a speaker's voice heard in a conversation; a later one of the same speaker replaces it. */
  async keepSample(row: VoiceSamplesTable): Promise<void> {
    await this.db
      .insertInto("voice_samples")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["conversation_id", "identity_key"]).doUpdateSet({
          id: row.id,
          model: row.model,
          dimension: row.dimension,
          vector: row.vector,
          speech_seconds: row.speech_seconds,
          created_at: row.created_at,
        }),
      )
      .execute();
  }

  /** The voice kept of the member's speaker in the conversation (by any key the member is known by), the longest. */
  findSampleOfMember(conversationId: string, memberId: string): Promise<VoiceSamplesTable | undefined> {
    return this.db
      .selectFrom("voice_samples")
      .innerJoin("member_identities", (join) =>
        join
          .onRef("member_identities.conversation_id", "=", "voice_samples.conversation_id")
          .onRef("member_identities.identity_key", "=", "voice_samples.identity_key"),
      )
      .selectAll("voice_samples")
      .where("voice_samples.conversation_id", "=", conversationId)
      .where("member_identities.member_id", "=", memberId)
      .orderBy("voice_samples.speech_seconds", "desc")
      .limit(1)
      .executeTakeFirst();
  }
}
