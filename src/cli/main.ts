// bin/recap's commands and options. What each does is in commands.ts, imported when a command runs, so
// `--help` and a mistyped command answer without loading the services.
import { Command, CommanderError } from "commander";
import type * as Commands from "./commands.ts";
import { DEMO_APP_NAME } from "./demo.ts";

const commands = () => import("./commands.ts");

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
  .action(async (options: Parameters<typeof Commands.createApp>[0]) => (await commands()).createApp(options));

apps
  .command("list")
  .description("List apps")
  .option("--json", "print JSON")
  .action(async (options: Parameters<typeof Commands.listApps>[0]) => (await commands()).listApps(options));

apps
  .command("update <appId>")
  .description("Change an app's name, custom domain, frame ancestors or voice profiles switch")
  .option("--name <name>", "new name")
  .option("--custom-domain <host>", "host name its summary links may use")
  .option("--no-custom-domain", "remove the custom domain")
  .option("--frame-ancestors <origin...>", "origins allowed to embed its pages (replaces the list)")
  .option("--voice-profiles", "keep voice profiles and match speakers with them (docs/VOICES.md)")
  .option("--no-voice-profiles", "stop enrolling and matching voices (the profiles kept stay)")
  .option("--json", "print JSON")
  .action(async (appId: string, options: Parameters<typeof Commands.updateApp>[1]) =>
    (await commands()).updateApp(appId, options),
  );

apps
  .command("rotate-secret <appId>")
  .description("Issue a new appSecret; the old one stops working at once")
  .option("--json", "print one JSON line")
  .action(async (appId: string, options: Parameters<typeof Commands.rotateSecret>[1]) =>
    (await commands()).rotateSecret(appId, options),
  );

apps
  .command("webhook-secret <appId>")
  .description("Print the secret that signs the app's webhooks (Standard Webhooks, whsec_…)")
  .option("--rotate", "replace it first; deliveries from then on are signed with the new one")
  .option("--json", "print one JSON line")
  .action(async (appId: string, options: Parameters<typeof Commands.webhookSecret>[1]) =>
    (await commands()).webhookSecret(appId, options),
  );

program
  .command("migrate")
  .description("Create or update the database schema")
  .action(async () => (await commands()).migrate());

program
  .command("import <file>")
  .description("Import a WebVTT (.vtt), SRT (.srt) or process/text JSON (.json) file as a conversation")
  .requiredOption("--app <appId>", "the app that owns the conversation")
  .option("--name <name>", "conversation name (default: the file name)")
  .option("--json", "print one JSON line")
  .action(async (file: string, options: Parameters<typeof Commands.importFile>[1]) =>
    (await commands()).importFile(file, options),
  );

program
  .command("demo")
  .description(
    `Create (or reuse) the "${DEMO_APP_NAME}" app, ingest a real bundled meeting once, analyse it and print a summary link to it`,
  )
  .option("--json", "print one JSON line")
  .action(async (options: Parameters<typeof Commands.demo>[0]) => (await commands()).demo(options));

const backupCommands = () => import("./backup.ts");

program
  .command("backup <file>")
  .description(
    "Write the SQLite database (a consistent copy, also while servers write), the signing secret file, the stored recordings and the font cache to one .tar.gz archive (PostgreSQL: pg_dump, docs/OPERATIONS.md)",
  )
  .action(async (file: string) => (await backupCommands()).backupCommand(file));

program
  .command("restore <file>")
  .description(
    "Restore a backup into an empty data directory (stop the server first); refuses a file that is not a Recap backup or holds a newer schema",
  )
  .option("--force", "replace the database, secret, recordings and fonts already there")
  .action(async (file: string, options: { force?: boolean }) =>
    (await backupCommands()).restoreCommand(file, options),
  );

const models = program
  .command("models")
  .description(
    "Install and measure the speech models of the local engine, kept in RECAP_MODELS_DIR (docs/MEDIA.md)",
  );
const modelCommands = () => import("./models.ts");

models
  .command("list")
  .description("List the models Recap knows, which are installed, and the defaults")
  .option("--json", "print JSON")
  .action(async (options: { json?: boolean }) => (await modelCommands()).listCommand(options));

models
  .command("pull <name>")
  .description("Download a model from its official release, verify its SHA-256 and install it")
  .option("--force", "replace an installed copy")
  .action(async (name: string, options: { force?: boolean }) =>
    (await modelCommands()).pullCommand(name, options),
  );

models
  .command("bench [name]")
  .description(
    "Measure an installed recogniser's real-time factor and peak memory (default: the default recogniser)",
  )
  .option("--file <path>", "audio or video to transcribe (default: a minute of English spoken by espeak-ng)")
  .option("--json", "print one JSON line")
  .action(async (name: string | undefined, options: { file?: string; json?: boolean }) =>
    (await modelCommands()).benchCommand(name, options),
  );

// What a command writes (the database, models, restored files) is its owner's alone, as the server's is (main.ts).
process.umask(0o077);
try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Commander has printed its own message (or the help); anything else is one line.
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
  else {
    console.error(`recap: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
