// Links an owner can act on: the create answer's id and label, the app-wide list, PATCH of label and
// expiry. View counts are in link-views.test.ts.
import { describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { TestClock } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { suiteServer } from "../helpers/suite.ts";
import { createLink, onServer, planningMeeting } from "../helpers/factories.ts";

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop() ?? "";

describe.each(await dialects())("managing summary links on %s", (dialect) => {
  const clock = new TestClock();
  const suite = suiteServer(dialect, { clock });

  const owner = async () => {
    const { token } = await suite.server.newApp();
    return {
      token,
      api: apiClient(suite.server.url, token),
      conversationId: await planningMeeting(suite.server, token),
    };
  };
  const list = async (api: ReturnType<typeof apiClient>, query = "") => {
    const answer = await api.get<Body.ExperienceLinkList>(`/v1/experiences${query}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.experiences;
  };
  const pageStatus = async (url: string) => (await fetch(onServer(suite.server, url))).status;

  it("answers the created link's id beside Symbl's name and url, and lists it with its label and a hint", async () => {
    const { token, api, conversationId } = await owner();
    const created = await createLink(suite.server, token, conversationId, {
      name: "verbose-text-summary",
      label: "  For the board  ",
    });
    expect(Object.keys(created).sort()).toEqual(["id", "name", "url"]);
    const [link, ...rest] = await list(api);
    expect(rest).toEqual([]);
    expect(link).toEqual({
      id: created.id,
      label: "For the board",
      conversationId,
      name: "verbose-text-summary",
      state: "active",
      createdAt: clock.now().toISOString(),
      expiresAt: new Date(clock.now().getTime() + 2_592_000_000).toISOString(),
      hint: tokenOf(created.url).slice(-4),
      views: 0,
      distinctViewers: 0,
      lastViewedAt: null,
    });

    // The hint names the link's URL and nothing more: the list never holds the token, and the hint opens nothing.
    const token43 = tokenOf(created.url);
    expect((await api.get(`/v1/experiences`)).text).not.toContain(token43);
    expect(await pageStatus(`${suite.server.url}/s/${link?.hint ?? ""}`)).toBe(404);
    expect(await pageStatus(created.url)).toBe(200);
  });

  it("answers 400 naming the field for a bad label, expiry, filter or page, and stores nothing", async () => {
    const { api, conversationId } = await owner();
    const path = `/v1/conversations/${conversationId}/experiences`;
    const labelRule =
      "label must be a name for the link of 1 to 100 characters, not only spaces, without control characters";
    const creates: [unknown, string][] = [
      [{ name: "verbose-text-summary", label: "" }, labelRule],
      [{ name: "verbose-text-summary", label: "   " }, labelRule],
      [{ name: "verbose-text-summary", label: "Board\u0007" }, labelRule],
      [
        { name: "verbose-text-summary", label: "x".repeat(101) },
        "label must NOT have more than 100 characters",
      ],
      [{ name: "verbose-text-summary", label: 7 }, "label must be string"],
      [
        { name: "verbose-text-summary", label: "Board\u0000" },
        "label must not contain the NUL character (U+0000)",
      ],
    ];
    for (const [body, message] of creates) {
      const answer = await api.post<Body.ErrorBody>(path, body);
      expect([body, answer.status, answer.body.message]).toEqual([body, 400, message]);
    }
    expect(await list(api)).toEqual([]);

    const { id } = (await api.post<Body.ExperienceCreated>(path, { name: "verbose-text-summary" })).body;
    const soon = new Date(clock.now().getTime() - 1000).toISOString();
    const patches: [unknown, string][] = [
      [{}, "body must set label, expiresAt or both"],
      [
        { expiresAt: "tomorrow" },
        "expiresAt must be an ISO-8601 date-time such as 2026-11-02T10:00:00Z (seconds 00 to 59)",
      ],
      [{ expiresAt: soon }, "expiresAt must be later than now; to end a link now, revoke it (DELETE)"],
      [{ expiresAt: 3600 }, "expiresAt must be string"],
      [{ label: "" }, labelRule],
    ];
    for (const [body, message] of patches) {
      const answer = await api.patch<Body.ErrorBody>(`${path}/${id}`, body);
      expect([body, answer.status, answer.body.message]).toEqual([body, 400, message]);
    }
    const [unchanged] = await list(api);
    expect([unchanged?.label, unchanged?.expiresAt]).toEqual([
      null,
      new Date(clock.now().getTime() + 2_592_000_000).toISOString(),
    ]);

    const queries: [string, string][] = [
      ["?state=old", "query.state must be one of: active, expired, revoked"],
      ["?limit=0", "query.limit must be >= 1"],
      ["?offset=-1", "query.offset must be >= 0"],
    ];
    for (const [query, message] of queries) {
      const answer = await api.get<Body.ErrorBody>(`/v1/experiences${query}`);
      expect([query, answer.status, answer.body.message]).toEqual([query, 400, message]);
    }
  });

  it("lists the app's links across conversations, newest first, by conversation, state and page", async () => {
    const { token, api, conversationId: first } = await owner();
    const second = await planningMeeting(suite.server, token, "Retrospective");
    const make = async (conversationId: string, body: Record<string, unknown>) => {
      const link = await createLink(suite.server, token, conversationId, {
        name: "verbose-text-summary",
        ...body,
      });
      clock.advance(1);
      return link.id;
    };
    const expiring = await make(first, { label: "short", summaryURLExpiresIn: 60 });
    const revoked = await make(first, { label: "revoked" });
    const forever = await make(second, { label: "forever", summaryURLExpiresIn: 0 });
    const active = await make(second, { label: "active" });
    await api.delete(`/v1/conversations/${first}/experiences/${revoked}`);
    clock.advance(60);

    const ids = (links: Body.ExperienceLink[]) => links.map((link) => link.id);
    expect(ids(await list(api))).toEqual([active, forever, revoked, expiring]);
    expect((await list(api)).map((link) => link.state)).toEqual(["active", "active", "revoked", "expired"]);
    expect(ids(await list(api, `?conversationId=${first}`))).toEqual([revoked, expiring]);
    expect(ids(await list(api, "?state=active"))).toEqual([active, forever]);
    expect(ids(await list(api, "?state=expired"))).toEqual([expiring]);
    expect(ids(await list(api, "?state=revoked"))).toEqual([revoked]);
    expect(ids(await list(api, `?conversationId=${second}&state=expired`))).toEqual([]);
    expect(ids(await list(api, "?limit=2"))).toEqual([active, forever]);
    expect(ids(await list(api, "?limit=2&offset=2"))).toEqual([revoked, expiring]);
    expect(ids(await list(api, "?offset=4"))).toEqual([]);
  });

  it("keeps each app's links to itself: another app's link is a 404 to change or revoke, and never listed", async () => {
    const mine = await owner();
    const theirs = await owner();
    const link = await createLink(suite.server, theirs.token, theirs.conversationId, {
      name: "verbose-text-summary",
      label: "theirs",
    });
    const path = `/v1/conversations/${theirs.conversationId}/experiences/${link.id}`;
    for (const answer of [
      await mine.api.patch<Body.ErrorBody>(path, { label: "mine now" }),
      await mine.api.delete<Body.ErrorBody>(path),
      await mine.api.patch<Body.ErrorBody>(
        `/v1/conversations/${mine.conversationId}/experiences/${link.id}`,
        { label: "mine now" },
      ),
    ]) {
      expect([answer.status, answer.body.message]).toEqual([404, "experience not found"]);
    }
    expect(await list(mine.api)).toEqual([]);
    expect(await list(mine.api, `?conversationId=${theirs.conversationId}`)).toEqual([]);
    expect((await list(theirs.api)).map((item) => [item.label, item.state])).toEqual([["theirs", "active"]]);
    expect(await pageStatus(link.url)).toBe(200);
  });

  it("relabels a link, shortens its expiry (then 410), reopens it with no expiry, and refuses to change a revoked one", async () => {
    const { token, api, conversationId } = await owner();
    const link = await createLink(suite.server, token, conversationId, {
      name: "verbose-text-summary",
      summaryURLExpiresIn: 3600,
    });
    const path = `/v1/conversations/${conversationId}/experiences/${link.id}`;
    const patch = async (body: unknown) => {
      const answer = await api.patch<Body.ExperienceLink>(path, body);
      expect(answer.status, answer.text).toBe(200);
      return answer.body;
    };

    expect((await patch({ label: "Board pack" })).label).toBe("Board pack");
    const inTenMinutes = new Date(clock.now().getTime() + 600_000);
    const shortened = await patch({ expiresAt: inTenMinutes.toISOString().replace("Z", "+00:00") });
    expect([shortened.expiresAt, shortened.label]).toEqual([inTenMinutes.toISOString(), "Board pack"]);
    clock.advance(599);
    expect(await pageStatus(link.url)).toBe(200);
    clock.advance(1);
    expect(await pageStatus(link.url)).toBe(410);
    expect((await list(api, "?state=expired")).map((item) => item.id)).toEqual([link.id]);

    const reopened = await patch({ expiresAt: null, label: null });
    expect([reopened.state, reopened.expiresAt, reopened.label]).toEqual(["active", null, null]);
    clock.advance(7200);
    expect(await pageStatus(link.url)).toBe(200);

    const extended = await patch({ expiresAt: "2999-01-01T00:00:00Z" });
    expect(extended.expiresAt).toBe("2999-01-01T00:00:00.000Z");

    await api.delete(path);
    const refused = await api.patch<Body.ErrorBody>(path, { label: "back" });
    expect([refused.status, refused.body.message]).toEqual([410, "This summary link was revoked"]);
    expect(await pageStatus(link.url)).toBe(410);
  });
});
