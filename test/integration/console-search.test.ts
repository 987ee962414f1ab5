// The console's search (docs/SEARCH.md, The console): the box over all the app's conversations, hits grouped by
// conversation, each opening the conversation's page at its line; a refused search is the API's message.
import { describe, expect, it } from "vitest";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";
import { message } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

const MONDAY = "2026-03-02T09:00:00Z";
const FRIDAY = "2026-03-06T14:00:00Z";

describe.each(await dialects())("the console's search on %s", (dialect) => {
  const suite = suiteServer(dialect);

  /** A new app with two meetings, signed in to the console. */
  async function signedInWithMeetings() {
    const { appId, appSecret, token } = await suite.server.newApp();
    const budget = await suite.server.ingest(token, {
      name: "Budget review",
      messages: [
        message("Good morning.", "Ann", [0, 2], MONDAY),
        message("We cut the <b>marketing</b> budget by Friday.", "Ann", [65, 70], MONDAY),
        message("Then the budget for spring waits.", "Bob", [75, 80], MONDAY),
        message("Next, hiring.", "Ann", [90, 92], MONDAY),
      ],
    });
    const launch = await suite.server.ingest(token, {
      name: "Launch sync",
      messages: [message("The launch budget is fine.", "Cleo", [5, 9], FRIDAY)],
    });
    const client = new ConsoleClient(suite.server);
    expect((await client.signIn(appId, appSecret)).status).toBe(303);
    return { client, ids: [budget.conversationId, launch.conversationId] };
  }

  it("groups the hits by conversation, marks the matched words, and opens the conversation at the line", async () => {
    const { client, ids } = await signedInWithMeetings();
    const nav = await (await client.request("/console/conversations")).text();
    expect(nav).toContain('<a href="/console/search">Search</a>');

    const page = await client.request("/console/search?q=budget");
    expect(page.status).toBe(200);
    const html = await page.text();
    const groups = [...html.matchAll(/<section class="card wide search-group"[\s\S]*?<\/section>/g)].map(
      ([section]) => section,
    );
    expect(groups).toHaveLength(2);
    const budget = groups.find((group) => group.includes("Budget review")) ?? "";
    expect(budget).toContain("2 Mar 2026");
    expect(budget).toContain("2 lines");
    // The snippet is the API's: the line escaped, the word marked.
    expect(budget).toContain("We cut the &lt;b&gt;marketing&lt;/b&gt; <mark>budget</mark> by Friday.");
    expect(budget).toContain('<span class="hit-time">1:05</span> Ann');
    const annHit = budget.split("<li>").find((hit) => hit.includes("marketing")) ?? "";
    const href = /href="(\/console\/conversations\/\d+\?line=(\d+)#m-\2)"/.exec(annHit);
    expect(href?.[1]).toMatch(new RegExp(`^/console/conversations/${ids[0]}\\?line=`));

    const opened = await (await client.request(href?.[1] ?? "")).text();
    expect(opened).toContain("From the transcript");
    const current = new RegExp(
      `<li id="m-${href?.[2]}" class="current" aria-current="true">[\\s\\S]*?</li>`,
    ).exec(opened)?.[0];
    expect(current).toContain("We cut the &lt;b&gt;marketing&lt;/b&gt; budget by Friday.");
    expect(opened).toContain("Good morning.");
    expect(opened).toContain("Next, hiring.");
    // Without a line, the page is as before.
    expect(await (await client.request(`/console/conversations/${ids[0]}`)).text()).not.toContain(
      "From the transcript",
    );

    const none = await (await client.request("/console/search?q=penguins")).text();
    expect(none).toContain("No line of your conversations matches “penguins”.");
  });

  it("shows the API's 400 message beside the box for a search it refuses, not an error page", async () => {
    const { client } = await signedInWithMeetings();
    const refusals: [string, RegExp][] = [
      ["-budget", /excluded/i],
      ["b*", /prefix/i],
      ["", /q must/],
      ["x".repeat(501), /q must/],
    ];
    for (const [q, said] of refusals) {
      const page = await client.request(`/console/search?${new URLSearchParams({ q })}`);
      expect(page.status, q).toBe(400);
      const html = await page.text();
      expect(html).toContain("<title>Search · Recap console</title>");
      const error = /<p class="field-error" id="search-error" role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1];
      expect(error, q).toMatch(said);
      expect(html).toContain('aria-invalid="true"');
    }
    const forged = await client.request("/console/search?q=budget&cursor=0.forged.cursor");
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("cursor is not one this search gave");
  });
});
