/**
 * Writes docs/page-live.png and docs/page-live-phone.png: a conversation's summary page while it is streamed
 * (docs/LIVE.md, Live on the page), with the lines recognised so far. The local engine runs on the tests'
 * generated models, so the lines are the words it hears in tones. Run with
 * `npm run build:client && node --import tsx test/browser/live-screenshots.ts`.
 */
import { join } from "node:path";
import { startTestServer } from "../helpers/app.ts";
import { createLink, onServer } from "../helpers/factories.ts";
import { linear16, startStream, stream } from "../helpers/live.ts";
import { MediaKit } from "../helpers/media.ts";
import { installEnergyVad, installToneRecogniser, VOICES } from "../../scripts/speech-models/models.ts";
import { until } from "../helpers/wait.ts";
import { launchChromium, saveScreenshot } from "./browser.ts";

const kit = new MediaKit();
const modelsDir = join(kit.dir, "models");
installEnergyVad(modelsDir);
installToneRecogniser(modelsDir, "tone-ctc");
const server = await startTestServer("sqlite", {
  env: { RECAP_MODELS_DIR: modelsDir, RECAP_ASR_MODEL: "tone-ctc" },
});
const browser = await launchChromium();
try {
  const { token } = await server.newApp();
  const live = await startStream(
    `${server.url.replace(/^http/, "ws")}/v1/streaming/weekly?access_token=${token}`,
    {
      config: { meetingTitle: "Weekly product sync" },
      speaker: { userId: "ada@example.com", name: "Ada" },
    },
  );
  const parts = [0, 1, 0, 1].flatMap((voice) => [{ tone: VOICES[voice] ?? 300, seconds: 1 }, { silence: 1 }]);
  await stream((frame) => live.socket.send(frame), linear16(kit, "live", parts, 16_000), 16_000, 100, 10);
  await until(
    () => live.received.events.filter((event) => event.type === "message_response").length === 4,
    "the lines",
  );
  const url = onServer(
    server,
    (await createLink(server, token, live.conversationId, { name: "verbose-text-summary" })).url,
  );
  for (const [file, viewport] of [
    ["page-live.png", { width: 1366, height: 760 }],
    ["page-live-phone.png", { width: 390, height: 844 }],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1, reducedMotion: "reduce" });
    await page.goto(url);
    await saveScreenshot(page, file);
  }
  live.socket.close();
} finally {
  await browser.close();
  await server.close();
  kit.close();
}
