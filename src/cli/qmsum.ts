import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ProcessTextBody } from "../modules/ingestion/ingestion.schemas.ts";

/** The QMSum meetings shipped in the repository (datasets/qmsum, MIT): `bin/recap demo`, tests and benches use them. */
export const QMSUM_DIR = join(import.meta.dirname, "..", "..", "datasets", "qmsum");

export interface QmsumMeeting {
  file: string;
  meeting_transcripts: { speaker: string; content: string }[];
  general_query_list: { query: string; answer: string }[];
  topic_list: { topic: string; relevant_text_span: [string, string][] }[];
}

export function loadMeeting(split: "train" | "val", file: string): QmsumMeeting {
  const path = join(QMSUM_DIR, split, file);
  return { file, ...(JSON.parse(readFileSync(path, "utf8")) as Omit<QmsumMeeting, "file">) };
}

/** The split's meeting files, smallest first. */
export function meetingFiles(split: "train" | "val"): string[] {
  const dir = join(QMSUM_DIR, split);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size);
}

/** The meeting's turns that say something (a few QMSum turns are empty, which the API refuses). */
export function spokenTurns(meeting: QmsumMeeting) {
  return meeting.meeting_transcripts.filter((turn) => turn.content.trim() !== "");
}

/**
 * A meeting as a `POST /v1/process/text` body: each spoken turn a message, the speaker as from.name. QMSum
 * has no times, so turn i is placed at `start` + 5 s × i, lasting 4 s.
 */
export function toProcessTextBody(
  meeting: QmsumMeeting,
  start = new Date("2026-11-02T15:00:00Z"),
  name = meeting.file.replace(/\.json$/, ""),
) {
  return {
    name,
    messages: spokenTurns(meeting).map((turn, index) => ({
      payload: { content: turn.content, contentType: "text/plain" },
      from: { name: turn.speaker },
      duration: {
        startTime: new Date(start.getTime() + index * 5000).toISOString(),
        endTime: new Date(start.getTime() + index * 5000 + 4000).toISOString(),
      },
    })),
  } satisfies ProcessTextBody;
}
