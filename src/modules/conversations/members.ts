import type { MessageRow } from "../../db/schema.ts";

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
 * Who said a message, by SPEC §5: the e-mail (or a user id that is one, case-insensitive), else the
 * user id, else the trimmed name. Null when the message has no `from`.
 */
export function speakerIdentity(
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
