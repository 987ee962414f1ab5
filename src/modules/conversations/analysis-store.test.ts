import { describe, expect, it } from "vitest";
import type { InsightRow } from "../../db/schema.ts";
import { keepViewerEdits } from "./analysis-store.ts";

const insight = (id: string, text: string, messageIds: string[], extra: Partial<InsightRow> = {}) => ({
  id,
  conversation_id: "c",
  position: 0,
  type: "action_item",
  text,
  score: 0.7,
  message_ids: JSON.stringify(messageIds),
  member_id: null,
  assignee_member_id: null,
  assignee_name: null,
  due_by: null,
  dismissed: 0,
  text_edited: 0,
  ...extra,
});

describe("keepViewerEdits", () => {
  it("keeps the id, dismissal and edited text of an insight found again on the same lines", () => {
    const previous = [
      insight("old-1", "Viewer wording", ["m1", "m2"], { text_edited: 1 }),
      insight("old-2", "Send the slides.", ["m3"], { dismissed: 1 }),
    ];
    const next = [
      insight("new-1", "Send the report.", ["m2", "m1"]),
      insight("new-2", "Send the slides.", ["m3"]),
      insight("new-3", "Book a room.", ["m4"]),
    ];
    expect(keepViewerEdits(previous, next).map((i) => [i.id, i.text, i.dismissed, i.text_edited])).toEqual([
      ["old-1", "Viewer wording", 0, 1],
      ["old-2", "Send the slides.", 1, 0],
      ["new-3", "Book a room.", 0, 0],
    ]);
  });

  it("does not carry an edit to another type, and lets an analysis's new text replace unedited text", () => {
    const previous = [
      insight("old-1", "Send it?", ["m1"], { type: "question", dismissed: 1 }),
      insight("old-2", "Send the report.", ["m1"]),
    ];
    const result = keepViewerEdits(previous, [insight("new-1", "Send the invoice.", ["m1"])]);
    expect(result).toEqual([
      expect.objectContaining({ id: "old-2", text: "Send the invoice.", dismissed: 0 }),
    ]);
  });

  it("pairs several insights of one line by exact text first, then in order", () => {
    const previous = [
      insight("a", "First we design.", ["m1"], { dismissed: 1 }),
      insight("b", "My own words", ["m1"], { text_edited: 1 }),
      insight("c", "Then we build.", ["m1"]),
    ];
    const next = [insight("x", "Then we build.", ["m1"]), insight("y", "Then we test.", ["m1"])];
    expect(keepViewerEdits(previous, next).map((i) => [i.id, i.text, i.dismissed])).toEqual([
      ["c", "Then we build.", 0],
      ["a", "Then we test.", 1],
    ]);
  });
});
