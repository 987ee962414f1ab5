/**
 * The action-item model: a logistic regression over a sentence's features (action-features.ts), trained
 * on the hand-labelled QMSum train meetings by bench/train-actions.ts. A sentence states a task to do
 * after this point when its probability reaches the model's threshold.
 */
import { ACTION_WEIGHTS } from "./action-weights.ts";

export interface ActionModel {
  bias: number;
  /** One weight per feature, in ACTION_FEATURE_NAMES order. */
  weights: readonly number[];
  /** Probability from which a sentence is an action item. */
  threshold: number;
}

export const DEFAULT_ACTION_MODEL: ActionModel = ACTION_WEIGHTS;

/** The probability that a sentence with these features states a task. */
export function actionProbability(features: readonly number[], model: ActionModel): number {
  let z = model.bias;
  for (let i = 0; i < features.length; i++) z += (features[i] ?? 0) * (model.weights[i] ?? 0);
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
