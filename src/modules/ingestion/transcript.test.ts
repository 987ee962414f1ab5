import { describe, expect, it } from "vitest";
import { callInWorker } from "../../../test/helpers/in-worker.ts";
import { DomainError } from "../../errors.ts";
import { parseTranscript, readCueText, type TranscriptCue } from "./transcript.ts";

const cue = (text: string) => `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${text}\n`;

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

  it("takes `Word:` prefixes for speakers only when they look like names and most cues have one", () => {
    const notes = parseTranscript(`WEBVTT

00:00:01.000 --> 00:00:04.000
Note: revenue grew four percent this quarter.

00:00:05.000 --> 00:00:08.000
Bottom line: we hit the target.

00:00:09.000 --> 00:00:12.000
Thanks everyone for coming.
`);
    expect(notes.map((c) => [c.speaker, c.text])).toEqual([
      [null, "Note: revenue grew four percent this quarter."],
      [null, "Bottom line: we hit the target."],
      [null, "Thanks everyone for coming."],
    ]);

    const named = parseTranscript(`1
00:00:01,000 --> 00:00:02,000
Speaker 1: Shall we start?

2
00:00:03,000 --> 00:00:04,000
Ursula von der Leyen: Yes.

3
00:00:05,000 --> 00:00:06,000
Bottom line: we hit the target.

4
00:00:07,000 --> 00:00:08,000
张伟: 好的。
`);
    expect(named.map((c) => [c.speaker, c.text])).toEqual([
      ["Speaker 1", "Shall we start?"],
      ["Ursula von der Leyen", "Yes."],
      [null, "Bottom line: we hit the target."],
      ["张伟", "好的。"],
    ]);
    // Too long to be a name, though most cues have a prefix.
    expect(parseTranscript(cue("The Quarterly Revenue Numbers For Europe: up")).at(0)?.speaker).toBeNull();
  });

  it("orders cues by time, as a player shows them", () => {
    const cues = parseTranscript(`WEBVTT

00:05:00.000 --> 00:05:02.000
<v Dana>Last.

00:00:01.000 --> 00:00:02.000
<v Bob>First.

00:02:00.000 --> 00:02:03.000
<v Dana>Middle.
`);
    expect(cues.map((c) => [c.startMs, c.text])).toEqual([
      [1000, "First."],
      [120_000, "Middle."],
      [300_000, "Last."],
    ]);
  });

  it("refuses a cue that ends before it starts, naming it by number and timing", () => {
    const vtt =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFine.\n\n00:00:05.000 --> 00:00:03.500\nBackwards.\n";
    expect(() => parseTranscript(vtt)).toThrow(
      "cue 2 (00:00:05.000 --> 00:00:03.500) must not end before it starts",
    );
    const srt = "1\n00:01:00,000 --> 00:00:59,000\nBackwards.\n";
    expect(() => parseTranscript(srt)).toThrow(
      "cue 1 (00:01:00,000 --> 00:00:59,000) must not end before it starts",
    );
    // A cue of no length is a point in time, as a JSON line may be.
    expect(parseTranscript(cue("x").replace("00:00:02.000", "00:00:01.000"))).toHaveLength(1);
  });

  it("refuses a file without cues", () => {
    expect(() => parseTranscript("just some words")).toThrow(DomainError);
    expect(() => parseTranscript("WEBVTT\n\n")).toThrow(/no transcript cue/);
  });

  it("decodes character references in voice names and text, after dropping tags", () => {
    expect(readCueText("<v.a.b Tom &amp; Jerry>&lt;b&gt; is &#60;b&#x3E; &lrm;&rlm;&nbsp;<b>x</b>")).toEqual({
      voice: "Tom & Jerry",
      text: "<b> is <b> \u200e\u200f x",
    });
    expect(readCueText("<c.v>no voice</c> <v>  </v>")).toEqual({ voice: null, text: "no voice" });
    expect(readCueText("<V Dana>upper-case tag").voice).toBe("Dana");
  });

  // Each of these blocked the event loop for seconds to hours with the old patterns; run in a thread that is
  // stopped after 10 s, a hang fails the test instead of holding the run.
  const hostile: [string, string, TranscriptCue[] | RegExp][] = [
    ["a voice tag of 40 classes and no >", cue(`<v${".x".repeat(40)}`), /no transcript cue/],
    ["a voice tag of 200,000 classes and no >", cue(`<v${".x".repeat(200_000)}`), /no transcript cue/],
    ["400,000 unterminated tags", cue("<a".repeat(400_000)), /no transcript cue/],
    [
      "a million lone <",
      cue(`x${"< ".repeat(500_000)}`),
      [expect.objectContaining({ speaker: null }) as TranscriptCue],
    ],
    [
      "200,000 tags around a word",
      cue(`<v Dana>${"<b>".repeat(200_000)}hi${"</b>".repeat(200_000)}`),
      [{ speaker: "Dana", text: "hi", startMs: 1000, endMs: 2000 }],
    ],
    [
      "a 400,000-character voice name",
      cue(`<v ${"&amp;x".repeat(100_000)}>hi`),
      [{ speaker: "&x".repeat(100_000), text: "hi", startMs: 1000, endMs: 2000 }],
    ],
    [
      "a name prefix followed by 400,000 spaces",
      cue(`Dana:${" ".repeat(400_000)}hi`),
      [{ speaker: "Dana", text: "hi", startMs: 1000, endMs: 2000 }],
    ],
  ];
  it.each(hostile)(
    "reads %s in linear time",
    async (_name, source, expected) => {
      const parsing = callInWorker<TranscriptCue[]>(
        new URL("./transcript.ts", import.meta.url),
        "parseTranscript",
        [source],
        10_000,
      );
      if (expected instanceof RegExp) await expect(parsing).rejects.toThrow(expected);
      else expect(await parsing).toEqual(expected);
    },
    20_000,
  );
});
