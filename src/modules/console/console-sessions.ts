import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../../clock.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConsoleSessionsRepository } from "./console-sessions.repository.ts";

/** How long a console session lasts after signing in: a working day, after which the owner signs in again. */
export const CONSOLE_SESSION_SECONDS = 12 * 60 * 60;

/** A session's row is keyed by its token's hash, so a copy of the table opens no session. */
const idOf = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Console sessions as rows (docs/ARCHITECTURE.md, "Console sessions"): the cookie holds a random token, the
 * row says which app, under which of its secret generations, until when. Each request reads the row
 * joined to the app, so signing out ends a session on every process, and rotating the app secret ends
 * every session of the app at once, as it ends access tokens.
 */
export class ConsoleSessions {
  constructor(
    private readonly deps: {
      sessions: ConsoleSessionsRepository;
      apps: Pick<AppsService, "verifyCredentials">;
      clock: Clock;
    },
  ) {}

  /**
   * A new session's token (the cookie's value) when the credentials are the app's, as the token route
   * checks them, else null. The app's ended sessions are deleted on the way.
   */
  async signIn(appId: string, appSecret: string): Promise<string | null> {
    const verified = await this.deps.apps.verifyCredentials(appId, appSecret);
    if (!verified) return null;
    const now = this.deps.clock.now();
    await this.deps.sessions.deleteEnded(appId, verified.secretGeneration, now.toISOString());
    const token = randomBytes(32).toString("base64url");
    await this.deps.sessions.insert({
      id: idOf(token),
      app_id: appId,
      secret_generation: verified.secretGeneration,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CONSOLE_SESSION_SECONDS * 1000).toISOString(),
    });
    return token;
  }

  /** The app (id, name) of the session with this token, while it is unended and of the app's current secret; else null. */
  async appOf(token: string): Promise<{ id: string; name: string } | null> {
    return (await this.deps.sessions.appOfLive(idOf(token), this.deps.clock.now().toISOString())) ?? null;
  }

  /** Ends the session with this token (signing out); an unknown token ends nothing. */
  async end(token: string): Promise<void> {
    await this.deps.sessions.delete(idOf(token));
  }
}
