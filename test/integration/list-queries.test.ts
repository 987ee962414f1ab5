import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";

/**
 * A list reads its page in a fixed number of queries, not one more for each item shown: the API's conversation
 * list (each with its members) and the console's links list (each with its conversation's name). Jobs run only
 * when a test waits for one (runJobs: false), so no background poll is counted.
 */
describe.each(await dialects())("lists on %s", (dialect) => {
  let server: TestServer;
  let queries = 0;
  let token: string;
  let client: ConsoleClient;

  beforeAll(async () => {
    server = await startTestServer(dialect, { runJobs: false, onQuery: () => queries++ });
    const app = await server.newApp();
    token = app.token;
    client = new ConsoleClient(server);
    expect((await client.signIn(app.appId, app.appSecret)).status).toBe(303);
  });
  afterAll(() => server.close());

  /** Adds a conversation of two speakers with a summary link to it. */
  async function addConversation(index: number): Promise<void> {
    const { conversationId } = await server.ingest(token, {
      name: `Meeting ${index}`,
      messages: [
        { payload: { content: `Item ${index} is ready.` }, from: { name: `Ann ${index}` } },
        { payload: { content: "Good, ship it." }, from: { name: `Bob ${index}` } },
      ],
    });
    const link = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
      method: "POST",
      body: { name: "verbose-text-summary" },
    });
    expect(link.status).toBe(200);
  }

  /** The queries one request makes, and its answer's text. */
  async function queriesOf(request: () => Promise<Response>): Promise<{ count: number; text: string }> {
    const before = queries;
    const response = await request();
    const text = await response.text();
    expect(response.status).toBe(200);
    return { count: queries - before, text };
  }

  it("reads the conversations with their members, and the links with their conversations' names, in as many queries for six as for one", async () => {
    await addConversation(1);
    const conversationsOfOne = await queriesOf(() => server.api(token, "/v1/conversations"));
    const linksOfOne = await queriesOf(() => client.request("/console/links"));
    for (let index = 2; index <= 6; index++) await addConversation(index);
    const conversationsOfSix = await queriesOf(() => server.api(token, "/v1/conversations"));
    const linksOfSix = await queriesOf(() => client.request("/console/links"));

    const listed = JSON.parse(conversationsOfSix.text) as {
      conversations: { name: string; members: { name: string }[] }[];
    };
    expect(listed.conversations.map((c) => [c.name, c.members.map((m) => m.name)])).toEqual(
      [6, 5, 4, 3, 2, 1].map((i) => [`Meeting ${i}`, [`Ann ${i}`, `Bob ${i}`]]),
    );
    for (let index = 1; index <= 6; index++) expect(linksOfSix.text).toContain(`Meeting ${index}`);
    expect(conversationsOfSix.count).toBe(conversationsOfOne.count);
    expect(linksOfSix.count).toBe(linksOfOne.count);
  });
});
