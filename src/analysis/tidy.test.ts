import { describe, expect, it } from "vitest";
import { cleanTranscriptText } from "./clean.ts";
import { compressSentence, readableSentence } from "./tidy.ts";

describe("compressSentence", () => {
  it("drops spoken hedges inside a sentence (ES2002b, QMSum train)", () => {
    expect(
      compressSentence(
        "I think one thing we should try not to avoid is not to say we have to use speech recognition right now,",
      ),
    ).toBe("One thing we should try not to avoid is not to say we have to use speech recognition right now,");
    expect(compressSentence("We're kind of like sorting them, you know, by function.")).toBe(
      "We're like sorting them by function.",
    );
  });

  it("keeps 'like' as a verb and text that is nothing but hedges", () => {
    expect(compressSentence("I like the idea of a spongy remote.")).toBe(
      "I like the idea of a spongy remote.",
    );
    expect(compressSentence("You know")).toBe("You know");
  });
});

/** A transcript line as the summary shows it: cleaned as the analysis reads it, then made readable. */
const readable = (line: string): string => readableSentence(cleanTranscriptText(line));

describe("readableSentence", () => {
  it("drops annotation marks, fillers, openers and repeated words (Bed002, ES2002a)", () => {
    expect(
      readable(
        "And you should be able to see which one {disfmarker} which one you 're on by , uh , watching the little bars change .",
      ),
    ).toBe("You should be able to see which one you're on by, watching the little bars change.");
    expect(readable("Yeah , yeah . Like how much does , you know , a remote control cost .")).toBe(
      "How much does a remote control cost.",
    );
  });

  it("closes spaced quotation marks (Bed015)", () => {
    expect(readable('The F subscripts refer to the " form " piece of the construct .')).toBe(
      'The F subscripts refer to the "form" piece of the construct.',
    );
  });

  it("drops dangling last words and the cut-off restarts of a word (ES2002a, Bed002)", () => {
    expect(readable("Just a chara just a characteristic of the {disfmarker}")).toBe("A characteristic.");
    expect(
      readable(
        "I'm thinking the price might might appeal to a certain market in one region , whereas in another it'll be different , so {disfmarker}",
      ),
    ).toBe(
      "I'm thinking the price might appeal to a certain market in one region, whereas in another it'll be different.",
    );
    expect(readableSentence("In-in a intention lattice k Hypothesis.")).toBe(
      "In a intention lattice Hypothesis.",
    );
    expect(readableSentence("So I- I think we should go with the rubber case and")).toBe(
      "We should go with the rubber case.",
    );
  });

  it("drops the transcripts' unintelligible marks and joins spelled letters (Bro011, TS3010b)", () => {
    expect(readableSentence("To take @ @ the first step the spectral subtraction.")).toBe(
      "To take the first step the spectral subtraction.",
    );
    expect(readableSentence("to have some influence on the T_V_ set.")).toBe(
      "To have some influence on the TV set.",
    );
  });

  it("writes out spoken forms and keeps a real question, not a tag question", () => {
    expect(readableSentence("The case is silver titanium, no?")).toBe("The case is silver titanium.");
    expect(readableSentence("Is it yes or no?")).toBe("Is it yes or no?");
    expect(readableSentence("Or, you can give some nickname to your remote control, like Bobby.")).toBe(
      "You can give some nickname to your remote control, like Bobby.",
    );
    expect(readableSentence("the remote is gonna be round, right?")).toBe("The remote is going to be round.");
    expect(readableSentence("can you use the sample data?")).toBe("Can you use the sample data?");
    expect(readableSentence("The shape, yeah, a curved case.")).toBe("The shape, a curved case.");
  });

  it("keeps every word with letters of other scripts as spoken (issue 24)", () => {
    const quoted = [
      "We should meet at the São Paulo office next week.",
      "Đorđe and Łukasz will visit the factory on Monday.",
      "Anđela will send the résumé to Zoë Saldaña.",
      "Justín said the reunión con el cliente went fine.",
      "También necesitamos the Ørsted figures from Ñuñoa.",
      "Orçamento is the Portuguese word for budget.",
      "Иван Петров will present the naïve café plan.",
      "The 東京 team and the Αθήνα team share the προϋπολογισμός sheet.",
    ];
    for (const sentence of quoted) expect(readable(sentence)).toBe(sentence);
    expect(readable("So Łu Łukasz will visit the factory.")).toBe("Łukasz will visit the factory.");
  });

  it("keeps capital single letters and abbreviations, and returns nothing for pure filler", () => {
    expect(readableSentence("We need plan B for the user g requirements, e.g. this one.")).toBe(
      "We need plan B for the user requirements, e.g. this one.",
    );
    expect(readableSentence("So, um, you know")).toBe("");
  });
});
