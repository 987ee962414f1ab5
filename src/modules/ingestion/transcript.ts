import { parse } from "@plussub/srt-vtt-parser";
import { invalid } from "../../errors.ts";

export interface TranscriptCue {
  speaker: string | null;
  text: string;
  startMs: number;
  endMs: number;
}

interface ParsedCue {
  from: number;
  to: number;
  text: string;
}

const VOICE_TAG = /^<v(?:\.[^\s>]+)*\s+([^>]+)>/i;
const SPEAKER_PREFIX = /^([\p{L}\p{N}][\p{L}\p{N} .'_-]{0,60}?):\s+(?=\S)/u;
const ANY_TAG = /<\/?[a-z][^>]*>|<\d{2}:[\d:.]+>/gi;

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");
}

/** Finds the speaker of one cue: a WebVTT voice tag `<v Name>`, else a `Name: ` prefix. */
function splitSpeaker(raw: string): { speaker: string | null; text: string } {
  const voice = VOICE_TAG.exec(raw);
  if (voice?.[1]) return { speaker: voice[1].trim(), text: raw.slice(voice[0].length) };
  const prefix = SPEAKER_PREFIX.exec(raw);
  if (prefix?.[1]) return { speaker: prefix[1].trim(), text: raw.slice(prefix[0].length) };
  return { speaker: null, text: raw };
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
    const { speaker, text } = splitSpeaker(entry.text.trim());
    const clean = decodeEntities(text.replace(ANY_TAG, "")).replace(/\s+/g, " ").trim();
    if (clean === "" || !Number.isFinite(entry.from) || !Number.isFinite(entry.to)) continue;
    cues.push({ speaker, text: clean, startMs: entry.from, endMs: Math.max(entry.to, entry.from) });
  }
  if (cues.length === 0) throw invalid("body holds no transcript cue (expected WebVTT or SRT)");
  return cues;
}
