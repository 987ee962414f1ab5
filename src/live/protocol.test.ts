import { describe, expect, it } from "vitest";
import { Linear16Resampler, parseRequest } from "./protocol.ts";

/** A sine of `hz` at `rate` as LINEAR16 bytes. */
function sine(hz: number, rate: number, seconds: number): Buffer {
  const bytes = Buffer.alloc(Math.round(rate * seconds) * 2);
  for (let i = 0; i < bytes.length / 2; i++) {
    bytes.writeInt16LE(Math.round(16_000 * Math.sin((2 * Math.PI * hz * i) / rate)), i * 2);
  }
  return bytes;
}

/** Feeds `bytes` in frames of `size` bytes and joins what comes out. */
function resample(bytes: Buffer, rate: number, size: number): Float32Array {
  const resampler = new Linear16Resampler(rate);
  const parts: Float32Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    parts.push(resampler.push(bytes.subarray(offset, offset + size)));
  }
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

describe("LINEAR16 frames to 16 kHz", () => {
  it("gives 16 kHz samples of the same sound at any input rate", () => {
    for (const rate of [8_000, 16_000, 44_100, 48_000]) {
      const out = resample(sine(200, rate, 1), rate, 3_200);
      expect(Math.abs(out.length - 16_000)).toBeLessThanOrEqual(2);
      // The 16 kHz sine the input stands for.
      let worst = 0;
      for (let i = 100; i < out.length - 100; i++) {
        const expected = (16_000 / 32_768) * Math.sin((2 * Math.PI * 200 * i) / 16_000);
        worst = Math.max(worst, Math.abs(out[i]! - expected));
      }
      expect(worst, `at ${rate} Hz`).toBeLessThan(0.02);
    }
  });

  it("gives the same samples whatever the frames' sizes, odd ones included", () => {
    const bytes = sine(440, 44_100, 0.5);
    const whole = resample(bytes, 44_100, bytes.length);
    for (const size of [1, 3, 441, 4_410, 7_777]) {
      expect(Array.from(resample(bytes, 44_100, size))).toEqual(Array.from(whole));
    }
  });
});

describe("requests", () => {
  it("reads a start_request as Symbl's clients send it, with defaults for what they leave out", () => {
    expect(
      parseRequest(
        JSON.stringify({
          type: "start_request",
          insightTypes: ["question"],
          config: {
            meetingTitle: " Stand-up ",
            confidenceThreshold: 0.7,
            languageCode: "en-US",
            speechRecognition: { encoding: "LINEAR16", sampleRateHertz: 44_100 },
          },
          speaker: { userId: "ada@example.com", name: "Ada" },
        }),
      ),
    ).toEqual({
      type: "start_request",
      start: {
        insightTypes: ["question"],
        encoding: "LINEAR16",
        sampleRateHertz: 44_100,
        meetingTitle: "Stand-up",
        confidenceThreshold: 0.7,
        languageCode: "en-US",
        speaker: { userId: "ada@example.com", name: "Ada" },
      },
    });
    expect(parseRequest('{"type":"start_request"}')).toMatchObject({
      start: { encoding: "LINEAR16", sampleRateHertz: 16_000, speaker: { userId: null, name: null } },
    });
  });

  it("names the field and the rule of a bad request", () => {
    const cases: [unknown, RegExp][] = [
      [
        { type: "start_request", config: { confidenceThreshold: 2 } },
        /config.confidenceThreshold must be a number from 0 to 1/,
      ],
      [{ type: "start_request", insightTypes: "question" }, /insightTypes must be an array of strings/],
      [{ type: "start_request", speaker: "Ada" }, /speaker must be an object/],
      [
        { type: "start_request", config: { speechRecognition: { sampleRateHertz: 16_000.5 } } },
        /sampleRateHertz/,
      ],
      [[1], /JSON object with a type/],
    ];
    for (const [body, message] of cases) expect(() => parseRequest(JSON.stringify(body))).toThrow(message);
  });
});
