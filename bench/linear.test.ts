import { describe, expect, it } from "vitest";
import { fitLogistic, solve } from "./linear.ts";

describe("solve", () => {
  it("solves a small linear system", () => {
    const [x, y] = solve(
      [
        [2, 1],
        [1, 3],
      ],
      [3, 5],
    );
    expect(x).toBeCloseTo(0.8, 10);
    expect(y).toBeCloseTo(1.4, 10);
  });
});

describe("fitLogistic", () => {
  // The label follows the first feature (with some noise); the second is noise.
  const rows = Array.from({ length: 400 }, (_, i) => {
    const signal = ((i * 37) % 100) / 100;
    const noise = Math.floor(i / 200);
    return { features: [signal, noise], label: signal + ((i * 11) % 30) / 100 > 0.64 ? 1 : 0 };
  });

  it("learns a positive weight for the feature that predicts the label and little for noise", () => {
    const { bias, weights } = fitLogistic(rows, 1);
    expect(weights[0]).toBeGreaterThan(1);
    expect(Math.abs(weights[1] ?? 0)).toBeLessThan((weights[0] ?? 0) / 2);
    // The decision boundary sits near where the labels change (signal ≈ 0.5).
    expect(-bias / (weights[0] ?? 1)).toBeGreaterThan(0.4);
    expect(-bias / (weights[0] ?? 1)).toBeLessThan(0.6);
  });

  it("gives the same weights for the same rows, and smaller ones under a larger penalty", () => {
    expect(fitLogistic(rows, 1)).toEqual(fitLogistic(rows, 1));
    expect(Math.abs(fitLogistic(rows, 100).weights[0] ?? 0)).toBeLessThan(
      Math.abs(fitLogistic(rows, 1).weights[0] ?? 0),
    );
  });
});
