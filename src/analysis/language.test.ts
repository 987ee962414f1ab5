import { describe, expect, it } from "vitest";
import { FOREIGN_MEETINGS } from "../../test/helpers/languages.ts";
import { loadMeeting, meetingFiles, spokenTurns } from "../../test/helpers/qmsum.ts";
import { detectLanguage } from "./detect-language.ts";
import { isAnalysedLanguage, languageNotice } from "./language.ts";

describe("detectLanguage", () => {
  it("tells Spanish, Chinese, Arabic and German meetings apart, as BCP 47 tags with a region", () => {
    for (const [code, lines] of Object.entries(FOREIGN_MEETINGS)) expect(detectLanguage(lines)).toBe(code);
  });

  it("reads every QMSum val meeting as English, whole and from its first lines", () => {
    for (const file of meetingFiles("val")) {
      const turns = spokenTurns(loadMeeting("val", file)).map((turn) => turn.content);
      expect(detectLanguage(turns), file).toBe("en-US");
      expect([null, "en-US"], file).toContain(detectLanguage(turns.slice(0, 3)));
    }
  });

  it("leaves Latin-script text too short for trigrams undetermined, and reads a short line of another script", () => {
    expect(detectLanguage(["I will look it up."])).toBeNull();
    expect(detectLanguage(["Dana will send the budget by Friday."])).toBeNull();
    expect(detectLanguage(["", "  "])).toBeNull();
    expect(detectLanguage(["我们明天开会。"])).toBe("zh-CN");
  });
});

describe("languageNotice", () => {
  it("names the language the analysis does not read, and says nothing for English", () => {
    expect(isAnalysedLanguage("en-GB")).toBe(true);
    expect(languageNotice("en-US")).toBeNull();
    expect(languageNotice("es-ES")).toBe(
      "This conversation is in Spanish (es-ES). Recap's analysis reads English only, so it has no summary, topics or insights.",
    );
  });
});
