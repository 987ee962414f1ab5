/**
 * The action-item model: a logistic regression over a sentence's features (action-features.ts) and the
 * presence of some words and word pairs in it, trained on the hand-labelled QMSum train meetings by
 * bench/train-actions.ts. A sentence states a task to do after this point when its probability reaches the
 * model's threshold.
 */
import { ACTION_WEIGHTS } from "./action-weights.ts";

export interface ActionModel {
  bias: number;
  /** One weight per feature, in ACTION_FEATURE_NAMES order, then one per phrase. */
  weights: readonly number[];
  /** The words and word pairs (normal forms, sentencePhrases) whose presence in a sentence the model weighs. */
  phrases: readonly string[];
  /** Probability from which a sentence is an action item. */
  threshold: number;
}

export const DEFAULT_ACTION_MODEL: ActionModel = ACTION_WEIGHTS;

/** Each model's phrase weights by phrase, so scoring a sentence looks up only the phrases it says. */
const phraseWeights = new WeakMap<ActionModel, ReadonlyMap<string, number>>();

function weightsByPhrase(model: ActionModel): ReadonlyMap<string, number> {
  let byPhrase = phraseWeights.get(model);
  if (byPhrase === undefined) {
    const offset = model.weights.length - model.phrases.length;
    byPhrase = new Map(model.phrases.map((phrase, i) => [phrase, model.weights[offset + i] ?? 0]));
    phraseWeights.set(model, byPhrase);
  }
  return byPhrase;
}

/**
 * The probability that a sentence states a task, from its features (ACTION_FEATURE_NAMES order) and the
 * phrases it says (sentencePhrases): the same as the weights times the features, then a 1 for each of the
 * model's phrases the sentence says.
 */
export function actionProbability(
  features: readonly number[],
  said: ReadonlySet<string>,
  model: ActionModel,
): number {
  let z = model.bias;
  for (let i = 0; i < features.length; i++) z += (features[i] ?? 0) * (model.weights[i] ?? 0);
  const byPhrase = weightsByPhrase(model);
  for (const phrase of said) z += byPhrase.get(phrase) ?? 0;
  return 1 / (1 + Math.exp(-z));
}

/**
 * The insight score of a detected task: the model's probability rescaled so that its threshold is 0.5
 * and certainty 1, so a conversation's `confidenceThreshold` reads the same on every model.
 */
export function actionScore(probability: number, model: ActionModel): number {
  const { threshold } = model;
  return probability >= threshold
    ? 0.5 + (0.5 * (probability - threshold)) / Math.max(1e-9, 1 - threshold)
    : (0.5 * probability) / Math.max(1e-9, threshold);
}
