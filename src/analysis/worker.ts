import { analyzeConversation } from "./analyze.ts";
import type { AnalysisInput, AnalysisResult } from "./types.ts";

/** Piscina task: one conversation in, its analysis out (runs in a worker thread). */
export default function analyzeTask(input: AnalysisInput): AnalysisResult {
  return analyzeConversation(input);
}
