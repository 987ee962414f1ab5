/**
 * Text shaped to make a naive analysis superlinear (issue 7 item 17): each case builds its messages at
 * `scale` times a base size (scale 1: five 100,000-character messages, or one of about 500 kB).
 */
export interface PathologicalCase {
  name: string;
  messages: (scale: number) => string[];
}

const repeat = (unit: string, times: number): string => unit.repeat(Math.round(times));

export const PATHOLOGICAL_CASES: PathologicalCase[] = [
  {
    name: "five messages of 100,000 characters without a space",
    messages: (scale) => Array.from({ length: 5 }, () => repeat("a", 100_000 * scale)),
  },
  {
    name: "five 100,000-character runs of letters and punctuation",
    messages: (scale) =>
      Array.from({ length: 5 }, (_, m) =>
        Array.from(
          { length: Math.round(100_000 * scale) },
          (_, i) => "abcdefghij.,;-'"[(i * 7 + m) % 15],
        ).join(""),
      ),
  },
  {
    name: "one 500 kB message of one word repeated",
    messages: (scale) => [repeat("word ", 100_000 * scale)],
  },
  {
    name: "one 500 kB sentence of repeated commitments",
    messages: (scale) => [repeat("I will send the report to Dana, ", 16_000 * scale)],
  },
  { name: "one 500 kB sentence of commas", messages: (scale) => [repeat("apples, pears, ", 33_000 * scale)] },
  {
    name: "words of 10,000 characters",
    messages: (scale) => [
      Array.from({ length: Math.round(50 * scale) }, (_, i) => `${"x".repeat(9_999)}${i % 10}`).join(" "),
    ],
  },
  {
    name: "deep bracket nesting",
    messages: (scale) => [`${repeat("(", 100_000 * scale)}word${repeat(")", 100_000 * scale)}`],
  },
  {
    name: "punctuation runs",
    messages: (scale) => [
      repeat(".", 100_000 * scale),
      repeat(". ", 100_000 * scale),
      repeat("?!.,;:", 20_000 * scale),
      repeat("a-", 100_000 * scale),
    ],
  },
];
