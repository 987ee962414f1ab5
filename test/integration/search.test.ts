// GET /v1/search (docs/SEARCH.md): the app's lines across its conversations, on each database's own engine.
import { Migrator, sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrations, openDatabase } from "../../src/db/database.ts";
import type { Database } from "../../src/db/schema.ts";
import type { SearchAnswer } from "../../src/modules/search/search.schemas.ts";
import { apiClient, type ApiClient } from "../helpers/api.ts";
import { startTestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects } from "../helpers/databases.ts";
import { createLink, editThroughLink, importTranscript, message, onServer } from "../helpers/factories.ts";
import { appRow, conversationRow, messageRow } from "../helpers/stored-rows.ts";
import { suiteServer } from "../helpers/suite.ts";

type Hit = SearchAnswer["results"][number];

/** A line said `seconds` after a meeting's start, by a speaker with an e-mail when one is given. */
const line = (content: string, name: string, start: string, seconds = 0, email?: string) => {
  const said = message(content, name, [seconds, seconds + 4], start);
  return email === undefined ? said : { ...said, from: { name, email } };
};

describe.each(await dialects())("search across conversations on %s", (dialect) => {
  const suite = suiteServer(dialect);

  /** A new app with its own client; `meetings` are ingested into it, in order. */
  async function appWith(meetings: { name: string; lines: ReturnType<typeof line>[] }[]) {
    const { appId, token } = await suite.server.newApp();
    const ids: string[] = [];
    for (const meeting of meetings) {
      const { conversationId } = await suite.server.ingest(token, {
        name: meeting.name,
        messages: meeting.lines,
      });
      ids.push(conversationId);
    }
    return { appId, token, ids, api: apiClient(suite.server.url, token) };
  }

  const search = (api: ApiClient, query: Record<string, string | number>) =>
    api.get<SearchAnswer>(
      `/v1/search?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`,
    );

  /** The texts of the hits for `q` (and filters), asserting a 200. */
  async function texts(api: ApiClient, q: string, filters: Record<string, string> = {}) {
    const answer = await search(api, { q, ...filters });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.results.map((hit) => hit.message.text);
  }

  const MONDAY = "2026-03-02T09:00:00Z";
  const FRIDAY = "2026-03-06T14:00:00Z";

  it("finds words, phrases, prefixes, OR and -word across the app's conversations, with each hit's conversation, line and marked snippet", async () => {
    const { api, ids, token } = await appWith([
      {
        name: "Budget review",
        lines: [
          line("We need to cut the marketing budget by Friday.", "Ann Lee", MONDAY, 0, "ann@example.com"),
          line("The budgets for next year look fine.", "Bob Stone", MONDAY, 65),
          line("Let us talk about hiring instead.", "Ann Lee", MONDAY, 130, "ann@example.com"),
        ],
      },
      {
        name: "Launch sync",
        lines: [
          line("The launch date moves to April.", "Cleo Park", FRIDAY),
          line("Marketing wants a bigger launch budget.", "Bob Stone", FRIDAY, 10),
        ],
      },
    ]);

    const budget = await search(api, { q: "budget" });
    expect(budget.status, budget.text).toBe(200);
    expect(budget.body.results.map((hit) => hit.message.text).sort()).toEqual([
      "Marketing wants a bigger launch budget.",
      "We need to cut the marketing budget by Friday.",
    ]);
    const first = budget.body.results.find((hit) => hit.conversation.id === ids[0]) as Hit;
    expect(first).toEqual({
      conversation: { id: ids[0], name: "Budget review", startTime: "2026-03-02T09:00:00.000Z" },
      message: {
        id: expect.stringMatching(/^\d+$/) as unknown,
        text: "We need to cut the marketing budget by Friday.",
        from: { name: "Ann Lee", email: "ann@example.com" },
        timeOffset: 0,
        pageAnchor: expect.stringMatching(/^#m-\d+$/) as unknown,
      },
      snippet: "We need to cut the marketing <mark>budget</mark> by Friday.",
      score: expect.any(Number) as unknown,
    });
    expect(budget.body.nextCursor).toBeNull();
    const messages = await api.get<{ messages: { id: string; text: string }[] }>(
      `/v1/conversations/${ids[0]}/messages`,
    );
    expect(messages.body.messages.map((m) => m.id)).toContain(first.message.id);
    // The anchor, after a summary link's url, is the line on its page.
    expect(first.message.pageAnchor).toBe(`#m-${first.message.id}`);
    const { url } = await createLink(suite.server, token, ids[0] ?? "", { name: "verbose-text-summary" });
    const page = await fetch(onServer(suite.server, url));
    expect(await page.text()).toContain(`id="${first.message.pageAnchor.slice(1)}"`);

    expect(await texts(api, "budg*")).toHaveLength(3);
    expect((await search(api, { q: "budg*" })).body.results[0]?.snippet).toMatch(/<mark>budget/);
    expect(await texts(api, '"marketing budget"')).toEqual([
      "We need to cut the marketing budget by Friday.",
    ]);
    expect(await texts(api, '"budget marketing"')).toEqual([]);
    expect((await texts(api, "hiring OR april")).sort()).toEqual([
      "Let us talk about hiring instead.",
      "The launch date moves to April.",
    ]);
    expect(await texts(api, "budget -launch")).toEqual(["We need to cut the marketing budget by Friday."]);
    expect(await texts(api, "MARKETING Budget")).toHaveLength(2);
    expect((await search(api, { q: "hiring" })).body.results[0]?.message.timeOffset).toBe(130);
  });

  it("ranks the line that says it most first and pages with a signed cursor", async () => {
    const { api } = await appWith([
      {
        name: "Roadmap",
        lines: [
          line("Roadmap roadmap roadmap: the roadmap is the roadmap.", "Ann", MONDAY, 0),
          ...Array.from({ length: 4 }, (_, i) =>
            line(
              `Item ${i} of a long list that mentions the roadmap once, with many other words around it.`,
              "Bob",
              MONDAY,
              5 + i * 5,
            ),
          ),
        ],
      },
    ]);
    const all = await search(api, { q: "roadmap" });
    expect(all.body.results[0]?.message.text).toMatch(/^Roadmap roadmap/);
    expect(all.body.results.map((hit) => hit.score)).toEqual(
      [...all.body.results.map((hit) => hit.score)].sort((a, b) => b - a),
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof search>> = await search(api, {
        q: "roadmap",
        limit: 2,
        ...(cursor !== null && { cursor }),
      });
      expect(page.status, page.text).toBe(200);
      expect(page.body.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.results.map((hit) => hit.message.id));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.body.results.map((hit) => hit.message.id));

    const next = (await search(api, { q: "roadmap", limit: 2 })).body.nextCursor as string;
    const tampered = next.replace(/^\d+/, "0");
    for (const [query, rule] of [
      [
        { q: "roadmap", cursor: tampered.startsWith("0.") && tampered !== next ? tampered : `9${next}` },
        /cursor/,
      ],
      [{ q: "roadmap", cursor: `${next}x` }, /cursor/],
      [{ q: "roadmap", cursor: "not-a-cursor" }, /cursor/],
      [{ q: "item", cursor: next }, /cursor belongs to another search/],
    ] as const) {
      const answer = await search(api, query);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.text).toMatch(rule);
    }
  });

  it("ranks a word said in more than 10,000 lines among its newest matches on SQLite, and finds every line by its dates", async () => {
    const { appId, api } = await appWith([]);
    const { db } = suite.server.database;
    /** A conversation of the app with these lines, written straight to the database (ingesting 10,000 is slow). */
    async function stored(id: string, start: string, texts: string[]) {
      await db.insertInto("conversations").values(conversationRow({ id, appId, start })).execute();
      for (let i = 0; i < texts.length; i += 1000) {
        const rows = texts.slice(i, i + 1000).map((text, j) => {
          const position = i + j;
          const lineId = `${id}${String(position).padStart(5, "0")}`;
          return messageRow({ id: lineId, conversationId: id, position, text, fromName: "Ann" });
        });
        await db.insertInto("messages").values(rows).execute();
      }
    }
    const OLD = "7000000000000001";
    await stored(OLD, "2025-06-02T09:00:00.000Z", ["Quokka."]);
    await stored(
      "7000000000000002",
      "2026-06-01T09:00:00.000Z",
      Array.from(
        { length: 10_000 },
        (_, i) => `Item ${i}: the quokka came up again, with a good many other words said around it.`,
      ),
    );
    const first = await search(api, { q: "quokka" });
    expect(first.status, first.text).toBe(200);
    expect(first.body.results).toHaveLength(20);
    const oldest = (await search(api, { q: "quokka", conversationId: OLD })).body.results;
    expect(oldest.map((hit) => hit.message.text)).toEqual(["Quokka."]);
    const [best, oldLine] = [first.body.results[0]?.score ?? 0, oldest[0]?.score ?? 0];
    // SQLite's BM25 ranks the shortest line first, but only the newest 10,000 matches are ranked; PostgreSQL ranks all.
    if (dialect === "sqlite") expect(oldLine).toBeGreaterThan(best);
    else expect(best).toBeGreaterThanOrEqual(oldLine);
    expect(await texts(api, "quokka", { to: "2025-12-31" })).toEqual(["Quokka."]);
    expect(await texts(api, "quokka", { conversationId: OLD })).toEqual(["Quokka."]);
  });

  it("escapes a line's text before marking the words, and cuts a long line around its match", async () => {
    const long = `${"Opening remarks went on for a while. ".repeat(12)}Then the <script>alert("budget")</script> & the rest.`;
    const { api } = await appWith([
      {
        name: "Markup",
        lines: [
          line(`<b>Budget</b> & "costs" for Tom's <team>`, "Ann", MONDAY),
          line(long, "Bob", MONDAY, 5),
        ],
      },
    ]);
    const hits = (await search(api, { q: "budget" })).body.results;
    const snippetOf = (text: string) => hits.find((hit) => hit.message.text === text)?.snippet;
    expect(snippetOf(`<b>Budget</b> & "costs" for Tom's <team>`)).toBe(
      "&lt;b&gt;<mark>Budget</mark>&lt;/b&gt; &amp; &quot;costs&quot; for Tom&#39;s &lt;team&gt;",
    );
    const cut = snippetOf(long) as string;
    expect(cut).toMatch(/^…/);
    expect(cut).toContain(
      "&lt;script&gt;alert(&quot;<mark>budget</mark>&quot;)&lt;/script&gt; &amp; the rest.",
    );
    expect(cut).not.toMatch(/<(?!\/?mark>)/);
    expect(cut.length).toBeLessThan(long.length);
  });

  it("finds words of every script the analysis reads, with accents folded", async () => {
    const lines: [string, string][] = [
      ["zh", "我们需要在周五之前把预算发给客户。"],
      ["ja", "明日の会議室の予約をお願いします。"],
      ["ko", "내일 회의를 다시 잡읍시다."],
      ["th", "เราต้องส่งงบประมาณก่อนวันศุกร์"],
      ["ar", "نحتاج إلى إرسال الميزانية إلى العميل قبل يوم الجمعة."],
      ["he", "אנחנו צריכים לשלוח את התקציב ללקוח."],
      ["ru", "Нам нужно отправить бюджет клиенту до пятницы."],
      ["el", "Πρέπει να στείλουμε τον προϋπολογισμό στον πελάτη."],
      ["hi", "हमें शुक्रवार से पहले ग्राहक को बजट भेजना है।"],
      ["es", "Tenemos que hablar de la reunión con María."],
      ["de", "Wir müssen das Budget bis Freitag schicken."],
    ];
    const { api } = await appWith([
      { name: "Languages", lines: lines.map(([, text], i) => line(text, "Ann", MONDAY, i * 5)) },
    ]);
    const found = async (q: string) =>
      (await texts(api, q)).map((text) => lines.find(([, t]) => t === text)?.[0]);
    expect(await found("预算")).toEqual(["zh"]);
    expect(await found("周五")).toEqual(["zh"]);
    expect(await found("会議")).toEqual(["ja"]);
    expect(await found("会議室")).toEqual(["ja"]);
    expect(await found("회의")).toEqual(["ko"]);
    expect(await found("งบประมาณ")).toEqual(["th"]);
    expect(await found("الميزانية")).toEqual(["ar"]);
    expect(await found("התקציב")).toEqual(["he"]);
    expect(await found("бюджет")).toEqual(["ru"]);
    expect(await found("БЮДЖЕТ")).toEqual(["ru"]);
    expect(await found("προϋπολογισμό")).toEqual(["el"]);
    expect(await found("बजट")).toEqual(["hi"]);
    expect(await found("reunion maria")).toEqual(["es"]);
    expect(await found("MÜSSEN")).toEqual(["de"]);
    expect(await found("预算 OR бюджет")).toEqual(expect.arrayContaining(["zh", "ru"]));
    const chinese = (await search(api, { q: "预算" })).body.results[0];
    expect(chinese?.snippet).toBe("我们需要在周五之前把<mark>预算</mark>发给客户。");
  });

  it("narrows by speaker (name or e-mail, either case), conversation and the conversations' dates", async () => {
    const { api, ids } = await appWith([
      {
        name: "Monday",
        lines: [
          line("Monday plan: ship the beta.", "Ann Lee", MONDAY, 0, "ann@example.com"),
          line("Beta testers are lined up.", "Bob Stone", MONDAY, 5),
        ],
      },
      {
        name: "Friday",
        lines: [line("Friday: the beta shipped.", "Ann Lee", FRIDAY, 0, "ann@example.com")],
      },
    ]);
    expect(await texts(api, "beta")).toHaveLength(3);
    expect((await texts(api, "beta", { speaker: "ann lee" })).sort()).toEqual([
      "Friday: the beta shipped.",
      "Monday plan: ship the beta.",
    ]);
    expect(await texts(api, "beta", { speaker: "ANN@example.com" })).toHaveLength(2);
    expect(await texts(api, "beta", { speaker: "Bob Stone" })).toEqual(["Beta testers are lined up."]);
    expect(await texts(api, "beta", { conversationId: ids[1] as string })).toEqual([
      "Friday: the beta shipped.",
    ]);
    expect(await texts(api, "beta", { from: "2026-03-03" })).toEqual(["Friday: the beta shipped."]);
    expect(await texts(api, "beta", { to: "2026-03-02" })).toHaveLength(2);
    expect(
      await texts(api, "beta", { from: "2026-03-02T09:00:00Z", to: "2026-03-06T13:59:00Z" }),
    ).toHaveLength(2);
    expect(await texts(api, "beta", { from: "2026-03-07" })).toEqual([]);

    for (const [query, status, rule] of [
      [{ q: "beta", from: "2026-03-06", to: "2026-03-02" }, 400, /from must be before to/],
      [{ q: "beta", from: "last week" }, 400, /from must be an ISO-8601 date/],
      [{ q: "beta", to: "2026-02-30T25:00:00Z" }, 400, /to must be an ISO-8601 date/],
      [{ q: "beta", speaker: "Nobody Here" }, 400, /speaker: no one in this app's conversations/],
      [{ q: "beta", conversationId: "1234567890123456" }, 404, /conversation not found/],
    ] as const) {
      const answer = await search(api, query);
      expect(answer.status, JSON.stringify(query)).toBe(status);
      expect(answer.text).toMatch(rule);
    }
  });

  it("is current once a write is acknowledged: append, transcript import, edits and hiding on a page, deletion", async () => {
    const { api, token, ids } = await appWith([
      { name: "Standup", lines: [line("Yesterday I fixed the login page.", "Ann", MONDAY)] },
    ]);
    const conversationId = ids[0] as string;
    await suite.server.ingest(
      token,
      { messages: [line("Today the invoice export.", "Bob", MONDAY, 5)] },
      conversationId,
    );
    expect(await texts(api, "invoice")).toEqual(["Today the invoice export."]);
    // A line said a week earlier moves the meeting's start: its dates are searched by the new one.
    await suite.server.ingest(
      token,
      { messages: [line("Notes from the retro.", "Cleo", "2026-02-23T09:00:00Z")] },
      conversationId,
    );
    expect(await texts(api, "yesterday", { to: "2026-02-28" })).toEqual([
      "Yesterday I fixed the login page.",
    ]);
    expect(await texts(api, "yesterday", { from: "2026-03-01" })).toEqual([]);

    const imported = await importTranscript(
      suite.server,
      token,
      "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Cleo>The quarterly forecast is ready.\n",
      "text/vtt",
    );
    expect(imported.status, imported.text).toBe(201);
    expect(await texts(api, "forecast")).toEqual(["The quarterly forecast is ready."]);

    const { url } = await createLink(suite.server, token, conversationId, { name: "verbose-text-summary" });
    const login = (await search(api, { q: "login" })).body.results[0] as Hit;
    const edited = await editThroughLink(suite.server, url, `/messages/${login.message.id}`, {
      text: "Yesterday I fixed the signup page.",
    });
    expect(edited.status, edited.text).toBe(200);
    expect(await texts(api, "login")).toEqual([]);
    expect(await texts(api, "signup")).toEqual(["Yesterday I fixed the signup page."]);

    const invoice = (await search(api, { q: "invoice" })).body.results[0] as Hit;
    const hidden = await editThroughLink(suite.server, url, `/messages/${invoice.message.id}`, {
      hidden: true,
    });
    expect(hidden.status, hidden.text).toBe(200);
    expect(await texts(api, "invoice")).toEqual([]);

    expect((await api.delete(`/v1/conversations/${conversationId}`)).status).toBe(200);
    expect(await texts(api, "signup")).toEqual([]);
    expect(await texts(api, "forecast")).toEqual(["The quarterly forecast is ready."]);
  });

  it("asking without a language model is a 409 saying how to configure one; search still works", async () => {
    const { api } = await appWith([{ name: "Budget", lines: [line("The budget is cut.", "Ann", MONDAY)] }]);
    const asked = await api.post<{ message: string }>("/v1/ask", { question: "What about the budget?" });
    expect(asked.status, asked.text).toBe(409);
    expect(asked.body.message).toMatch(/RECAP_LLM_URL and RECAP_LLM_MODEL/);
    expect(await texts(api, "budget")).toEqual(["The budget is cut."]);
  });

  it("never shows another app's lines, whatever the query, filters or conversation id", async () => {
    const mine = await appWith([{ name: "Mine", lines: [line("Our secret pricing plan.", "Ann", MONDAY)] }]);
    // More lines than are ranked alone first, each saying it more often than mine does.
    const theirs = await appWith([
      {
        name: "Theirs",
        lines: [
          line("Their secret pricing plan.", "Eve Other", MONDAY, 0, "eve@other.example"),
          ...Array.from({ length: 250 }, (_, i) =>
            line(`Secret, secret: number ${i}.`, "Eve Other", MONDAY, i + 5),
          ),
        ],
      },
    ]);
    expect(await texts(mine.api, "secret")).toEqual(["Our secret pricing plan."]);
    for (const q of [
      "secret",
      "secret OR their",
      '"secret pricing"',
      "secr*",
      "their",
      'secret" OR "1"="1',
      "* OR secret",
    ]) {
      const answer = await search(mine.api, { q });
      expect(answer.status, q).toBeLessThan(500);
      for (const hit of answer.body.results ?? []) expect(hit.message.text, q).not.toMatch(/^Their/);
    }
    const other = await search(mine.api, { q: "secret", conversationId: theirs.ids[0] as string });
    expect(other.status).toBe(404);
    expect((await search(mine.api, { q: "secret", speaker: "Eve Other" })).status).toBe(400);
    expect((await search(mine.api, { q: "secret", speaker: "eve@other.example" })).status).toBe(400);
    expect(await texts(theirs.api, "pricing")).toEqual(["Their secret pricing plan."]);
    expect((await apiClient(suite.server.url).get("/v1/search?q=secret")).status).toBe(401);
  });

  it("is in the OpenAPI document with its query and answer", async () => {
    const openapi = await apiClient(suite.server.url).get<{
      paths: Record<
        string,
        { get?: { parameters?: { name: string }[]; responses?: Record<string, unknown> } }
      >;
    }>("/openapi.json");
    const route = openapi.body.paths["/v1/search"]?.get;
    expect(route?.parameters?.map((parameter) => parameter.name)).toEqual([
      "q",
      "speaker",
      "conversationId",
      "from",
      "to",
      "limit",
      "cursor",
    ]);
    expect(Object.keys(route?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "404"]));
  });

  it("answers whatever a user types with results or a 400 naming the rule, never a 5xx", async () => {
    const { api } = await appWith([
      { name: "Odd", lines: [line('Budget "draft" (v2) is NEAR done: 50% AND more.', "Ann", MONDAY)] },
    ]);
    const cases: [string, number, RegExp?][] = [
      ["", 400, /q must NOT have fewer than 1 characters|q must/],
      ["   ", 400, /q must hold a word to search for/],
      ["x".repeat(10_000), 400, /q must NOT have more than 500 characters|500/],
      ['"budget draft', 200],
      ['budget"', 200],
      ['""', 400, /q must hold a word/],
      ["OR", 400, /q must hold a word/],
      ["OR OR budget OR", 200],
      ["-", 400, /q must hold a word/],
      ["-budget", 400, /besides the excluded ones/],
      ["*", 400, /q must hold a word/],
      ["b*", 400, /a prefix needs at least 2 letters/],
      ["NEAR(budget draft)", 200],
      ["budget AND draft", 200],
      ["budget NOT draft", 200],
      ["50%", 200],
      ["(v2", 200],
      ["^budget", 200],
      ["budget:draft", 200],
      ["text:budget", 200],
      ["\\' OR 1=1 --", 200],
      ["budget\u0001\u0007draft", 200],
      ["budget\u200bdraft", 200],
      ["🙂 budget", 200],
      ["a OR -b", 400, /cannot be joined by OR/],
      [Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "), 400, /at most 32 words/],
    ];
    for (const [q, status, rule] of cases) {
      const answer = await search(api, { q });
      expect(answer.status, `${q.slice(0, 40)}: ${answer.text}`).toBe(status);
      if (rule) expect(answer.text, q.slice(0, 40)).toMatch(rule);
    }
    expect(await texts(api, '"budget draft')).toHaveLength(1);
    expect(await texts(api, "budget\u0001draft")).toHaveLength(1);
    expect((await search(api, { q: "budget", limit: 0 })).status).toBe(400);
    expect((await search(api, { q: "budget", limit: 101 })).status).toBe(400);
  });

  it("gives the lines around a question's best matches to whoever answers it (SearchService.passages)", async () => {
    const { appId } = await appWith([
      {
        name: "Vendors",
        lines: [
          line("Shall we look at vendors?", "Ann", MONDAY, 0),
          line("We picked Acme as the hosting vendor.", "Bob", MONDAY, 5),
          line("Their contract starts in May.", "Ann", MONDAY, 10),
          line("Next: lunch.", "Cleo", MONDAY, 15),
        ],
      },
    ]);
    const [passage] = await suite.server.services.search.passages(
      appId,
      "Which hosting vendor did we pick?",
      {
        limit: 1,
        around: 1,
      },
    );
    expect(passage?.conversation.name).toBe("Vendors");
    expect(passage?.lines.map((l) => l.text)).toEqual([
      "Shall we look at vendors?",
      "We picked Acme as the hosting vendor.",
      "Their contract starts in May.",
    ]);
    expect(passage?.lines[1]?.id).toBe(passage?.messageId);
    expect(passage?.lines[1]?.from).toEqual({ name: "Bob" });
  });
});

describe.each(await dialects())("the search migration on %s", (dialect) => {
  /** A database migrated to just before search, with an app's conversation of `count` lines. */
  async function before(db: Kysely<Database>, count: number) {
    const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const { error } = await migrator.migrateTo("022_member_voices");
    if (error) throw error instanceof Error ? error : new Error("migration failed", { cause: error });
    const now = "2026-03-02T09:00:00.000Z";
    await db
      .insertInto("apps")
      .values(appRow({ id: "1000000000000001", at: now, name: "Old app" }))
      .execute();
    await db
      .insertInto("conversations")
      .values(
        conversationRow({
          id: "2000000000000001",
          appId: "1000000000000001",
          start: now,
          name: "Old meeting",
        }),
      )
      .execute();
    const rows = Array.from({ length: count }, (_, i) =>
      messageRow({
        id: String(3000000000000000 + i),
        conversationId: "2000000000000001",
        position: i,
        text:
          i === count - 1
            ? "The last line says zebra."
            : `Line ${i} says 预算 ${i % 2 === 0 ? "even" : "odd"}.`,
        fromName: "Ann",
      }),
    );
    for (let i = 0; i < rows.length; i += 1000) {
      await db
        .insertInto("messages")
        .values(rows.slice(i, i + 1000))
        .execute();
    }
  }

  it("indexes the lines an installation already has after migrating, resuming a start stopped part way", async () => {
    const testDb = await createTestDatabase(dialect);
    const first = openDatabase(testDb.target);
    await before(first.db, 25_000);
    if (dialect === "postgres") {
      // An installation that built the index of migration 023 as it first was (tsvectors alone), every line in it.
      const migrator = new Migrator({
        db: first.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      expect((await migrator.migrateTo("024_voice_decisions")).error).toBeUndefined();
      await sql`CREATE TABLE message_search (
        message_id text PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE, search_vector tsvector NOT NULL)`.execute(
        first.db,
      );
      await sql`INSERT INTO message_search SELECT id, recap_search_vector(text) FROM messages`.execute(
        first.db,
      );
    }
    const logged: string[] = [];
    const info = console.info;
    // The first start stops (as a process killed) once its first batch of lines is indexed and committed.
    let stopping = true;
    console.info = (text: string) => {
      logged.push(text);
      if (stopping && text.startsWith("search index: 10,000 of")) {
        stopping = false;
        throw new Error("stopped");
      }
    };
    try {
      await expect(first.migrate()).rejects.toThrow("stopped");
      await first.close();
      expect(logged).toEqual([
        "search index: 0 of 25,000 messages (0%)",
        "search index: 10,000 of 25,000 messages (40%)",
      ]);
      logged.length = 0;
      const second = openDatabase(testDb.target);
      try {
        expect(await second.migrate()).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      console.info = info;
    }
    expect(logged).toEqual([
      "search index: 10,000 of 25,000 messages (40%)",
      "search index: 20,000 of 25,000 messages (80%)",
      "search index: 25,000 of 25,000 messages (100%)",
    ]);

    const server = await startTestServer(dialect, { testDatabase: testDb });
    try {
      const { accessToken } = server.services.tokens.issue("1000000000000001", 0);
      const api = apiClient(server.url, accessToken);
      const zebra = await search(api, "zebra");
      expect(zebra.map((hit) => hit.message.text)).toEqual(["The last line says zebra."]);
      expect(await search(api, '"line 5 says"')).toHaveLength(1);
      expect(await search(api, '"line 12345 says 预算 odd"')).toHaveLength(1);
      expect(await search(api, "odd", 100)).toHaveLength(100);
      expect(await search(api, "zebra", 20, { from: "2026-03-02", to: "2026-03-02" })).toHaveLength(1);
      expect(await search(api, "zebra", 20, { from: "2026-03-03" })).toHaveLength(0);
    } finally {
      await server.close();
      await testDb.drop();
    }
  });

  async function search(api: ApiClient, q: string, limit = 20, filters: Record<string, string> = {}) {
    const answer = await api.get<SearchAnswer>(
      `/v1/search?${new URLSearchParams({ q, limit: String(limit), ...filters })}`,
    );
    expect(answer.status, answer.text).toBe(200);
    return answer.body.results;
  }
});
