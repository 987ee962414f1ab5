import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import { keyPhrases, nounPhrases } from "./phrases.ts";

/** Texts of the noun phrases that may title a topic in raw transcript turns (cleaned first, as the analysis does). */
function phrasesOf(...turns: string[]): string[] {
  return sentencesOf(turns).flatMap((s) =>
    nounPhrases(s)
      .filter((p) => p.title)
      .map((p) => p.text),
  );
}

// Turns from QMSum train meetings (ES2002a, Bed004, Bed009, covid_3, education_23, ES2014b, Bdb001, IS1001b).
describe("nounPhrases", () => {
  it("keeps content noun phrases of up to three words", () => {
    expect(phrasesOf("I suppose it's depends on how complicated our remote control is .")).toEqual([
      "remote control",
    ]);
    expect(
      phrasesOf(
        "So, are you content that eligibility for free school meals is the best measure, really, of identifying which pupils to target?",
      ),
    ).toEqual(["eligibility", "free school meals", "best measure", "pupils"]);
    expect(
      phrasesOf("But that was only for young people that preferred it , older people didn't ."),
    ).toContain("young people");
  });

  it("never yields pronouns, contractions, fillers or forms of address", () => {
    const phrases = phrasesOf(
      "I'm Laura and I'm the project manager . {vocalsound} Do you want to introduce",
      "Alright , so that 's {disfmarker} that 's the {disfmarker} that 's the thesis level",
      "Madam Chair, I can assure you we're not going to be cutting. We'll be investing in our defence.",
      "Yeah , I was thi I was thinking the advantage is that we can share this with other people .",
      "Now I dunno how much people have thought ahead to the tourist domain in this",
    );
    expect(phrases).toEqual(expect.arrayContaining(["thesis level", "tourist domain"]));
    for (const bad of ["i'm", "alright", "madam", "madam chair", "chair", "dunno", "people", "yeah"]) {
      expect(phrases).not.toContain(bad);
    }
  });

  it("never yields a speaker's role, a title, a name or the noun of a filler idiom", () => {
    const phrases = phrasesOf(
      "I'm Laura and I'm the project manager , and Cat is our marketing expert .",
      "Thank you , Honourable Minister . The speaker will now hear the Auditor General .",
      "Thank you, Graeme Reid, for the evidence on long-term care homes .",
      "Of course , the buttons of course matter .",
      "That's an interesting problem , the over-estimation factor .",
    );
    expect(phrases).toEqual(expect.arrayContaining(["evidence", "buttons", "over-estimation factor"]));
    for (const bad of ["project manager", "manager", "marketing expert", "honourable minister", "minister"]) {
      expect(phrases).not.toContain(bad);
    }
    for (const bad of [
      "speaker",
      "auditor general",
      "graeme reid",
      "term care homes",
      "course",
      "interesting problem",
    ]) {
      expect(phrases).not.toContain(bad);
    }
    // The summary still weighs them: "the project manager" is a cue for what a meeting did.
    const [sentence] = sentencesOf(["I'm the project manager ."]);
    expect(nounPhrases(sentence!)).toEqual([
      { key: "project manag", text: "project manager", words: 2, title: false },
    ]);
  });

  it("drops vague leading adjectives and lone general nouns", () => {
    expect(phrasesOf("and not only one pitch value but different kinds of pitch values")).toEqual([
      "pitch value",
      "pitch values",
    ]);
    expect(phrasesOf("I think the young people are th uh are uh {disfmarker}")).toEqual(["young people"]);
    expect(phrasesOf("We have about five minutes for the meeting .")).toEqual([]);
  });
});

describe("keyPhrases", () => {
  it("skips phrases already used as labels, in any inflection", () => {
    const sentences = sentencesOf([
      "The button should be big .",
      "Big buttons are easier .",
      "A remote control with a menu button .",
      "The menu button opens the menu button list .",
    ]);
    const texts = keyPhrases(sentences, 5, new Set(["button"])).map((p) => p.text);
    expect(texts).toContain("menu button");
    expect(texts).not.toContain("buttons");
    expect(texts).not.toContain("button");
  });
});
