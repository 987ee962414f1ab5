import type { RecognizedSegment, RecognizedWord, SpeakerTurn } from "./engine.ts";

/** A channel's own speaker, from the submission's `channelMetadata`. */
export interface ChannelSpeaker {
  name: string;
  email: string | null;
}

/** What one channel's recognition gave, and who speaks on it when the submission said. */
export interface ChannelTranscript {
  segments: RecognizedSegment[];
  speaker: ChannelSpeaker | null;
}

/** One line of the conversation, in milliseconds from the start of the media it came from. */
export interface AlignedLine {
  text: string;
  startMs: number;
  endMs: number;
  words: RecognizedWord[];
  speaker: ChannelSpeaker | null;
  /**
   * Whose voice the line is, for voice matching: the diarizer's speaker when local diarization's turns gave it, the
   * number of the engine's own label (labelledTurns), or the channel's index on a recording of several channels.
   */
  turnSpeaker?: number;
}

/**
 * A line's words as a message row keeps them (`messages.words`): `[[word, startMs, endMs]]` in milliseconds
 * from the line's start; null when the engine gave no word timings.
 */
export function storedWords(line: { startMs: number; words: RecognizedWord[] }): string | null {
  if (line.words.length === 0) return null;
  return JSON.stringify(
    line.words.map((word) => [word.text, word.startMs - line.startMs, word.endMs - line.startMs]),
  );
}

/** Symbl's names for diarized speakers, in order of first appearance. */
const speakerName = (index: number): ChannelSpeaker => ({ name: `Speaker ${index + 1}`, email: null });

/** Whether `name` is still the name a diarized speaker was given ("Speaker 2"), not one someone chose. */
export const isUnnamedSpeaker = (name: string): boolean => /^Speaker \d+$/.test(name);

/**
 * Makes the conversation's lines from what recognition heard: each channel's segments under its speaker,
 * merged in time order; on one channel, `turns` (local diarization) split segments where the speaker changes
 * (at word boundaries when the engine gave words, else the whole segment goes to the speaker who holds most
 * of it), and an engine's own speaker labels are used when there are no turns. Diarized speakers are named
 * "Speaker 1", "Speaker 2"… in order of first appearance.
 */
export function alignLines(channels: ChannelTranscript[], turns: SpeakerTurn[] | null): AlignedLine[] {
  const lines: AlignedLine[] = [];
  if (channels.length === 1 && channels[0] && channels[0].speaker === null) {
    const { segments } = channels[0];
    const labelled = segments.some((segment) => segment.speaker !== undefined);
    if (turns !== null && turns.length > 0) lines.push(...splitByTurns(segments, turns));
    else if (labelled) lines.push(...byEngineLabels(segments));
    else lines.push(...segments.map((segment) => lineOf(segment, null)));
    return renumberSpeakers(lines);
  }
  channels.forEach((channel, index) => {
    lines.push(
      ...channel.segments.map((segment) => ({ ...lineOf(segment, channel.speaker), turnSpeaker: index })),
    );
  });
  return lines.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

function lineOf(segment: RecognizedSegment, speaker: ChannelSpeaker | null): AlignedLine {
  return {
    text: segment.text,
    startMs: segment.startMs,
    endMs: segment.endMs,
    words: segment.words,
    speaker,
  };
}

/**
 * Speaker labels stand for themselves until renumbered: "Speaker <label>" keyed by the raw label; each labelled
 * line's turnSpeaker is its label's number in labelledTurns.
 */
function byEngineLabels(segments: RecognizedSegment[]): AlignedLine[] {
  const numbers = labelNumbers(segments);
  return segments.map((segment) =>
    segment.speaker === undefined
      ? lineOf(segment, null)
      : {
          ...lineOf(segment, { name: segment.speaker, email: null }),
          turnSpeaker: numbers.get(segment.speaker) ?? 0,
        },
  );
}

/** Each of an engine's speaker labels numbered from 0 in order of first appearance. */
function labelNumbers(segments: RecognizedSegment[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const { speaker } of segments)
    if (speaker !== undefined && !numbers.has(speaker)) numbers.set(speaker, numbers.size);
  return numbers;
}

/**
 * An engine's own speaker labels (a remote engine's `diarized_json`) as turns, so its speakers are matched with voice
 * profiles as local diarization's are: each labelled segment a turn of its label's number.
 */
export function labelledTurns(segments: RecognizedSegment[]): SpeakerTurn[] {
  const numbers = labelNumbers(segments);
  return segments.flatMap(({ speaker, startMs, endMs }) =>
    speaker === undefined ? [] : [{ speaker: numbers.get(speaker) ?? 0, startMs, endMs }],
  );
}

/** The speaker of the turn that overlaps [startMs, endMs] most; the nearest turn when none overlaps. */
function speakerOver(turns: SpeakerTurn[], startMs: number, endMs: number): number {
  let best = { speaker: turns[0]?.speaker ?? 0, overlap: -Infinity };
  for (const turn of turns) {
    const overlap = Math.min(endMs, turn.endMs) - Math.max(startMs, turn.startMs);
    if (overlap > best.overlap) best = { speaker: turn.speaker, overlap };
  }
  return best.speaker;
}

function splitByTurns(segments: RecognizedSegment[], turns: SpeakerTurn[]): AlignedLine[] {
  const lines: AlignedLine[] = [];
  const label = (speaker: number): ChannelSpeaker => ({ name: `#${speaker}`, email: null });
  for (const segment of segments) {
    if (segment.words.length === 0) {
      const speaker = speakerOver(turns, segment.startMs, segment.endMs);
      lines.push({ ...lineOf(segment, label(speaker)), turnSpeaker: speaker });
      continue;
    }
    const runs: { speaker: number; words: RecognizedWord[] }[] = [];
    for (const word of segment.words) {
      const speaker = speakerOver(turns, word.startMs, Math.max(word.endMs, word.startMs + 1));
      const last = runs[runs.length - 1];
      if (last?.speaker === speaker) last.words.push(word);
      else runs.push({ speaker, words: [word] });
    }
    const [only] = runs;
    // A segment one speaker holds keeps the engine's own text (its punctuation and spacing).
    if (runs.length === 1 && only) {
      lines.push({ ...lineOf(segment, label(only.speaker)), turnSpeaker: only.speaker });
      continue;
    }
    for (const run of runs) {
      const first = run.words[0];
      const last = run.words[run.words.length - 1];
      if (!first || !last) continue;
      lines.push({
        text: run.words.map((word) => word.text).join(" "),
        startMs: first.startMs,
        endMs: last.endMs,
        words: run.words,
        speaker: label(run.speaker),
        turnSpeaker: run.speaker,
      });
    }
  }
  return lines;
}

function renumberSpeakers(lines: AlignedLine[]): AlignedLine[] {
  const numbers = new Map<string, number>();
  return lines.map((line) => {
    if (line.speaker === null) return line;
    let number = numbers.get(line.speaker.name);
    if (number === undefined) {
      number = numbers.size;
      numbers.set(line.speaker.name, number);
    }
    return { ...line, speaker: speakerName(number) };
  });
}
