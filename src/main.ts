import { buildApp } from "./app.ts";
import { systemClock } from "./clock.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { connectRateLimitRedis } from "./http/rate-limit.ts";
import { listenForMetrics } from "./http/metrics.ts";
import { HANDLER_GRACE_MS } from "./http/shutdown.ts";
import { openRuntime } from "./runtime.ts";
import { speechStartupLine } from "./media/speech.ts";

/** The process entry: reads the environment, migrates, listens, and shuts down cleanly on signals. */
async function main(): Promise<void> {
  // Everything the process writes (the database and its WAL, uploads, ffmpeg's and the models' files, the
  // folders) is its owner's alone, whatever umask it was started with: webhook secrets are in the database.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const runtime = await openRuntime(config);
  const redis = config.redisUrl ? await connectRateLimitRedis(config.redisUrl) : null;
  const { app, services, metrics } = await buildApp({ ...runtime, clock: systemClock, redis });
  let metricsListener: Awaited<ReturnType<typeof listenForMetrics>> | null = null;

  // app.close() answers the requests in flight and cuts what outlasts its graces (http/shutdown.ts), so it
  // ends within HANDLER_GRACE_MS unless a job or a close hangs; only then is the process ended unclosed.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    const forced = setTimeout(() => {
      app.log.error("shutdown did not finish; exiting without closing the runtime");
      process.exit(1);
    }, HANDLER_GRACE_MS + 5_000);
    forced.unref();
    void app
      .close()
      .then(() => metricsListener?.close())
      .then(() => redis?.disconnect())
      .then(() => runtime.close())
      .then(() => {
        app.log.info("stopped");
        process.exit(0);
      });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  // An upload in progress writes at least once a request timeout (its minimum rate), then is probed for
  // seconds: a file in incoming/ untouched for five minutes more belongs to no upload of any process.
  const removed = await services.media.removeLeftovers(config.requestTimeoutSeconds * 1000 + 5 * 60_000);
  if (removed > 0)
    app.log.info({ removed }, "removed files left under RECAP_MEDIA_DIR by an earlier process");
  const address = await app.listen({ port: config.port, host: config.host });
  const where = config.database.dialect === "sqlite" ? config.database.path : "PostgreSQL";
  app.log.info({ address, database: where }, `Recap listening on ${address}`);
  if (config.metrics.port !== null) {
    metricsListener = await listenForMetrics({
      metrics,
      token: config.metrics.token,
      port: config.metrics.port,
      host: config.host,
      logger: app.log,
    });
    app.log.info({ metrics: metricsListener.url }, `Metrics served on ${metricsListener.url}`);
  }
  const speech = speechStartupLine(runtime.speech.status());
  app.log.info(speech.fields, speech.message);
  if ((await services.apps.listApps()).length === 0) {
    app.log.info(
      "No app yet: `bin/recap demo` analyses a real meeting and prints its summary link; " +
        '`bin/recap apps create --name "My app"` gives you an appId and appSecret',
    );
  }
}

await main();
