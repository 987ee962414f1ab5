/** Who spoke how long, how fast and over whom: Symbl's conversation analytics, from the lines' times. */

export interface AnalyticsLine {
  id: string;
  memberId: string | null;
  text: string;
  /** Seconds from the conversation's start; null when the line has no time. */
  start: number | null;
  end: number | null;
}

export interface AnalyticsPerson {
  id: string;
  name: string;
  userId?: string;
  email?: string;
}

export interface AnalyticsInput {
  members: AnalyticsPerson[];
  /** In the conversation's order. */
  lines: AnalyticsLine[];
  /** Seconds from the conversation's start to its end (0 when unknown): silence at the end counts. */
  conversationEnd: number;
}

type MetricType = "total_silence" | "total_talk_time" | "total_overlap";

export interface MemberAnalytics extends AnalyticsPerson {
  words: number;
  pace?: { wpm: number };
  talkTime?: { percentage: number; seconds: number };
  listenTime?: { percentage: number; seconds: number };
  overlap?: {
    overlapDuration: number;
    overlappingMembers: { id: string; name: string; userId?: string; percent: number; seconds: number }[];
  };
  longestMonologue: { words: number; seconds?: number; messageIds: string[] };
}

export interface SpeakerAnalytics {
  metrics: { type: MetricType; percent: number; seconds: number }[];
  members: MemberAnalytics[];
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const percentOf = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100) : 0);

export const wordsIn = (text: string) =>
  text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

type Interval = [start: number, end: number];

/** A line's interval when it has both times and a positive length. */
function intervalOf(line: AnalyticsLine): Interval | null {
  return line.start !== null && line.end !== null && line.end > line.start ? [line.start, line.end] : null;
}

/** The intervals of the lines that have one. */
function intervalsOf(lines: AnalyticsLine[]): Interval[] {
  return lines.map(intervalOf).filter((interval) => interval !== null);
}

/** The intervals merged where they touch or overlap, in order: one member never overlaps themself. */
function merged(intervals: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

const lengthOf = (intervals: Interval[]) => intervals.reduce((sum, [start, end]) => sum + end - start, 0);

/** Each member's longest run of consecutive lines with no one else's line between them. */
function longestMonologues(lines: AnalyticsLine[], timed: boolean) {
  const best = new Map<string, MemberAnalytics["longestMonologue"]>();
  const measure = (run: AnalyticsLine[]) => {
    const memberId = run[0]?.memberId;
    if (!memberId) return;
    const intervals = intervalsOf(run);
    const seconds =
      intervals.length > 0
        ? Math.max(...intervals.map(([, end]) => end)) - Math.min(...intervals.map(([start]) => start))
        : 0;
    const candidate = {
      words: run.reduce((sum, line) => sum + wordsIn(line.text), 0),
      ...(timed && { seconds: round(seconds) }),
      messageIds: run.map((line) => line.id),
    };
    const current = best.get(memberId);
    const longer = timed
      ? (candidate.seconds ?? 0) > (current?.seconds ?? -1)
      : candidate.words > (current?.words ?? -1);
    if (longer) best.set(memberId, candidate);
  };
  let run: AnalyticsLine[] = [];
  for (const line of lines) {
    if (run.length > 0 && run[0]?.memberId !== line.memberId) {
      measure(run);
      run = [];
    }
    run.push(line);
  }
  measure(run);
  return best;
}

/**
 * Speaker analytics as Symbl answered them. Talk time is the time in which at least one member speaks;
 * a member's share is of that time, their listen time the rest of it; overlap is time in which two or more
 * members speak, its conversation share a share of talk time, and the share of a pair's overlap the share
 * of the two members' talk time together, as Symbl's docs define it. Silence runs from the earlier of the start and
 * the first line to the later of the conversation's end and the last line. Only lines with a start and an
 * end count for time; when none has both, every time-based figure is left out and words remain.
 */
export function speakerAnalytics(input: AnalyticsInput): SpeakerAnalytics {
  const spoken = input.lines.filter((line) => line.memberId !== null);
  const timedLines = spoken.filter((line) => intervalOf(line) !== null);
  const timed = timedLines.length > 0;
  const monologues = longestMonologues(
    timed ? [...spoken].sort((a, b) => (a.start ?? Infinity) - (b.start ?? Infinity)) : spoken,
    timed,
  );
  const wordsOf = (lines: AnalyticsLine[], id: string) =>
    lines.filter((line) => line.memberId === id).reduce((sum, line) => sum + wordsIn(line.text), 0);
  const base = (member: AnalyticsPerson): MemberAnalytics => ({
    ...member,
    words: wordsOf(spoken, member.id),
    longestMonologue: monologues.get(member.id) ?? { words: 0, ...(timed && { seconds: 0 }), messageIds: [] },
  });
  if (!timed) return { metrics: [], members: input.members.map(base) };

  const talk = new Map(
    input.members.map((member) => [
      member.id,
      merged(intervalsOf(timedLines.filter((line) => line.memberId === member.id))),
    ]),
  );
  const bounds = [...new Set([...talk.values()].flat(2))].sort((a, b) => a - b);
  let talkSeconds = 0;
  let overlapSeconds = 0;
  const overlapOf = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [from, to] = [bounds[i] ?? 0, bounds[i + 1] ?? 0];
    const active = [...talk]
      .filter(([, spans]) => spans.some(([s, e]) => s <= from && to <= e))
      .map(([id]) => id);
    if (active.length === 0) continue;
    talkSeconds += to - from;
    if (active.length < 2) continue;
    overlapSeconds += to - from;
    for (const id of active) {
      overlapOf.set(id, (overlapOf.get(id) ?? 0) + to - from);
      for (const other of active) {
        if (other !== id) pairs.set(`${id} ${other}`, (pairs.get(`${id} ${other}`) ?? 0) + to - from);
      }
    }
  }
  const first = Math.min(0, ...timedLines.map((line) => line.start ?? 0));
  const last = Math.max(input.conversationEnd, ...timedLines.map((line) => line.end ?? 0));
  const span = last - first;

  return {
    metrics: [
      {
        type: "total_silence",
        percent: percentOf(span - talkSeconds, span),
        seconds: round(span - talkSeconds),
      },
      { type: "total_talk_time", percent: percentOf(talkSeconds, span), seconds: round(talkSeconds) },
      {
        type: "total_overlap",
        percent: percentOf(overlapSeconds, talkSeconds),
        seconds: round(overlapSeconds),
      },
    ],
    members: input.members.map((member) => {
      const seconds = lengthOf(talk.get(member.id) ?? []);
      const timedWords = wordsOf(timedLines, member.id);
      const overlapped = overlapOf.get(member.id) ?? 0;
      return {
        ...base(member),
        ...(seconds > 0 && { pace: { wpm: Math.round(timedWords / (seconds / 60)) } }),
        talkTime: { percentage: percentOf(seconds, talkSeconds), seconds: round(seconds) },
        listenTime: {
          percentage: round(100 - percentOf(seconds, talkSeconds)),
          seconds: round(talkSeconds - seconds),
        },
        overlap: {
          overlapDuration: round(overlapped),
          overlappingMembers: input.members.flatMap((other) => {
            const together = pairs.get(`${member.id} ${other.id}`) ?? 0;
            return together > 0
              ? [
                  {
                    id: other.id,
                    name: other.name,
                    ...(other.userId !== undefined && { userId: other.userId }),
                    // Symbl's wording: of the talk time of both members.
                    percent: percentOf(together, seconds + lengthOf(talk.get(other.id) ?? [])),
                    seconds: round(together),
                  },
                ]
              : [];
          }),
        },
      };
    }),
  };
}
