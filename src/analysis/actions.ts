/** Whose task a sentence states: the speaker ("I'll send …"), or a person it names ("Dana will …", "Dana, can you …"). */
import { addressedName, nameBefore } from "./names.ts";
import type { Sentence, Words } from "./nlp.ts";
import { commitmentEnd } from "./task-verbs.ts";

/** "speaker" for first-person commitments, a name as written, or null (group or unknown). */
export type Assignee = { kind: "speaker" } | { kind: "name"; name: string } | null;

/**
 * Who a task sentence gives the task to: the speaker ("I'll …", "I can …"), a person named as the subject
 * of a commitment ("Bhaskara will …"), a person addressed ("Carol, can you …", "… by Friday, Sam?"), or
 * null (the group, "you", or nobody said).
 */
export function taskAssignee(sentence: Sentence, words: Words): Assignee {
  const n = words.normals;
  for (let i = 0; i + 1 < n.length; i++) {
    if (n[i] === "i" && (commitmentEnd(n, i + 1) > 0 || n[i + 1] === "can")) return { kind: "speaker" };
    if (commitmentEnd(n, i + 1) < 0) continue;
    const name = nameBefore(words, i + 1);
    if (name !== null) return { kind: "name", name };
  }
  const addressee = addressedName(sentence);
  return addressee === null ? null : { kind: "name", name: addressee };
}
