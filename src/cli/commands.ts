// What each of bin/recap's commands does (main.ts declares them): loaded when one runs, so `--help` and a
// mistyped command cost Node's start and commander, not the services and the schemas.
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { pino } from "pino";
import type { Analyzer } from "../analysis/types.ts";
import { systemClock } from "../clock.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import { DomainError, invalid } from "../errors.ts";
import { checkInput } from "../http/input-rules.ts";
import { createMetrics } from "../metrics/metrics.ts";
import type { App } from "../modules/apps/apps.service.ts";
import { submissionFromText, type Submission } from "../modules/ingestion/ingestion.service.ts";
import { readTranscriptFile } from "../modules/ingestion/transcript-file.ts";
import { parseTranscript, type TranscriptCue } from "../modules/ingestion/transcript.ts";
import { openRuntime } from "../runtime.ts";
import { createServices, type Services } from "../services.ts";
import { DEMO_APP_NAME, runDemo } from "./demo.ts";
import { runJobUntilFinished } from "./run-job.ts";

/** Commands that process no conversation never start the analysis worker (it loads an NLP model). */
const refuse = () => Promise.reject(new Error("this command does not analyse conversations"));
const noAnalysis: Analyzer = {
  analyze: refuse,
  findEntities: refuse,
  detectTrackers: refuse,
  findIntents: refuse,
  speakerAnalytics: refuse,
  close: () => Promise.resolve(),
};

/** Opens the configured database (migrated) and the services on it, runs `work`, and closes everything. */
async function withServices<T>(
  work: (services: Services) => Promise<T>,
  options: { analyzer?: boolean } = {},
): Promise<T> {
  const runtime = await openRuntime(
    loadConfig(process.env),
    options.analyzer ? {} : { analyzer: noAnalysis },
  );
  try {
    return await work(
      createServices({
        ...runtime,
        clock: systemClock,
        logger: pino({ level: "warn" }),
        // A command's figures are not served; the services count into a registry no one reads.
        metrics: createMetrics({ processMetrics: false }),
      }),
    );
  } finally {
    await runtime.close();
  }
}

function printApp(app: App, json: boolean, secret?: string): void {
  if (json) {
    console.log(JSON.stringify({ ...app, ...(secret !== undefined && { appSecret: secret }) }));
    return;
  }
  console.log(`appId:          ${app.appId}`);
  if (secret !== undefined) console.log(`appSecret:      ${secret}`);
  console.log(`name:           ${app.name}`);
  console.log(`customDomain:   ${app.customDomain ?? "-"}`);
  console.log(`frameAncestors: ${app.frameAncestors.join(" ") || "-"}`);
  console.log(`voiceProfiles:  ${app.voiceProfiles ? "on" : "off"}`);
}

/** What `import` read from a file: a transcript's cues and the conversation's name, or a process/text body. */
type ImportFile = { cues: TranscriptCue[]; name: string } | { submission: Submission };

/**
 * Reads a transcript file (WebVTT, SRT, or the JSON body of POST /v1/process/text) as the API would take it
 * (readTranscriptFile: UTF-8, the input rules, the process/text schema; for WebVTT and SRT the transcript
 * parser's rules), and `--name` by the same rules. Throws invalid naming the file and the rule, before anything
 * is stored.
 */
function readImportFile(file: string, name: string | undefined): ImportFile {
  try {
    if (name !== undefined) checkInput("body", { name });
    const read = readTranscriptFile(file, readFileSync(file));
    if (read.format === "json") {
      return { submission: { ...submissionFromText(read.body), ...(name !== undefined && { name }) } };
    }
    return { cues: parseTranscript(read.text), name: name ?? basename(file, extname(file)) };
  } catch (error) {
    if (error instanceof DomainError) throw invalid(`${file}: ${error.message}`);
    throw error;
  }
}

export async function createApp(options: {
  name: string;
  customDomain?: string;
  frameAncestors?: string[];
  json?: boolean;
}): Promise<void> {
  await withServices(async ({ apps }) => {
    const created = await apps.createApp({
      name: options.name,
      ...(options.customDomain !== undefined && { customDomain: options.customDomain }),
      ...(options.frameAncestors !== undefined && { frameAncestors: options.frameAncestors }),
    });
    const { appId, appSecret, webhookSecret } = created;
    if (options.json) console.log(JSON.stringify({ appId, appSecret, webhookSecret }));
    else {
      printApp(created, false, appSecret);
      console.log(`webhookSecret:  ${webhookSecret}`);
    }
  });
}

export async function listApps(options: { json?: boolean }): Promise<void> {
  await withServices(async ({ apps }) => {
    const list = await apps.listApps();
    if (options.json) console.log(JSON.stringify(list));
    else for (const app of list) console.log(`${app.appId}  ${app.name}  ${app.customDomain ?? ""}`);
  });
}

export async function updateApp(
  appId: string,
  options: {
    name?: string;
    customDomain?: string | false;
    frameAncestors?: string[];
    voiceProfiles?: boolean;
    json?: boolean;
  },
): Promise<void> {
  await withServices(async ({ apps }) => {
    const updated = await apps.updateApp(appId, {
      ...(options.name !== undefined && { name: options.name }),
      ...(options.customDomain !== undefined && { customDomain: options.customDomain || null }),
      ...(options.frameAncestors !== undefined && { frameAncestors: options.frameAncestors }),
      ...(options.voiceProfiles !== undefined && { voiceProfiles: options.voiceProfiles }),
    });
    printApp(updated, options.json ?? false);
  });
}

export async function rotateSecret(appId: string, options: { json?: boolean }): Promise<void> {
  await withServices(async ({ apps }) => {
    const rotated = await apps.rotateSecret(appId);
    if (options.json) console.log(JSON.stringify(rotated));
    else console.log(`appId:     ${rotated.appId}\nappSecret: ${rotated.appSecret}`);
  });
}

export async function webhookSecret(
  appId: string,
  options: { rotate?: boolean; json?: boolean },
): Promise<void> {
  await withServices(async ({ apps }) => {
    const webhookSecret = options.rotate
      ? await apps.rotateWebhookSecret(appId)
      : await apps.webhookSecret(appId);
    if (options.json) console.log(JSON.stringify({ appId, webhookSecret }));
    else console.log(`appId:         ${appId}\nwebhookSecret: ${webhookSecret}`);
  });
}

export async function migrate(): Promise<void> {
  const config = loadConfig(process.env);
  const database = openDatabase(config.database);
  try {
    const applied = await database.migrate();
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date");
  } finally {
    await database.close();
  }
}

export async function importFile(
  file: string,
  options: { app: string; name?: string; json?: boolean },
): Promise<void> {
  const read = readImportFile(file, options.name);
  await withServices(
    async (services) => {
      await services.apps.getApp(options.app);
      const accepted =
        "cues" in read
          ? await services.ingestion.importTranscript(options.app, read.cues, { name: read.name })
          : await services.ingestion.submit(options.app, read.submission);
      const status = await runJobUntilFinished(services, options.app, accepted.jobId);
      const messages = "cues" in read ? read.cues.length : read.submission.messages.length;
      const result = { ...accepted, status, messages };
      if (options.json) console.log(JSON.stringify(result));
      else
        console.log(
          `Imported ${result.messages} messages: conversationId ${result.conversationId} (job ${status})`,
        );
      if (status !== "completed") process.exitCode = 1;
    },
    { analyzer: true },
  );
}

export async function demo(options: { json?: boolean }): Promise<void> {
  await withServices(
    async (services) => {
      const demo = await runDemo(services, new Date());
      if (options.json) {
        console.log(JSON.stringify(demo));
        return;
      }
      if (demo.appSecret !== undefined) {
        console.log(`Created the app "${DEMO_APP_NAME}": appId ${demo.appId}, appSecret ${demo.appSecret}`);
        console.log("(the secret is shown only once: keep it to call the API as this app)");
      }
      console.log(
        demo.reused
          ? `Reusing the demo meeting already analysed (conversationId ${demo.conversationId}). A new link to its summary page:`
          : `Analysed a real meeting (conversationId ${demo.conversationId}). Its summary page:`,
      );
      console.log(`\n  ${demo.url}\n`);
      console.log("It opens while the server runs (npm start).");
    },
    { analyzer: true },
  );
}
