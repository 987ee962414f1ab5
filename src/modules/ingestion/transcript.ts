import { parse } from "@plussub/srt-vtt-parser";
import { decodeHTML } from "entities";
import { invalid } from "../../errors.ts";

export interface TranscriptCue {
  speaker: string | null;
  text: string;
  /** The cue's start and end as positions in the media, in milliseconds from its beginning. */
  startMs: number;
  endMs: number;
}

interface ParsedCue {
  from: number;
  to: number;
  text: string;
}

/** A `Name: ` prefix; the name is bounded, so a match costs at most a few dozen steps. */
const SPEAKER_PREFIX = /^([\p{L}\p{N}][\p{L}\p{N} .'_-]{0,60}?):\s+(?=\S)/u;
/** What may follow `<` to open a tag: a name, an end tag or a timestamp; anything else is a literal `<`. */
const TAG_START = /[a-z/0-9]/i;
const WHITESPACE = /\s+/g;

const tidy = (text: string) => text.replace(WHITESPACE, " ").trim();

/**
 * Reads one cue's text as the WebVTT cue text tokenizer does, in one pass: tags are dropped (an unterminated
 * one runs to the end of the cue), character references are decoded in text and in the annotation of the
 * first voice tag `<v Name>`, which names the speaker. Regular expressions only ever see bounded pieces, so
 * the time is linear in the text's length whatever it holds.
 */
export function readCueText(raw: string): { voice: string | null; text: string } {
  let voice: string | null = null;
  const pieces: string[] = [];
  let position = 0;
  while (position < raw.length) {
    let open = raw.indexOf("<", position);
    while (open !== -1 && !TAG_START.test(raw.charAt(open + 1))) open = raw.indexOf("<", open + 1);
    if (open === -1) {
      pieces.push(decodeHTML(raw.slice(position)));
      break;
    }
    pieces.push(decodeHTML(raw.slice(position, open)));
    const close = raw.indexOf(">", open);
    if (close === -1) break;
    if (voice === null) voice = voiceOf(raw.slice(open + 1, close));
    position = close + 1;
  }
  return { voice, text: tidy(pieces.join("")) };
}

/** The annotation of a `v` start tag (`v.class.class Name`), decoded; null for any other tag. */
function voiceOf(tag: string): string | null {
  const space = tag.search(/\s/);
  const head = space === -1 ? tag : tag.slice(0, space);
  const dot = head.indexOf(".");
  if ((dot === -1 ? head : head.slice(0, dot)).toLowerCase() !== "v" || space === -1) return null;
  return tidy(decodeHTML(tag.slice(space))) || null;
}

/** Finds the speaker of one cue: a WebVTT voice tag `<v Name>`, else a `Name: ` prefix. */
function splitSpeaker(raw: string): { speaker: string | null; text: string } {
  const { voice, text } = readCueText(raw);
  if (voice !== null) return { speaker: voice, text };
  const prefix = SPEAKER_PREFIX.exec(text);
  if (prefix?.[1]) return { speaker: prefix[1].trim(), text: text.slice(prefix[0].length) };
  return { speaker: null, text };
}

/**
 * Parses WebVTT or SRT into timed cues with speakers. Throws `invalid` when the file holds no cue.
 */
export function parseTranscript(source: string): TranscriptCue[] {
  let entries: ParsedCue[];
  try {
    // The package's bundled .d.ts uses an extensionless import that NodeNext cannot follow.
    entries = (parse(source.replace(/^\uFEFF/, "")) as unknown as { entries: ParsedCue[] }).entries;
  } catch {
    throw invalid("body is not a readable WebVTT or SRT transcript");
  }
  const cues: TranscriptCue[] = [];
  for (const entry of entries) {
    const { speaker, text } = splitSpeaker(entry.text);
    if (text === "" || !Number.isFinite(entry.from) || !Number.isFinite(entry.to)) continue;
    cues.push({ speaker, text, startMs: entry.from, endMs: Math.max(entry.to, entry.from) });
  }
  if (cues.length === 0) throw invalid("body holds no transcript cue (expected WebVTT or SRT)");
  return cues;
}
