// First-party view counts of summary links: what counts as a view, distinct viewers a day, what is stored.
import { describe, expect, it } from "vitest";
import { apiClient, generateToken } from "../helpers/api.ts";
import { TestClock } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { suiteServer } from "../helpers/suite.ts";
import { createLink, onServer, planningMeeting } from "../helpers/factories.ts";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chromium/140";
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1";

describe.each(await dialects())("link view counts on %s", (dialect) => {
  const clock = new TestClock();
  const suite = suiteServer(dialect, { clock });

  const open = async (url: string, userAgent = BROWSER, init: RequestInit = {}) => {
    const response = await fetch(onServer(suite.server, url), {
      ...init,
      headers: { "user-agent": userAgent, ...(init.headers as Record<string, string>) },
    });
    await response.arrayBuffer();
    return response.status;
  };
  /** The link as the app-wide list shows it, once the recorded views are written. */
  const counted = async (token: string, id: string) => {
    await suite.server.services.linkViews.flush();
    const answer = await apiClient(suite.server.url, token).get<Body.ExperienceLinkList>("/v1/experiences");
    const link = answer.body.experiences.find((item) => item.id === id);
    return { views: link?.views, distinctViewers: link?.distinctViewers, lastViewedAt: link?.lastViewedAt };
  };

  it("counts each GET of the page, viewers once a day each, and the last view; data forms and HEAD are not views", async () => {
    const { appId, appSecret, token } = await suite.server.newApp();
    const id = await planningMeeting(suite.server, token);
    const link = await createLink(suite.server, token, id, { name: "verbose-text-summary" });
    expect(await counted(token, link.id)).toEqual({ views: 0, distinctViewers: 0, lastViewedAt: null });

    for (const agent of [BROWSER, BROWSER, PHONE]) expect(await open(link.url, agent)).toBe(200);
    const seenAt = clock.now().toISOString();
    clock.advance(60);
    expect(await open(`${link.url}.json`)).toBe(200);
    expect(await open(link.url, BROWSER, { headers: { accept: "application/json" } })).toBe(200);
    expect(await open(`${link.url}.md`)).toBe(200);
    expect(await open(`${link.url}/export.txt`)).toBe(200);
    expect(await open(link.url, BROWSER, { method: "HEAD" })).toBe(200);
    expect(await counted(token, link.id)).toEqual({ views: 3, distinctViewers: 2, lastViewedAt: seenAt });

    // The next day the same browser is a viewer again (the day's key is new); yesterday's hashes are gone.
    clock.advance(86_400);
    expect(await open(link.url, BROWSER)).toBe(200);
    expect(await open(link.url, BROWSER)).toBe(200);
    const fresh = (await generateToken(suite.server.url, appId, appSecret)).body.accessToken;
    expect(await counted(fresh, link.id)).toEqual({
      views: 5,
      distinctViewers: 3,
      lastViewedAt: clock.now().toISOString(),
    });
    const stored = await suite.server.database.db
      .selectFrom("link_viewers")
      .selectAll()
      .where("experience_id", "=", link.id)
      .execute();
    expect(stored.map((row) => row.day)).toEqual([clock.now().toISOString().slice(0, 10)]);
    // What is kept is a keyed hash: neither the address nor the user agent.
    expect(stored[0]?.viewer).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(JSON.stringify(stored)).not.toMatch(/127\.0\.0\.1|Mozilla|Chromium/);
  });

  it("counts each link apart and never a view of a revoked or expired link (410)", async () => {
    const { token } = await suite.server.newApp();
    const api = apiClient(suite.server.url, token);
    const id = await planningMeeting(suite.server, token);
    const kept = await createLink(suite.server, token, id, { name: "verbose-text-summary" });
    const revoked = await createLink(suite.server, token, id, { name: "verbose-text-summary" });
    const expiring = await createLink(suite.server, token, id, {
      name: "verbose-text-summary",
      summaryURLExpiresIn: 60,
    });
    for (const link of [kept, revoked, expiring]) expect(await open(link.url)).toBe(200);
    await api.delete(`/v1/conversations/${id}/experiences/${revoked.id}`);
    clock.advance(60);
    expect(await open(revoked.url)).toBe(410);
    expect(await open(expiring.url)).toBe(410);
    expect(await open(kept.url, PHONE)).toBe(200);

    expect(await counted(token, kept.id)).toMatchObject({ views: 2, distinctViewers: 2 });
    expect(await counted(token, revoked.id)).toMatchObject({ views: 1, distinctViewers: 1 });
    expect(await counted(token, expiring.id)).toMatchObject({ views: 1, distinctViewers: 1 });
  });

  it("drops the views of a link deleted before they were written, and writes the rest", async () => {
    const { token } = await suite.server.newApp();
    const gone = await planningMeeting(suite.server, token, "Deleted");
    const stays = await planningMeeting(suite.server, token, "Kept");
    const deleted = await createLink(suite.server, token, gone, { name: "verbose-text-summary" });
    const kept = await createLink(suite.server, token, stays, { name: "verbose-text-summary" });
    expect(await open(deleted.url)).toBe(200);
    expect(await open(kept.url)).toBe(200);
    expect((await apiClient(suite.server.url, token).delete(`/v1/conversations/${gone}`)).status).toBe(200);
    expect(await counted(token, kept.id)).toMatchObject({ views: 1, distinctViewers: 1 });
  });
});
