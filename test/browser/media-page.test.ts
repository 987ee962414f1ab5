// A conversation made from an uploaded recording, its video page opened in Chromium: the page plays the
// stored recording under its link (range requests), seeks to a line, and the transcript follows playback; a
// recording appended to it plays as the rest of the same timeline.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForJob } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createLink, onServer } from "../helpers/factories.ts";
import { MediaKit } from "../helpers/media.ts";
import { startSpeechServer, type SpeechServer } from "../helpers/speech-server.ts";
import { browserSuite, chromiumAvailable, playerState, SEEK } from "./browser.ts";

const SAID = [
  { text: "Welcome to the budget review", atSeconds: 0.5 },
  { text: "Dana will send the numbers by Friday", atSeconds: 5 },
  { text: "Thanks everyone that is all for today", atSeconds: 10 },
];

describe.skipIf(!chromiumAvailable())("a recording's own page in Chromium", () => {
  const kit = new MediaKit();
  let speech: SpeechServer;
  let url: string;

  beforeAll(async () => {
    speech = await startSpeechServer(
      "openai",
      (seconds) =>
        SAID.reduce((best, said) =>
          Math.abs(said.atSeconds - seconds) < Math.abs(best.atSeconds - seconds) ? said : best,
        ).text,
    );
  });
  afterAll(async () => {
    await speech?.close();
    kit.close();
  });
  const suite = browserSuite(() => ({
    env: { RECAP_ASR_URL: speech.url, RECAP_MEDIA_DIR: join(kit.dir, "store") },
  }));

  beforeAll(async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const recording = await kit.video(await kit.speech(SAID, 14), 14, "webm");
    const response = await fetch(`${server.url}/v1/process/video?name=Budget%20review`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "video/webm" },
      body: readFileSync(recording),
    });
    expect(response.status).toBe(201);
    const accepted = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, token, accepted.jobId)).toBe("completed");
    const link = await createLink(server, token, accepted.conversationId, { name: "video-summary" });
    url = onServer(server, link.url);
  }, 90_000);

  it("plays the stored recording, seeks to a line, and follows playback", async () => {
    const page = await suite.browser.newPage();
    await page.goto(url);
    const player = page.locator("#player");
    await expect.poll(() => player.evaluate((v: HTMLMediaElement) => v.readyState)).toBeGreaterThan(0);
    expect(await player.evaluate((v: HTMLMediaElement) => Math.round(v.duration))).toBe(14);
    await page.locator(".line").nth(1).locator("a.time").click();
    await expect.poll(() => playerState(player), SEEK).toEqual({ time: 5, hidden: false, error: null });
    expect(await page.locator(".line").nth(1).getAttribute("aria-current")).toBe("true");
    // Muted playback needs no gesture: it plays from the seek on, and the line being played follows it.
    await player.evaluate((v: HTMLMediaElement) => {
      v.muted = true;
      v.currentTime = 9.5;
      return v.play();
    });
    await expect
      .poll(() => player.evaluate((v: HTMLMediaElement) => v.currentTime), SEEK)
      .toBeGreaterThan(10);
    await expect.poll(() => page.locator(".line").nth(2).getAttribute("aria-current"), SEEK).toBe("true");
    await page.close();
  }, 60_000);

  it("plays a conversation's appended recording as the rest of one timeline", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const first = await kit.speech(
      [
        { text: "Welcome to the budget review", atSeconds: 0.5 },
        { text: "Dana will send the numbers by Friday", atSeconds: 4 },
      ],
      8,
    );
    const second = await kit.speech(
      [
        { text: "The appended recording starts here", atSeconds: 1 },
        { text: "Thanks everyone that is all for today", atSeconds: 5 },
      ],
      8,
    );
    const send = async (path: string, method: string, file: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
        body: readFileSync(file),
      });
      expect(response.status).toBe(201);
      const accepted = (await response.json()) as Body.Accepted;
      expect(await waitForJob(server, token, accepted.jobId)).toBe("completed");
      return accepted.conversationId;
    };
    const textAt = speech.textAt;
    let conversationId: string;
    try {
      speech.textAt = (seconds) =>
        seconds < 3 ? "Welcome to the budget review" : "Dana will send the numbers by Friday";
      conversationId = await send("/v1/process/audio?name=Two%20recordings", "POST", first);
      speech.textAt = (seconds) =>
        seconds < 4 ? "The appended recording starts here" : "Thanks everyone that is all for today";
      await send(`/v1/process/audio/${conversationId}`, "PUT", second);
    } finally {
      speech.textAt = textAt;
    }
    const link = await createLink(server, token, conversationId, { name: "video-summary" });
    const pageUrl = onServer(server, link.url);
    const recordingUrl = new URL(pageUrl);
    recordingUrl.pathname = `${recordingUrl.pathname.replace(/\/$/, "")}/media/recording-2.wav`;
    recordingUrl.search = "";
    const served = await fetch(recordingUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(readFileSync(second));

    const page = await suite.browser.newPage();
    await page.goto(pageUrl);
    const player = page.locator("#player");
    const lines = page.locator(".line");
    expect(await lines.locator(".line-text").allTextContents()).toEqual([
      "Welcome to the budget review",
      "Dana will send the numbers by Friday",
      "The appended recording starts here",
      "Thanks everyone that is all for today",
    ]);
    await expect.poll(() => player.evaluate((v: HTMLMediaElement) => v.readyState)).toBeGreaterThan(0);
    const source = () =>
      player.evaluate((v: HTMLMediaElement) => new URL(v.currentSrc).pathname.split("/").at(-1));
    expect(await source()).toBe("recording.wav");

    // A line of the second recording plays the second file, from that line's place in it (the first is 8 s).
    const appended = Number(await lines.nth(2).getAttribute("data-offset"));
    expect(appended).toBeGreaterThan(8);
    await lines.nth(2).locator("a.time").click();
    await expect.poll(source, SEEK).toBe("recording-2.wav");
    await expect
      .poll(() => playerState(player), SEEK)
      .toEqual({ time: Math.round(appended - 8), hidden: false, error: null });
    expect(await lines.nth(2).getAttribute("aria-current")).toBe("true");

    // A line of the first goes back to the first file.
    const earlier = Number(await lines.nth(1).getAttribute("data-offset"));
    await lines.nth(1).locator("a.time").click();
    await expect.poll(source, SEEK).toBe("recording.wav");
    await expect
      .poll(() => playerState(player), SEEK)
      .toEqual({ time: Math.round(earlier), hidden: false, error: null });

    // Played to its end, the first recording goes on into the second, and the transcript follows.
    await player.evaluate((v: HTMLMediaElement) => {
      v.muted = true;
      v.currentTime = 7;
      return v.play();
    });
    await expect.poll(source, SEEK).toBe("recording-2.wav");
    await expect.poll(() => lines.nth(2).getAttribute("aria-current"), SEEK).toBe("true");
    await page.close();
  }, 90_000);
});
