// The fake Slack Web API itself: form and JSON bodies, tokens, views, faults, response_url limits.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeSlackApi, type FakeSlack } from "../fakes/slack-api.ts";

let fake: FakeSlack | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const call = (f: FakeSlack, method: string, body: string, contentType: string, token = "xoxb-t") =>
  fetch(`${f.apiUrl}${method}`, { method: "POST", headers: { "content-type": contentType, authorization: `Bearer ${token}` }, body });

describe("fake Slack Web API", () => {
  it("reads JSON and form bodies alike, parsing JSON-valued form fields", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "hi" } }];
    const json = await call(fake, "chat.postMessage", JSON.stringify({ channel: "C1", text: "hi", blocks }), "application/json; charset=utf-8");
    const form = await call(fake, "chat.postMessage", new URLSearchParams({ channel: "C1", text: "hi", blocks: JSON.stringify(blocks) }).toString(), "application/x-www-form-urlencoded");
    expect(await json.json()).toMatchObject({ ok: true, channel: "C1" });
    expect(await form.json()).toMatchObject({ ok: true, channel: "C1" });
    expect(fake.calls.items.map((c) => c.body.blocks)).toEqual([blocks, blocks]);
  });

  it("checks tokens: the bot token for methods, the app token for apps.connections.open", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t", appToken: "xapp-t" });
    expect(await (await call(fake, "auth.test", "", "application/x-www-form-urlencoded", "xoxb-wrong")).json()).toMatchObject({ ok: false, error: "invalid_auth" });
    expect(await (await call(fake, "apps.connections.open", "", "application/x-www-form-urlencoded", "xoxb-t")).json()).toMatchObject({ ok: false });
    const open = (await (await call(fake, "apps.connections.open", "", "application/x-www-form-urlencoded", "xapp-t")).json()) as { url: string };
    expect(open.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket-mode\//);
  });

  it("answers views.*, refuses invalid blocks and unknown methods like Slack", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    const view = await call(fake, "views.open", JSON.stringify({ trigger_id: "x", view: { type: "modal", title: { type: "plain_text", text: "T" } } }), "application/json");
    expect(await view.json()).toMatchObject({ ok: true, view: { id: "V1", type: "modal" } });
    const tooMany = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const refused = await call(fake, "chat.postMessage", JSON.stringify({ channel: "C1", text: "x", blocks: tooMany }), "application/json");
    expect(await refused.json()).toMatchObject({ ok: false, error: "invalid_blocks" });
    expect(await (await call(fake, "no.such", "", "application/json")).json()).toMatchObject({ ok: false, error: "unknown_method" });
  });

  it("answers a queued fault once: 429 with Retry-After, then ok:false, then normally", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    fake.failNext("chat.update", { status: 429, retryAfter: 7 });
    fake.failNext("chat.update", { error: "message_not_found" });
    const first = await call(fake, "chat.update", "{}", "application/json");
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("7");
    expect(await (await call(fake, "chat.update", "{}", "application/json")).json()).toMatchObject({ ok: false, error: "message_not_found" });
    const posted = (await (await call(fake, "chat.postMessage", JSON.stringify({ channel: "C1", text: "a" }), "application/json")).json()) as { ts: string };
    const updated = await call(fake, "chat.update", JSON.stringify({ channel: "C1", ts: posted.ts, text: "b" }), "application/json");
    expect(await updated.json()).toMatchObject({ ok: true, ts: posted.ts });
    expect(fake.messages.get(`C1:${posted.ts}`)?.text).toBe("b");
  });

  it("serves response_urls up to five times, and records each use", async () => {
    fake = await startFakeSlackApi();
    const url = fake.responseUrl();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: `n${i}` }) })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(fake.responses.items.map((r) => r.body.text)).toEqual(["n0", "n1", "n2", "n3", "n4"]);
    expect((await fetch(`${fake.baseUrl}/response/unknown`, { method: "POST", body: "{}" })).status).toBe(404);
  });
});
