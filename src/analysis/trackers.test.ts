import { describe, expect, it } from "vitest";
import { detectTrackers } from "./trackers.ts";

const lines = [
  { id: "1", text: "I'm Sending the REPORTS to finance today." },
  { id: "2", text: "Can we talk about pricing?" },
  { id: "3", text: "The report was sent." },
];

describe("detectTrackers", () => {
  it("matches phrases in any case and inflection, as words in a row, with where each starts", () => {
    const found = detectTrackers(
      [
        { id: "t1", name: "Reports", vocabulary: ["send the report", "report"] },
        { id: "t2", name: "Pricing", vocabulary: ["prices", "discount"] },
        { id: "t3", name: "Nothing", vocabulary: ["refund"] },
      ],
      lines,
      [{ id: "i1", text: "Dana will send the report.", type: "action_item" }],
    );
    expect(found).toEqual([
      {
        id: "t1",
        name: "Reports",
        matches: [
          {
            type: "vocabulary",
            value: "send the report",
            messageRefs: [{ id: "1", text: lines[0]?.text, offset: 4 }],
            insightRefs: [{ id: "i1", text: "Dana will send the report.", offset: 10, type: "action_item" }],
          },
          {
            type: "vocabulary",
            value: "report",
            messageRefs: [
              { id: "1", text: lines[0]?.text, offset: 16 },
              { id: "3", text: lines[2]?.text, offset: 4 },
            ],
            insightRefs: [{ id: "i1", text: "Dana will send the report.", offset: 19, type: "action_item" }],
          },
        ],
      },
      {
        id: "t2",
        name: "Pricing",
        // "prices" and "pricing" share the stem "price".
        matches: [
          {
            type: "vocabulary",
            value: "prices",
            messageRefs: [{ id: "2", text: lines[1]?.text, offset: 18 }],
            insightRefs: [],
          },
        ],
      },
    ]);
  });

  it("does not match the words of a phrase apart or out of order", () => {
    expect(detectTrackers([{ id: "t", name: "T", vocabulary: ["report sent"] }], lines, [])).toEqual([]);
  });
});
