import { parse } from "@plussub/srt-vtt-parser";
import { describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
import { TestClock } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, message, onServer, planningMeeting } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

const cuesOf = (text: string) =>
  (parse(text) as unknown as { entries: { from: number; to: number; text: string }[] }).entries;

describe.each(await dialects())("downloads from a summary link on %s", (dialect) => {
  const clock = new TestClock();
  const suite = suiteServer(dialect, { clock });

  const get = (linkUrl: string, file: string) => fetch(`${onServer(suite.server, linkUrl)}/export.${file}`);

  it("gives Markdown, plain text, WebVTT, SRT and JSON with their types and file names, linked from the page", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token, "Weekly planning: Q3");
    const link = await createLink(server, token, id, { name: "verbose-text-summary", readOnly: true });
    const expected = {
      md: ["text/markdown; charset=utf-8", "# Weekly planning: Q3"],
      txt: ["text/plain; charset=utf-8", "Weekly planning: Q3\n"],
      vtt: ["text/vtt; charset=utf-8", "WEBVTT\n"],
      srt: ["application/x-subrip; charset=utf-8", "1\n00:00:00,000 --> 00:00:04,000\n"],
      json: ["application/json; charset=utf-8", "{"],
    };
    const bodies: Record<string, string> = {};
    for (const [format, [type, start]] of Object.entries(expected)) {
      const response = await get(link.url, format);
      expect(response.status, format).toBe(200);
      expect(response.headers.get("content-type"), format).toBe(type);
      expect(response.headers.get("content-disposition"), format).toBe(
        `attachment; filename="weekly-planning-q3.${format}"`,
      );
      expect(response.headers.get("content-security-policy"), format).toContain("default-src 'none'");
      bodies[format] = await response.text();
      expect(bodies[format]?.startsWith(start ?? ""), format).toBe(true);
    }
    expect(bodies.txt).toContain("[0:05] Ann Lee: Bob, can you send the report by Friday?");
    expect(bodies.md).toContain("**Bob Stone** [0:10]: Sure, I will send the report tomorrow.");
    const json = JSON.parse(bodies.json ?? "") as { name: string; messages: unknown[] };
    expect(json.name).toBe("Weekly planning: Q3");
    expect(json.messages).toHaveLength(3);
    for (const captions of [bodies.vtt ?? "", bodies.srt ?? ""]) {
      expect(cuesOf(captions).map((cue) => [cue.from, cue.to])).toEqual([
        [0, 4000],
        [5000, 9000],
        [10_000, 14_000],
      ]);
    }
    expect(bodies.vtt).toContain("<v Bob Stone>Sure, I will send the report tomorrow.");
    expect(bodies.srt).toContain("Bob Stone: Sure, I will send the report tomorrow.");

    const html = await (await fetch(onServer(server, link.url))).text();
    for (const format of Object.keys(expected)) expect(html).toContain(`/export.${format}" download`);
  });

  it("leaves hidden lines out of every download, as a read-only link does", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const link = await createLink(server, token, id, { name: "verbose-text-summary" });
    const { messages } = await readBody<Body.MessageList>(server, token, `/v1/conversations/${id}/messages`);
    const secret = messages[1];
    const hidden = await fetch(`${onServer(server, link.url)}/messages/${secret?.id ?? ""}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hidden: true }),
    });
    expect(hidden.status).toBe(200);
    for (const format of ["md", "txt", "vtt", "srt", "json"]) {
      const text = await (await get(link.url, format)).text();
      expect(text, format).not.toContain("can you send the report by Friday");
      expect(text, format).toContain("Sure, I will send the report tomorrow");
    }
  });

  it("answers 409 for captions of an untimed meeting, and its page offers none", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Notes without times",
      messages: [message("We agreed on the plan.", "Ann Lee"), message("Good.", "Bob Stone")],
    });
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    for (const format of ["vtt", "srt"]) {
      const response = await get(link.url, format);
      expect(response.status, format).toBe(409);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBeNull();
      expect(await response.text()).toBe("This conversation's lines have no times, so it has no captions\n");
    }
    expect((await get(link.url, "txt")).status).toBe(200);
    const html = await (await fetch(onServer(server, link.url))).text();
    expect(html).toContain("/export.txt");
    expect(html).not.toContain("/export.vtt");
  });

  it("follows the page's link rules: every address under an expired, revoked or unknown link answers as the link does", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token, "Secret merger talk");
    const short = await createLink(server, token, id, {
      name: "verbose-text-summary",
      summaryURLExpiresIn: 60,
    });
    const revoked = await createLink(server, token, id, {
      name: "audio-summary",
      audioUrl: "https://m.test/a.mp3",
    });
    const live = await createLink(server, token, id, { name: "verbose-text-summary" });
    const { experiences } = await readBody<Body.ExperienceList>(
      server,
      token,
      `/v1/conversations/${id}/experiences`,
    );
    const audio = experiences.find((e) => e.name === "audio-summary");
    await server.api(token, `/v1/conversations/${id}/experiences/${audio?.id ?? ""}`, { method: "DELETE" });
    clock.advance(61);
    const tampered = `${server.url}/s/${"A".repeat(43)}`;

    for (const [url, status, message] of [
      [onServer(server, short.url), 410, "This summary link has expired"],
      [onServer(server, revoked.url).replace(/\?.*/, ""), 410, "This summary link was revoked"],
      [tampered, 404, "Summary link not found"],
    ] as const) {
      expect((await fetch(url)).status, url).toBe(status);
      for (const format of ["md", "txt", "vtt", "srt", "json"]) {
        const response = await fetch(`${url}/export.${format}`);
        expect(response.status, `${url} ${format}`).toBe(status);
        expect(response.headers.get("content-disposition")).toBeNull();
        expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
        const body = await response.text();
        expect(body).not.toContain("Secret merger talk");
        if (format === "json") expect(JSON.parse(body)).toEqual({ message });
        else expect(body).toBe(`${message}\n`);
      }
      // Addresses that are no download, no route, or a request the route would refuse: the link's answer all
      // the same, in the form asked for (JSON here), or as text under export.*, as the downloads tell theirs.
      const asJson = JSON.stringify({ message });
      const elsewhere: [string, RequestInit, string][] = [
        ["/export.pdf", {}, `${message}\n`],
        ["/export.VTT", {}, `${message}\n`],
        ["/notes", {}, asJson],
        ["/messages/1/history", {}, asJson],
        ["?text=raw", {}, asJson],
        ["", { method: "POST" }, asJson],
        [
          "/messages/1",
          { method: "PATCH", body: "hidden", headers: { "content-type": "text/plain" } },
          asJson,
        ],
        [
          "/messages/1",
          { method: "PATCH", body: "{}", headers: { "content-type": "application/json" } },
          asJson,
        ],
        ["/conversation", { method: "DELETE" }, asJson],
      ];
      for (const [path, init, body] of elsewhere) {
        const response = await fetch(`${url}${path}`, {
          ...init,
          headers: { ...init.headers, accept: "application/json" },
        });
        expect([response.status, await response.text()], `${init.method ?? "GET"} ${url}${path}`).toEqual([
          status,
          body,
        ]);
      }
    }
    // Under a live link, those answer as before: a format there is no download in is a 400, no route a 404.
    const open = onServer(server, live.url);
    expect((await fetch(`${open}/export.pdf`)).status).toBe(400);
    expect((await fetch(`${open}/notes`)).status).toBe(404);
    expect((await fetch(open, { method: "POST" })).status).toBe(404);
    expect((await fetch(`${open}?text=raw`)).status).toBe(400);
  });
});
