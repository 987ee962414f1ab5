import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { Clock } from "../../clock.ts";
import { invalid, notFound } from "../../errors.ts";
import type { AppRow } from "../../db/schema.ts";
import type { AppsRepository } from "./apps.repository.ts";

export interface App {
  appId: string;
  name: string;
  customDomain: string | null;
  frameAncestors: string[];
  createdAt: string;
}

export interface AppSettings {
  name?: string;
  customDomain?: string | null;
  frameAncestors?: string[];
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

function randomAlphanumeric(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/**
 * Secrets are 128 random alphanumerics (~760 bits), so a fast hash is enough: there is nothing to
 * brute-force, and a slow password hash would only slow every token request.
 */
function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function toApp(row: AppRow): App {
  return {
    appId: row.id,
    name: row.name,
    customDomain: row.custom_domain,
    frameAncestors: JSON.parse(row.frame_ancestors) as string[],
    createdAt: row.created_at,
  };
}

/** Checks and normalises app settings; throws `invalid` naming the setting. */
function normaliseSettings(settings: AppSettings): AppSettings {
  const out: AppSettings = {};
  if (settings.name !== undefined) {
    const name = settings.name.trim();
    if (name === "" || name.length > 200) throw invalid("name must be 1 to 200 characters");
    out.name = name;
  }
  if (settings.customDomain !== undefined) {
    const host = settings.customDomain?.trim().toLowerCase() || null;
    if (host !== null && !HOST_NAME.test(host)) {
      throw invalid(`customDomain must be a host name such as summaries.example.com (got "${host}")`);
    }
    out.customDomain = host;
  }
  if (settings.frameAncestors !== undefined) {
    out.frameAncestors = settings.frameAncestors.map((origin) => {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw invalid(`frameAncestors must be http(s) origins (got "${origin}")`);
      }
      if (
        (url.protocol !== "http:" && url.protocol !== "https:") ||
        url.origin !== origin.replace(/\/$/, "")
      ) {
        throw invalid(`frameAncestors must be http(s) origins such as https://example.com (got "${origin}")`);
      }
      return url.origin;
    });
  }
  return out;
}

export class AppsService {
  constructor(
    private readonly apps: AppsRepository,
    private readonly clock: Clock,
  ) {}

  /** Creates an app and returns its credentials; the secret is shown only here. */
  async createApp(settings: AppSettings & { name: string }): Promise<App & { appSecret: string }> {
    const clean = normaliseSettings(settings);
    const appSecret = randomAlphanumeric(128);
    const now = this.clock.now().toISOString();
    const row: AppRow = {
      id: randomAlphanumeric(64),
      secret_hash: hashSecret(appSecret),
      name: clean.name ?? settings.name,
      custom_domain: clean.customDomain ?? null,
      frame_ancestors: JSON.stringify(clean.frameAncestors ?? []),
      created_at: now,
      updated_at: now,
    };
    await this.apps.insert(row);
    return { ...toApp(row), appSecret };
  }

  async listApps(): Promise<App[]> {
    return (await this.apps.list()).map(toApp);
  }

  /** Throws not_found for an unknown app. */
  async getApp(appId: string): Promise<App> {
    const row = await this.apps.findById(appId);
    if (!row) throw notFound("app");
    return toApp(row);
  }

  async findAppByCustomDomain(host: string): Promise<App | null> {
    const row = await this.apps.findByCustomDomain(host.toLowerCase());
    return row ? toApp(row) : null;
  }

  /** Throws not_found for an unknown app, invalid for a bad setting. */
  async updateApp(appId: string, settings: AppSettings): Promise<App> {
    const clean = normaliseSettings(settings);
    const changes = {
      ...(clean.name !== undefined && { name: clean.name }),
      ...(clean.customDomain !== undefined && { custom_domain: clean.customDomain }),
      ...(clean.frameAncestors !== undefined && { frame_ancestors: JSON.stringify(clean.frameAncestors) }),
      updated_at: this.clock.now().toISOString(),
    };
    if (!(await this.apps.update(appId, changes))) throw notFound("app");
    return this.getApp(appId);
  }

  /** Issues a new secret; the old one stops working at once. Throws not_found for an unknown app. */
  async rotateSecret(appId: string): Promise<{ appId: string; appSecret: string }> {
    const appSecret = randomAlphanumeric(128);
    const updated = await this.apps.update(appId, {
      secret_hash: hashSecret(appSecret),
      updated_at: this.clock.now().toISOString(),
    });
    if (!updated) throw notFound("app");
    return { appId, appSecret };
  }

  /** True when the credentials match; compares hashes in constant time. */
  async verifyCredentials(appId: string, appSecret: string): Promise<boolean> {
    const row = await this.apps.findById(appId);
    const expected = Buffer.from(row?.secret_hash ?? hashSecret("no such app"), "hex");
    const actual = Buffer.from(hashSecret(appSecret), "hex");
    return timingSafeEqual(expected, actual) && row !== undefined;
  }
}
