// Over 300 lines: the link API's rules (settings, defaults, expiry, listing, revoking), one test each
// on one server; what a link opens is tested in summary-page.test.ts.
import { describe, expect, it } from "vitest";
import { messageOf, readBody } from "../helpers/api.ts";
import { TestClock } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, onServer, planningMeeting } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

describe.each(await dialects())("summary links on %s", (dialect) => {
  const clock = new TestClock();
  const suite = suiteServer(dialect, { clock });

  const page = (url: string, headers: Record<string, string> = {}) =>
    fetch(onServer(suite.server, url), { headers });
  it("makes a signed text-summary link whose page shows the conversation with the security headers", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const link = await createLink(server, token, id, { name: "verbose-text-summary" });
    expect(link.name).toBe("verbose-text-summary");
    expect(link.url).toMatch(new RegExp(`^${server.config.publicUrl}/s/[A-Za-z0-9_-]{43}$`));

    const response = await page(link.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-robots-tag")).toContain("noindex");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const html = await response.text();
    expect(html).toContain("Weekly planning");
    expect(html).toContain("Bob, can you send the report by Friday?");
    expect(html).toContain("Ann Lee");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("flags video links and gives video and audio pages a player", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const video = await createLink(server, token, id, {
      name: "video-summary",
      videoUrl: "https://media.example.com/v.mp4",
    });
    expect(new URL(video.url).searchParams.get("showVideoSummary")).toBe("true");
    expect(await (await page(video.url)).text()).toMatch(
      /<video[^>]+src="https:\/\/media\.example\.com\/v\.mp4"/,
    );
    const audio = await createLink(server, token, id, {
      name: "audio-summary",
      audioUrl: "https://media.example.com/a.mp3",
    });
    expect(new URL(audio.url).searchParams.has("showVideoSummary")).toBe(false);
    expect(await (await page(audio.url)).text()).toMatch(
      /<audio[^>]+src="https:\/\/media\.example\.com\/a\.mp3"/,
    );

    // A media URL is ignored (docs/PAGES.md) for the kinds that do not play it, whatever it holds.
    const text = await createLink(server, token, id, {
      name: "verbose-text-summary",
      videoUrl: "ftp://x",
      audioUrl: "nope",
    });
    const html = await (await page(text.url)).text();
    expect(html).not.toMatch(/<video|<audio|ftp:\/\/x/);
  });

  it("answers 400 naming the field for every bad setting, 415 for other content types, 404 for another app's conversation", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    // Each 400 names the field and says the rule, in the exact words a caller sees.
    const url = "must be an absolute http(s) URL";
    const colour = "must be a colour written exactly as #RRGGBB, such as #1A2B3C";
    const font = "must be a web-font family name of letters, digits, spaces and hyphens (at most 64)";
    const text = (settings: Record<string, unknown>) => ({ name: "verbose-text-summary", ...settings });
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "name", "name is required: one of: verbose-text-summary, video-summary, audio-summary"],
      [
        { name: "slideshow" },
        "name",
        "name must be one of: verbose-text-summary, video-summary, audio-summary",
      ],
      [
        { name: "video-summary" },
        "videoUrl",
        "videoUrl is required for video-summary: an absolute http(s) URL of the video (a conversation made from audio or video plays its own without one)",
      ],
      [{ name: "video-summary", videoUrl: "ftp://example.com/v.mp4" }, "videoUrl", `videoUrl ${url}`],
      [{ name: "video-summary", videoUrl: "javascript:alert(1)" }, "videoUrl", `videoUrl ${url}`],
      [
        { name: "audio-summary" },
        "audioUrl",
        "audioUrl is required for audio-summary: an absolute http(s) URL of the audio (a conversation made from audio or video plays its own without one)",
      ],
      [{ name: "audio-summary", audioUrl: "/relative.mp3" }, "audioUrl", `audioUrl ${url}`],
      [text({ color: { background: "red" } }), "color.background", `color.background ${colour}`],
      [text({ color: { topicsFilter: "#12345" } }), "color.topicsFilter", `color.topicsFilter ${colour}`],
      [
        text({ color: { insightsFilter: "#1234567" } }),
        "color.insightsFilter",
        `color.insightsFilter ${colour}`,
      ],
      [text({ color: "#ffffff" }), "color", "color must be object"],
      [text({ font: { family: "Roboto'; } body { x" } }), "font.family", `font.family ${font}`],
      [text({ font: { family: "<script>" } }), "font.family", `font.family ${font}`],
      [text({ summaryURLExpiresIn: -1 }), "summaryURLExpiresIn", "summaryURLExpiresIn must be >= 0"],
      [text({ summaryURLExpiresIn: 1.5 }), "summaryURLExpiresIn", "summaryURLExpiresIn must be integer"],
      [text({ summaryURLExpiresIn: "3600" }), "summaryURLExpiresIn", "summaryURLExpiresIn must be integer"],
      [text({ readOnly: "true" }), "readOnly", "readOnly must be boolean"],
      [text({ hideShareButton: 1 }), "hideShareButton", "hideShareButton must be boolean"],
      [text({ enableCustomDomain: "yes" }), "enableCustomDomain", "enableCustomDomain must be boolean"],
      [text({ logo: "data:image/png;base64,AAAA" }), "logo", `logo ${url}`],
      [text({ favicon: "javascript:alert(1)" }), "favicon", `favicon ${url}`],
      [
        text({ speakerAvatarURLs: { x: "file:///etc/passwd" } }),
        "speakerAvatarURLs",
        `speakerAvatarURLs.x ${url}`,
      ],
      [
        text({ disableSummaryURLAuthentication: true }),
        "disableSummaryURLAuthentication",
        "disableSummaryURLAuthentication must be false or left out: every summary link is signed, so its authentication cannot be disabled",
      ],
      [
        text({ enableCustomDomain: true }),
        "enableCustomDomain",
        "enableCustomDomain is true but this app has no customDomain; set one on the app first",
      ],
    ];
    for (const [body, field, exact] of cases) {
      const response = await server.api(token, `/v1/conversations/${id}/experiences`, {
        method: "POST",
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const message = await messageOf(response);
      expect(message, JSON.stringify(body)).toContain(field);
      expect(message, JSON.stringify(body)).toBe(exact);
    }
    const named = await server.api(token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: { name: "x" },
    });
    expect(await messageOf(named)).toContain("verbose-text-summary, video-summary, audio-summary");

    const accepted = await server.api(token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: {
        name: "verbose-text-summary",
        color: {},
        font: {},
        disableSummaryURLAuthentication: false,
        extra: 1,
      },
    });
    expect(accepted.status).toBe(200);

    const plain = await server.api(token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: JSON.stringify({ name: "verbose-text-summary" }),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);

    const other = await server.newApp();
    const hidden = await server.api(other.token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: { name: "verbose-text-summary" },
    });
    expect(hidden.status).toBe(404);
    expect((await server.api(other.token, `/v1/conversations/${id}/experiences`)).status).toBe(404);
    const anonymous = await fetch(`${server.url}/v1/conversations/${id}/experiences`);
    expect(anonymous.status).toBe(401);
  });

  it("keeps only the settings the schema describes, with defaults, and documents the same rules in OpenAPI", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    await createLink(server, token, id, {
      name: "verbose-text-summary",
      videoUrl: "https://media.example.com/v.mp4",
      logo: "https://img.example.com/our logo.png",
      color: { background: "#AABBCC", shadow: "#000000" },
      font: { family: "Source Sans 3", weight: 700 },
      speakerAvatarURLs: { "member-1": "https://img.example.com/a.png" },
      extra: true,
    });
    const list = await readBody<Body.ExperienceList>(server, token, `/v1/conversations/${id}/experiences`);
    expect(list.experiences[0]?.settings).toEqual({
      name: "verbose-text-summary",
      logo: "https://img.example.com/our%20logo.png",
      color: { background: "#aabbcc" },
      font: { family: "Source Sans 3" },
      summaryURLExpiresIn: 2_592_000,
      readOnly: false,
      enableCustomDomain: false,
      speakerAvatarURLs: { "member-1": "https://img.example.com/a.png" },
      hideShareButton: false,
    });

    interface Schema {
      enum?: unknown[];
      pattern?: string;
      description?: string;
      properties?: Record<string, Schema>;
    }
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { post?: { requestBody: { content: Record<string, { schema: Schema } | undefined> } } }
      >;
    };
    const body =
      openapi.paths["/v1/conversations/{conversationId}/experiences"]?.post?.requestBody.content[
        "application/json"
      ]?.schema;
    expect(body?.properties?.name?.enum).toEqual(["verbose-text-summary", "video-summary", "audio-summary"]);
    expect(body?.properties?.color?.properties?.background?.pattern).toBe("^#[0-9a-fA-F]{6}$");
    expect(body?.properties?.logo?.description).toBe("an absolute http(s) URL");
    expect(body?.properties?.disableSummaryURLAuthentication).toMatchObject({
      enum: [false],
      description: expect.stringContaining("every summary link is signed") as unknown,
    });
  });

  it("expires links after their lifetime (default 30 days, 0 never) with a 410 page that says nothing about the conversation", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token, "Secret merger talk");
    const short = await createLink(server, token, id, {
      name: "verbose-text-summary",
      summaryURLExpiresIn: 60,
    });
    const standard = await createLink(server, token, id, { name: "verbose-text-summary" });
    const forever = await createLink(server, token, id, {
      name: "verbose-text-summary",
      summaryURLExpiresIn: 0,
    });
    expect((await page(short.url)).status).toBe(200);

    clock.advance(61);
    const expired = await page(short.url);
    expect(expired.status).toBe(410);
    expect(expired.headers.get("cache-control")).toBe("private, no-store");
    const text = await expired.text();
    expect(text).toContain("This link has expired");
    expect(text).not.toContain("revoked");
    expect(text).not.toContain("Secret merger talk");
    expect(text).not.toContain("Ann Lee");
    expect((await page(short.url + ".json")).status).toBe(410);
    expect((await page(standard.url)).status).toBe(200);

    clock.advance(30 * 86_400);
    expect((await page(standard.url)).status).toBe(410);
    clock.advance(3650 * 86_400);
    expect((await page(forever.url)).status).toBe(200);
  });

  it("lists links with their settings and state, and revokes one", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const kept = await createLink(server, token, id, {
      name: "verbose-text-summary",
      color: { background: "#102030" },
    });
    const revoked = await createLink(server, token, id, {
      name: "audio-summary",
      audioUrl: "https://media.example.com/a.mp3",
      readOnly: true,
    });
    const list = async () =>
      (await readBody<Body.ExperienceList>(server, token, `/v1/conversations/${id}/experiences`)).experiences;
    const before = await list();
    expect(before).toHaveLength(2);
    const audio = before.find((e) => e.name === "audio-summary");
    expect(audio?.status).toBe("active");
    expect(audio?.settings).toMatchObject({ audioUrl: "https://media.example.com/a.mp3", readOnly: true });
    expect(before.find((e) => e.name === "verbose-text-summary")?.settings).toMatchObject({
      color: { background: "#102030" },
    });
    expect(JSON.stringify(before)).not.toContain(new URL(kept.url).pathname.slice(3));

    const deleted = await server.api(token, `/v1/conversations/${id}/experiences/${audio?.id}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(200);
    const gone = await page(revoked.url);
    expect(gone.status).toBe(410);
    expect(gone.headers.get("cache-control")).toBe("private, no-store");
    const text = await gone.text();
    expect(text).toContain("This link was revoked");
    expect(text).not.toContain("expired");
    expect(text).not.toContain("Weekly planning");
    expect(text).not.toContain("Ann Lee");
    const asJson = await page(revoked.url, { accept: "application/json" });
    expect(asJson.status).toBe(410);
    expect(await asJson.json()).toEqual({ message: "This summary link was revoked" });
    const markdown = await page(revoked.url + ".md");
    expect(markdown.status).toBe(410);
    expect(await markdown.text()).toBe("This summary link was revoked\n");
    const edit = await fetch(onServer(server, revoked.url) + "/conversation", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed" }),
    });
    expect(edit.status).toBe(410);
    expect(await edit.json()).toEqual({ message: "This summary link was revoked" });
    expect((await page(kept.url)).status).toBe(200);
    expect((await list()).find((e) => e.id === audio?.id)?.status).toBe("revoked");

    const other = await server.newApp();
    const foreign = await server.api(other.token, `/v1/conversations/${id}/experiences/${audio?.id}`, {
      method: "DELETE",
    });
    expect(foreign.status).toBe(404);
  });

  it("keeps each link's settings: a later read-only or branded link changes nothing on an older one", async () => {
    const { server } = suite;
    const { token } = await server.newApp();
    const id = await planningMeeting(server, token);
    const editable = await createLink(server, token, id, { name: "verbose-text-summary" });
    const readOnly = await createLink(server, token, id, {
      name: "verbose-text-summary",
      readOnly: true,
      color: { background: "#0b1f3a" },
      font: { family: "Source Sans 3" },
    });
    const editableHtml = await (await page(editable.url)).text();
    const readOnlyHtml = await (await page(readOnly.url)).text();
    expect(editableHtml).toContain('data-editable="true"');
    expect(editableHtml).toContain('data-action="rename-member"');
    expect(editableHtml).not.toContain("#0b1f3a");
    expect(editableHtml).not.toContain('"Source Sans 3"');
    expect(readOnlyHtml).toContain('data-editable="false"');
    expect(readOnlyHtml).not.toMatch(
      /data-action="(edit-message|toggle-hidden|rename-member|rename-conversation|edit-insight|dismiss-insight)"/,
    );
    expect(readOnlyHtml).toContain("--bg:#0b1f3a");
    expect(readOnlyHtml).toContain("--text:#ffffff");
    expect(readOnlyHtml).toContain('--font:"Source Sans 3", system-ui');
  });
});
