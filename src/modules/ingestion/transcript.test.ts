import { describe, expect, it } from "vitest";
import { DomainError } from "../../errors.ts";
import { parseTranscript } from "./transcript.ts";

describe("parseTranscript", () => {
  it("reads WebVTT voice tags, Name: prefixes, timing, and strips markup", () => {
    const cues = parseTranscript(`WEBVTT

intro
00:00:01.000 --> 00:00:04.500
<v.loud Dana Smith>Hello <b>everyone</b> &amp; welcome.</v>

00:00:05.000 --> 00:00:06.000
Bob: Thanks Dana

00:00:07.000 --> 00:00:08.000
No speaker here
`);
    expect(cues).toEqual([
      { speaker: "Dana Smith", text: "Hello everyone & welcome.", startMs: 1000, endMs: 4500 },
      { speaker: "Bob", text: "Thanks Dana", startMs: 5000, endMs: 6000 },
      { speaker: null, text: "No speaker here", startMs: 7000, endMs: 8000 },
    ]);
  });

  it("reads SRT with speaker prefixes over several lines", () => {
    const cues = parseTranscript(`1
00:00:01,000 --> 00:00:03,000
Dana: First line
continues here

2
00:01:00,250 --> 00:01:02,000
Bob: Sure
`);
    expect(cues).toEqual([
      { speaker: "Dana", text: "First line continues here", startMs: 1000, endMs: 3000 },
      { speaker: "Bob", text: "Sure", startMs: 60250, endMs: 62000 },
    ]);
  });

  it("refuses a file without cues", () => {
    expect(() => parseTranscript("just some words")).toThrow(DomainError);
    expect(() => parseTranscript("WEBVTT\n\n")).toThrow(/no transcript cue/);
  });
});
