/** Timing helpers shared by the benches: medians of repeated runs, and the text-reading baseline. */
import type winkNLP from "wink-nlp";

/** Timed runs and warm-up runs per measurement. */
export const RUNS = 15;
export const WARMUP = 3;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function time(fn: () => void, runs = RUNS, warmup = WARMUP): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** Times two functions in alternation, so that load from other work on the machine hits both alike. */
export function timeInterleaved(
  first: () => void,
  second: () => void,
  runs = RUNS,
  warmup = WARMUP,
): [number[], number[]] {
  for (let i = 0; i < warmup; i++) {
    first();
    second();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    first();
    a.push(performance.now() - start);
    start = performance.now();
    second();
    b.push(performance.now() - start);
  }
  return [a, b];
}

/** The baseline any analysis must at least do: wink-nlp reading the text (tokens, POS, sentences). */
export function readWithWink(nlp: ReturnType<typeof winkNLP>, text: string): void {
  const doc = nlp.readDoc(text);
  /* eslint-disable @typescript-eslint/unbound-method -- wink's its.* helpers are plain functions */
  doc.tokens().out(nlp.its.pos);
  doc.sentences().out(nlp.its.span);
  /* eslint-enable @typescript-eslint/unbound-method */
}
