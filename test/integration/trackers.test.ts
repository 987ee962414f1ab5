import { describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { timedLines } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

describe.each(await dialects())("trackers on %s", (dialect) => {
  const suite = suiteServer(dialect);
  const newApp = async () => apiClient(suite.server.url, (await suite.server.newApp()).token);

  it("creates, lists, reads, replaces and deletes an app's trackers, at both of Symbl's spellings", async () => {
    const api = await newApp();
    const created = await api.post<Body.TrackerAnswer>("/v1/manage/tracker", {
      name: "Pricing",
      vocabulary: ["price", "discount"],
    });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body.tracker;
    expect(id).toMatch(/^\d{16}$/);
    expect(created.body.tracker).toEqual({ id, name: "Pricing", vocabulary: ["price", "discount"] });

    const bulk = await api.post<Body.TrackerList>("/v1/manage/trackers", [
      { name: "Voicemail", vocabulary: ["leave a message"] },
      { name: "Budget", vocabulary: ["budget"] },
    ]);
    expect(bulk.status, bulk.text).toBe(201);
    const list = await api.get<Body.TrackerList>("/v1/manage/trackers");
    // Oldest first; trackers made by one request by name.
    expect(list.body.trackers.map((t) => t.name)).toEqual(["Pricing", "Budget", "Voicemail"]);
    const byName = await api.get<Body.TrackerList>("/v1/manage/trackers?name=Budget");
    expect(byName.body.trackers.map((t) => t.name)).toEqual(["Budget"]);

    expect((await api.get<Body.TrackerAnswer>(`/v1/manage/tracker/${id}`)).body.tracker.name).toBe("Pricing");
    const replaced = await api.put<Body.TrackerAnswer>(`/v1/manage/trackers/${id}`, {
      id,
      name: "Prices",
      vocabulary: ["cost"],
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.tracker).toEqual({ id, name: "Prices", vocabulary: ["cost"] });
    expect((await api.get<Body.TrackerAnswer>(`/v1/manage/trackers/${id}`)).body.tracker.vocabulary).toEqual([
      "cost",
    ]);

    const deleted = await api.delete<Body.TrackerDeleted>(`/v1/manage/tracker/${id}`);
    expect(deleted.body).toEqual({ id, type: "tracker", deleted: true });
    expect((await api.get(`/v1/manage/tracker/${id}`)).status).toBe(404);
    expect((await api.delete(`/v1/manage/tracker/${id}`)).status).toBe(404);
  });

  it("refuses a taken name with a 409 and bad input with a 400 naming the field, storing nothing", async () => {
    const api = await newApp();
    await api.post("/v1/manage/tracker", { name: "Pricing", vocabulary: ["price"] });
    const taken = await api.post<Body.ErrorBody>("/v1/manage/tracker", {
      name: "Pricing",
      vocabulary: ["cost"],
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('"Pricing" already exists');
    const halfTaken = await api.post<Body.ErrorBody>("/v1/manage/trackers", [
      { name: "Budget", vocabulary: ["budget"] },
      { name: "Pricing", vocabulary: ["cost"] },
    ]);
    expect(halfTaken.status).toBe(409);

    const refusals: [unknown, string][] = [
      [{ vocabulary: ["price"] }, "name is required"],
      [{ name: "   ", vocabulary: ["price"] }, "name must not be blank"],
      [{ name: "X", vocabulary: [] }, "vocabulary must NOT have fewer than 1 items"],
      [{ name: "X", vocabulary: ["price?"] }, "vocabulary[0] must be letters, digits, spaces"],
      [{ name: "X", vocabulary: ["price", "price"] }, "vocabulary must NOT have duplicate items"],
      [{ name: "X", vocabulary: ["price"], colour: "red" }, 'unknown property "colour"'],
    ];
    for (const [body, wording] of refusals) {
      const answer = await api.post<Body.ErrorBody>("/v1/manage/tracker", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toContain(wording);
    }
    const names = (await api.get<Body.TrackerList>("/v1/manage/trackers")).body.trackers.map((t) => t.name);
    expect(names).toEqual(["Pricing"]);

    const { id } = (await api.get<Body.TrackerList>("/v1/manage/trackers")).body.trackers[0] ?? { id: "" };
    const otherId = await api.put<Body.ErrorBody>(`/v1/manage/tracker/${id}`, {
      id: "1",
      name: "Pricing",
      vocabulary: ["price"],
    });
    expect(otherId.status).toBe(400);
    expect(otherId.body.message).toContain("id must equal the trackerId");
  });

  it("holds an app to 500 trackers when creates race each other", async () => {
    const api = await newApp();
    const trackers = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `T${from + i}`, vocabulary: ["price"] }));
    for (const from of [0, 100, 200, 300, 400]) {
      const batch = await api.post("/v1/manage/trackers", trackers(from, from === 400 ? 95 : 100));
      expect(batch.status, batch.text).toBe(201);
    }
    const racing = await Promise.all(
      trackers(495, 30).map((body) => api.post<Body.ErrorBody>("/v1/manage/tracker", body)),
    );
    const statuses = racing.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status !== 201)).toEqual(Array(25).fill(409));
    expect((await api.get<Body.TrackerList>("/v1/manage/trackers")).body.trackers).toHaveLength(500);
    const full = await api.post<Body.ErrorBody>("/v1/manage/tracker", {
      name: "One more",
      vocabulary: ["x"],
    });
    expect([full.status, full.body.message]).toEqual([409, "An app has at most 500 trackers"]);
  });

  it("keeps each app's trackers to itself: another app's tracker is a 404", async () => {
    const mine = await newApp();
    const { body } = await mine.post<Body.TrackerAnswer>("/v1/manage/tracker", {
      name: "Mine",
      vocabulary: ["x"],
    });
    const theirs = await newApp();
    const path = `/v1/manage/tracker/${body.tracker.id}`;
    expect((await theirs.get(path)).status).toBe(404);
    expect((await theirs.put(path, { name: "Taken", vocabulary: ["y"] })).status).toBe(404);
    expect((await theirs.delete(path)).status).toBe(404);
    expect((await theirs.get<Body.TrackerList>("/v1/manage/trackers")).body.trackers).toEqual([]);
    // The same name is free in another app.
    expect((await theirs.post("/v1/manage/tracker", { name: "Mine", vocabulary: ["x"] })).status).toBe(201);
    expect((await mine.get<Body.TrackerAnswer>(path)).body.tracker.vocabulary).toEqual(["x"]);
  });

  it("matches trackers in a conversation by stem and in any case, and applies new and changed ones on read", async () => {
    const api = suite.api;
    const { conversationId } = await suite.server.ingest(suite.token, {
      messages: timedLines([
        ["Ann Lee", "Bob, can you send the report by Friday?"],
        ["Bob Stone", "Sure. What PRICES did the vendor quote?"],
        ["Ann Lee", "They offered a discount if we sign this month."],
      ]),
    });
    const path = `/v1/conversations/${conversationId}/trackers`;
    expect((await api.get<Body.DetectedTrackers>(path)).body).toEqual([]);

    const { body } = await api.post<Body.TrackerAnswer>("/v1/manage/tracker", {
      name: "Pricing",
      vocabulary: ["pricing", "discounts", "refund"],
    });
    const messages = (await api.get<Body.MessageList>(`/v1/conversations/${conversationId}/messages`)).body
      .messages;
    const detected = await api.get<Body.DetectedTrackers>(path);
    expect(detected.status).toBe(200);
    expect(detected.body).toEqual([
      {
        id: body.tracker.id,
        name: "Pricing",
        matches: [
          {
            type: "vocabulary",
            value: "pricing",
            messageRefs: [{ id: messages[1]?.id, text: "PRICES", offset: 11 }],
            insightRefs: [],
          },
          {
            type: "vocabulary",
            value: "discounts",
            messageRefs: [{ id: messages[2]?.id, text: "discount", offset: 15 }],
            insightRefs: [],
          },
        ],
      },
    ]);

    await api.put(`/v1/manage/tracker/${body.tracker.id}`, {
      name: "Reports",
      vocabulary: ["Sending the reports"],
    });
    const changed = await api.get<Body.DetectedTrackers>(
      `/v1/conversations/${conversationId}/trackers-detected`,
    );
    expect(changed.body.map((t) => [t.name, t.matches.map((m) => m.messageRefs.map((r) => r.id))])).toEqual([
      ["Reports", [[messages[0]?.id]]],
    ]);
    const actionItem = changed.body[0]?.matches[0]?.insightRefs[0];
    expect(actionItem?.type).toBe("action_item");

    const stranger = await newApp();
    expect((await stranger.get(path)).status).toBe(404);
  });
});
