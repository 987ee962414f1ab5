import type { MessageRow } from "../../db/schema.ts";
import { uuid } from "../../ids.ts";
import type { ConversationsRepository } from "./conversations.repository.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SpeakerIdentity {
  /** Every key that names this speaker, the preferred first: e-mail, else user id, else name. */
  keys: string[];
  name: string;
  email: string | null;
  userId: string | null;
}

export const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`;

/**
 * Who said a message (docs/ARCHITECTURE.md, What a job does): the e-mail (or a user id that is one, case-insensitive), else the
 * user id, else the trimmed name. Null when the message has no `from`.
 */
function speakerIdentity(
  message: Pick<MessageRow, "from_name" | "from_user_id" | "from_email">,
): SpeakerIdentity | null {
  const name = message.from_name?.trim() || null;
  const userId = message.from_user_id?.trim() || null;
  const email = message.from_email?.trim() || (userId && EMAIL.test(userId) ? userId : null);
  const keys: string[] = [];
  if (email) keys.push(emailKey(email));
  else if (userId) keys.push(`user:${userId}`);
  else if (name) keys.push(`name:${name}`);
  if (keys.length === 0) return null;
  return { keys, name: name ?? email ?? userId ?? "", email, userId };
}

/** The key a speaker's member is first known by (its e-mail, else its user id, else its name); null for none. */
export function identityKeyOf(
  speaker: Pick<MessageRow, "from_name" | "from_user_id" | "from_email">,
): string | null {
  return speakerIdentity(speaker)?.keys[0] ?? null;
}

/**
 * Gives each message its speaker's member, creating members in order of first appearance. A member keeps
 * every key it was known by, so merged and renamed members still catch later messages. Call it in a
 * transaction that holds the conversation's lock (`lockForWrite`), so no other writer adds a member meanwhile.
 */
export async function resolveSpeakers(
  conversations: ConversationsRepository,
  conversationId: string,
  messages: MessageRow[],
): Promise<void> {
  const identities = await conversations.identityMap(conversationId);
  let nextPosition = (await conversations.listMembers(conversationId)).length;
  for (const message of messages) {
    const identity = speakerIdentity(message);
    if (!identity) continue;
    let memberId = identity.keys.map((key) => identities.get(key)).find((id) => id !== undefined);
    if (!memberId) {
      memberId = uuid();
      await conversations.insertMember(
        {
          id: memberId,
          conversation_id: conversationId,
          name: identity.name,
          email: identity.email,
          user_id: identity.userId,
          position: nextPosition++,
          identity_key: identity.keys[0] ?? `member:${memberId}`,
        },
        identity.keys,
      );
      for (const key of identity.keys) identities.set(key, memberId);
    }
    if (message.member_id !== memberId)
      await conversations.updateMessage(message.id, { member_id: memberId });
  }
}
