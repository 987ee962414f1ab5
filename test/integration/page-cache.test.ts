// Summary pages are made once per content version and kept in each process (docs/PAGES.md, Caching):
// whatever changes what a link shows, on whichever process, shows on the very next request everywhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { createLink, editThroughLink, message, onServer, planningMeeting } from "../helpers/factories.ts";

const ENCODINGS = ["br", "gzip", "identity"];

describe.each(await dialects())("cached summary pages on %s, two processes", (dialect) => {
  let testDatabase: TestDatabase;
  const clock = new TestClock();
  const servers: TestServer[] = [];
  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
    for (let i = 0; i < 2; i++) servers.push(await startTestServer(dialect, { testDatabase, clock }));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await testDatabase.drop();
  });

  /** The link's HTML and JSON on every process in every encoding: status and decoded text of each. */
  async function readEverywhere(url: string): Promise<{ status: number; text: string }[]> {
    const answers = [];
    for (const server of servers) {
      for (const encoding of ENCODINGS) {
        for (const accept of ["text/html", "application/json"]) {
          const response = await fetch(onServer(server, url), {
            headers: { accept, "accept-encoding": encoding },
          });
          if (response.status === 200 && encoding !== "identity") {
            expect(response.headers.get("content-encoding")).toBe(encoding);
          }
          answers.push({ status: response.status, text: await response.text() });
        }
      }
    }
    return answers;
  }

  async function meetingWithLinks() {
    const [first] = servers;
    if (!first) throw new Error("two servers expected");
    const { token } = await first.newApp();
    const conversationId = await planningMeeting(first, token);
    const editable = await createLink(first, token, conversationId, { name: "verbose-text-summary" });
    const other = await createLink(first, token, conversationId, {
      name: "verbose-text-summary",
      readOnly: true,
      summaryURLExpiresIn: 3600,
    });
    return { first, token, conversationId, editable, other };
  }

  it("shows an edit through one link at once through another, on both processes", async () => {
    const { editable, other } = await meetingWithLinks();
    for (const answer of await readEverywhere(other.url)) expect(answer.text).toContain("Weekly planning");

    const second = servers[1]!;
    expect(
      (await editThroughLink(second, editable.url, "/conversation", { name: "Budget review" })).status,
    ).toBe(200);
    for (const answer of await readEverywhere(other.url)) {
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("Budget review");
      expect(answer.text).not.toContain("Weekly planning");
    }
  });

  it("shows a member renamed through the API and lines appended by a job at once", async () => {
    const { first, token, conversationId, other } = await meetingWithLinks();
    await readEverywhere(other.url);
    const { members } = (await (
      await first.api(token, `/v1/conversations/${conversationId}/members`)
    ).json()) as { members: { id: string; name: string }[] };
    const bob = members.find((member) => member.name === "Bob Stone");
    const renamed = await servers[1]!.api(token, `/v1/conversations/${conversationId}/members/${bob?.id}`, {
      method: "PUT",
      body: { id: bob?.id, name: "Robert Stone" },
    });
    expect(renamed.status).toBe(200);
    for (const answer of await readEverywhere(other.url)) expect(answer.text).toContain("Robert Stone");

    await servers[1]!.ingest(
      token,
      { messages: [message("The quarterly numbers arrive on Monday.", "Ann Lee")] },
      conversationId,
    );
    for (const answer of await readEverywhere(other.url)) {
      expect(answer.text).toContain("The quarterly numbers arrive on Monday.");
    }
  });

  it("shows a tracker created, changed or deleted on the analytics page at once, on both processes", async () => {
    const { first, token, conversationId } = await meetingWithLinks();
    const analytics = await createLink(first, token, conversationId, {
      name: "audio-summary",
      audioUrl: "https://media.example.com/planning.mp3",
    });
    const html = async () =>
      Promise.all(servers.map(async (server) => (await fetch(onServer(server, analytics.url))).text()));
    for (const page of await html()) expect(page).not.toContain("Deliverables");

    const created = await servers[1]!.api(token, "/v1/manage/tracker", {
      method: "POST",
      body: { name: "Deliverables", vocabulary: ["report"] },
    });
    const { tracker } = (await created.json()) as { tracker: { id: string } };
    for (const page of await html()) expect(page).toContain("Deliverables");

    await first.api(token, `/v1/manage/tracker/${tracker.id}`, {
      method: "PUT",
      body: { name: "Reports due", vocabulary: ["report"] },
    });
    for (const page of await html()) {
      expect(page).toContain("Reports due");
      expect(page).not.toContain("Deliverables");
    }
    await first.api(token, `/v1/manage/tracker/${tracker.id}`, { method: "DELETE" });
    for (const page of await html()) expect(page).not.toContain("Reports due");
  });

  it("never serves a revoked or an expired link from the cache", async () => {
    const { token, conversationId, editable, other } = await meetingWithLinks();
    for (const answer of [...(await readEverywhere(editable.url)), ...(await readEverywhere(other.url))]) {
      expect(answer.status).toBe(200);
    }
    const links = (await (
      await servers[1]!.api(token, `/v1/conversations/${conversationId}/experiences`)
    ).json()) as {
      experiences: { id: string; settings: { readOnly: boolean } }[];
    };
    const editableId = links.experiences.find((link) => !link.settings.readOnly)?.id;
    const revoked = await servers[1]!.api(
      token,
      `/v1/conversations/${conversationId}/experiences/${editableId}`,
      {
        method: "DELETE",
      },
    );
    expect(revoked.status).toBeLessThan(300);
    for (const answer of await readEverywhere(editable.url)) {
      expect(answer.status).toBe(410);
      expect(answer.text).not.toContain("Weekly planning");
    }

    clock.advance(3601);
    for (const answer of await readEverywhere(other.url)) {
      expect(answer.status).toBe(410);
      expect(answer.text).not.toContain("Weekly planning");
    }
  });
});
