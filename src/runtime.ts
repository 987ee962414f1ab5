import { createAnalyzer } from "./analysis/pool.ts";
import type { Analyzer } from "./analysis/types.ts";
import { resolveSigningSecret, type Config } from "./config.ts";
import { openDatabase, type DatabaseHandle } from "./db/database.ts";
import { createSpeech, type Speech } from "./media/speech.ts";

/** What the server, the CLI and the tests build their services on (createServices, buildApp). */
export interface Runtime {
  config: Readonly<Config>;
  database: DatabaseHandle;
  analyzer: Analyzer;
  /** The speech engine media jobs use, loaded when first needed. */
  speech: Speech;
  secret: string;
  /** Closes what openRuntime started: the analyzer (unless it was given), the speech engine and the database. */
  close(): Promise<void>;
}

/**
 * The start-up sequence after the config is loaded, written once: opens and migrates the configured
 * database, starts the analysis worker pool (unless an analyzer is given) and resolves the signing secret
 * (the dev secret file when RECAP_SECRET is unset). Throws what migration or the secret file throws, with
 * the database closed.
 */
export async function openRuntime(
  config: Readonly<Config>,
  options: { analyzer?: Analyzer } = {},
): Promise<Runtime> {
  const database = openDatabase(config.database);
  let secret: string;
  try {
    await database.migrate();
    secret = resolveSigningSecret(config);
  } catch (error) {
    await database.close();
    throw error;
  }
  const analyzer = options.analyzer ?? createAnalyzer();
  const speech = createSpeech(config.media);
  return {
    config,
    database,
    analyzer,
    speech,
    secret,
    async close() {
      if (!options.analyzer) await analyzer.close();
      await speech.close();
      await database.close();
    },
  };
}
