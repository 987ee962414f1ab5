/** A line as the share of talk counts it: who said it, what, and when (seconds), if known. */
export interface SpokenLine {
  speakerId: string | null;
  text: string;
  offset: number | null;
  endOffset: number | null;
}

export interface TalkShare {
  /** "time" when every line has a start and an end, else "words". */
  by: "time" | "words";
  /** Each speaker's share (0..1) by member id; lines of no member count towards the total only. */
  shares: Map<string, number>;
}

const wordsIn = (line: SpokenLine) => line.text.split(/\s+/).filter(Boolean).length;
const secondsOf = (line: SpokenLine) => (line.endOffset ?? 0) - (line.offset ?? 0);

/** Each member's part of the total `amountOf` gives, or nothing when the total is zero. */
function sharesBy(lines: SpokenLine[], amountOf: (line: SpokenLine) => number): Map<string, number> {
  let total = 0;
  const amounts = new Map<string, number>();
  for (const line of lines) {
    const amount = amountOf(line);
    total += amount;
    if (line.speakerId !== null) amounts.set(line.speakerId, (amounts.get(line.speakerId) ?? 0) + amount);
  }
  const shares = new Map<string, number>();
  if (total > 0) for (const [id, amount] of amounts) shares.set(id, amount / total);
  return shares;
}

/**
 * How much of the meeting each speaker talked: by speaking time when every line's start and end are
 * known (overlapping talk counts for each speaker), else by words. Empty when nothing was said.
 */
export function talkShare(lines: SpokenLine[]): TalkShare {
  const timed =
    lines.length > 0 &&
    lines.every((l) => l.offset !== null && l.endOffset !== null && l.endOffset >= l.offset);
  const byTime = timed ? sharesBy(lines, secondsOf) : new Map<string, number>();
  return byTime.size > 0 ? { by: "time", shares: byTime } : { by: "words", shares: sharesBy(lines, wordsIn) };
}
