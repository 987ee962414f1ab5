/**
 * Segmentation error metrics over a sequence of units (here: messages). A segmentation is given as the
 * index where each segment starts; both metrics are 0 for a perfect match, lower is better.
 */

/** Segment id of every unit, from segment start indexes. */
export function segmentIds(starts: readonly number[], length: number): number[] {
  const sorted = [...new Set(starts)].filter((s) => s > 0 && s < length).sort((a, b) => a - b);
  const ids = new Array<number>(length);
  let segment = 0;
  for (let i = 0; i < length; i++) {
    if (segment < sorted.length && sorted[segment] === i) segment++;
    ids[i] = segment;
  }
  return ids;
}

/** Segment starts from a label per unit (a new segment wherever the label changes). */
export function startsFromLabels(labels: readonly number[]): number[] {
  const starts: number[] = labels.length > 0 ? [0] : [];
  for (let i = 1; i < labels.length; i++) if (labels[i] !== labels[i - 1]) starts.push(i);
  return starts;
}

/** The standard window: half the mean reference segment length (at least 2). */
export function standardWindow(referenceStarts: readonly number[], length: number): number {
  const segments = Math.max(1, new Set(referenceStarts.filter((s) => s >= 0 && s < length)).size);
  return Math.max(2, Math.round(length / segments / 2));
}

/** An error rate over a reference and a hypothesis segmentation of `length` units, with windows of width k. */
export type WindowMetric = (
  reference: readonly number[],
  hypothesis: readonly number[],
  length: number,
  k: number,
) => number;

/** The metric that counts the share of the `length - k` windows in which `disagree` holds. */
function windowMetric(
  disagree: (r: readonly number[], h: readonly number[], i: number, k: number) => boolean,
): WindowMetric {
  return (reference, hypothesis, length, k) => {
    const r = segmentIds(reference, length);
    const h = segmentIds(hypothesis, length);
    const windows = length - k;
    if (windows <= 0) return 0;
    let errors = 0;
    for (let i = 0; i < windows; i++) if (disagree(r, h, i, k)) errors++;
    return errors / windows;
  };
}

/** Pk (Beeferman et al. 1999): probability that units k apart are wrongly judged same/different segment. */
export const pk = windowMetric((r, h, i, k) => (r[i] === r[i + k]) !== (h[i] === h[i + k]));

/** WindowDiff (Pevzner & Hearst 2002): windows where the number of boundaries differs. */
export const windowDiff = windowMetric(
  (r, h, i, k) => (r[i + k] ?? 0) - (r[i] ?? 0) !== (h[i + k] ?? 0) - (h[i] ?? 0),
);

/** Equal-size segments: the starts of `count` windows over `length` units. */
export function fixedWindows(count: number, length: number): number[] {
  const starts: number[] = [];
  const segments = Math.max(1, Math.min(count, length));
  for (let s = 0; s < segments; s++) starts.push(Math.floor((s * length) / segments));
  return [...new Set(starts)];
}
