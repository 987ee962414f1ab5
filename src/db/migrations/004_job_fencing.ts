import { sql, type Kysely } from "kysely";

/**
 * The database refuses a second member for an identity a conversation already has: each member records the
 * key it was first known by (`identity_key`, also in member_identities), unique within its conversation.
 *
 * Existing members get one of their own keys. A member with none is a duplicate left by a job that two
 * processes ran at once (its keys went to the other copy): it is merged into the member that holds the key
 * its sender fields give (its messages and insights move there), or, when none does, keeps that key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("members").addColumn("identity_key", "text").execute();
  await sql`
    UPDATE members SET identity_key = (
      SELECT MIN(i.identity_key) FROM member_identities i WHERE i.member_id = members.id
    )`.execute(db);

  const orphans = await sql<{
    id: string;
    conversation_id: string;
    name: string;
    email: string | null;
    user_id: string | null;
  }>`SELECT id, conversation_id, name, email, user_id FROM members WHERE identity_key IS NULL ORDER BY position`.execute(
    db,
  );
  for (const member of orphans.rows) {
    const key = keyOf(member);
    const holder = await sql<{ member_id: string }>`
      SELECT member_id FROM member_identities
      WHERE conversation_id = ${member.conversation_id} AND identity_key = ${key}`.execute(db);
    const survivor = holder.rows[0]?.member_id;
    if (survivor !== undefined) {
      await sql`UPDATE messages SET member_id = ${survivor} WHERE member_id = ${member.id}`.execute(db);
      await sql`UPDATE insights SET member_id = ${survivor} WHERE member_id = ${member.id}`.execute(db);
      await sql`DELETE FROM members WHERE id = ${member.id}`.execute(db);
    } else {
      await sql`UPDATE members SET identity_key = ${key} WHERE id = ${member.id}`.execute(db);
      await sql`
        INSERT INTO member_identities (conversation_id, identity_key, member_id)
        VALUES (${member.conversation_id}, ${key}, ${member.id})`.execute(db);
    }
  }

  await db.schema
    .createIndex("members_conversation_identity")
    .on("members")
    .columns(["conversation_id", "identity_key"])
    .unique()
    .execute();
}

/** A member's preferred identity key (e-mail, else user id, else name; docs/ARCHITECTURE.md, Members), as members.ts made it when this migration was written (kept here, frozen). */
function keyOf(member: { id: string; name: string; email: string | null; user_id: string | null }): string {
  const email =
    member.email?.trim() ||
    (member.user_id && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(member.user_id.trim())
      ? member.user_id.trim()
      : null);
  if (email) return `email:${email.toLowerCase()}`;
  if (member.user_id?.trim()) return `user:${member.user_id.trim()}`;
  if (member.name.trim()) return `name:${member.name.trim()}`;
  return `member:${member.id}`;
}
