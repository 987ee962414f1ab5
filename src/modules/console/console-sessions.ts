import type { Clock } from "../../clock.ts";
import type { AppsService } from "../apps/apps.service.ts";

/** How long a console session lasts after signing in: a working day, after which the owner signs in again. */
export const CONSOLE_SESSION_SECONDS = 12 * 60 * 60;

/**
 * Console sessions without a table: the cookie says which app, under which of its secret generations, until
 * when (`appId.generation.expiresAtMs`); the cookie plugin signs it (HMAC-SHA256 with a key derived for the
 * console). Each request checks the expiry against the clock and the generation against the database, so
 * rotating the app secret ends every session at once, as it ends access tokens.
 */
export class ConsoleSessions {
  constructor(
    private readonly apps: Pick<AppsService, "verifyCredentials" | "isCurrentSecretGeneration">,
    private readonly clock: Clock,
  ) {}

  /** The value of a new session's cookie when the credentials are the app's (as the token route checks them), else null. */
  async signIn(appId: string, appSecret: string): Promise<string | null> {
    const verified = await this.apps.verifyCredentials(appId, appSecret);
    if (!verified) return null;
    const expiresAt = this.clock.now().getTime() + CONSOLE_SESSION_SECONDS * 1000;
    return `${appId}.${verified.secretGeneration}.${expiresAt}`;
  }

  /** The app of a session whose (already verified) cookie value is unexpired and of the current secret, else null. */
  async appOf(value: string): Promise<string | null> {
    const match = /^([A-Za-z0-9]+)\.(\d+)\.(\d+)$/.exec(value);
    if (!match?.[1] || !match[2] || !match[3]) return null;
    if (Number(match[3]) <= this.clock.now().getTime()) return null;
    const current = await this.apps.isCurrentSecretGeneration(match[1], Number(match[2]));
    return current ? match[1] : null;
  }
}
