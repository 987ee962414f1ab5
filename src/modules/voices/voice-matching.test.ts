import { describe, expect, it } from "vitest";
import {
  centroidOf,
  cleanSpeech,
  cosine,
  matchVoices,
  shortlist,
  type ProfileVectors,
} from "./voice-matching.ts";

const EMBEDDER = { model: "campplus-en-voxceleb", dimension: 3 };
const THRESHOLDS = { accept: 0.8, suggest: 0.5, margin: 0.1 };

const vector = (...values: number[]) => new Float32Array(values);
const profile = (id: string, ...references: Float32Array[]): ProfileVectors => ({
  id,
  name: id,
  email: null,
  model: EMBEDDER.model,
  dimension: EMBEDDER.dimension,
  references,
});

describe("cosine", () => {
  it("is the raw cosine in [-1, 1], not (1 + cos) / 2", () => {
    expect(cosine(vector(1, 0, 0), vector(2, 0, 0))).toBeCloseTo(1);
    expect(cosine(vector(1, 0, 0), vector(0, 1, 0))).toBeCloseTo(0);
    expect(cosine(vector(1, 0, 0), vector(-1, 0, 0))).toBeCloseTo(-1);
    expect(cosine(vector(0, 0, 0), vector(1, 0, 0))).toBe(0);
  });
});

describe("centroidOf", () => {
  it("is the unit mean of the references, each of unit length first, ignoring those of another length", () => {
    const centroid = centroidOf([vector(10, 0, 0), vector(0, 0.1, 0), vector(5, 5)], 3);
    expect(Array.from(centroid ?? [])).toEqual([
      expect.closeTo(Math.SQRT1_2),
      expect.closeTo(Math.SQRT1_2),
      0,
    ]);
    expect(centroidOf([], 3)).toBeNull();
    expect(centroidOf([vector(0, 0, 0)], 3)).toBeNull();
  });
});

describe("shortlist", () => {
  const centroids = [
    { id: "x", centroid: vector(1, 0, 0) },
    { id: "y", centroid: vector(0, 1, 0) },
    { id: "z", centroid: vector(0, 0, 1) },
    { id: "xy", centroid: vector(Math.SQRT1_2, Math.SQRT1_2, 0) },
  ];

  it("keeps each speaker's nearest profiles by centroid, all of them when there are no more", () => {
    const speakers = [
      { speaker: 0, vector: vector(0.9, 0.1, 0) },
      { speaker: 1, vector: vector(0, 0.2, 2) },
    ];
    expect(shortlist(speakers, centroids, 2)).toEqual(new Set(["x", "xy", "z", "y"]));
    expect(shortlist(speakers.slice(0, 1), centroids, 2)).toEqual(new Set(["x", "xy"]));
    expect(shortlist(speakers.slice(0, 1), centroids, 4)).toEqual(new Set(["x", "y", "z", "xy"]));
  });
});

describe("matchVoices", () => {
  it("pairs each speaker with its mutual best profile, taking a profile's best reference", () => {
    const ada = profile("ada", vector(0, 0, 1), vector(1, 0.05, 0));
    const bob = profile("bob", vector(0, 1, 0.1));
    const matches = matchVoices(
      [
        { speaker: 0, vector: vector(1, 0, 0) },
        { speaker: 1, vector: vector(0, 1, 0.1) },
      ],
      [ada, bob],
      EMBEDDER,
      THRESHOLDS,
    );
    expect(matches.map((match) => [match.speaker, match.profile.id, match.confident])).toEqual([
      [0, "ada", true],
      [1, "bob", true],
    ]);
    expect(matches[0]?.score).toBeCloseTo(cosine(vector(1, 0, 0), vector(1, 0.05, 0)));
  });

  it("suggests a match between the suggest and accept thresholds, and leaves a weaker one unmatched", () => {
    const ada = profile("ada", vector(1, 0, 0));
    const suggested = matchVoices([{ speaker: 0, vector: vector(1, 1, 0) }], [ada], EMBEDDER, THRESHOLDS);
    expect(suggested).toMatchObject([{ speaker: 0, confident: false }]);
    expect(suggested[0]?.score).toBeCloseTo(Math.SQRT1_2);
    expect(matchVoices([{ speaker: 0, vector: vector(1, 2, 0) }], [ada], EMBEDDER, THRESHOLDS)).toEqual([]);
  });

  it("refuses a speaker whose best profile is not ahead of the second-best by the margin, ties included", () => {
    const speakers = [{ speaker: 0, vector: vector(1, 1, 0) }];
    const tied = [profile("ada", vector(1, 0.9, 0)), profile("bob", vector(0.9, 1, 0))];
    expect(matchVoices(speakers, tied, EMBEDDER, { ...THRESHOLDS, suggest: 0 })).toEqual([]);
    const same = [profile("ada", vector(1, 0, 0)), profile("bob", vector(1, 0, 0))];
    expect(matchVoices([{ speaker: 0, vector: vector(1, 0, 0) }], same, EMBEDDER, THRESHOLDS)).toEqual([]);
  });

  it("never gives one profile to two speakers: only the profile's best speaker gets it", () => {
    const ada = profile("ada", vector(1, 0, 0));
    const matches = matchVoices(
      [
        { speaker: 0, vector: vector(1, 0.2, 0) },
        { speaker: 1, vector: vector(1, 0.1, 0) },
      ],
      [ada],
      EMBEDDER,
      THRESHOLDS,
    );
    expect(matches.map((match) => match.speaker)).toEqual([1]);
    const split = [
      { speaker: 0, vector: vector(1, 0, 0) },
      { speaker: 1, vector: vector(1, 0, 0) },
    ];
    expect(matchVoices(split, [ada], EMBEDDER, THRESHOLDS)).toEqual([]);
  });

  it("never compares a profile of another model or dimension, nor a reference of another length", () => {
    const speakers = [{ speaker: 0, vector: vector(1, 0, 0) }];
    const foreign = [
      { ...profile("wide", vector(1, 0, 0, 0)), dimension: 4 },
      { ...profile("other", vector(1, 0, 0)), model: "another-model" },
      profile("corrupt", vector(1, 0)),
    ];
    expect(matchVoices(speakers, foreign, EMBEDDER, THRESHOLDS)).toEqual([]);
    const ada = profile("ada", vector(0.9, 0.1, 0));
    expect(matchVoices(speakers, [...foreign, ada], EMBEDDER, THRESHOLDS)).toMatchObject([
      { speaker: 0, profile: { id: "ada" }, confident: true },
    ]);
  });
});

describe("cleanSpeech", () => {
  it("keeps each speaker's turns less what another speaker's turn overlaps, joined where they touch", () => {
    const clean = cleanSpeech([
      { speaker: 0, startMs: 0, endMs: 3000 },
      { speaker: 1, startMs: 2500, endMs: 5000 },
      { speaker: 0, startMs: 4000, endMs: 6000 },
      { speaker: 0, startMs: 6000, endMs: 7000 },
    ]);
    expect(clean.get(0)).toEqual([
      { startMs: 0, endMs: 2500 },
      { startMs: 5000, endMs: 7000 },
    ]);
    expect(clean.get(1)).toEqual([{ startMs: 3000, endMs: 4000 }]);
  });
});
