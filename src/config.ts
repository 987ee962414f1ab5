import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_POSTGRES_POOL_SIZE, parseDatabaseUrl, type DatabaseTarget } from "./db/database.ts";
import { hostOf } from "./urls.ts";

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  publicUrl: string;
  /** Null until resolved: in development the secret may come from the data directory. */
  signingSecret: string | null;
  tokenTtlSeconds: number;
  bodyLimitBytes: number;
  /** Time allowed to receive a whole request, headers and body; slower clients get 408. */
  requestTimeoutSeconds: number;
  logLevel: string;
  jobLeaseSeconds: number;
  /** Shares rate-limit counters between processes when set. */
  redisUrl: string | null;
  rateLimitPerMinute: number;
  tokenRateLimitPerMinute: number;
  /**
   * Which proxies' X-Forwarded-For/-Proto/-Host to believe (RECAP_TRUST_PROXY, Fastify's trustProxy): every
   * one (true), none (false), the nearest `n` hops, or the proxies at these addresses and CIDR ranges.
   */
  trustProxy: TrustProxy;
  /** Hosts a webhook may reach although they are (or resolve to) internal addresses. */
  webhookAllowHosts: string[];
  /** The web font catalogue (its CSS2 API) fonts are fetched from; null: pages use a system font. */
  fontCatalogueUrl: string | null;
  /** Where fetched fonts are kept, to be served from the page's own origin. */
  fontCacheDir: string;
  /** The language model a job also asks (docs/LLM.md); null keeps the analysis local, with no network. */
  llm: LanguageModelSettings | null;
  media: MediaSettings;
  /** How a diarized speaker is matched with the app's voice profiles (docs/VOICES.md, Matching). */
  voiceMatching: VoiceMatchingSettings;
  metrics: MetricsSettings;
}

/**
 * Raw cosine similarities in [-1, 1], not `(1 + cos) / 2`: a speaker whose best profile scores `accept` or more is
 * named by it, `suggest` or more only suggests it; either only when ahead of the second-best profile by `margin`.
 */
export interface VoiceMatchingSettings {
  accept: number;
  suggest: number;
  margin: number;
}

/**
 * Who may read /metrics (docs/OPERATIONS.md, Metrics). Neither set: no one (a 404). A token: the main port
 * serves it to `Authorization: Bearer <token>`. A port: a second listener on HOST serves it (asking for the
 * token too when one is set).
 */
export interface MetricsSettings {
  token: string | null;
  port: number | null;
}

/** Recorded media (docs/MEDIA.md): where it is kept, its limits, and the speech engine. */
export interface MediaSettings {
  /** Uploaded files, kept while their conversation lives, and each job's working files. */
  dir: string;
  /** Where `bin/recap models pull` puts models and the local engine loads them from. */
  modelsDir: string;
  ffmpegPath: string;
  ffprobePath: string;
  maxBytes: number;
  maxSeconds: number;
  /** An upload is cut when less than this arrives a second over a request timeout's window (http/request-time.ts). */
  minUploadBytesPerSecond: number;
  /** How long fetching a media URL may take in all. */
  fetchTimeoutSeconds: number;
  /** Hosts a media URL may reach although they are (or resolve to) internal addresses. */
  allowHosts: string[];
  /** Transcription jobs one process runs at once. */
  asrConcurrency: number;
  /** Media URLs one process fetches at once, apart from the transcription slots (docs/MEDIA.md, The job). */
  fetchConcurrency: number;
  /** How often a job whose remote engine did not answer is tried again, and after how long at first. */
  asrRetries: number;
  asrRetrySeconds: number;
  /** The local model's name (without RECAP_ASR_URL) or the remote server's model (with it). */
  asrModel: string | null;
  /** An OpenAI-compatible transcription server; null: the local engine. */
  asrRemote: RemoteEngineSettings | null;
  /** A live stream that sends nothing for this long is ended as if it had stopped (docs/LIVE.md). */
  liveIdleSeconds: number;
  /** Live connections one process serves at once, and one app at once on one process. */
  liveMaxConnections: number;
  liveMaxConnectionsPerApp: number;
  /** How long a live connection may stay open, whatever it sends (docs/LIVE.md, Limits). */
  liveMaxConnectionSeconds: number;
  /** How much new audio passes between two interim results of an utterance (docs/LIVE.md); 0: none. */
  liveInterimSeconds: number;
}

export interface RemoteEngineSettings {
  /** The API base, e.g. `http://127.0.0.1:8000/v1`; `/audio/transcriptions` is appended. */
  url: string;
  apiKey: string | null;
  /** The longest part of a file sent in one request; longer files go in parts with their offsets kept. */
  partSeconds: number;
  timeoutSeconds: number;
  /** `diarized_json` where the server labels speakers itself; `verbose_json` otherwise. */
  responseFormat: "verbose_json" | "diarized_json";
}

/** An OpenAI-compatible chat-completions endpoint the operator chose: the transcript is sent there. */
export interface LanguageModelSettings {
  /** The API base, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set; no Authorization header otherwise. */
  apiKey: string | null;
  /** How long one request may take before its part falls back to the local result. */
  timeoutSeconds: number;
  /** The model's context window in tokens; a request's transcript takes at most half of it. */
  contextTokens: number;
}

export type TrustProxy = boolean | number | string[];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const MIN_SECRET_LENGTH = 32;
const MIN_METRICS_TOKEN_LENGTH = 16;

/** Reads and validates the environment; throws ConfigError listing every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Readonly<Config> {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const nodeEnv = env.NODE_ENV ?? "development";
  const port = integer("PORT", 8080, 0, 65535);
  const host = env.HOST || "127.0.0.1";
  const dataDir = resolve(cwd, env.RECAP_DATA_DIR || "data");
  let database = parseDatabaseUrl(env.DATABASE_URL, join(dataDir, "recap.db"));
  if (!database) {
    problems.push("DATABASE_URL must start with sqlite:, file:, postgres:// or postgresql://");
  }
  const poolSize = integer("RECAP_DATABASE_POOL_SIZE", DEFAULT_POSTGRES_POOL_SIZE, 1, 1000);
  if (database?.dialect === "postgres") database = { ...database, poolSize };
  else if (database && env.RECAP_DATABASE_POOL_SIZE) {
    problems.push("RECAP_DATABASE_POOL_SIZE applies to PostgreSQL only (DATABASE_URL=postgres://…)");
  }

  let publicUrl = env.RECAP_PUBLIC_URL || `http://localhost:${port}`;
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol");
    publicUrl = url.origin + url.pathname.replace(/\/+$/, "");
  } catch {
    problems.push(`RECAP_PUBLIC_URL must be an absolute http(s) URL (got "${publicUrl}")`);
  }

  const signingSecret = env.RECAP_SECRET || null;
  if (signingSecret !== null && signingSecret.length < MIN_SECRET_LENGTH) {
    problems.push(`RECAP_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  if (signingSecret === null && nodeEnv === "production") {
    problems.push("RECAP_SECRET is required when NODE_ENV=production");
  }

  const redisUrl = env.REDIS_URL || null;
  if (redisUrl !== null && !/^rediss?:\/\/\S+$/.test(redisUrl)) {
    problems.push("REDIS_URL must start with redis:// or rediss://");
  }

  const webhookAllowHosts = hostList(env, "RECAP_WEBHOOK_ALLOW_HOSTS", problems);

  let fontCatalogueUrl: string | null = env.RECAP_FONT_CATALOGUE_URL || "https://fonts.googleapis.com";
  if (fontCatalogueUrl === "off") fontCatalogueUrl = null;
  else {
    try {
      const url = new URL(fontCatalogueUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol");
      if (url.username !== "" || url.search !== "" || url.hash !== "") throw new Error("parts");
      fontCatalogueUrl = url.href.replace(/\/+$/, "");
    } catch {
      problems.push(
        `RECAP_FONT_CATALOGUE_URL must be an absolute http(s) URL without credentials or query, or "off" (got "${fontCatalogueUrl}")`,
      );
      fontCatalogueUrl = null;
    }
  }
  const llm = languageModelSettings(env, integer, problems);
  const media = mediaSettings(env, dataDir, integer, problems);
  const trustProxy = trustProxyOf(env.RECAP_TRUST_PROXY ?? "", problems);
  const metrics = metricsSettings(env, port, integer, problems);
  const voiceMatching = voiceMatchingSettings(env, problems);

  const logLevel = env.LOG_LEVEL || "info";
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);

  const config: Config = {
    nodeEnv,
    port,
    host,
    dataDir,
    database: database ?? { dialect: "sqlite", path: join(dataDir, "recap.db") },
    publicUrl,
    signingSecret,
    tokenTtlSeconds: integer("RECAP_TOKEN_TTL_SECONDS", 86_400, 60, 31_536_000),
    bodyLimitBytes: integer("RECAP_BODY_LIMIT_BYTES", 5 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    requestTimeoutSeconds: integer("RECAP_REQUEST_TIMEOUT_SECONDS", 30, 1, 3600),
    logLevel,
    jobLeaseSeconds: integer("RECAP_JOB_LEASE_SECONDS", 120, 1, 86_400),
    redisUrl,
    rateLimitPerMinute: integer("RECAP_RATE_LIMIT_PER_MINUTE", 1200, 0, 10_000_000),
    tokenRateLimitPerMinute: integer("RECAP_TOKEN_RATE_LIMIT_PER_MINUTE", 60, 0, 10_000_000),
    trustProxy,
    webhookAllowHosts,
    fontCatalogueUrl,
    fontCacheDir: resolve(dataDir, env.RECAP_FONT_CACHE_DIR || "fonts"),
    llm,
    media,
    voiceMatching,
    metrics,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** The voice matching thresholds, whose defaults were chosen on the generated tone voices (docs/VOICES.md). */
function voiceMatchingSettings(env: NodeJS.ProcessEnv, problems: string[]): VoiceMatchingSettings {
  const score = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!/^-?\d+(\.\d+)?$/.test(raw.trim()) || value < min || value > max) {
      problems.push(
        `${name} must be a raw cosine similarity from ${min} to ${max}, such as 0.5 (got "${raw}")`,
      );
      return fallback;
    }
    return value;
  };
  const accept = score("RECAP_VOICE_ACCEPT", 0.6, -1, 1);
  const suggest = score("RECAP_VOICE_SUGGEST", 0.45, -1, 1);
  const margin = score("RECAP_VOICE_MARGIN", 0.1, 0, 2);
  if (suggest > accept) {
    problems.push(
      `RECAP_VOICE_SUGGEST must not be above RECAP_VOICE_ACCEPT (got ${suggest} and ${accept}): a suggestion is a weaker match`,
    );
  }
  return { accept, suggest, margin };
}

/** A comma-separated list of host names or addresses (no ports, paths or credentials). */
function hostList(env: NodeJS.ProcessEnv, name: string, problems: string[]): string[] {
  const hosts: string[] = [];
  for (const entry of (env[name] ?? "").split(",").map((host) => host.trim())) {
    if (entry === "") continue;
    try {
      const url = new URL(`http://${isIP(entry) === 6 ? `[${entry}]` : entry}/`);
      if (url.port !== "" || url.pathname !== "/" || url.username !== "") throw new Error("not a host");
      hosts.push(hostOf(url));
    } catch {
      problems.push(`${name} must be host names or addresses separated by commas (got "${entry}")`);
    }
  }
  return hosts;
}

/** An absolute http(s) API base without credentials, query or fragment, with no trailing slash; null if not. */
function apiBase(value: string): string | null {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    if (parsed.search !== "" || parsed.hash !== "" || parsed.username !== "") return null;
    return parsed.origin + parsed.pathname.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

function mediaSettings(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  integer: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): MediaSettings {
  const ffmpegPath = env.RECAP_FFMPEG_PATH || "ffmpeg";
  /** A number of seconds from 0 to `max`, to the millisecond (`0.5`, `2`). */
  const seconds = (name: string, fallback: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!/^\d+(\.\d{1,3})?$/.test(raw.trim()) || value > max) {
      problems.push(
        `${name} must be a number of seconds from 0 to ${max}, to the millisecond (got "${raw}")`,
      );
      return fallback;
    }
    return value;
  };
  const maxSeconds = integer("RECAP_MEDIA_MAX_SECONDS", 4 * 3600, 1, 7 * 86_400);
  let asrRemote: RemoteEngineSettings | null = null;
  const partSeconds = integer("RECAP_ASR_PART_SECONDS", 600, 30, 86_400);
  const timeoutSeconds = integer("RECAP_ASR_TIMEOUT_SECONDS", 600, 1, 86_400);
  if (env.RECAP_ASR_URL) {
    const url = apiBase(env.RECAP_ASR_URL);
    if (url === null) {
      problems.push(
        `RECAP_ASR_URL must be the absolute http(s) URL of an OpenAI-compatible API, such as http://127.0.0.1:8000/v1, without credentials, query or fragment (got "${env.RECAP_ASR_URL}")`,
      );
    } else {
      const responseFormat = env.RECAP_ASR_RESPONSE_FORMAT || "verbose_json";
      if (responseFormat !== "verbose_json" && responseFormat !== "diarized_json") {
        problems.push(
          `RECAP_ASR_RESPONSE_FORMAT must be verbose_json or diarized_json (got "${responseFormat}")`,
        );
      }
      asrRemote = {
        url,
        apiKey: env.RECAP_ASR_API_KEY || null,
        partSeconds,
        timeoutSeconds,
        responseFormat: responseFormat === "diarized_json" ? "diarized_json" : "verbose_json",
      };
    }
  } else if (env.RECAP_ASR_API_KEY) {
    problems.push("RECAP_ASR_API_KEY: only used with RECAP_ASR_URL, which is unset");
  }
  return {
    dir: resolve(dataDir, env.RECAP_MEDIA_DIR || "media"),
    modelsDir: resolve(dataDir, env.RECAP_MODELS_DIR || "models"),
    ffmpegPath,
    // ffprobe comes with ffmpeg: beside the configured ffmpeg, or on the PATH.
    ffprobePath: ffmpegPath.includes("/") ? join(dirname(ffmpegPath), "ffprobe") : "ffprobe",
    maxBytes: integer("RECAP_MEDIA_MAX_BYTES", 2 * 1024 ** 3, 1024, 1024 ** 4),
    maxSeconds,
    minUploadBytesPerSecond: integer("RECAP_MEDIA_MIN_UPLOAD_BYTES_PER_SECOND", 32_768, 1, 1024 ** 3),
    fetchTimeoutSeconds: integer("RECAP_MEDIA_FETCH_TIMEOUT_SECONDS", 600, 1, 86_400),
    allowHosts: hostList(env, "RECAP_MEDIA_ALLOW_HOSTS", problems),
    asrConcurrency: integer("RECAP_ASR_CONCURRENCY", 1, 1, 64),
    fetchConcurrency: integer("RECAP_MEDIA_FETCH_CONCURRENCY", 4, 1, 64),
    asrRetries: integer("RECAP_ASR_RETRIES", 8, 0, 100),
    asrRetrySeconds: integer("RECAP_ASR_RETRY_SECONDS", 15, 1, 3600),
    asrModel: env.RECAP_ASR_MODEL || null,
    asrRemote,
    liveIdleSeconds: integer("RECAP_LIVE_IDLE_SECONDS", 60, 1, 3600),
    liveMaxConnections: integer("RECAP_LIVE_MAX_CONNECTIONS", 10, 0, 10_000),
    liveMaxConnectionsPerApp: integer("RECAP_LIVE_MAX_CONNECTIONS_PER_APP", 5, 0, 10_000),
    // A stream sent at real time reaches RECAP_MEDIA_MAX_SECONDS of audio first; this ends one that trickles.
    liveMaxConnectionSeconds: integer("RECAP_LIVE_MAX_CONNECTION_SECONDS", maxSeconds + 3600, 1, 8 * 86_400),
    liveInterimSeconds: seconds("RECAP_LIVE_INTERIM_SECONDS", 0.5, 60),
  };
}

/**
 * RECAP_METRICS_TOKEN (a Bearer token: visible ASCII without spaces, at least MIN_METRICS_TOKEN_LENGTH long) and
 * RECAP_METRICS_PORT (not the API's own port).
 */
function metricsSettings(
  env: NodeJS.ProcessEnv,
  port: number,
  integer: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): MetricsSettings {
  const token = env.RECAP_METRICS_TOKEN || null;
  if (token !== null && (token.length < MIN_METRICS_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token))) {
    problems.push(
      `RECAP_METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} visible ASCII characters without spaces`,
    );
  }
  const metricsPort = env.RECAP_METRICS_PORT ? integer("RECAP_METRICS_PORT", 0, 1, 65535) : null;
  if (metricsPort !== null && metricsPort === port) {
    problems.push(`RECAP_METRICS_PORT must differ from PORT (both are ${port})`);
  }
  return { token, port: metricsPort };
}

/** proxy-addr's names for address ranges, which Fastify's trustProxy takes beside addresses. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An address, or a CIDR range of them (`10.0.0.0/8`, `fd00::/8`), as proxy-addr reads them. */
function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * RECAP_TRUST_PROXY with Fastify's meanings: `true`/`false`, a number of hops (1 to 100), or addresses and
 * CIDR ranges separated by commas. Unset: false, so no client can choose its own address by a header.
 */
function trustProxyOf(raw: string, problems: string[]): TrustProxy {
  const value = raw.trim();
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 100) return hops;
  } else {
    const entries = value.split(",").map((entry) => entry.trim());
    if (entries.every(isAddressOrRange)) return entries;
  }
  problems.push(
    `RECAP_TRUST_PROXY must be true, false, a number of proxy hops from 1 to 100, or proxy addresses and CIDR ranges separated by commas (got "${raw}")`,
  );
  return false;
}

/**
 * RECAP_LLM_URL and RECAP_LLM_MODEL turn the language model on, together or not at all; the other RECAP_LLM_*
 * variables only make sense with them.
 */
function languageModelSettings(
  env: NodeJS.ProcessEnv,
  integer: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): LanguageModelSettings | null {
  const url = env.RECAP_LLM_URL || null;
  const model = env.RECAP_LLM_MODEL || null;
  const apiKey = env.RECAP_LLM_API_KEY || null;
  const timeoutSeconds = integer("RECAP_LLM_TIMEOUT_SECONDS", 120, 1, 3600);
  const contextTokens = integer("RECAP_LLM_CONTEXT_TOKENS", 8192, 2048, 10_000_000);
  if (url === null && model === null) {
    const stray = ["RECAP_LLM_API_KEY", "RECAP_LLM_TIMEOUT_SECONDS", "RECAP_LLM_CONTEXT_TOKENS"].filter(
      (name) => env[name],
    );
    if (stray.length > 0)
      problems.push(`${stray.join(", ")}: only used with RECAP_LLM_URL and RECAP_LLM_MODEL, which are unset`);
    return null;
  }
  if (url === null || model === null) {
    problems.push("RECAP_LLM_URL and RECAP_LLM_MODEL must be set together (or neither)");
    return null;
  }
  const base = apiBase(url);
  if (base === null) {
    problems.push(
      `RECAP_LLM_URL must be the absolute http(s) URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1, without credentials, query or fragment (got "${url}")`,
    );
  }
  return { url: base ?? url, model, apiKey, timeoutSeconds, contextTokens };
}

/**
 * The secret that signs tokens and links: RECAP_SECRET when set, otherwise (development only) one
 * generated on first use and kept in the data directory so tokens and links survive restarts.
 */
export function resolveSigningSecret(config: Readonly<Config>): string {
  if (config.signingSecret) return config.signingSecret;
  const file = join(config.dataDir, "secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(48).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}
