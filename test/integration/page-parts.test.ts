import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, onServer } from "../helpers/factories.ts";
import { joinedMeetings, wordOnlyIn } from "../helpers/qmsum.ts";

// A meeting of 3,200 lines is sent in four parts (docs/PAGES.md, A very long meeting): the page holds one,
// the link answers each other part's lines, and which parts mention words, for the page's script.

const LINES = 3200;
const lineIds = (html: string) =>
  [...html.matchAll(/<li class="line[^"]*" id="m-([^"]+)"/g)].map((m) => m[1]);
const versionOf = (html: string) => /data-version="([^"]*)"/.exec(html)?.[1] ?? "";

describe.each(await dialects())("a very long meeting's page in parts on %s", (dialect) => {
  let server: TestServer;
  let token: string;
  let conversationId: string;
  let messages: Body.MessageList["messages"];
  let page: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ({ token } = await server.newApp());
    ({ conversationId } = await server.ingest(token, joinedMeetings("val", LINES)));
    ({ messages } = await readBody<Body.MessageList>(
      server,
      token,
      `/v1/conversations/${conversationId}/messages`,
    ));
    page = onServer(
      server,
      (await createLink(server, token, conversationId, { name: "verbose-text-summary", readOnly: true })).url,
    );
  }, 120_000);
  afterAll(() => server.close());

  const ids = (from: number, to: number) => messages.slice(from, to).map((m) => m.id);
  const text = async (url: string) => {
    const response = await fetch(url);
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      body: await response.text(),
    };
  };

  it("holds the first part's lines and links to the others; ?part= opens another, past the last the last", async () => {
    expect(messages).toHaveLength(LINES);
    const first = await text(page);
    expect(first.status).toBe(200);
    expect(lineIds(first.body)).toEqual(ids(0, 1000));
    expect(
      [...first.body.matchAll(/<a class="part-link" href="[^"?]+\?part=(\d)">/g)].map((m) => m[1]),
    ).toEqual(["2", "3", "4"]);
    expect(lineIds((await text(`${page}?part=3`)).body)).toEqual(ids(2000, 3000));
    expect(lineIds((await text(`${page}?part=40`)).body)).toEqual(ids(3000, 3200));
    const refused = await fetch(`${page}?part=0`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain("part");
  });

  it("answers a part's lines, by its number or by one of its lines, of the lines the page counted its parts in", async () => {
    const version = versionOf((await text(page)).body);
    const second = await text(`${page}/transcript?part=2&v=${encodeURIComponent(version)}`);
    expect([second.status, second.type]).toEqual([200, "text/html; charset=utf-8"]);
    expect(second.body).toMatch(/^<ol class="lines" data-part="2" data-parts="4"/);
    expect(lineIds(second.body)).toEqual(ids(1000, 2000));
    // The same lines as the part's own page shows.
    expect(lineIds((await text(`${page}?part=2`)).body)).toEqual(lineIds(second.body));

    const byLine = await text(
      `${page}/transcript?line=${messages[2500]?.id ?? ""}&v=${encodeURIComponent(version)}`,
    );
    expect(byLine.body).toMatch(/^<ol class="lines" data-part="3"/);
    expect(lineIds(byLine.body)).toEqual(ids(2000, 3000));

    for (const [query, status, message] of [
      ["line=9999999999999999", 404, "Line 9999999999999999 not found"],
      ["part=5", 404, "This transcript has 4 parts"],
      ["part=2", 409, "The transcript has changed since this page was made"],
    ] as const) {
      const v = status === 409 ? "3199.stale" : version;
      const answer = await fetch(`${page}/transcript?${query}&v=${encodeURIComponent(v)}`);
      expect(answer.status, query).toBe(status);
      expect(((await answer.json()) as { message: string }).message, query).toContain(message);
    }
    expect((await fetch(`${page}/transcript?part=2`)).status).toBe(400);
  });

  it("answers which parts mention words, in the text as shown", async () => {
    const version = encodeURIComponent(versionOf((await text(page)).body));
    // A word said in the third part only.
    const word = wordOnlyIn(messages, 2000, 3000);
    expect(word).toBeDefined();
    const search = async (query: string, mode = "") =>
      (await (
        await fetch(`${page}/search?q=${encodeURIComponent(query)}&v=${version}${mode}`)
      ).json()) as unknown;
    expect(await search((word ?? "").toUpperCase(), "&text=verbatim")).toEqual({ parts: [3] });
    expect(await search("the")).toEqual({ parts: [1, 2, 3, 4] });
    expect(await search("zqxjzqxj")).toEqual({ parts: [] });
    // Marks like {disfmarker} are in the stored text only: the cleaned page does not show them.
    expect(await search("{disfmarker}", "&text=verbatim")).not.toEqual({ parts: [] });
    expect(await search("{disfmarker}")).toEqual({ parts: [] });
  });

  it("counts parts in the lines the link shows: a read-only link's without its hidden lines", async () => {
    const editable = onServer(
      server,
      (await createLink(server, token, conversationId, { name: "verbose-text-summary" })).url,
    );
    const hidden = messages[10]?.id ?? "";
    const version = encodeURIComponent(versionOf((await text(page)).body));
    const partTwo = () => fetch(`${page}/transcript?part=2&v=${version}`).then((answer) => answer.status);
    // A line's text edited moves no part: the page asks on.
    const edit = await fetch(`${editable}/messages/${messages[20]?.id ?? ""}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "An edited line." }),
    });
    expect(edit.status).toBe(200);
    expect(await partTwo()).toBe(200);
    const hide = await fetch(`${editable}/messages/${hidden}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hidden: true }),
    });
    expect(hide.status).toBe(200);
    // A line hidden moves every part after it on the read-only link: its page from before must load again.
    expect(await partTwo()).toBe(409);
    const readOnly = lineIds((await text(`${page}?part=2`)).body);
    expect(readOnly[0]).toBe(messages[1001]?.id);
    expect(lineIds((await text(`${editable}?part=2`)).body)[0]).toBe(messages[1000]?.id);
    // Downloads and the data forms are the whole transcript.
    const plain = (await text(`${page}/export.txt`)).body;
    expect(plain).toContain(messages[LINES - 1]?.text.slice(0, 40) ?? "");
    const json = JSON.parse((await text(`${page}.json`)).body) as { messages: unknown[] };
    expect(json.messages).toHaveLength(LINES - 1);
    await fetch(`${editable}/messages/${hidden}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hidden: false }),
    });
  });

  it("follows the link's rules: a revoked link's parts and search answer 410", async () => {
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const url = onServer(server, link.url);
    const version = encodeURIComponent(versionOf((await text(url)).body));
    await server.api(token, `/v1/conversations/${conversationId}/experiences/${link.id}`, {
      method: "DELETE",
    });
    for (const path of [`/transcript?part=2&v=${version}`, `/search?q=the&v=${version}`]) {
      const answer = await fetch(`${url}${path}`);
      expect(answer.status, path).toBe(410);
      expect(await answer.json()).toEqual({ message: "This summary link was revoked" });
    }
  });
});
