import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GoldAction } from "./metrics/actions.ts";
import { QMSUM_DIR } from "./qmsum.ts";

/** Every hand-labelled action file follows the format in datasets/qmsum/ACTIONS.md and quotes its own meeting. */
interface LabelFile {
  meeting: string;
  split: string;
  annotator: string;
  turns: number;
  items: GoldAction[];
}

const ITEM_KEYS = ["alsoAt", "assignee", "confidence", "due", "quote", "task", "turn", "type"];

const readJson = <T>(...path: string[]) => JSON.parse(readFileSync(join(QMSUM_DIR, ...path), "utf8")) as T;

const labelled = ["train", "val"].flatMap((split) =>
  readdirSync(join(QMSUM_DIR, split, "actions")).map((file) => [split, file.replace(/\.json$/, "")]),
);

describe("hand-labelled action items", () => {
  it.each(labelled)("%s/actions/%s.json quotes its meeting's turns", (split, meeting) => {
    const labels = readJson<LabelFile>(split, "actions", `${meeting}.json`);
    const turns = readJson<{ meeting_transcripts: { content: string }[] }>(
      split,
      `${meeting}.json`,
    ).meeting_transcripts;

    expect(Object.keys(labels).sort()).toEqual(["annotator", "items", "meeting", "split", "turns"]);
    expect(labels).toMatchObject({ meeting, split, annotator: "guideline v1", turns: turns.length });
    const order = labels.items.map((item) => item.turn);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (const item of labels.items) {
      const where = `turn ${item.turn}`;
      expect(Object.keys(item).sort(), where).toEqual(ITEM_KEYS);
      expect(["action_item", "follow_up"], where).toContain(item.type);
      expect(["clear", "borderline"], where).toContain(item.confidence);
      expect(item.task.trim(), where).not.toBe("");
      expect(item.assignee.trim(), where).not.toBe("");
      expect(item.quote.trim(), where).not.toBe("");
      expect(turns[item.turn]?.content, where).toContain(item.quote);
      for (const other of item.alsoAt) {
        expect(
          Number.isInteger(other) && other >= 0 && other < turns.length && other !== item.turn,
          where,
        ).toBe(true);
      }
    }
  });
});
