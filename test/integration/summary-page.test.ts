// Over 300 lines: one test per promise of the page (edits, formats, escaping, hosts, headers), each
// with its own link on one server; the link API's tests are in experiences.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyOf, readBody } from "../helpers/api.ts";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, editThroughLink, onServer, planningMeeting } from "../helpers/factories.ts";
import { loadMeeting, meetingFiles, toProcessTextBody } from "../helpers/qmsum.ts";
import { getWithHost, rawRequest } from "../helpers/raw-http.ts";

interface Message {
  id: string;
  text: string;
  from: { id?: string; name?: string };
}

/** Any of the three insight lists (`questions`, `actionItems`, `followUps`). */
type InsightList = Record<string, Body.Insight[]>;

/** A link's path and query, to send to the test server under a Host of the test's choosing. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe.each(await dialects())("summary pages on %s", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, { clock: new TestClock() });
  });
  afterAll(() => server.close());

  const page = (url: string, headers: Record<string, string> = {}) =>
    fetch(onServer(server, url), { headers });
  it("answers a 404 page for tampered and unknown links, revealing nothing", async () => {
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token, "Confidential roadmap");
    const link = await createLink(server, token, id, { name: "verbose-text-summary" });
    const token43 = new URL(link.url).pathname.split("/").pop() ?? "";
    const flipped = token43.slice(0, 10) + (token43[10] === "A" ? "B" : "A") + token43.slice(11);
    for (const path of [`/s/${flipped}`, `/s/${"A".repeat(43)}`, "/s/not-a-link", `/s/${token43}x`]) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html).toContain("not found");
      expect(html).not.toContain("Confidential roadmap");
    }
    const edit = await fetch(`${server.url}/s/${flipped}/conversation`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Hacked" }),
    });
    expect(edit.status).toBe(404);

    // Deleting the conversation deletes its links.
    await server.api(token, `/v1/conversations/${id}`, { method: "DELETE" });
    expect((await page(link.url)).status).toBe(404);
  });

  it("stores every edit made through an editable link at once; a read-only link gets 403", async () => {
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const editable = await createLink(server, token, id, { name: "verbose-text-summary" });
    const readOnly = await createLink(server, token, id, { name: "verbose-text-summary", readOnly: true });
    const edit = (url: string, path: string, body: unknown) =>
      fetch(`${server.url}${new URL(url).pathname}${path}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const messages = async (): Promise<Message[]> =>
      (await readBody<Body.MessageList>(server, token, `/v1/conversations/${id}/messages`)).messages;
    const [first, second] = await messages();
    const bob = (await messages()).find((m) => m.from.name === "Bob Stone")?.from.id ?? "";

    for (const [path, body] of [
      ["/conversation", { name: "Nope" }],
      [`/members/${bob}`, { name: "Nope" }],
      [`/messages/${first?.id}`, { text: "Nope" }],
      [`/messages/${first?.id}`, { hidden: true }],
    ] as const) {
      const refused = await edit(readOnly.url, path, body);
      expect(refused.status, path).toBe(403);
    }

    expect((await edit(editable.url, "/conversation", { name: "Budget review" })).status).toBe(200);
    const renamed = await readBody<Body.Conversation>(server, token, `/v1/conversations/${id}`);
    expect(renamed.name).toBe("Budget review");

    expect((await edit(editable.url, `/members/${bob}`, { name: "Robert Stone" })).status).toBe(200);
    const members = await readBody<Body.MemberList>(server, token, `/v1/conversations/${id}/members`);
    expect(members.members.find((m) => m.id === bob)?.name).toBe("Robert Stone");

    expect(
      (await edit(editable.url, `/messages/${second?.id}`, { text: "Bob, please send the report." })).status,
    ).toBe(200);
    expect((await edit(editable.url, `/messages/${first?.id}`, { hidden: true })).status).toBe(200);
    const afterEdits = await messages();
    expect(afterEdits.map((m) => m.text)).toEqual([
      "Bob, please send the report.",
      "Sure, I will send the report tomorrow.",
    ]);

    // Every link shows the edits; the read-only one leaves the hidden line out, the editable one marks it.
    const readOnlyHtml = await (await page(readOnly.url)).text();
    expect(readOnlyHtml).toContain("Budget review");
    expect(readOnlyHtml).toContain("Robert Stone");
    expect(readOnlyHtml).not.toContain("Good morning");
    const editableHtml = await (await page(editable.url)).text();
    expect(editableHtml).toMatch(/class="line is-hidden"/);
    expect((await edit(editable.url, `/messages/${first?.id}`, { hidden: false })).status).toBe(200);
    expect(await messages()).toHaveLength(3);

    expect((await edit(editable.url, "/conversation", { name: "   " })).status).toBe(400);
    expect((await edit(editable.url, "/messages/0000000000000000", { text: "x" })).status).toBe(404);
    const wrongType = await fetch(`${server.url}${new URL(editable.url).pathname}/conversation`, {
      method: "PATCH",
      headers: { "content-type": "text/plain" },
      body: "name",
    });
    expect(wrongType.status).toBe(415);
  });

  it("edits, dismisses and restores insights through an editable link, and the insight APIs show it", async () => {
    const { token } = await server.newApp();
    const file = meetingFiles("val")[0] ?? "";
    const { conversationId } = await server.ingest(token, toProcessTextBody(loadMeeting("val", file)));
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const html = await (await page(link.url)).text();
    expect(html).not.toContain("No summary was found");

    const kinds = ["questions", "action-items", "follow-ups"] as const;
    const lists = await Promise.all(
      kinds.map(async (kind) => {
        const body = await readBody<InsightList>(
          server,
          token,
          `/v1/conversations/${conversationId}/${kind}`,
        );
        return { kind, items: Object.values(body)[0] ?? [] };
      }),
    );
    // A list with two insights, so that dismissing one is seen to leave the other.
    const withItems = lists.find((list) => list.items.length > 1);
    expect(withItems).toBeDefined();
    const [insight, other] = withItems?.items ?? [];
    expect(html).toContain(`data-insight-id="${insight?.id}"`);

    const patch = (insightId: string | undefined, body: unknown) =>
      editThroughLink(server, link.url, `/insights/${insightId}`, body);
    expect((await patch(insight?.id, { text: "Edited by a viewer" })).status).toBe(200);
    const listed = async () =>
      Object.values(
        await readBody<InsightList>(server, token, `/v1/conversations/${conversationId}/${withItems?.kind}`),
      )[0] ?? [];
    expect((await listed()).find((i) => i.id === insight?.id)?.text).toBe("Edited by a viewer");
    expect((await patch(insight?.id, { dismissed: true })).status).toBe(200);
    expect((await listed()).some((i) => i.id === insight?.id)).toBe(false);
    expect((await listed()).some((i) => i.id === other?.id)).toBe(true);

    // The editable link lists it under "Dismissed" to restore; a read-only link and the exports do not.
    const readOnly = await createLink(server, token, conversationId, {
      name: "verbose-text-summary",
      readOnly: true,
    });
    const dismissedList = (html: string) =>
      [...html.matchAll(/<details class="dismissed"[^>]*>([\s\S]*?)<\/details>/g)].map((m) => m[1]).join("");
    const editable = await (await page(link.url)).text();
    expect(dismissedList(editable)).toContain("Edited by a viewer");
    expect(dismissedList(editable)).toContain('data-action="restore-insight"');
    expect(await (await page(readOnly.url)).text()).not.toContain("Edited by a viewer");
    expect(await (await page(`${link.url}.json`)).text()).not.toContain("Edited by a viewer");

    // Restoring goes through the same edit, validated, and refused on a read-only link.
    const bad = await patch(insight?.id, { dismissed: "no" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("dismissed");
    const refused = await editThroughLink(server, readOnly.url, `/insights/${insight?.id}`, {
      dismissed: false,
    });
    expect(refused.status).toBe(403);
    expect((await listed()).some((i) => i.id === insight?.id)).toBe(false);
    expect((await patch(insight?.id, { dismissed: false })).status).toBe(200);
    expect((await listed()).find((i) => i.id === insight?.id)?.text).toBe("Edited by a viewer");
    const restored = await (await page(link.url)).text();
    expect(dismissedList(restored)).not.toContain("Edited by a viewer");
    expect(restored).toContain("Edited by a viewer");
  });

  it("says plainly that nothing was found when a conversation has no analysis yet", async () => {
    const { token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Quick hello",
      messages: [{ payload: { content: "Hi." }, from: { name: "Ann" } }],
    });
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const html = await (await page(link.url)).text();
    expect(html).toContain("No action items, follow-ups or questions were found.");
  });

  it("answers the same link as JSON and Markdown, by suffix or Accept", async () => {
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const link = await createLink(server, token, id, { name: "verbose-text-summary" });
    const bySuffix = await page(link.url + ".json");
    expect(bySuffix.status).toBe(200);
    expect(bySuffix.headers.get("referrer-policy")).toBe("no-referrer");
    const json = (await bySuffix.json()) as {
      name: string;
      messages: { text: string }[];
      attendees: { name: string }[];
    };
    expect(json.name).toBe("Weekly planning");
    expect(json.messages.map((m) => m.text)).toContain("Sure, I will send the report tomorrow.");
    expect(json.attendees.map((a) => a.name)).toEqual(["Ann Lee", "Bob Stone"]);
    const byAccept = await page(link.url, { accept: "application/json" });
    expect((await bodyOf<Body.Conversation>(byAccept)).name).toBe("Weekly planning");

    const markdown = await page(link.url + ".md");
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    const md = await markdown.text();
    expect(md).toContain("# Weekly planning");
    expect(md).toContain("**Bob Stone** [0:10]: Sure, I will send the report tomorrow.");
    expect(await (await page(link.url, { accept: "text/markdown" })).text()).toContain("# Weekly planning");
  });

  it("escapes script payloads in every user value", async () => {
    const { token } = await server.newApp();
    const payload = `<script>alert(1)</script><img src=x onerror=alert(2)>"'`;
    const { conversationId } = await server.ingest(token, {
      name: payload,
      messages: [{ payload: { content: payload }, from: { name: payload } }],
    });
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const html = await (await page(link.url)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("compares hosts in one spelling: another app's domain with a port, a trailing dot, other case or IDN serves none of this app's links", async () => {
    const other = await server.newApp({ customDomain: "Sum.App2.Test." });
    const idn = await server.newApp({ customDomain: "Bücher.Example" });
    const mine = await server.newApp();
    expect((await server.services.apps.getApp(other.appId)).customDomain).toBe("sum.app2.test");
    expect((await server.services.apps.getApp(idn.appId)).customDomain).toBe("xn--bcher-kva.example");

    const plain = pathOf(
      (
        await createLink(server, mine.token, await planningMeeting(server, mine.token), {
          name: "verbose-text-summary",
        })
      ).url,
    );
    const branded = pathOf(
      (
        await createLink(server, other.token, await planningMeeting(server, other.token, "App two meeting"), {
          name: "verbose-text-summary",
          enableCustomDomain: true,
        })
      ).url,
    );
    const utf8AsSent = (host: string) => Buffer.from(host, "utf8").toString("latin1");
    const spellingsOfOther = [
      "sum.app2.test",
      "sum.app2.test:443",
      "sum.app2.test:8080",
      "sum.app2.test.",
      "sum.app2.test.:443",
      "SUM.APP2.TEST",
      "Sum.App2.Test.:80",
      "sum%2eapp2.test",
      utf8AsSent("ｓｕｍ.app2.test"),
    ];
    for (const host of spellingsOfOther) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(404);
      const onItsDomain = await getWithHost(server.url + branded, host);
      expect(onItsDomain.status, host).toBe(200);
      expect(onItsDomain.body).toContain("App two meeting");
    }
    for (const host of [
      "xn--bcher-kva.example",
      "XN--BCHER-KVA.EXAMPLE.:443",
      utf8AsSent("bücher.example"),
    ]) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(404);
    }
    for (const host of ["sum.app2.test@evil.test", "evil.test/sum.app2.test", "sum.app2.test:99999"]) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(404);
      expect((await getWithHost(server.url + branded, host)).status, host).toBe(404);
    }
    for (const host of ["[::1]:8080", "sum.app3.test:443", "127.0.0.1"]) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(200);
      expect((await getWithHost(server.url + branded, host)).status, host).toBe(404);
    }

    const renamed = await server.services.apps.updateApp(mine.appId, { customDomain: " SUM.App3.Test. " });
    expect(renamed.customDomain).toBe("sum.app3.test");
    expect((await getWithHost(server.url + plain, "sum.app3.test:443")).status).toBe(200);
    expect((await getWithHost(server.url + branded, "Sum.App3.Test.")).status).toBe(404);
    await expect(
      server.services.apps.updateApp(mine.appId, { customDomain: "sum.app3.test:443" }),
    ).rejects.toThrow(/without scheme, port or path/);

    for (const customDomain of [
      "sum.app2.test:8443",
      "https://sum.app2.test",
      "sum.app2.test/x",
      "a@b.test",
    ]) {
      await expect(
        server.services.apps.createApp({ name: "Bad", customDomain }),
        customDomain,
      ).rejects.toThrow(/customDomain must be a host name/);
    }
  });

  it("serves a custom-domain link on its domain only while no other app holds that domain", async () => {
    const first = await server.newApp({ customDomain: "sum.moved.test" });
    const branded = pathOf(
      (
        await createLink(
          server,
          first.token,
          await planningMeeting(server, first.token, "First app's meeting"),
          {
            name: "verbose-text-summary",
            enableCustomDomain: true,
          },
        )
      ).url,
    );
    expect((await getWithHost(server.url + branded, "sum.moved.test")).status).toBe(200);
    await server.services.apps.updateApp(first.appId, { customDomain: "new.moved.test" });
    const second = await server.newApp({ customDomain: "sum.moved.test" });
    const taken = await getWithHost(server.url + branded, "sum.moved.test");
    expect(taken.status).toBe(404);
    expect(taken.body).not.toContain("First app's meeting");
    await server.services.apps.updateApp(second.appId, { customDomain: null });
    expect((await getWithHost(server.url + branded, "sum.moved.test")).status).toBe(200);
  });

  it("grants a domain to one app only when two claim it at once", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const claimants = [await server.newApp(), await server.newApp()];
      const domain = `race${trial}.claim.test`;
      const answers = await Promise.all(
        claimants.map(({ token }) =>
          server.api(token, "/v1/app", { method: "PATCH", body: { customDomain: domain } }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort(), domain).toEqual([200, 409]);
      const holders = await Promise.all(
        claimants.map(async ({ appId }) => (await server.services.apps.getApp(appId)).customDomain),
      );
      expect(
        holders.filter((holder) => holder === domain),
        domain,
      ).toHaveLength(1);
    }
  });

  it("sends the page security headers on every answer under /s/, errors from the router and the HTTP parser included", async () => {
    const { token } = await server.newApp();
    const link = await createLink(server, token, await planningMeeting(server, token), {
      name: "verbose-text-summary",
    });
    const linkPath = pathOf(link.url);
    const request = (line: string, headers = "Host: recap.test\r\n") =>
      rawRequest(server.url, `${line}\r\n${headers}Connection: close\r\n\r\n`);
    const cases: [string, Promise<Awaited<ReturnType<typeof rawRequest>>>, number][] = [
      ["over-long link", request(`GET /s/${"A".repeat(500)} HTTP/1.1`), 414],
      ["badly encoded path", request("GET /s/%E0%A4%A HTTP/1.1"), 400],
      ["badly encoded edit path", request("PATCH /s/x/members/%E0%A4%A HTTP/1.1"), 400],
      ["unknown path", request("GET /s/x/y/z HTTP/1.1"), 404],
      ["/s itself", request("GET /s HTTP/1.1"), 404],
      ["wrong method", request("DELETE /s/x HTTP/1.1"), 404],
      ["wrong method on a real link", request(`POST ${linkPath} HTTP/1.1`), 404],
      ["request line larger than the parser takes", request(`GET /s/${"A".repeat(20_000)} HTTP/1.1`), 431],
      ["method HTTP does not know", request("FETCH /s/x HTTP/1.1"), 400],
      ["no Host", request("GET /s/x HTTP/1.1", ""), 400],
    ];
    for (const [name, answer, status] of cases) {
      const { status: got, headers, body } = await answer;
      expect(got, name).toBe(status);
      expect(headers.get("content-security-policy"), name).toContain("frame-ancestors 'none'");
      expect(headers.get("content-security-policy"), name).not.toContain("unsafe-inline");
      expect(headers.get("referrer-policy"), name).toBe("no-referrer");
      expect(headers.get("x-robots-tag"), name).toContain("noindex");
      expect(headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(headers.get("cache-control"), name).toBe("private, no-store");
      expect(headers.get("content-type"), name).toMatch(/^application\/json/);
      expect(JSON.parse(body), name).toEqual({ message: expect.any(String) as unknown });
    }
    const page = await request(`GET ${linkPath} HTTP/1.1`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/style-src [^;]*'nonce-/);
  });

  it("serves custom-domain links on the app's domain only, and that host serves only the app's links", async () => {
    const branded = await server.newApp({
      customDomain: "summaries.example.com",
      frameAncestors: ["https://portal.example.com"],
    });
    const plain = await server.newApp();
    const brandedId = await planningMeeting(server, branded.token, "Branded meeting");
    const plainId = await planningMeeting(server, plain.token, "Plain meeting");

    const custom = await createLink(server, branded.token, brandedId, {
      name: "verbose-text-summary",
      enableCustomDomain: true,
    });
    expect(new URL(custom.url).host).toBe("summaries.example.com");
    const onDomain = await getWithHost(onServer(server, custom.url), "summaries.example.com");
    expect(onDomain.status).toBe(200);
    expect(onDomain.body).toContain("Branded meeting");
    expect((await page(custom.url)).status).toBe(404);

    const plainLink = await createLink(server, plain.token, plainId, { name: "verbose-text-summary" });
    expect((await getWithHost(onServer(server, plainLink.url), "summaries.example.com")).status).toBe(404);
    expect((await page(plainLink.url)).status).toBe(200);

    const embeddable = await createLink(server, branded.token, brandedId, { name: "verbose-text-summary" });
    const response = await page(embeddable.url);
    expect(response.headers.get("content-security-policy")).toContain(
      "frame-ancestors https://portal.example.com",
    );
  });
});
