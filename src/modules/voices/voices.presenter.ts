import type { VoiceProfileRow } from "../../db/schema.ts";
import type { ReferenceSummary } from "./voices.repository.ts";
import type { Voice } from "./voices.schemas.ts";

/**
 * A profile as the API shows it: never its vectors. `references` are its own, oldest first; `current` is the
 * installed embedding model (null when none is), which a profile of another model cannot be matched with.
 */
export function presentVoice(
  profile: VoiceProfileRow,
  references: readonly ReferenceSummary[],
  current: { model: string; dimension: number } | null,
): Voice {
  const seconds = references.reduce((sum, reference) => sum + reference.speech_seconds, 0);
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    speechSeconds: Math.round(seconds * 10) / 10,
    model: profile.model,
    needsRefresh:
      current !== null && (profile.model !== current.model || profile.dimension !== current.dimension),
    createdAt: profile.created_at,
    updatedAt: profile.updated_at,
    conversations: [...new Set(references.map((reference) => reference.conversation_id))],
  };
}
