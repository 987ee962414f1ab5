import { describe, expect, it } from "vitest";
import { WEBSITE_PLANNING } from "../../test/helpers/factories.ts";
import { analyzeConversation, sentencesOf } from "./analyze.ts";
import { statesDecision } from "./decision-features.ts";
import {
  DEFAULT_DECISION_OPTIONS,
  findDecisions,
  isFormalSitting,
  pickDecisions,
  type DecisionOptions,
} from "./decisions.ts";
import type { AnalysisInput } from "./types.ts";

/** A conversation of these [speaker, text] lines, message ids m0, m1, … */
const conversationOf = (lines: readonly (readonly [string, string])[]): AnalysisInput => ({
  conversationStartTime: "2026-11-02T15:00:00.000Z",
  messages: lines.map(([speaker, text], i) => ({
    id: `m${i}`,
    text,
    memberId: null,
    speakerName: speaker,
    startTime: null,
  })),
});

const input = conversationOf(WEBSITE_PLANNING);

describe("findDecisions", () => {
  it("finds the sentences that state a decision, as written sentences linked to their lines", () => {
    const decisions = findDecisions(input, sentencesOf(WEBSITE_PLANNING.map(([, text]) => text)));
    expect(decisions).toEqual([
      { text: "We decided to stay with the current hosting company for another year.", messageIds: ["m6"] },
      { text: "The logo will be blue and we will drop the green version.", messageIds: ["m15"] },
    ]);
  });

  it("takes no question, hedged idea or small talk for a decision", () => {
    const only = (lines: number[]): AnalysisInput => ({
      ...input,
      messages: lines.map((i) => input.messages[i]!),
    });
    const talk = only([2, 3, 4, 9, 10, 11, 18]);
    expect(findDecisions(talk, sentencesOf(talk.messages.map((m) => m.text)))).toEqual([]);
  });

  it("shows no cut-off or fragment sentence as a decision, however likely its place makes it", () => {
    const cut: [string, string][] = [
      ["Ana", "Okay, so we will drop the green version of the."],
      ["Ben", "Yeah."],
      ["Cleo", "That in that use of the logo."],
      ["Ben", "Sure."],
    ];
    const conversation = conversationOf([...WEBSITE_PLANNING, ...cut]);
    const texts = findDecisions(conversation, sentencesOf(conversation.messages.map((m) => m.text))).map(
      (decision) => decision.text,
    );
    const whole = [
      "We decided to stay with the current hosting company for another year.",
      "The logo will be blue and we will drop the green version.",
    ];
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(whole).toContain(text);
  });

  it("is part of the analysis, and empty for a language the analysis does not read", () => {
    expect(analyzeConversation(input).decisions.map((d) => d.messageIds)).toEqual([["m6"], ["m15"]]);
    const spanish = analyzeConversation({ ...input, languageCode: "es-ES" });
    expect(spanish.decisions).toEqual([]);
  });
});

/**
 * The opening of a Welsh Assembly committee sitting (QMSum train education_2, lines 0–4, long lines cut after
 * the sentences quoted), where the minister reports her government's choice.
 */
const COMMITTEE_SITTING: [string, string][] = [
  [
    "Lynne Neagle AM",
    "Good morning, everyone. Welcome to the Children, Young People and Education Committee this morning. I've received apologies for absence from Siân Gwenllian, and I'm very pleased to welcome Helen Mary Jones, who is substituting for Siân today.",
  ],
  [
    "Kirsty Williams AM",
    "Yes, if that's okay, Chair. COVID-19 coronavirus is one of the most significant issues that the Welsh Government and the people of Wales have dealt with in recent times. Yesterday, I announced that, whilst there are no easy choices, we have agreed that the best way forward is not to proceed with the summer exam series. Learners due to sit these exams will be awarded a fair grade to recognise their work.",
  ],
  [
    "Lynne Neagle AM",
    "Thank you very much, Minister, for that statement. We'll go to questions from Members now, and I've got some questions from Dawn Bowden.",
  ],
  [
    "Dawn Bowden AM",
    "Thank you, Chair. Can I thank you, Kirsty, for your statement and the really difficult decisions that you've been having to make? You've already indicated in your statement this morning that these decisions are not taken lightly, and we understand that that is the case across Government.",
  ],
  [
    "Kirsty Williams AM",
    "Thank you, Dawn. So, you're absolutely right, our priority now is to operationalise, with colleagues in local government and schools, a practical response.",
  ],
];

describe("isFormalSitting", () => {
  it("takes a committee sitting for one, by how its lines speak of the chair, ministers and the house", () => {
    expect(isFormalSitting(conversationOf(COMMITTEE_SITTING))).toBe(true);
    // QMSum train covid_7, lines 350–356 (cut after their first sentences): a Commons special committee, the chair addressed by title.
    const commons = conversationOf([
      [
        "The Acting Chair (Mr. Bruce Stanton)",
        "I thank the honourable member, Mr. Bezan, for his point of order. It was really more of a request.",
      ],
      ["Mr. James Bezan", "No. I'd just like to respond to that if I could."],
      ["The Acting Chair (Mr. Bruce Stanton)", "Well, there's"],
      [
        "Mr. James Bezan",
        "Mr. Chair, this is the problem with this special committee. Our rights and privileges as members have been completely degraded.",
      ],
      [
        "The Acting Chair (Mr. Bruce Stanton)",
        "Mr. Bezan, we're all operating under an order that was agreed to by the House. We'll stick to those provisions.",
      ],
      [
        "Mr. Marty Morantz (CharleswoodSt. JamesAssiniboiaHeadingley, CPC)",
        "Thank you, Mr. Chair. My questions are for the Minister of National Revenue.",
      ],
      ["Hon. Diane Lebouthillier", "Mr.Chair, I thank my colleague for that important question."],
    ]);
    expect(isFormalSitting(commons)).toBe(true);
  });

  it("does not take a working meeting that mentions a committee or the government once for one", () => {
    expect(isFormalSitting(input)).toBe(false);
    const mention = conversationOf([
      ...WEBSITE_PLANNING,
      ["Ana", "The steering committee wants the new site before the government grant runs out."],
    ]);
    expect(isFormalSitting(mention)).toBe(false);
    expect(findDecisions(mention, sentencesOf(mention.messages.map((m) => m.text)))).not.toEqual([]);
  });

  it("shows no decision in a sitting, where a stated choice is the government's, not the sitting's", () => {
    const sitting = conversationOf(COMMITTEE_SITTING);
    const sentences = sentencesOf(sitting.messages.map((m) => m.text));
    const reported = sentences.find((s) => s.text.includes("we have agreed that the best way forward"));
    expect(reported !== undefined && statesDecision(reported)).toBe(true);
    expect(findDecisions(sitting, sentences)).toEqual([]);
    expect(analyzeConversation(sitting).decisions).toEqual([]);
  });
});

describe("statesDecision", () => {
  const states = (text: string) => sentencesOf([text]).every((sentence) => statesDecision(sentence));

  it("takes a choice the group made or makes, saying what, for a decision (QMSum train lines)", () => {
    for (const text of [
      "We decided to use only basic functions only.", // TS3008c 722
      "We'll go for the battery.", // ES2007c
      "Let's go with five then.", // ES2002d
      "It looks like we're going to get rid of the whole locator thing.", // ES2003d
      "For archiving, we'll use tape.", // Bmr024
      "We agreed that the colour should be yellow and black.", // TS3012d
    ])
      expect(states(text), text).toBe(true);
  });

  it("takes no decision still to take, none that does not say what, and no one else's, for one", () => {
    for (const text of [
      "We have to come effectively to the decision on the remote functions so that you can decide.", // ES2014b
      "Did we decide on having the ten numbers.", // ES2014b
      "We already decided that on the previous meeting.", // TS3005c 338
      "We have decided.", // TS3007c 628
      "That's what we chose there.", // TS3012d 35
      "We have to keep the cost in mind, but it.", // TS3007c 360
      "They suggest that we should use the remote control only for TV.", // IS1005b 182
      "It's up to the design department what we're going to use.", // TS3003c 195
      "Let's go for the three presentations right now.", // IS1004b 66
      "We'll keep reviewing it over the next couple of years.", // education_3 60
      "Maybe we should go with the rubber case.",
      "So let's go for lunch then.", // IS1008b 244
    ])
      expect(states(text), text).toBe(false);
  });

  it("shows no decision that, once cleaned, ends before it says what was chosen", () => {
    const lines = ["we have to keep {disfmarker} Yeah .", "I think that we should use uh d"]; // TS3005b 561, TS3008b 327
    const conversation = conversationOf(lines.map((text) => ["Chair", text] as const));
    const sentences = sentencesOf(lines);
    expect(sentences.some((sentence) => statesDecision(sentence))).toBe(true);
    expect(findDecisions(conversation, sentences)).toEqual([]);
  });

  it("leaves a conversation whose likeliest lines state no choice without decisions", () => {
    const talk = conversationOf(
      [
        "We have to come to a decision on the functions today.",
        "I keep pointing at the old slide, sorry.",
        "We already decided that on the previous meeting.",
        "It's up to the design department what we're going to use.",
        "We should keep the cost in mind.",
      ].map((text) => ["Chair", text] as const),
    );
    expect(findDecisions(talk, sentencesOf(talk.messages.map((m) => m.text)))).toEqual([]);
  });
});

describe("pickDecisions", () => {
  const options: DecisionOptions = {
    ...DEFAULT_DECISION_OPTIONS,
    threshold: 0.5,
    spacing: 10,
    maxDecisions: 2,
  };
  const scored = [
    { index: 0, messageIndex: 0, probability: 0.9 },
    { index: 1, messageIndex: 5, probability: 0.8 },
    { index: 2, messageIndex: 30, probability: 0.7 },
    { index: 3, messageIndex: 60, probability: 0.4 },
  ];

  it("keeps the likeliest above the threshold, one per discussion, at most maxDecisions, in order", () => {
    // Sentence 1 is within 10 messages of sentence 0; sentence 3 is under the threshold.
    expect(pickDecisions(scored, 100, options)).toEqual([0, 2]);
    expect(pickDecisions(scored, 100, { ...options, maxDecisions: 1 })).toEqual([0]);
  });

  it("keeps decisions closer together in a short conversation, and skips what is not readable", () => {
    // 10 messages and at most 2 decisions: 5 messages apart is enough.
    expect(pickDecisions(scored.slice(0, 2), 10, options)).toEqual([0, 1]);
    expect(pickDecisions(scored, 100, options, (index) => index !== 0)).toEqual([1, 2]);
  });
});
