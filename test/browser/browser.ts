import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AxeBuilder } from "@axe-core/playwright";
import { join } from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { ROOT } from "../helpers/processes.ts";

export const CHROMIUM = "/usr/bin/chromium";
/**
 * How long a media seek may take to show in `currentTime`: with every suite running on two cores, Chromium's
 * media pipeline can take longer than expect.poll's default second (both seek tests failed that way).
 */
export const SEEK = { timeout: 8000 };

/**
 * What a seek test waits for: the player's position in whole seconds, with whether the page gave up on the
 * player (hidden) and the media error's code, so a seek that never lands shows why in the failure.
 */
export function playerState(player: Locator) {
  return player.evaluate((media: HTMLMediaElement) => ({
    time: Math.round(media.currentTime),
    hidden: media.hidden,
    error: media.error?.code ?? null,
  }));
}
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/**
 * Whether the browser suites can run. Under CI=true they must: a missing Chromium fails loudly instead of
 * skipping. Elsewhere a missing /usr/bin/chromium skips them with a line saying so.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === "true") {
    throw new Error(
      `CI=true but ${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`,
    );
  }
  console.warn(`SKIPPED: browser suites (no ${CHROMIUM}); install it with: apt-get install -y chromium`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** What `browserSuite` starts its server with: startTestServer's options. */
type ServerOptions = NonNullable<Parameters<typeof startTestServer>[1]>;

/**
 * A test server on SQLite and Chromium for a describe block: started before its tests (the client built first
 * when missing), closed after them. Read the fields inside tests (they are set once `beforeAll` has run).
 * `options` go to the server (a clock, its environment); as a function, it is called when the server starts,
 * after the `beforeAll` hooks registered before this call (a stand-in service whose URL the server needs).
 */
export function browserSuite(options: ServerOptions | (() => ServerOptions) = {}): {
  readonly server: TestServer;
  readonly browser: Browser;
} {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    ensureClientBuilt();
    server = await startTestServer("sqlite", typeof options === "function" ? options() : options);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the suite's server or browser is read before beforeAll ran");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
  };
}

/** Collects the message of every uncaught error on a page, for a test to expect none. */
export function recordPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Signs in to the console of the server at `base` with an app's credentials, and waits for its list. */
export async function signInToConsole(page: Page, base: string, appId: string, appSecret: string) {
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel("App id").fill(appId);
  await page.getByLabel("App secret").fill(appSecret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Conversations" }).waitFor();
}

/** docs/, where the screenshot scripts write. */
export const DOCS = join(ROOT, "docs");

/** For a screenshot script: writes the page as it is now to docs/`file`, closes the page and says so. */
export async function saveScreenshot(page: Page, file: string): Promise<void> {
  await page.screenshot({ path: join(DOCS, file) });
  await page.close();
  console.log(`wrote docs/${file}`);
}

/** Collects every dialog (alert, confirm, prompt) a page opens, dismissing it. */
export function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

/**
 * Builds the page's and the console's scripts and styles into public/ when they are missing: `npm test`
 * builds them first, a test file run on its own may not have.
 */
export function ensureClientBuilt(): void {
  if (!existsSync(join(ROOT, "public", "page.js")) || !existsSync(join(ROOT, "public", "console.js")))
    execFileSync("node", [join(ROOT, "scripts/build-client.mjs")]);
}

/**
 * Fails the test when axe-core finds a serious or critical violation on the page as it is now; `experimental`
 * names axe's experimental rules to run too (off by default), such as `label-content-name-mismatch`.
 */
export async function accessible(page: Page, experimental: string[] = []): Promise<void> {
  expect(await seriousViolations(page, experimental), page.url()).toEqual([]);
}

/** axe-core's serious and critical violations on the page as it is now, one line each (none: an empty list). */
export async function seriousViolations(page: Page, experimental: string[] = []): Promise<string[]> {
  const rules = Object.fromEntries(experimental.map((rule) => [rule, { enabled: true }]));
  const results = await new AxeBuilder({ page }).options({ rules }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0]?.target.join(" ")})`);
}

/** A mono 16-bit PCM WAV of `seconds` of a quiet tone, written by code. */
/**
 * Waits until every image has loaded or failed and no media element is still loading, and then for two
 * frames: any handler an injected URL or attribute could run has run by then. (Instead of a fixed pause.)
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const pending = [...document.querySelectorAll("img, video, audio")].filter((element) =>
      element instanceof HTMLImageElement
        ? !element.complete
        : (element as HTMLMediaElement).networkState === HTMLMediaElement.NETWORK_LOADING,
    );
    await Promise.all(
      pending.map(
        (element) =>
          new Promise((resolve) => {
            for (const type of ["load", "error", "loadedmetadata", "suspend", "stalled", "abort"])
              element.addEventListener(type, resolve, { once: true });
          }),
      ),
    );
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

export function makeWav(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 2000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8);
  header.write("fmt ", 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** test/fixtures/media/bars.webm: two minutes of colour bars, a real video (its README says how it was made). */
export function barsVideo(): Buffer {
  return readFileSync(join(ROOT, "test", "fixtures", "media", "bars.webm"));
}

/**
 * A tiny HTTP server for one media file at `/<name>`, answering range requests as media elements expect;
 * by default a WAV at /meeting.wav.
 */
export async function serveMedia(
  body: Buffer,
  contentType = "audio/wav",
  name = "meeting.wav",
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.url !== `/${name}`) {
      response.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? "");
    const headers = {
      "content-type": contentType,
      "accept-ranges": "bytes",
      "access-control-allow-origin": "*",
    };
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      response.writeHead(206, {
        ...headers,
        "content-range": `bytes ${start}-${end}/${body.length}`,
        "content-length": end - start + 1,
      });
      response.end(body.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, { ...headers, "content-length": body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
