/**
 * Precision and recall of an action-item detector against the hand-labelled gold items in
 * datasets/qmsum/{train,val}/actions (scoring as in datasets/qmsum/ACTIONS.md): a detection on a turn
 * matches every gold item whose `turn` or `alsoAt` holds that turn.
 */
export interface GoldAction {
  turn: number;
  alsoAt: number[];
  quote: string;
  task: string;
  assignee: string;
  due: string | null;
  type: "action_item" | "follow_up";
  confidence: "clear" | "borderline";
}

export interface Detection {
  turn: number;
  type: "action_item" | "follow_up";
}

/** Counts to sum over meetings before dividing. */
export interface ActionCounts {
  /** Detections (distinct turns) that match at least one gold item. */
  matchedDetections: number;
  detections: number;
  /** Gold items matched by at least one detection. */
  matchedGold: number;
  gold: number;
  /** Detections that match only items outside the gold set (borderline ones under clear-only). */
  neutralDetections: number;
  /** Matched (detection, gold item) pairs, and those whose action-item/follow-up type agrees. */
  pairs: number;
  sameType: number;
}

export const NO_COUNTS: ActionCounts = {
  matchedDetections: 0,
  detections: 0,
  matchedGold: 0,
  gold: 0,
  neutralDetections: 0,
  pairs: 0,
  sameType: 0,
};

const turnsOf = (item: GoldAction): Set<number> => new Set([item.turn, ...item.alsoAt]);

/**
 * Scores one meeting's detections against its gold items, `clear` only or clear + borderline. Several
 * detections on one turn count once (the first one's type is kept).
 */
export function scoreActions(
  detections: readonly Detection[],
  gold: readonly GoldAction[],
  standard: "clear" | "all",
): ActionCounts {
  const byTurn = new Map<number, Detection>();
  for (const detection of detections) if (!byTurn.has(detection.turn)) byTurn.set(detection.turn, detection);
  const counted = gold.filter((item) => standard === "all" || item.confidence === "clear");
  const spans = counted.map(turnsOf);
  const everySpan = gold.map(turnsOf);
  let matchedDetections = 0;
  let neutralDetections = 0;
  let pairs = 0;
  let sameType = 0;
  for (const [turn, detection] of byTurn) {
    const matches = counted.filter((_, i) => spans[i]?.has(turn));
    if (matches.length > 0) matchedDetections++;
    else if (everySpan.some((span) => span.has(turn))) neutralDetections++;
    pairs += matches.length;
    sameType += matches.filter((item) => item.type === detection.type).length;
  }
  return {
    matchedDetections,
    detections: byTurn.size,
    matchedGold: spans.filter((span) => [...span].some((turn) => byTurn.has(turn))).length,
    gold: counted.length,
    neutralDetections,
    pairs,
    sameType,
  };
}

export const precision = (c: ActionCounts): number => c.matchedDetections / Math.max(1, c.detections);
/** Precision leaving out detections that match only a borderline item (neither right nor wrong under clear-only). */
export const precisionWithoutNeutral = (c: ActionCounts): number =>
  c.matchedDetections / Math.max(1, c.detections - c.neutralDetections);
export const recall = (c: ActionCounts): number => c.matchedGold / Math.max(1, c.gold);
