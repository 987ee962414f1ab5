import { parse } from "@plussub/srt-vtt-parser";
import { decodeHTML } from "entities";
import { invalid } from "../../errors.ts";
import { cueTime } from "../../pages/exports.ts";

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
const SPEAKER_PREFIX = /^([\p{L}\p{N}][\p{L}\p{N} .'_-]{0,39}?):\s+(?=\S)/u;
/** How a word of a name starts: a capital, a letter of a script without case (张伟), or a digit (Speaker 1). */
const NAME_WORD = /^[\p{Lu}\p{Lt}\p{Lo}\p{N}]/u;
/** Lower-case words that join the parts of a name (Ursula von der Leyen, Maria de la Cruz). */
const NAME_PARTICLES = new Set("al bin da de del della der di dos du la le van von".split(" "));
const MAX_NAME_WORDS = 4;
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

/**
 * A cue's `Name: ` prefix when it looks like a name: at most four words, each starting with a capital, a
 * letter of a script without case or a digit, or a particle between them. "Bottom line:" is no name.
 */
function namePrefix(text: string): { name: string; rest: string } | null {
  const match = SPEAKER_PREFIX.exec(text);
  const name = match?.[1]?.trim();
  if (match === null || name === undefined) return null;
  const words = name.split(" ").filter((word) => word !== "");
  const nameLike =
    words.length <= MAX_NAME_WORDS &&
    words.every(
      (word, index) =>
        NAME_WORD.test(word) || (index > 0 && index < words.length - 1 && NAME_PARTICLES.has(word)),
    );
  return nameLike ? { name, rest: text.slice(match[0].length) } : null;
}

/** A cue's position in the file (from 1) and its timing in the file's format, for a refusal's message. */
function cueLabel(number: number, entry: ParsedCue, separator: "." | ","): string {
  return `cue ${number} (${cueTime(entry.from / 1000, separator)} --> ${cueTime(entry.to / 1000, separator)})`;
}

/**
 * Parses WebVTT or SRT into timed cues with speakers, in time order (cues of the same start keep the file's
 * order). A cue's speaker is its voice tag `<v Name>`; else a name-like `Name: ` prefix, when the file uses
 * them consistently: more than half of its cues name a speaker, so a stray "Note:" in unnamed captions stays
 * text. Throws `invalid` when the file holds no cue, or naming a cue that ends before it starts.
 */
export function parseTranscript(source: string): TranscriptCue[] {
  let entries: ParsedCue[];
  const file = source.replace(/^\uFEFF/, "");
  try {
    // The package's bundled .d.ts uses an extensionless import that NodeNext cannot follow.
    entries = (parse(file) as unknown as { entries: ParsedCue[] }).entries;
  } catch {
    throw invalid("body is not a readable WebVTT or SRT transcript");
  }
  const separator = file.startsWith("WEBVTT") ? "." : ",";
  const read = entries.flatMap((entry, index) => {
    if (!Number.isFinite(entry.from) || !Number.isFinite(entry.to)) return [];
    if (entry.to < entry.from) {
      throw invalid(`${cueLabel(index + 1, entry, separator)} must not end before it starts`);
    }
    const { voice, text } = readCueText(entry.text);
    return text === "" ? [] : [{ entry, voice, text, prefix: voice === null ? namePrefix(text) : null }];
  });
  if (read.length === 0) throw invalid("body holds no transcript cue (expected WebVTT or SRT)");
  const named = read.filter((cue) => cue.voice !== null || cue.prefix !== null).length;
  const prefixesName = named * 2 > read.length;
  return read
    .map(({ entry, voice, text, prefix }): TranscriptCue => {
      const byPrefix = prefixesName && prefix !== null;
      return {
        speaker: voice ?? (byPrefix ? prefix.name : null),
        text: byPrefix ? prefix.rest : text,
        startMs: entry.from,
        endMs: entry.to,
      };
    })
    .toSorted((a, b) => a.startMs - b.startMs);
}
