// Surviving Discord's failures: 429s (callback, follow-up), 5xx and 4xx answers, and a dropped gateway connection.
import { describe, expect, it } from "vitest";
import {
  bodyOf,
  buttonsOf,
  embedsOf,
  isCallback,
  isFollowup,
  messageIdOf,
  harnessPerTest,
  type Harness,
} from "./harness.ts";

const start = harnessPerTest();

const callbacksOf = (harness: Harness, id: string) =>
  harness.fake.calls.filter((c) => c.method === "POST" && c.path.startsWith(`/interactions/${id}/`));

describe("REST failures", () => {
  it("retries an interaction callback answered 429 with retry_after, and logs the rate limit", async () => {
    const h = await start();
    h.fake.fault({ method: "POST", path: /\/callback$/, status: 429, retryAfter: 0.05 });
    const interaction = h.fake.slash("envs");
    const call = await interaction.callback();
    expect(embedsOf(call)[0]?.["title"]).toBe("Environments (1)");
    expect(callbacksOf(h, interaction.id).map((c) => c.status)).toEqual([429, 200]);
    expect(h.logs.some((l) => l.message === "discord: rate limited")).toBe(true);
  });

  it("retries a follow-up answered 429", async () => {
    const h = await start();
    const prompt = await h.fake.slash("launch").callback();
    h.fake.fault({ method: "POST", path: /^\/webhooks\/\d+\/[^/]+$/, status: 429, retryAfter: 0.05 });
    const click = h.fake.click(messageIdOf(prompt), buttonsOf(prompt)[0]!.custom_id);
    const followup = await h.fake.waitForCall(isFollowup(click.token), "the follow-up after the 429");
    expect(embedsOf(followup)[0]?.["title"]).toBe("Launched run r1");
    const posts = h.fake.calls.filter((c) => c.method === "POST" && c.path.endsWith(`/${click.token}`));
    expect(posts.map((c) => c.status)).toEqual([429, 200]);
  });

  it("retries a 5xx", async () => {
    const h = await start();
    h.fake.fault({ method: "POST", path: /\/callback$/, status: 502 });
    const interaction = h.fake.slash("keys");
    expect(embedsOf(await interaction.callback())[0]?.["title"]).toBe("API keys");
    expect(callbacksOf(h, interaction.id).map((c) => c.status)).toEqual([502, 200]);
    expect(h.logs.some((l) => l.message === "discord: server error, retrying")).toBe(true);
  });

  it("logs a refused reply (4xx), apologises, and keeps answering", async () => {
    const h = await start();
    h.fake.fault({ method: "POST", path: /\/callback$/, status: 400 });
    const interaction = h.fake.slash("keys");
    const apology = await h.fake.waitForCall(isCallback(interaction.id), "the apology");
    expect(String(embedsOf(apology)[0]?.["description"])).toContain("Something went wrong");
    expect((bodyOf(apology)["data"] as { flags?: number }).flags).toBe(64);
    expect(h.logs.some((l) => l.level === "error" && l.message === "discord: interaction failed")).toBe(true);
    expect(embedsOf(await h.fake.slash("keys").callback())[0]?.["title"]).toBe("API keys");
  });

  it("rejects post() with an UPSTREAM error for a channel Discord does not know, and logs it", async () => {
    const h = await start();
    await expect(
      h.adapter.post({ channel: { ...h.channel, channel: "1100000000000000999" } }, { title: "Hello" }),
    ).rejects.toMatchObject({ code: "UPSTREAM" });
    expect(h.logs.some((l) => l.message === "discord: post failed")).toBe(true);
  });
});

describe("gateway", () => {
  it("answers heartbeats and survives a dropped connection (resumes and still answers)", async () => {
    const h = await start({ heartbeatIntervalMs: 200 });
    await h.fake.waitForGateway("heartbeat");
    h.fake.dropConnection();
    await h.fake.waitForGateway("resume");
    expect(embedsOf(await h.fake.slash("keys").callback())[0]?.["title"]).toBe("API keys");
    expect(h.fake.counts.identify).toBe(1);
    expect(h.logs.some((l) => l.message === "discord: gateway reconnecting")).toBe(true);
  });

  it("identifies again when the session cannot be resumed, and still answers", async () => {
    const h = await start();
    h.fake.dropConnection(4000, { invalidateSession: true });
    // discord.js waits out its identify throttle (up to about 6.5 s after the first IDENTIFY) before this.
    await h.fake.waitForGateway("identify", 2);
    expect(embedsOf(await h.fake.slash("keys").callback())[0]?.["title"]).toBe("API keys");
  });

  it("answers an interaction sent while the connection was down, once it resumes", async () => {
    const h = await start();
    h.fake.dropConnection();
    const interaction = h.fake.slash("keys");
    expect(embedsOf(await interaction.callback())[0]?.["title"]).toBe("API keys");
  });
});
