/**
 * Decisions scored against QMSum's decision queries at the level of their turn spans
 * (docs/ANALYSIS.md, Decisions): a predicted decision is correct when every line it cites falls inside one
 * reference span; a reference span is hit when a correct prediction falls inside it.
 */

/** An inclusive range of turn (message) indices. */
export type Span = readonly [number, number];

export interface DecisionCounts {
  /** Predicted decisions. */
  predicted: number;
  /** Predicted decisions whose lines all fall inside one reference span. */
  correct: number;
  /** Predicted decisions whose lines all fall inside a reference span or an outcome span. */
  correctWithOutcomes: number;
  /** Reference spans. */
  spans: number;
  /** Reference spans with at least one correct prediction inside. */
  hit: number;
}

export const NO_DECISION_COUNTS: DecisionCounts = {
  predicted: 0,
  correct: 0,
  correctWithOutcomes: 0,
  spans: 0,
  hit: 0,
};

const inside = (turns: readonly number[], [a, b]: Span): boolean =>
  turns.length > 0 && turns.every((t) => t >= a && t <= b);

/**
 * Counts for one meeting: `predictions` holds the turns each predicted decision cites, `spans` the
 * reference decision spans, `outcomeSpans` other spans where the annotators report a decision (they widen
 * what precision counts as correct, never what recall asks for).
 */
export function scoreDecisions(
  predictions: readonly (readonly number[])[],
  spans: readonly Span[],
  outcomeSpans: readonly Span[] = [],
): DecisionCounts {
  const inAny = (turns: readonly number[], list: readonly Span[]) => list.some((span) => inside(turns, span));
  return {
    predicted: predictions.length,
    correct: predictions.filter((turns) => inAny(turns, spans)).length,
    correctWithOutcomes: predictions.filter((turns) => inAny(turns, spans) || inAny(turns, outcomeSpans))
      .length,
    spans: spans.length,
    hit: spans.filter((span) => predictions.some((turns) => inside(turns, span))).length,
  };
}

/** Share of predictions inside a reference decision span (1 when nothing was predicted). */
export const decisionPrecision = (c: DecisionCounts): number =>
  c.predicted === 0 ? 1 : c.correct / c.predicted;

/** Share of predictions inside a reference decision span or an outcome span (1 when nothing was predicted). */
export const outcomePrecision = (c: DecisionCounts): number =>
  c.predicted === 0 ? 1 : c.correctWithOutcomes / c.predicted;

/** Share of reference spans hit (1 when there is none). */
export const decisionRecall = (c: DecisionCounts): number => (c.spans === 0 ? 1 : c.hit / c.spans);
