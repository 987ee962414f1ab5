import { describe, expect, it } from "vitest";
import { cleanTranscriptText } from "./clean.ts";

describe("cleanTranscriptText", () => {
  it("removes QMSum annotation marks and fillers and re-attaches punctuation (Bed015)", () => {
    expect(
      cleanTranscriptText(
        "Um , there is a slight complication here which is that when we talk about form it 's useful sometimes to talk about , um {disfmarker} to talk about there also being a designated object",
      ),
    ).toBe(
      "There is a slight complication here which is that when we talk about form it's useful sometimes to talk about, to talk about there also being a designated object",
    );
  });

  it("drops stutters and cut-off word starts (ES2006a)", () => {
    expect(cleanTranscriptText("S so any any questions ?")).toBe("So any questions?");
    expect(cleanTranscriptText("I didn't receive it yet {vocalsound} .")).toBe("I didn't receive it yet.");
  });

  it("keeps real short words that look like stutters", () => {
    expect(cleanTranscriptText("I think it is in the inbox .")).toBe("I think it is in the inbox.");
  });

  it("joins hyphenated words and split contractions (Bed015)", () => {
    expect(
      cleanTranscriptText("if the head has to go last in a head - final language , we do n't mind"),
    ).toBe("If the head has to go last in a head-final language, we don't mind");
  });

  it("keeps words of every script and their stutters' restarts (issue 24)", () => {
    expect(cleanTranscriptText("我们需要在周五之前把预算发给客户。")).toBe(
      "我们需要在周五之前把预算发给客户。",
    );
    expect(cleanTranscriptText("Иван Петров will send it .")).toBe("Иван Петров will send it.");
    expect(cleanTranscriptText("Ł Łukasz 's office in Łódź")).toBe("Łukasz's office in Łódź");
  });

  it("returns an empty string for pure noise and back-channels", () => {
    expect(cleanTranscriptText("{vocalsound} {gap} .")).toBe("");
    expect(cleanTranscriptText("Mm - hmm .")).toBe("");
    expect(cleanTranscriptText(".. .")).toBe("");
  });

  it("leaves ordinary written text alone (covid_2)", () => {
    const text =
      "We have put measures in place to detect fraud. People who got this money fraudulently will have to repay.";
    expect(cleanTranscriptText(text)).toBe(text);
  });

  it("removes a spaced back-channel as a whole (Bmr010)", () => {
    expect(cleanTranscriptText("Is {disfmarker} Uh - huh .")).toBe("Is.");
    expect(cleanTranscriptText("Mm - hmm , yeah .")).toBe("Yeah.");
  });

  it("joins every spaced hyphen of a chain, but not across a removed filler (Bro003, Bmr009, Bmr010)", () => {
    expect(cleanTranscriptText("You could also use slash - X - whatever disks on Mustard and Nutmeg .")).toBe(
      "You could also use slash-X-whatever disks on Mustard and Nutmeg.",
    );
    expect(
      cleanTranscriptText(
        "Because is different , the Span - uh {pause} the Spanish language from the {disfmarker} the north of Spain",
      ),
    ).toBe("Because is different, the Span - the Spanish language from the north of Spain");
    expect(cleanTranscriptText("I just used our old Munich system , which is an HMM - ba based system")).toBe(
      "I just used our old Munich system, which is an - based system",
    );
  });

  it("splits on any whitespace, not only spaces", () => {
    expect(cleanTranscriptText("we do n't\tneed um\nthe the batteries")).toBe("We don't need the batteries");
  });
});
