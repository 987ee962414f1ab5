import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from "kysely";
import { precompile } from "../../db/precompiled.ts";
import type {
  ConversationRow,
  ConversationsTable,
  ConversationUpdate,
  Database,
  InsightRow,
  InsightsTable,
  ListedMember,
  MemberRow,
  MembersTable,
  MessageRow,
  NewMessage,
  TranscriptRow,
  SummaryRow,
  SummariesTable,
  DecisionRow,
  DecisionsTable,
  TopicRow,
  TopicsTable,
} from "../../db/schema.ts";

export interface StoredAnalysis {
  summaries: SummariesTable[];
  decisions: DecisionsTable[];
  topics: TopicsTable[];
  insights: InsightsTable[];
}

/** Conversations and everything that hangs off one: members, messages and stored analysis. */
export class ConversationsRepository {
  /** The hot reads of the API (members, and the visibility check of every conversation route), built once. */
  private readonly contentVersionOf;
  private readonly membersOfApp;

  constructor(private readonly db: Kysely<Database> | Transaction<Database>) {
    this.contentVersionOf = precompile(db, (key: { appId: string; id: string }) =>
      db
        .selectFrom("conversations")
        .select("content_version")
        .where("id", "=", key.id)
        .where("app_id", "=", key.appId),
    );
    this.membersOfApp = precompile(db, (key: { appId: string; generation: number; conversationId: string }) =>
      db
        .selectFrom("conversations as c")
        .innerJoin("apps as a", (join) =>
          join.onRef("a.id", "=", "c.app_id").on("a.secret_generation", "=", key.generation),
        )
        .leftJoin("members as m", "m.conversation_id", "c.id")
        .select([
          "m.id",
          "m.name",
          "m.email",
          "m.voice_id",
          "m.voice_score",
          "m.suggested_voice_id",
          "m.suggested_voice_name",
          "m.suggested_voice_score",
        ])
        .where("c.id", "=", key.conversationId)
        .where("c.app_id", "=", key.appId)
        .orderBy("m.position"),
    );
  }

  /** A new conversation has no analysis yet, so no engines and no language, and its content version starts at 0. */
  async insert(
    row: Omit<
      ConversationsTable,
      | "summary_engine"
      | "decisions_engine"
      | "chapters_engine"
      | "action_items_engine"
      | "content_version"
      | "language_code"
    >,
  ): Promise<void> {
    await this.db
      .insertInto("conversations")
      .values({ ...row, content_version: 0 })
      .execute();
  }

  /** Finds a conversation only if it belongs to the app. */
  find(appId: string, id: string): Promise<ConversationRow | undefined> {
    return this.db
      .selectFrom("conversations")
      .selectAll()
      .where("id", "=", id)
      .where("app_id", "=", appId)
      .executeTakeFirst();
  }

  /**
   * Finds the conversation (only if it belongs to `appId`, when given) and locks it until the transaction
   * ends. Every transaction that writes to a conversation starts here, so writers to one conversation take
   * their turns (no lost update, no race for the next position or job sequence, no deadlock between them).
   * It also counts the write in `content_version`, in the same transaction, so a cached page of the
   * conversation is stale from the commit on, on every process.
   */
  lockForWrite(id: string, appId?: string): Promise<ConversationRow | undefined> {
    let query = this.db
      .updateTable("conversations")
      .set((eb) => ({ content_version: eb("content_version", "+", 1) }))
      .where("id", "=", id);
    if (appId !== undefined) query = query.where("app_id", "=", appId);
    return query.returningAll().executeTakeFirst();
  }

  /** The conversation's content version, only if it belongs to the app. */
  async contentVersion(appId: string, id: string): Promise<number | undefined> {
    const { rows } = await this.contentVersionOf({ appId, id });
    return rows[0]?.content_version;
  }

  /** The names of those of the conversations that belong to the app, by id, in one query. */
  async namesOf(appId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("conversations")
      .select(["id", "name"])
      .where("app_id", "=", appId)
      .where("id", "in", ids)
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Those of the conversations with a visible line that names no speaker (no name, e-mail or user id), in one query. */
  async withUnnamedLines(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("messages")
      .select("conversation_id")
      .distinct()
      .where("conversation_id", "in", ids)
      .where("hidden", "=", 0)
      .where("member_id", "is", null)
      .where("from_name", "is", null)
      .where("from_email", "is", null)
      .where("from_user_id", "is", null)
      .execute();
    return new Set(rows.map((row) => row.conversation_id));
  }

  findById(id: string): Promise<ConversationRow | undefined> {
    return this.db.selectFrom("conversations").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The app's conversations, newest first; `nameContains` keeps those whose name contains it, in any case. */
  list(appId: string, limit: number, offset: number, nameContains?: string): Promise<ConversationRow[]> {
    let query = this.db.selectFrom("conversations").selectAll().where("app_id", "=", appId);
    if (nameContains) {
      const pattern = `%${nameContains.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
    }
    return query.orderBy("created_at", "desc").orderBy("id").limit(limit).offset(offset).execute();
  }

  async update(id: string, changes: ConversationUpdate): Promise<void> {
    await this.db.updateTable("conversations").set(changes).where("id", "=", id).execute();
  }

  /**
   * Deletes the conversation; foreign keys cascade to everything derived from it. Run in a transaction: its jobs'
   * rows are locked first, in the order a job's own transactions lock them (its claim, then the conversation), so
   * a delete waits for a job that is writing rather than deadlocking with it.
   */
  async delete(appId: string, id: string): Promise<boolean> {
    await this.db
      .updateTable("jobs")
      .set((eb) => ({ attempts: eb.ref("attempts") }))
      .where("conversation_id", "=", id)
      .where("app_id", "=", appId)
      .execute();
    const result = await this.db
      .deleteFrom("conversations")
      .where("id", "=", id)
      .where("app_id", "=", appId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Deletes the conversation if nothing was ever put in it: no message, member, job, recording or summary link
   * (a live stream that made it and heard nothing). True when it was deleted.
   */
  async deleteIfEmpty(appId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("conversations")
      .where("id", "=", id)
      .where("app_id", "=", appId)
      .where((eb) =>
        eb.and([
          eb.not(eb.exists(eb.selectFrom("messages").select("id").where("conversation_id", "=", id))),
          eb.not(eb.exists(eb.selectFrom("members").select("id").where("conversation_id", "=", id))),
          eb.not(eb.exists(eb.selectFrom("jobs").select("id").where("conversation_id", "=", id))),
          eb.not(eb.exists(eb.selectFrom("media").select("id").where("conversation_id", "=", id))),
          eb.not(eb.exists(eb.selectFrom("experiences").select("id").where("conversation_id", "=", id))),
        ]),
      )
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async nextMessagePosition(conversationId: string): Promise<number> {
    const row = await this.db
      .selectFrom("messages")
      .select((eb) => eb.fn.max("position").as("last"))
      .where("conversation_id", "=", conversationId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async insertMessages(rows: NewMessage[]): Promise<void> {
    // Chunked so a long meeting stays under both databases' bound-parameter limits.
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto("messages")
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  listMessages(conversationId: string): Promise<MessageRow[]> {
    return this.db
      .selectFrom("messages")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("position")
      .execute();
  }

  /**
   * The conversation's lines in order, with only what a whole-transcript view uses: reading a long
   * meeting's every column costs about twice as much, and a page is made again after every change.
   */
  listTranscript(conversationId: string): Promise<TranscriptRow[]> {
    return this.db
      .selectFrom("messages")
      .select(["id", "text", "member_id", "from_name", "start_time", "end_time", "hidden"])
      .where("conversation_id", "=", conversationId)
      .orderBy("position")
      .execute();
  }

  /** The times of a member's visible, timed lines, earliest first. */
  listTimesOfMember(
    conversationId: string,
    memberId: string,
  ): Promise<{ start_time: string | null; end_time: string | null }[]> {
    return this.db
      .selectFrom("messages")
      .select(["start_time", "end_time"])
      .where("conversation_id", "=", conversationId)
      .where("member_id", "=", memberId)
      .where("hidden", "=", 0)
      .where("start_time", "is not", null)
      .where("end_time", "is not", null)
      .orderBy("start_time")
      .execute();
  }

  /** The position in the conversation of each of these messages that is in it. */
  async messagePositions(
    conversationId: string,
    messageIds: readonly string[],
  ): Promise<Map<string, number>> {
    if (messageIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("messages")
      .select(["id", "position"])
      .where("conversation_id", "=", conversationId)
      .where("id", "in", [...messageIds])
      .execute();
    return new Map(rows.map((row) => [row.id, row.position]));
  }

  /** Whether the job has stored any message. */
  async hasMessagesOfJob(jobId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("messages")
      .select("id")
      .where("job_id", "=", jobId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  listMessagesOfJob(jobId: string): Promise<MessageRow[]> {
    return this.db
      .selectFrom("messages")
      .selectAll()
      .where("job_id", "=", jobId)
      .orderBy("position")
      .execute();
  }

  findMessage(conversationId: string, messageId: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom("messages")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("id", "=", messageId)
      .executeTakeFirst();
  }

  async updateMessage(messageId: string, changes: { text?: string; hidden?: number; member_id?: string }) {
    await this.db.updateTable("messages").set(changes).where("id", "=", messageId).execute();
  }

  /**
   * The members of a conversation the app can see under its secret `generation`, in order, in one query;
   * undefined when it cannot see the conversation (another app's or none) or the generation is not the
   * app's any more.
   */
  async listMembersOfApp(
    appId: string,
    generation: number,
    conversationId: string,
  ): Promise<ListedMember[] | undefined> {
    const { rows } = await this.membersOfApp({ appId, generation, conversationId });
    if (rows.length === 0) return undefined;
    return rows.filter((row): row is ListedMember => row.id !== null);
  }

  listMembers(conversationId: string): Promise<MemberRow[]> {
    return this.db
      .selectFrom("members")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("position")
      .execute();
  }

  /** The members of several conversations in one query, each conversation's in order. */
  async listMembersOfEach(conversationIds: readonly string[]): Promise<Map<string, MemberRow[]>> {
    const members = new Map(conversationIds.map((id) => [id, [] as MemberRow[]]));
    if (conversationIds.length === 0) return members;
    const rows = await this.db
      .selectFrom("members")
      .selectAll()
      .where("conversation_id", "in", conversationIds)
      .orderBy("conversation_id")
      .orderBy("position")
      .execute();
    for (const row of rows) members.get(row.conversation_id)?.push(row);
    return members;
  }

  findMember(conversationId: string, memberId: string): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom("members")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("id", "=", memberId)
      .executeTakeFirst();
  }

  async insertMember(member: Insertable<MembersTable>, identityKeys: string[]): Promise<void> {
    await this.db.insertInto("members").values(member).execute();
    await this.addIdentities(member.conversation_id, member.id, identityKeys);
  }

  /** Records further keys for a member; keys another member already holds are left with it. */
  async addIdentities(conversationId: string, memberId: string, identityKeys: string[]): Promise<void> {
    if (identityKeys.length === 0) return;
    await this.db
      .insertInto("member_identities")
      .values(
        identityKeys.map((key) => ({
          conversation_id: conversationId,
          identity_key: key,
          member_id: memberId,
        })),
      )
      .onConflict((oc) => oc.columns(["conversation_id", "identity_key"]).doNothing())
      .execute();
  }

  /** Makes `keys` the member's only identities. */
  async replaceIdentities(conversationId: string, memberId: string, keys: string[]): Promise<void> {
    await this.db
      .deleteFrom("member_identities")
      .where("conversation_id", "=", conversationId)
      .where("member_id", "=", memberId)
      .execute();
    await this.addIdentities(conversationId, memberId, keys);
  }

  /** Says the member's lines were said by `name`, with no e-mail or user id. */
  async renameLinesOfMember(conversationId: string, memberId: string, name: string): Promise<void> {
    await this.db
      .updateTable("messages")
      .set({ from_name: name, from_email: null, from_user_id: null })
      .where("conversation_id", "=", conversationId)
      .where("member_id", "=", memberId)
      .execute();
  }

  async identityMap(conversationId: string): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom("member_identities")
      .select(["identity_key", "member_id"])
      .where("conversation_id", "=", conversationId)
      .execute();
    return new Map(rows.map((row) => [row.identity_key, row.member_id]));
  }

  async updateMember(
    memberId: string,
    changes: Omit<Updateable<MembersTable>, "id" | "conversation_id" | "user_id" | "identity_key">,
  ) {
    await this.db.updateTable("members").set(changes).where("id", "=", memberId).execute();
  }

  /**
   * Points every message, insight (said by or assigned to it) and identity of `fromId` at `intoId`, then
   * deletes `fromId`.
   */
  async mergeMember(conversationId: string, fromId: string, intoId: string): Promise<void> {
    await this.db
      .updateTable("messages")
      .set({ member_id: intoId })
      .where("member_id", "=", fromId)
      .execute();
    await this.db
      .updateTable("insights")
      .set({ member_id: intoId })
      .where("member_id", "=", fromId)
      .execute();
    await this.db
      .updateTable("insights")
      .set({ assignee_member_id: intoId })
      .where("assignee_member_id", "=", fromId)
      .execute();
    await this.db
      .updateTable("member_identities")
      .set({ member_id: intoId })
      .where("conversation_id", "=", conversationId)
      .where("member_id", "=", fromId)
      .execute();
    await this.db.deleteFrom("members").where("id", "=", fromId).execute();
  }

  /** Replaces the stored analysis of a conversation with a new one. */
  async replaceAnalysis(conversationId: string, analysis: StoredAnalysis): Promise<void> {
    for (const table of ["summaries", "decisions", "topics", "insights"] as const) {
      await this.db.deleteFrom(table).where("conversation_id", "=", conversationId).execute();
    }
    if (analysis.summaries.length > 0)
      await this.db.insertInto("summaries").values(analysis.summaries).execute();
    if (analysis.decisions.length > 0)
      await this.db.insertInto("decisions").values(analysis.decisions).execute();
    if (analysis.topics.length > 0) await this.db.insertInto("topics").values(analysis.topics).execute();
    for (let i = 0; i < analysis.insights.length; i += 500) {
      await this.db
        .insertInto("insights")
        .values(analysis.insights.slice(i, i + 500))
        .execute();
    }
  }

  listSummaries(conversationId: string): Promise<SummaryRow[]> {
    return this.db
      .selectFrom("summaries")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("position")
      .execute();
  }

  listDecisions(conversationId: string): Promise<DecisionRow[]> {
    return this.db
      .selectFrom("decisions")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("position")
      .execute();
  }

  /** The conversation's topics by score, or only those of one kind ("chapter", "phrase"). */
  listTopics(conversationId: string, kind?: "chapter" | "phrase"): Promise<TopicRow[]> {
    return this.db
      .selectFrom("topics")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .$if(kind !== undefined, (query) => query.where("kind", "=", kind ?? ""))
      .orderBy("score", "desc")
      .orderBy("position")
      .execute();
  }

  listInsights(conversationId: string): Promise<InsightRow[]> {
    return this.db
      .selectFrom("insights")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .orderBy("position")
      .execute();
  }

  findInsight(conversationId: string, insightId: string): Promise<InsightRow | undefined> {
    return this.db
      .selectFrom("insights")
      .selectAll()
      .where("conversation_id", "=", conversationId)
      .where("id", "=", insightId)
      .executeTakeFirst();
  }

  async updateInsight(
    insightId: string,
    changes: { text?: string; dismissed?: number; text_edited?: number },
  ): Promise<void> {
    await this.db.updateTable("insights").set(changes).where("id", "=", insightId).execute();
  }
}
