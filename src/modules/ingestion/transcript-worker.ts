import { DomainError } from "../../errors.ts";
import { parseTranscript, type TranscriptCue } from "./transcript.ts";

/** What crosses the thread boundary: errors lose their class there, so a refusal travels as its message. */
export type ParseOutcome = { cues: TranscriptCue[] } | { refused: string };

/** Piscina task: one transcript file in, its cues (or why it was refused) out. */
export default function parseTranscriptTask(source: string): ParseOutcome {
  try {
    return { cues: parseTranscript(source) };
  } catch (error) {
    if (error instanceof DomainError) return { refused: error.message };
    throw error;
  }
}
