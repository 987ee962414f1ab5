import { describe, expect, it } from "vitest";
import { DETECTION_LIMITS, detectTrackers } from "./trackers.ts";

const lines = [
  { id: "1", text: "I'm Sending the REPORTS to finance today." },
  { id: "2", text: "Can we talk about pricing?" },
  { id: "3", text: "The report was sent." },
];

describe("detectTrackers", () => {
  it("matches phrases in any case and inflection, as words in a row, with the words and where they start", () => {
    const found = detectTrackers(
      [
        { id: "t1", name: "Reports", vocabulary: ["send the report", "report"] },
        { id: "t2", name: "Pricing", vocabulary: ["prices", "discount"] },
        { id: "t3", name: "Nothing", vocabulary: ["refund"] },
      ],
      lines,
      [{ id: "i1", text: "Dana will send the report.", type: "action_item" }],
    );
    expect(found).toEqual({
      truncated: false,
      trackers: [
        {
          id: "t1",
          name: "Reports",
          matches: [
            {
              type: "vocabulary",
              value: "send the report",
              messageRefs: [{ id: "1", text: "Sending the REPORTS", offset: 4 }],
              insightRefs: [{ id: "i1", text: "send the report", offset: 10, type: "action_item" }],
            },
            {
              type: "vocabulary",
              value: "report",
              messageRefs: [
                { id: "1", text: "REPORTS", offset: 16 },
                { id: "3", text: "report", offset: 4 },
              ],
              insightRefs: [{ id: "i1", text: "report", offset: 19, type: "action_item" }],
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
              messageRefs: [{ id: "2", text: "pricing", offset: 18 }],
              insightRefs: [],
            },
          ],
        },
      ],
    });
  });

  it("does not match the words of a phrase apart or out of order", () => {
    expect(detectTrackers([{ id: "t", name: "T", vocabulary: ["report sent"] }], lines, [])).toEqual({
      trackers: [],
      truncated: false,
    });
  });

  it("finds phrases that start alike, longer and shorter, where each first occurs", () => {
    const text = "we send it, then send the report, then send the report again";
    const found = detectTrackers(
      [
        { id: "a", name: "A", vocabulary: ["send the report again", "send", "send the report"] },
        { id: "b", name: "B", vocabulary: ["the report", "send the"] },
      ],
      [{ id: "1", text }],
      [],
    );
    const refs = found.trackers.map((tracker) =>
      tracker.matches.map((match) => [match.value, match.messageRefs[0]?.text, match.messageRefs[0]?.offset]),
    );
    expect(refs).toEqual([
      [
        ["send the report again", "send the report again", text.lastIndexOf("send")],
        ["send", "send", text.indexOf("send")],
        ["send the report", "send the report", text.indexOf("send the")],
      ],
      [
        ["the report", "the report", text.indexOf("the report")],
        ["send the", "send the", text.indexOf("send the")],
      ],
    ]);
  });

  it("gives a phrase two trackers share, or two spellings with one stem, to each", () => {
    const found = detectTrackers(
      [
        { id: "a", name: "A", vocabulary: ["report", "reports"] },
        { id: "b", name: "B", vocabulary: ["REPORT"] },
      ],
      lines,
      [],
    );
    expect(
      found.trackers.map((tracker) => tracker.matches.map((m) => [m.value, m.messageRefs.map((r) => r.id)])),
    ).toEqual([
      [
        ["report", ["1", "3"]],
        ["reports", ["1", "3"]],
      ],
      [["REPORT", ["1", "3"]]],
    ]);
  });

  it("stops at the first line whose matches would pass the answer's limit, keeping those before it", () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ id: String(i), text: `the budget, line ${i}` }));
    const trackers = [
      { id: "a", name: "A", vocabulary: ["budget"] },
      { id: "b", name: "B", vocabulary: ["the budget", "line"] },
    ];
    // Each line gives three references.
    const found = detectTrackers(trackers, many, [{ id: "i", text: "budget" }], {
      ...DETECTION_LIMITS,
      maxRefs: 10,
    });
    expect(found.truncated).toBe(true);
    expect(found.trackers.flatMap((t) => t.matches.map((m) => m.messageRefs.map((r) => r.id)))).toEqual([
      ["0", "1", "2"],
      ["0", "1", "2"],
      ["0", "1", "2"],
    ]);
    expect(found.trackers.flatMap((t) => t.matches.flatMap((m) => m.insightRefs))).toEqual([]);
    expect(detectTrackers(trackers, many, [], { ...DETECTION_LIMITS, maxRefs: 30 }).truncated).toBe(false);
  });

  it("stops once it has taken its steps, however long one line or phrase is", () => {
    const long = Array.from({ length: 150 }, () => "a").join(" ");
    const found = detectTrackers(
      [{ id: "a", name: "A", vocabulary: [long, "b"] }],
      [
        { id: "1", text: "b" },
        { id: "2", text: `${long} `.repeat(2000) },
        { id: "3", text: "b" },
      ],
      [],
      { ...DETECTION_LIMITS, maxSteps: 100_000 },
    );
    expect(found).toEqual({
      truncated: true,
      trackers: [
        {
          id: "a",
          name: "A",
          matches: [
            {
              type: "vocabulary",
              value: "b",
              messageRefs: [{ id: "1", text: "b", offset: 0 }],
              insightRefs: [],
            },
          ],
        },
      ],
    });
  });

  it("answers 30 trackers of 50 common words on a large conversation within the limit", () => {
    const common =
      "the of and to a in is it you that he was for on are with as I his they be at one have this".split(" ");
    const words = Array.from(
      { length: 50 },
      (_, i) => `${common[i % common.length]}${i < common.length ? "" : " the"}`,
    );
    const trackers = Array.from({ length: 30 }, (_, t) => ({
      id: String(t),
      name: `T${t}`,
      vocabulary: words,
    }));
    const conversation = Array.from({ length: 20_000 }, (_, i) => ({
      id: String(i),
      text: `${common.join(" ")} line ${i}, and the rest of it is for you to see.`,
    }));
    const found = detectTrackers(trackers, conversation, []);
    expect(found.truncated).toBe(true);
    const refs = found.trackers.flatMap((t) => t.matches.flatMap((m) => m.messageRefs));
    expect(refs.length).toBeLessThanOrEqual(DETECTION_LIMITS.maxRefs);
    expect(refs.length).toBeGreaterThan(DETECTION_LIMITS.maxRefs - 30 * 50);
  });
});
