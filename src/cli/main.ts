import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { Command, CommanderError } from "commander";
import { pino } from "pino";
import type { Analyzer } from "../analysis/types.ts";
import { systemClock } from "../clock.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { openDatabase } from "../db/database.ts";
import { DomainError, invalid } from "../errors.ts";
import { checkInput } from "../http/input-rules.ts";
import type { App } from "../modules/apps/apps.service.ts";
import {
  submissionFromText,
  submissionFromTranscript,
  type Submission,
} from "../modules/ingestion/ingestion.service.ts";
import { readTranscriptFile, type TranscriptFile } from "../modules/ingestion/transcript-file.ts";
import { parseTranscript } from "../modules/ingestion/transcript.ts";
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
    return await work(createServices({ ...runtime, clock: systemClock, logger: pino({ level: "warn" }) }));
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
}

/**
 * Reads a transcript file (WebVTT, SRT, or the JSON body of POST /v1/process/text) as the API would take it
 * (readTranscriptFile: UTF-8, the input rules, the process/text schema), and `--name` by the same rules.
 * Throws invalid naming the file and the rule, before anything is stored.
 */
function readSubmission(file: string, name: string | undefined): Submission {
  let read: TranscriptFile;
  try {
    if (name !== undefined) checkInput("body", { name });
    read = readTranscriptFile(file, readFileSync(file));
  } catch (error) {
    if (error instanceof DomainError) throw invalid(`${file}: ${error.message}`);
    throw error;
  }
  if (read.format === "json")
    return { ...submissionFromText(read.body), ...(name !== undefined && { name }) };
  return submissionFromTranscript(parseTranscript(read.text), new Date(), {
    name: name ?? basename(file, extname(file)),
  });
}

const program = new Command()
  .name("recap")
  .description(
    "Manage a Recap server's apps, database and imports (reads the same environment as the server)",
  )
  .exitOverride();

const apps = program.command("apps").description("Create and manage apps (tenants)");

apps
  .command("create")
  .description("Create an app and print its appId and appSecret (the secret is shown only once)")
  .requiredOption("--name <name>", "the app's name")
  .option("--custom-domain <host>", "host name its summary links may use")
  .option("--frame-ancestors <origin...>", "origins allowed to embed its pages")
  .option("--json", "print one JSON line")
  .action(
    async (options: { name: string; customDomain?: string; frameAncestors?: string[]; json?: boolean }) => {
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
    },
  );

apps
  .command("list")
  .description("List apps")
  .option("--json", "print JSON")
  .action(async (options: { json?: boolean }) => {
    await withServices(async ({ apps }) => {
      const list = await apps.listApps();
      if (options.json) console.log(JSON.stringify(list));
      else for (const app of list) console.log(`${app.appId}  ${app.name}  ${app.customDomain ?? ""}`);
    });
  });

apps
  .command("update <appId>")
  .description("Change an app's name, custom domain or frame ancestors")
  .option("--name <name>", "new name")
  .option("--custom-domain <host>", "host name its summary links may use")
  .option("--no-custom-domain", "remove the custom domain")
  .option("--frame-ancestors <origin...>", "origins allowed to embed its pages (replaces the list)")
  .option("--json", "print JSON")
  .action(
    async (
      appId: string,
      options: { name?: string; customDomain?: string | false; frameAncestors?: string[]; json?: boolean },
    ) => {
      await withServices(async ({ apps }) => {
        const updated = await apps.updateApp(appId, {
          ...(options.name !== undefined && { name: options.name }),
          ...(options.customDomain !== undefined && { customDomain: options.customDomain || null }),
          ...(options.frameAncestors !== undefined && { frameAncestors: options.frameAncestors }),
        });
        printApp(updated, options.json ?? false);
      });
    },
  );

apps
  .command("rotate-secret <appId>")
  .description("Issue a new appSecret; the old one stops working at once")
  .option("--json", "print one JSON line")
  .action(async (appId: string, options: { json?: boolean }) => {
    await withServices(async ({ apps }) => {
      const rotated = await apps.rotateSecret(appId);
      if (options.json) console.log(JSON.stringify(rotated));
      else console.log(`appId:     ${rotated.appId}\nappSecret: ${rotated.appSecret}`);
    });
  });

apps
  .command("webhook-secret <appId>")
  .description("Print the secret that signs the app's webhooks (Standard Webhooks, whsec_…)")
  .option("--rotate", "replace it first; deliveries from then on are signed with the new one")
  .option("--json", "print one JSON line")
  .action(async (appId: string, options: { rotate?: boolean; json?: boolean }) => {
    await withServices(async ({ apps }) => {
      const webhookSecret = options.rotate
        ? await apps.rotateWebhookSecret(appId)
        : await apps.webhookSecret(appId);
      if (options.json) console.log(JSON.stringify({ appId, webhookSecret }));
      else console.log(`appId:         ${appId}\nwebhookSecret: ${webhookSecret}`);
    });
  });

program
  .command("migrate")
  .description("Create or update the database schema")
  .action(async () => {
    const config = loadConfig(process.env);
    const database = openDatabase(config.database);
    try {
      const applied = await database.migrate();
      console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date");
    } finally {
      await database.close();
    }
  });

program
  .command("import <file>")
  .description("Import a WebVTT (.vtt), SRT (.srt) or process/text JSON (.json) file as a conversation")
  .requiredOption("--app <appId>", "the app that owns the conversation")
  .option("--name <name>", "conversation name (default: the file name)")
  .option("--json", "print one JSON line")
  .action(async (file: string, options: { app: string; name?: string; json?: boolean }) => {
    const submission = readSubmission(file, options.name);
    await withServices(
      async (services) => {
        await services.apps.getApp(options.app);
        const accepted = await services.ingestion.submit(options.app, submission);
        const status = await runJobUntilFinished(services, options.app, accepted.jobId);
        const result = { ...accepted, status, messages: submission.messages.length };
        if (options.json) console.log(JSON.stringify(result));
        else
          console.log(
            `Imported ${result.messages} messages: conversationId ${result.conversationId} (job ${status})`,
          );
        if (status !== "completed") process.exitCode = 1;
      },
      { analyzer: true },
    );
  });

program
  .command("demo")
  .description(
    `Create (or reuse) the "${DEMO_APP_NAME}" app, ingest a real bundled meeting, analyse it and print its summary link`,
  )
  .option("--json", "print one JSON line")
  .action(async (options: { json?: boolean }) => {
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
        console.log(`Analysed a real meeting (conversationId ${demo.conversationId}). Its summary page:`);
        console.log(`\n  ${demo.url}\n`);
        console.log("It opens while the server runs (npm start).");
      },
      { analyzer: true },
    );
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof ConfigError || error instanceof DomainError) {
    console.error(`recap: ${error.message}`);
    process.exitCode = 1;
  } else {
    console.error(`recap: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
