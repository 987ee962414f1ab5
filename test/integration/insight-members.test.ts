import { describe, expect, it } from "vitest";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, editThroughLink, onServer, timedLines } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

interface Person {
  id?: string;
  name: string;
}
type Insight = Body.Insight;
interface PageJson {
  insights: Record<
    "actionItems" | "followUps" | "questions",
    { text: string; from: Person | null; assignee?: Person }[]
  >;
}

const lines: [string, string][] = [
  ["Speaker 1", "I will send the report to the client by Friday."],
  ["Bob", "Sam will review the pricing page before the launch."],
  ["Sam", "I'll follow up with legal about the contract terms next week."],
  ["Speaker 1", "What is the deadline for the marketing copy of the launch?"],
];

describe.each(await dialects())("insights follow renamed and merged members on %s", (dialect) => {
  const suite = suiteServer(dialect);

  it("shows each member's current name and id as from and assignee on the API, the page, JSON and Markdown", async () => {
    const { server, token, api } = suite;
    const { conversationId } = await server.ingest(token, { name: "Launch", messages: timedLines(lines) });
    const base = `/v1/conversations/${conversationId}`;
    const get = async <T>(path: string) => (await api.get<T>(`${base}${path}`)).body;
    const { members } = await get<Body.MemberList>("/members");
    const idOf = (name: string) => members.find((m) => m.name === name)?.id ?? "";
    const [speaker1, bob, sam] = [idOf("Speaker 1"), idOf("Bob"), idOf("Sam")];

    const link = (await createLink(server, token, conversationId, { name: "verbose-text-summary" })).url;
    const fromPage = (suffix = "") => fetch(onServer(server, link + suffix));
    const put = (memberId: string, body: Record<string, string>) =>
      api.put(`${base}/members/${memberId}`, { id: memberId, ...body });

    /** What every surface says about the three insights, given the expected people. */
    const expectEverywhere = async (report: Person, review: Person, reviewer: Person, followUp: Person) => {
      const { actionItems } = await get<Body.ActionItemList>("/action-items");
      const { followUps } = await get<Body.FollowUpList>("/follow-ups");
      const { questions } = await get<Body.QuestionList>("/questions");
      const byText = (items: Insight[], start: string) => items.find((i) => i.text.startsWith(start));
      expect(byText(actionItems, "I will send the report")).toMatchObject({ from: report, assignee: report });
      expect(byText(actionItems, "Sam will review")).toMatchObject({ from: review, assignee: reviewer });
      expect(byText(followUps, "I'll follow up")).toMatchObject({ from: followUp, assignee: followUp });
      expect(byText(questions, "What is the deadline")).toMatchObject({ from: report });

      const json = (await (await fromPage(".json")).json()) as PageJson;
      const pageItem = (group: keyof PageJson["insights"], start: string) =>
        json.insights[group].find((i) => i.text.startsWith(start));
      expect(pageItem("actionItems", "I will send the report")).toMatchObject({
        from: report,
        assignee: report,
      });
      expect(pageItem("actionItems", "Sam will review")).toMatchObject({ from: review, assignee: reviewer });
      expect(pageItem("followUps", "I'll follow up")).toMatchObject({ from: followUp, assignee: followUp });

      const markdown = await (await fromPage(".md")).text();
      expect(markdown).toContain(
        `- I will send the report to the client by Friday. (said by ${report.name}, for ${report.name})`,
      );
      expect(markdown).toContain(
        `- Sam will review the pricing page before the launch. (said by ${review.name}, for ${reviewer.name})`,
      );

      const html = await (await fromPage()).text();
      const strong = (person: Person) =>
        `<strong data-member-name="${person.id ?? ""}" dir="auto">${person.name}</strong>`;
      // An insight's list item in the insights section (the summary may quote the same line).
      const insightHtml = (start: string) => {
        const at = html.indexOf(start, html.indexOf('id="insights"'));
        return at < 0 ? "" : html.slice(at, html.indexOf("</li>", at));
      };
      expect(insightHtml("I will send the report")).toContain(`said by ${strong(report)}`);
      expect(insightHtml("I will send the report")).toContain(`for ${strong(report)}`);
      expect(insightHtml("Sam will review")).toContain(`for ${strong(reviewer)}`);
      expect(insightHtml("I&#39;ll follow up")).toContain(`for ${strong(followUp)}`);
      for (const stale of ["Speaker 1", "Sam Lee"].filter(
        (n) => ![report, reviewer, followUp].some((p) => p.name === n),
      ))
        expect(html).not.toContain(`>${stale}</strong>`);
    };

    await expectEverywhere(
      { id: speaker1, name: "Speaker 1" },
      { id: bob, name: "Bob" },
      { id: sam, name: "Sam" },
      { id: sam, name: "Sam" },
    );

    // Renamed through the link (Speaker 1 → Dana) and through the API (Sam → Sam Lee).
    const renamed = await editThroughLink(server, link, `/members/${speaker1}`, { name: "Dana" });
    expect(renamed.status).toBe(200);
    expect((await put(sam, { name: "Sam Lee", email: "sam@example.com" })).status).toBe(200);
    await expectEverywhere(
      { id: speaker1, name: "Dana" },
      { id: bob, name: "Bob" },
      { id: sam, name: "Sam Lee" },
      { id: sam, name: "Sam Lee" },
    );

    // Dana turns out to be Sam: giving her Sam's e-mail merges her into Sam, who takes the name sent.
    expect((await put(speaker1, { name: "Samantha Lee", email: "sam@example.com" })).status).toBe(200);
    const samantha = { id: sam, name: "Samantha Lee" };
    await expectEverywhere(samantha, { id: bob, name: "Bob" }, samantha, samantha);
  });

  it("gives a request by first name to the one member with that first name, and to nobody when two share it", async () => {
    const { server, token, api } = suite;
    const { conversationId } = await server.ingest(token, {
      name: "Year end",
      messages: timedLines([
        ["Bob Okafor", "I have the draft accounts for the year here."],
        ["Carol Diaz", "Bob, can you ask finance for the tax tables by Thursday?"],
        ["Sam Lee", "The invoices are still missing for March."],
        ["Sam Park", "Then the auditors will ask about them."],
        ["Carol Diaz", "Sam, can you send the invoices to the auditors by Friday?"],
      ]),
    });
    const base = `/v1/conversations/${conversationId}`;
    const { members } = (await api.get<Body.MemberList>(`${base}/members`)).body;
    const bob = members.find((m) => m.name === "Bob Okafor");
    const { followUps } = (await api.get<Body.FollowUpList>(`${base}/follow-ups`)).body;
    const { actionItems } = (await api.get<Body.ActionItemList>(`${base}/action-items`)).body;
    const { questions } = (await api.get<Body.QuestionList>(`${base}/questions`)).body;

    // Asking finance is contacting someone: a follow-up, for Bob Okafor, due on the Thursday after the
    // meeting (Monday 2026-11-02).
    const taxTables = followUps.find((i) => i.text.startsWith("Bob, can you ask finance"));
    expect(taxTables).toMatchObject({ assignee: { id: bob?.id, name: "Bob Okafor" } });
    expect(taxTables?.dueBy).toBe("2026-11-05T00:00:00.000Z");
    // Two members are called Sam: the request keeps the name as written and links no member.
    const invoices = actionItems.find((i) => i.text.startsWith("Sam, can you send the invoices"));
    expect(invoices?.assignee).toEqual({ name: "Sam" });
    // Requests are tasks, not questions.
    expect(questions.map((q) => q.text)).toEqual([]);
  });
});
