import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, editThroughLink, onServer, timedLines, WEBSITE_PLANNING } from "../helpers/factories.ts";

const HOSTING = "We decided to stay with the current hosting company for another year.";
const LOGO = "The logo will be blue and we will drop the green version.";

describe.each(await dialects())("decisions on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  async function meeting() {
    const { token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Website",
      messages: timedLines(WEBSITE_PLANNING),
    });
    const { messages } = await readBody<Body.MessageList>(
      server,
      token,
      `/v1/conversations/${conversationId}/messages`,
    );
    return { token, conversationId, idOf: (line: number) => messages[line]?.id ?? "" };
  }

  it("lists what was decided, each a sentence with the lines that state it", async () => {
    const { token, conversationId, idOf } = await meeting();
    const response = await server.api(token, `/v1/conversations/${conversationId}/decisions`);
    expect(response.status).toBe(200);
    const { decisions } = (await response.json()) as Body.DecisionList;
    expect(decisions.map(({ text, messageIds }) => ({ text, messageIds }))).toEqual([
      { text: HOSTING, messageIds: [idOf(6)] },
      { text: LOGO, messageIds: [idOf(15)] },
    ]);
    for (const decision of decisions) {
      expect(Object.keys(decision).sort()).toEqual(["id", "messageIds", "text"]);
      expect(decision.id).toMatch(/^\d{16}$/);
    }
  });

  it("needs a token, and answers 404 for a conversation the app cannot see", async () => {
    const { conversationId } = await meeting();
    const path = `/v1/conversations/${conversationId}/decisions`;
    const anonymous = await fetch(server.url + path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const other = await server.newApp();
    expect((await server.api(other.token, path)).status).toBe(404);
    expect((await server.api(other.token, "/v1/conversations/1234567890123456/decisions")).status).toBe(404);
  });

  it("shows the decisions first in the page's summary and in its JSON, Markdown and text", async () => {
    const { token, conversationId, idOf } = await meeting();
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const page = onServer(server, link.url);

    const html = await (await fetch(page)).text();
    const summary = html.slice(
      html.indexOf('id="summary"'),
      html.indexOf("</section>", html.indexOf('id="summary"')),
    );
    expect(summary).toMatch(
      /<h2 id="summary-heading">Summary<\/h2>\s*<div class="decisions">\s*<h3[^>]*>Decisions<\/h3>/,
    );
    expect(summary.indexOf(HOSTING)).toBeGreaterThan(0);
    expect(summary.indexOf(HOSTING)).toBeLessThan(summary.indexOf('<div class="summary">'));
    expect(summary).toContain(`href="#m-${idOf(15)}"`);

    const json = (await (await fetch(`${page}.json`)).json()) as Record<string, unknown>;
    expect(json["decisions"]).toEqual([
      { text: HOSTING, messageIds: [idOf(6)] },
      { text: LOGO, messageIds: [idOf(15)] },
    ]);
    const keys = Object.keys(json);
    expect(keys.indexOf("decisions")).toBe(keys.indexOf("summary") - 1);

    const markdown = await (await fetch(`${page}.md`)).text();
    expect(markdown).toContain(`## Summary\n\n### Decisions\n\n- ${HOSTING}\n- ${LOGO}\n`);

    const text = await (
      await fetch(onServer(server, link.url.replace(/(\/s\/[^/?]+)/, "$1/export.txt")))
    ).text();
    expect(text).toContain(`Summary\n\nDecisions\n\n- ${HOSTING}\n- ${LOGO}\n`);
  });

  it("follows the transcript: a decision whose line a viewer hides goes with the analysis it starts", async () => {
    const { token, conversationId, idOf } = await meeting();
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const edit = await editThroughLink(server, link.url, `/messages/${idOf(6)}`, { hidden: true });
    expect(edit.status).toBe(200);
    expect(await waitForJob(server, token, edit.body.jobId ?? "")).toBe("completed");
    const { decisions } = await readBody<Body.DecisionList>(
      server,
      token,
      `/v1/conversations/${conversationId}/decisions`,
    );
    expect(decisions.map((d) => d.text)).not.toContain(HOSTING);
    expect(decisions.flatMap((d) => d.messageIds)).not.toContain(idOf(6));
  });
});
