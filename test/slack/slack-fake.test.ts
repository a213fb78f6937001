// The fake Slack Web API itself: form and JSON bodies, tokens, views, faults, response_url limits, file uploads.
import { afterEach, describe, expect, it } from "vitest";
import { startFakeSlackApi, type FakeSlack } from "../fakes/slack-api.ts";

let fake: FakeSlack | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const call = (f: FakeSlack, method: string, body: string, contentType: string, token = "xoxb-t") =>
  fetch(`${f.apiUrl}${method}`, {
    method: "POST",
    headers: { "content-type": contentType, authorization: `Bearer ${token}` },
    body,
  });

describe("fake Slack Web API", () => {
  it("reads JSON and form bodies alike, parsing JSON-valued form fields", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "hi" } }];
    const json = await call(
      fake,
      "chat.postMessage",
      JSON.stringify({ channel: "C1", text: "hi", blocks }),
      "application/json; charset=utf-8",
    );
    const form = await call(
      fake,
      "chat.postMessage",
      new URLSearchParams({ channel: "C1", text: "hi", blocks: JSON.stringify(blocks) }).toString(),
      "application/x-www-form-urlencoded",
    );
    expect(await json.json()).toMatchObject({ ok: true, channel: "C1" });
    expect(await form.json()).toMatchObject({ ok: true, channel: "C1" });
    expect(fake.calls.items.map((c) => c.body.blocks)).toEqual([blocks, blocks]);
  });

  it("checks tokens: the bot token for methods, the app token for apps.connections.open", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t", appToken: "xapp-t" });
    expect(
      await (await call(fake, "auth.test", "", "application/x-www-form-urlencoded", "xoxb-wrong")).json(),
    ).toMatchObject({ ok: false, error: "invalid_auth" });
    expect(
      await (await call(fake, "apps.connections.open", "", "application/x-www-form-urlencoded", "xoxb-t")).json(),
    ).toMatchObject({ ok: false });
    const open = (await (
      await call(fake, "apps.connections.open", "", "application/x-www-form-urlencoded", "xapp-t")
    ).json()) as { url: string };
    expect(open.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket-mode\//);
  });

  it("answers views.*, refuses invalid blocks and unknown methods like Slack", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    const view = await call(
      fake,
      "views.open",
      JSON.stringify({ trigger_id: "x", view: { type: "modal", title: { type: "plain_text", text: "T" } } }),
      "application/json",
    );
    expect(await view.json()).toMatchObject({ ok: true, view: { id: "V1", type: "modal" } });
    const tooMany = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const refused = await call(
      fake,
      "chat.postMessage",
      JSON.stringify({ channel: "C1", text: "x", blocks: tooMany }),
      "application/json",
    );
    expect(await refused.json()).toMatchObject({ ok: false, error: "invalid_blocks" });
    expect(await (await call(fake, "no.such", "", "application/json")).json()).toMatchObject({
      ok: false,
      error: "unknown_method",
    });
  });

  it("answers a queued fault once: 429 with Retry-After, then ok:false, then normally", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    fake.failNext("chat.update", { status: 429, retryAfter: 7 });
    fake.failNext("chat.update", { error: "message_not_found" });
    const first = await call(fake, "chat.update", "{}", "application/json");
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("7");
    expect(await (await call(fake, "chat.update", "{}", "application/json")).json()).toMatchObject({
      ok: false,
      error: "message_not_found",
    });
    const posted = (await (
      await call(fake, "chat.postMessage", JSON.stringify({ channel: "C1", text: "a" }), "application/json")
    ).json()) as { ts: string };
    const updated = await call(
      fake,
      "chat.update",
      JSON.stringify({ channel: "C1", ts: posted.ts, text: "b" }),
      "application/json",
    );
    expect(await updated.json()).toMatchObject({ ok: true, ts: posted.ts });
    expect(fake.messages.get(`C1:${posted.ts}`)?.text).toBe("b");
  });

  it("serves response_urls up to five times, and records each use", async () => {
    fake = await startFakeSlackApi();
    const url = fake.responseUrl();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ text: `n${i}` }),
          })
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(fake.responses.items.map((r) => r.body.text)).toEqual(["n0", "n1", "n2", "n3", "n4"]);
    expect((await fetch(`${fake.baseUrl}/response/unknown`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("takes a file in three steps (upload URL, raw or multipart bytes, complete) and completes only uploaded files", async () => {
    fake = await startFakeSlackApi({ botToken: "xoxb-t" });
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from("rest")]);
    const urlFor = async (filename: string, length: number) =>
      (await (
        await call(
          fake!,
          "files.getUploadURLExternal",
          new URLSearchParams({ filename, length: String(length) }).toString(),
          "application/x-www-form-urlencoded",
        )
      ).json()) as {
        upload_url: string;
        file_id: string;
      };
    const complete = (body: Record<string, unknown>) =>
      call(fake!, "files.completeUploadExternal", JSON.stringify(body), "application/json");

    const raw = await urlFor("a.png", png.length);
    expect(raw.upload_url.startsWith(`${fake.baseUrl}/upload/`)).toBe(true);
    // Completing before the bytes arrived is refused, as Slack does.
    expect(await (await complete({ files: [{ id: raw.file_id }], channel_id: "C1" })).json()).toMatchObject({
      ok: false,
      error: "file_not_found",
    });
    expect((await fetch(raw.upload_url, { method: "POST", body: png })).status).toBe(200);
    expect(
      await (await complete({ files: [{ id: raw.file_id, title: "A" }], channel_id: "C1", thread_ts: "1.2" })).json(),
    ).toMatchObject({
      ok: true,
      files: [{ id: raw.file_id, title: "A", mimetype: "image/png" }],
    });

    const text = Buffer.from("not a picture");
    const multipart = await urlFor("b.txt", text.length);
    const form = new FormData();
    form.append("file", new Blob([text]), "b.txt");
    expect((await fetch(multipart.upload_url, { method: "POST", body: form })).status).toBe(200);
    await complete({ files: [{ id: multipart.file_id }] });

    expect(
      fake.uploads.items.map((u) => ({
        name: u.filename,
        png: u.isPng,
        bytes: u.bytes.toString("latin1"),
        channel: u.channel,
        thread: u.thread_ts,
      })),
    ).toEqual([
      { name: "a.png", png: true, bytes: png.toString("latin1"), channel: "C1", thread: "1.2" },
      { name: "b.txt", png: false, bytes: "not a picture", channel: undefined, thread: undefined },
    ]);
    expect(await (await complete({ files: [{ id: "F404" }] })).json()).toMatchObject({
      ok: false,
      error: "file_not_found",
    });
    expect((await fetch(`${fake.baseUrl}/upload/F404`, { method: "POST", body: "x" })).status).toBe(404);
    expect(await (await complete({ files: [{ id: raw.file_id }], thread_ts: "1.2" })).json()).toMatchObject({
      ok: false,
      error: "invalid_arguments",
    });
  });
});
