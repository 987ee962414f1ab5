import { describe, expect, it } from "vitest";
import { SAMPLE_RATE } from "./engine.ts";
import { SpeechKeeper } from "./speech-keeper.ts";

/** `seconds` of 16 kHz samples, each its own index from `first` on, so a test can tell which were kept. */
const counting = (first: number, seconds: number) =>
  Float32Array.from({ length: seconds * SAMPLE_RATE }, (_, i) => first + i);

describe("SpeechKeeper", () => {
  it("keeps the utterances asked for, in order, from the audio it was given", () => {
    const keeper = new SpeechKeeper(2, 10);
    keeper.push(counting(0, 1));
    keeper.keep(250, 500);
    keeper.push(counting(SAMPLE_RATE, 1));
    keeper.keep(1_000, 1_125);
    const speech = keeper.speech();
    expect(speech.length).toBe(0.375 * SAMPLE_RATE);
    expect(speech[0]).toBe(0.25 * SAMPLE_RATE);
    expect(speech[0.25 * SAMPLE_RATE]).toBe(SAMPLE_RATE);
    expect(speech.at(-1)).toBe(1.125 * SAMPLE_RATE - 1);
  });

  it("keeps only what its ring still holds, and no more than it keeps in all", () => {
    const keeper = new SpeechKeeper(1, 2);
    keeper.push(counting(0, 3));
    keeper.keep(0, 3_000);
    expect(keeper.speech().length).toBe(SAMPLE_RATE);
    expect(keeper.speech()[0]).toBe(2 * SAMPLE_RATE);
    keeper.push(counting(3 * SAMPLE_RATE, 3));
    keeper.keep(3_000, 6_000);
    expect(keeper.speech().length).toBe(2 * SAMPLE_RATE);
    expect(keeper.speech().at(-1)).toBe(6 * SAMPLE_RATE - 1);
  });
});
