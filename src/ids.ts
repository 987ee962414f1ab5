import { randomInt, randomUUID } from "node:crypto";

/** A 16-digit numeric string, the id shape Symbl used for conversations, messages and insights. */
export function numericId(): string {
  const head = String(randomInt(1, 10));
  return head + String(randomInt(0, 1e8)).padStart(8, "0") + String(randomInt(0, 1e7)).padStart(7, "0");
}

export const uuid = (): string => randomUUID();
