import { analyzeConversation } from "./analyze.ts";
import { findEntities, type FoundEntity } from "./entities.ts";
import type { AnalysisInput, AnalysisResult, EntitiesInput } from "./types.ts";

/** Piscina task: one conversation in, its analysis out (runs in a worker thread). */
export default function analyzeTask(input: AnalysisInput): AnalysisResult {
  return analyzeConversation(input);
}

/** Piscina task `entities`: the entities of a conversation's lines. */
export function entities(input: EntitiesInput): FoundEntity[] {
  return findEntities(input.lines, input.knownNames);
}
