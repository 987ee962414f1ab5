// The console with recorded media, as its owner uses it: who speaks in a recording whose lines name no one, a
// recording imported whatever its file is called, its options (diarization, channel names), and the links of
// such conversations (what an empty media URL plays, which conversation each link is of).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink } from "../helpers/factories.ts";
import { MediaKit } from "../helpers/media.ts";
import { startSpeechServer, type SpeechServer } from "../helpers/speech-server.ts";

const SAID = [
  { text: "Welcome to the budget review", atSeconds: 0.3 },
  { text: "Dana will send the numbers by Friday", atSeconds: 4 },
];

/** The import form as the page sends it: its fields in the page's order, the file last. */
function importForm(
  fields: {
    name?: string;
    diarization?: boolean;
    speakerCount?: string;
    channel1?: string;
    channel2?: string;
  },
  file: { name: string; bytes: Buffer<ArrayBuffer>; type: string },
): FormData {
  const form = new FormData();
  form.set("name", fields.name ?? "");
  if (fields.diarization) form.set("diarization", "on");
  form.set("speakerCount", fields.speakerCount ?? "");
  form.set("channel1", fields.channel1 ?? "");
  form.set("channel2", fields.channel2 ?? "");
  form.set("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}

/** The text of a page's error under a field, as the console shows it. */
const fieldError = (html: string, field: string) =>
  new RegExp(`id="field-${field}-error">([^<]*)<`).exec(html)?.[1] ?? null;

describe.each(await dialects())("the console with recorded media on %s", (dialect) => {
  const kit = new MediaKit();
  let speech: SpeechServer;
  let server: TestServer;
  let oneVoice: Buffer<ArrayBuffer>;

  beforeAll(async () => {
    speech = await startSpeechServer("openai", (seconds) => (seconds < 2 ? SAID[0]!.text : SAID[1]!.text));
    server = await startTestServer(dialect, {
      env: { RECAP_ASR_URL: speech.url, RECAP_MEDIA_DIR: join(kit.dir, "store") },
    });
    oneVoice = readFileSync(await kit.speech(SAID, 7));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await speech.close();
    kit.close();
  });

  async function signedIn() {
    const app = await server.newApp();
    const client = new ConsoleClient(server);
    expect((await client.signIn(app.appId, app.appSecret)).status).toBe(303);
    return { client, token: app.token };
  }

  /** Imports through the console's form and waits for the job; the conversation's id. */
  async function imported(client: ConsoleClient, token: string, form: FormData): Promise<string> {
    const response = await client.request("/console/import", { method: "POST", body: form });
    expect(response.status, await response.clone().text()).toBe(303);
    const jobId = (response.headers.get("location") ?? "").split("/").pop() ?? "";
    expect(await waitForJob(server, token, jobId)).toBe("completed");
    const job = await (await client.request(`/console/jobs/${jobId}`)).text();
    return /href="\/console\/conversations\/(\d+)">Open the conversation</.exec(job)?.[1] ?? "";
  }

  it("lists a recording's unnamed speaker as its page does, where GET …/members has no member", async () => {
    const { client, token } = await signedIn();
    const response = await fetch(`${server.url}/v1/process/audio?name=Unnamed%20voices`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: new Uint8Array(oneVoice),
    });
    const accepted = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, token, accepted.jobId)).toBe("completed");
    const members = await server.api(token, `/v1/conversations/${accepted.conversationId}/members`);
    expect(((await members.json()) as Body.MemberList).members).toEqual([]);

    const overview = await (await client.request(`/console/conversations/${accepted.conversationId}`)).text();
    expect(overview).toMatch(/<dt>Members<\/dt>\s*<dd>Unknown speaker<\/dd>/);
    const list = await (await client.request("/console/conversations")).text();
    const row =
      /<tr>\s*<th scope="row"><a[^>]*>Unnamed voices<\/a><\/th>[\s\S]*?<\/tr>/.exec(list)?.[0] ?? "";
    expect(row).toContain("Unknown speaker");
    expect(row).not.toContain("None yet");
  }, 60_000);

  it("imports a recording whatever its file is called, and says a file that is neither is not a transcript or a recording", async () => {
    const { client, token } = await signedIn();
    const conversationId = await imported(
      client,
      token,
      importForm(
        { name: "From a phone" },
        { name: "voice-memo", bytes: oneVoice, type: "application/octet-stream" },
      ),
    );
    const messages = await server.api(token, `/v1/conversations/${conversationId}/messages`);
    expect(((await messages.json()) as Body.MessageList).messages.map((message) => message.text)).toEqual(
      SAID.map((said) => said.text),
    );

    const listed = async () =>
      ((await (await server.api(token, "/v1/conversations")).json()) as { conversations: unknown[] })
        .conversations.length;
    const before = await listed();
    const notes = importForm(
      { name: "Notes" },
      {
        name: "notes.docx",
        bytes: Buffer.from("These are the notes of the meeting, typed in a word processor.\n".repeat(50)),
        type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      },
    );
    const refused = await client.request("/console/import", { method: "POST", body: notes });
    expect(refused.status).toBe(415);
    const page = await refused.text();
    expect(fieldError(page, "file")).toMatch(
      /^file must be a WebVTT \(\.vtt\), SRT \(\.srt\) or JSON \(\.json\) transcript, or a recording: the file is not/,
    );
    expect(page).toContain('value="Notes"');
    expect(await listed()).toBe(before);
  }, 60_000);

  it("takes a recording's channel names and diarization, and refuses a bad option next to its field", async () => {
    const { client, token } = await signedIn();
    const agent = await kit.speech([SAID[0]!], 7);
    const customer = await kit.speech([SAID[1]!], 7);
    const call = readFileSync(await kit.channels([agent, customer]));
    const asCall = { name: "call.wav", bytes: call, type: "audio/wav" };
    const conversationId = await imported(
      client,
      token,
      importForm({ name: "Support call", channel1: "Agent", channel2: "Customer" }, asCall),
    );
    const members = await server.api(token, `/v1/conversations/${conversationId}/members`);
    expect(((await members.json()) as Body.MemberList).members.map((member) => member.name)).toEqual([
      "Agent",
      "Customer",
    ]);

    const refusal = async (fields: Parameters<typeof importForm>[0], field: string, file = asCall) => {
      const response = await client.request("/console/import", {
        method: "POST",
        body: importForm({ name: "Refused", ...fields }, file),
      });
      const page = await response.text();
      expect(page, `${response.status} ${page}`).toContain('value="Refused"');
      return { status: response.status, message: fieldError(page, field), page };
    };
    expect(await refusal({ diarization: true, speakerCount: "40" }, "speakerCount")).toMatchObject({
      status: 400,
      message: "Number of speakers must be &lt;= 32",
    });
    expect(await refusal({ speakerCount: "3" }, "speakerCount")).toMatchObject({
      status: 400,
      message: "Number of speakers needs “Tell the speakers apart” ticked",
    });
    const mono = { name: "memo.wav", bytes: oneVoice, type: "audio/wav" };
    expect(await refusal({ channel1: "Agent", channel2: "Customer" }, "channel2", mono)).toMatchObject({
      status: 400,
      message: "channelMetadata[1].channel is 2 but the audio has 1 channel",
    });
    // Diarization needs speaker models or a server that labels speakers; this one does neither.
    const diarized = await refusal({ diarization: true }, "diarization");
    expect(diarized.status).toBe(503);
    expect(diarized.message).toMatch(/^“Tell the speakers apart” needs a way to tell speakers apart/);
    expect(diarized.page).toMatch(/id="field-diarization"[^>]*checked/);
  }, 90_000);

  it("says what an empty media URL plays, and names each link's conversation in the list", async () => {
    const { client, token } = await signedIn();
    const { conversationId } = await server.ingest(token, {
      name: "Quarterly planning",
      messages: [{ payload: { content: "We plan the quarter." }, from: { name: "Ann" } }],
    });
    const form = await (await client.request(`/console/conversations/${conversationId}/links/new`)).text();
    for (const field of ["videoUrl", "audioUrl"]) {
      expect(new RegExp(`id="field-${field}-hint">([^<]*)<`).exec(form)?.[1]).toBe(
        "Empty: the page plays the conversation&#39;s own recording, when it was made from one (uploaded or fetched); a conversation without one needs a URL here.",
      );
    }
    for (let made = 0; made < 3; made += 1)
      await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const list = await (await client.request("/console/links")).text();
    const rows = [...list.matchAll(/<th scope="row">([\s\S]*?)<\/th>/g)].map((match) => match[1] ?? "");
    expect(rows).toHaveLength(3);
    for (const row of rows)
      expect(row).toContain('<span class="link-conversation">Quarterly planning</span>');
    expect(new Set(rows).size).toBe(3);
  }, 60_000);
});
