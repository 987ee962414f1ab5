// Tests reach the QMSum meetings through here; the loader lives in src/cli/qmsum.ts because `bin/recap demo`
// ingests one of them too.
import {
  loadMeeting,
  meetingFiles,
  spokenTurns,
  toProcessTextBody,
  type QmsumMeeting,
} from "../../src/cli/qmsum.ts";

export {
  loadMeeting,
  meetingFiles,
  QMSUM_DIR,
  spokenTurns,
  toProcessTextBody,
  type QmsumMeeting,
} from "../../src/cli/qmsum.ts";

/**
 * A meeting far longer than any one QMSum has: the split's meetings, largest first, one after another and cut
 * at `lines` spoken turns, as one meeting named `name` (turns 5 s apart, as `toProcessTextBody` places them).
 */
export function joinedMeetings(split: "train" | "val", lines: number, name = `${lines} lines`) {
  const turns: QmsumMeeting["meeting_transcripts"] = [];
  for (const file of meetingFiles(split).reverse()) {
    if (turns.length >= lines) break;
    turns.push(...spokenTurns(loadMeeting(split, file)));
  }
  if (turns.length < lines) throw new Error(`QMSum ${split} has only ${turns.length} spoken turns`);
  const meeting = {
    file: name,
    meeting_transcripts: turns.slice(0, lines),
    general_query_list: [],
    topic_list: [],
  };
  return toProcessTextBody(meeting, undefined, name);
}

/**
 * A word of nine letters or more said in lines `from` to `to` (not included) and, whatever its case, in no other
 * line: what a search that must find only those lines (one part of a long meeting) looks for.
 */
export function wordOnlyIn(messages: { text: string }[], from: number, to: number): string | undefined {
  return messages
    .slice(from, to)
    .flatMap((m) => m.text.split(/[^A-Za-z]+/))
    .find(
      (candidate) =>
        candidate.length >= 9 &&
        messages.every(
          (m, i) => (i >= from && i < to) || !m.text.toLowerCase().includes(candidate.toLowerCase()),
        ),
    );
}
