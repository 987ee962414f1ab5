import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { Clock } from "../../clock.ts";
import { DomainError, invalid, notFound } from "../../errors.ts";
import type { AppRow } from "../../db/schema.ts";
import { isUniqueViolation } from "../../db/transaction.ts";
import { canonicalHost } from "../../urls.ts";
import { normalBrand } from "../experiences/brand.ts";
import type { Brand } from "../experiences/experiences.schemas.ts";
import type { AppsRepository } from "./apps.repository.ts";

export interface App {
  appId: string;
  name: string;
  customDomain: string | null;
  frameAncestors: string[];
  /** What a summary page takes for the logo, favicon, colours and font its link does not set. */
  brand: Brand;
  createdAt: string;
  /** Whether the app keeps voice profiles (docs/VOICES.md); off until it is turned on. */
  voiceProfiles: boolean;
  /** Counts secret rotations; tokens carry it, so a rotation ends every earlier token. */
  secretGeneration: number;
}

export interface AppSettings {
  name?: string;
  customDomain?: string | null;
  frameAncestors?: string[];
  /** Schema-checked (Brand); replaces the app's brand. */
  brand?: Brand;
  voiceProfiles?: boolean;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

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

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

const domainTaken = (host: string) =>
  new DomainError("conflict", `customDomain ${host} is already another app's custom domain`);

function toApp(row: AppRow): App {
  return {
    appId: row.id,
    name: row.name,
    customDomain: row.custom_domain,
    frameAncestors: JSON.parse(row.frame_ancestors) as string[],
    brand: JSON.parse(row.brand) as Brand,
    createdAt: row.created_at,
    voiceProfiles: row.voice_profiles === 1,
    secretGeneration: row.secret_generation,
  };
}

/**
 * A custom domain as stored: its canonical host (the form request hosts are compared in), so that
 * `Sum.Example.com.` and `sum.example.com` are one domain. A port is refused rather than dropped: links use
 * the default port of RECAP_PUBLIC_URL's scheme, and a request's port never decides which app it reaches.
 */
function customDomainOf(given: string | null): string | null {
  if (given === null) return null;
  const host = canonicalHost(given);
  if (host === null || !HOST_NAME.test(host) || /:\d*$/.test(given.replace(/\.+$/, ""))) {
    throw invalid(
      `customDomain must be a host name such as summaries.example.com, without scheme, port or path (got "${given}")`,
    );
  }
  return host;
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
    out.customDomain = customDomainOf(settings.customDomain?.trim() || null);
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
  if (settings.brand !== undefined) out.brand = normalBrand(settings.brand);
  if (settings.voiceProfiles !== undefined) out.voiceProfiles = settings.voiceProfiles;
  return out;
}

export class AppsService {
  /**
   * `publicHost` is RECAP_PUBLIC_URL's host (canonical): no app may take it as its custom domain, as a
   * request on an app's domain opens that app's links only (docs/PAGES.md, Custom domains).
   */
  constructor(
    private readonly apps: AppsRepository,
    private readonly clock: Clock,
    private readonly publicHost: string,
  ) {}

  /** Throws conflict when the domain is the server's own host or another app's custom domain. */
  private async assertDomainFree(host: string | null | undefined, appId?: string): Promise<void> {
    if (host === null || host === undefined) return;
    if (host === this.publicHost) {
      throw new DomainError("conflict", `customDomain ${host} is this server's own host (RECAP_PUBLIC_URL)`);
    }
    const holder = await this.apps.findByCustomDomain(host);
    if (holder !== undefined && holder.id !== appId) throw domainTaken(host);
  }

  /**
   * Runs a write of the app's row. The apps' only unique index besides the random id is the custom domain's,
   * so a unique violation is another app taking `host` between assertDomainFree and the write: conflict.
   */
  private async writeHolding<T>(host: string | null | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (host && isUniqueViolation(error)) throw domainTaken(host);
      throw error;
    }
  }

  /**
   * Creates an app and returns its credentials; the app secret is shown only here, the webhook signing
   * secret also by `webhookSecret`. Throws invalid for a bad setting, conflict for a domain already taken.
   */
  async createApp(
    settings: AppSettings & { name: string },
  ): Promise<App & { appSecret: string; webhookSecret: string }> {
    const clean = normaliseSettings(settings);
    await this.assertDomainFree(clean.customDomain);
    const appSecret = randomAlphanumeric(128);
    const now = this.clock.now().toISOString();
    const row: AppRow = {
      id: randomAlphanumeric(64),
      secret_hash: hashSecret(appSecret),
      secret_generation: 0,
      webhook_secret: newWebhookSecret(),
      name: clean.name ?? settings.name,
      custom_domain: clean.customDomain ?? null,
      frame_ancestors: JSON.stringify(clean.frameAncestors ?? []),
      brand: JSON.stringify(clean.brand ?? {}),
      voice_profiles: clean.voiceProfiles === true ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await this.writeHolding(clean.customDomain, () => this.apps.insert(row));
    return { ...toApp(row), appSecret, webhookSecret: row.webhook_secret };
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

  /** The app whose custom domain is this canonical host (see canonicalHost), if any. */
  async findAppByCustomDomain(host: string): Promise<App | null> {
    const row = await this.apps.findByCustomDomain(host);
    return row ? toApp(row) : null;
  }

  /**
   * The one check of app settings, for the CLI and PATCH /v1/app alike. Throws not_found for an unknown
   * app, invalid for a bad setting, conflict for a custom domain already taken.
   */
  async updateApp(appId: string, settings: AppSettings): Promise<App> {
    const clean = normaliseSettings(settings);
    await this.assertDomainFree(clean.customDomain, appId);
    const changes = {
      ...(clean.name !== undefined && { name: clean.name }),
      ...(clean.customDomain !== undefined && { custom_domain: clean.customDomain }),
      ...(clean.frameAncestors !== undefined && { frame_ancestors: JSON.stringify(clean.frameAncestors) }),
      ...(clean.brand !== undefined && { brand: JSON.stringify(clean.brand) }),
      ...(clean.voiceProfiles !== undefined && { voice_profiles: clean.voiceProfiles ? 1 : 0 }),
      updated_at: this.clock.now().toISOString(),
    };
    if (!(await this.writeHolding(clean.customDomain, () => this.apps.update(appId, changes)))) {
      throw notFound("app");
    }
    return this.getApp(appId);
  }

  /**
   * PATCH /v1/app: the settings given (checked as updateApp checks them, before anything is written), then a
   * new webhook secret when asked, answered once. Throws invalid when nothing is asked, and what updateApp throws.
   */
  async updateSettings(
    appId: string,
    settings: AppSettings,
    rotateWebhookSecret: boolean,
  ): Promise<{ app: App; webhookSecret?: string }> {
    const changes = Object.values(settings).some((value) => value !== undefined);
    if (!changes && !rotateWebhookSecret) {
      throw invalid(
        "body must set name, customDomain, frameAncestors, brand, voiceProfiles or rotateWebhookSecret",
      );
    }
    const app = changes ? await this.updateApp(appId, settings) : await this.getApp(appId);
    if (!rotateWebhookSecret) return { app };
    return { app, webhookSecret: await this.rotateWebhookSecret(appId) };
  }

  /**
   * Issues a new secret; the old one and every token issued under it stop working at once, on every
   * process (tokens carry the secret generation, checked against the database on each request).
   * Throws not_found for an unknown app.
   */
  async rotateSecret(appId: string): Promise<{ appId: string; appSecret: string }> {
    const appSecret = randomAlphanumeric(128);
    const updated = await this.apps.rotateSecret(
      appId,
      hashSecret(appSecret),
      this.clock.now().toISOString(),
    );
    if (!updated) throw notFound("app");
    return { appId, appSecret };
  }

  /**
   * The app's secret generation when the credentials match (hashes compared in constant time), else null.
   * A token issued for it dies at the next rotation.
   */
  async verifyCredentials(appId: string, appSecret: string): Promise<{ secretGeneration: number } | null> {
    const row = await this.apps.findById(appId);
    const expected = Buffer.from(row?.secret_hash ?? hashSecret("no such app"), "hex");
    const actual = Buffer.from(hashSecret(appSecret), "hex");
    return timingSafeEqual(expected, actual) && row !== undefined
      ? { secretGeneration: row.secret_generation }
      : null;
  }

  /** True while the app exists and its secret has not been rotated since `generation`. */
  async isCurrentSecretGeneration(appId: string, generation: number): Promise<boolean> {
    return (await this.apps.secretGeneration(appId)) === generation;
  }

  /** The app's webhook signing secret. Throws not_found for an unknown app. */
  async webhookSecret(appId: string): Promise<string> {
    const row = await this.apps.findById(appId);
    if (!row) throw notFound("app");
    return row.webhook_secret;
  }

  /** Replaces the webhook signing secret; deliveries from now on are signed with the new one. */
  async rotateWebhookSecret(appId: string): Promise<string> {
    const webhookSecret = newWebhookSecret();
    const updated = await this.apps.update(appId, {
      webhook_secret: webhookSecret,
      updated_at: this.clock.now().toISOString(),
    });
    if (!updated) throw notFound("app");
    return webhookSecret;
  }
}
