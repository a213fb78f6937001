// /rl commands end to end through real discord.js and the fake Discord: quick, slow, usage errors, policy, threads.
import { beforeEach, describe, expect, it } from "vitest";
import { BOB, IDS } from "../fakes/discord-gateway.ts";
import { bodyOf, embedsOf, isEditOriginal, isFollowup, messageIdOf, harnessPerTest, type Harness } from "./harness.ts";
import { holdGated } from "./test-commands.ts";

const start = harnessPerTest();
let h: Harness | undefined;
const harness = (): Harness => h!;

beforeEach(async () => {
  h = await start();
});

describe("slash commands", () => {
  it("answers a quick command at once with an embed (callback type 4)", async () => {
    const { fake } = harness();
    const call = await fake.slash("envs").callback();
    expect(bodyOf(call)["type"]).toBe(4);
    const [embed] = embedsOf(call);
    expect(embed?.["title"]).toBe("Environments (1)");
    expect(String(embed?.["description"])).toContain("foo (FooEnv)");
    // A read for the asker: private (ephemeral), with a button that posts it for everyone.
    expect(((bodyOf(call)["data"] as { flags?: number }).flags ?? 0) & 64).toBe(64);
  });

  it("defers a slow command (type 5), shows progress, then edits @original with the answer", async () => {
    const { fake, anchors, channel } = harness();
    const interaction = fake.slash("slowpoke");
    const first = await interaction.callback();
    expect(bodyOf(first)["type"]).toBe(5);
    const progress = await fake.waitForCall(
      (c) => isEditOriginal(interaction.token)(c) && String(embedsOf(c)[0]?.["description"]).includes("halfway there"),
      "the progress edit",
    );
    expect(progress.status).toBe(200);
    expect(progress.rawPath).toBe(`/v10/webhooks/${IDS.application}/${interaction.token}/messages/%40original`);
    const done = await fake.waitForCall(
      (c) => isEditOriginal(interaction.token)(c) && embedsOf(c)[0]?.["title"] === "Slow done",
      "the final edit",
    );
    expect(fake.message(messageIdOf(done))?.["flags"]).toBe(0);
    expect(await harness().anchored("slow-1")).toEqual({ runId: "slow-1", channel, id: messageIdOf(done) });
    expect(anchors).toHaveLength(1);
  });

  it("defers a command that turns out slow before Discord's 3 s, then answers privately in a follow-up", async () => {
    const { fake } = harness();
    const open = holdGated();
    const interaction = fake.slash("gated");
    // The command is still waiting: the bot acknowledged on its own.
    expect(bodyOf(await interaction.callback())["type"]).toBe(5);
    open();
    // A public "thinking..." cannot become private: it is removed and the answer follows up ephemerally.
    await fake.waitForCall(
      (c) => c.method === "DELETE" && c.path.endsWith(`/${interaction.token}/messages/@original`),
      "the placeholder removal",
    );
    const followup = await fake.waitForCall(isFollowup(interaction.token), "the private answer");
    expect(bodyOf(followup)["flags"]).toBe(64);
    expect(embedsOf(followup)[0]?.["title"]).toBe("Gated done");
  });

  it("passes typed options through to the command (integer, number, boolean, choice, comma-separated list)", async () => {
    const { fake } = harness();
    const call = await fake
      .slash("typed", { count: 3, mode: "fast", ratio: 0.5, flag: true, tags: "a, b,c", label: "hi" })
      .callback();
    // The embed shows the JSON as text, Discord's markdown escapes in front of its brackets.
    expect(JSON.parse(String(embedsOf(call)[0]?.["description"]).replace(/\\(.)/g, "$1"))).toEqual({
      count: 3,
      mode: "fast",
      ratio: 0.5,
      flag: true,
      tags: ["a", "b", "c"],
      label: "hi",
    });
  });

  it("answers a usage error ephemerally (flags 64)", async () => {
    const { fake } = harness();
    const call = await fake.slash("typed", { count: 0, mode: "fast" }).callback();
    const data = bodyOf(call)["data"] as { flags?: number };
    expect(data.flags).toBe(64);
    expect(embedsOf(call)[0]?.["title"]).toBe("Usage");
    expect(String(embedsOf(call)[0]?.["description"])).toContain("/rl typed");
  });

  it("refuses a command above the person's role, ephemerally, naming who to ask", async () => {
    const { fake } = harness();
    const call = await fake.slash("select", { name: "foo" }, { user: BOB }).callback();
    expect((bodyOf(call)["data"] as { flags?: number }).flags).toBe(64);
    expect(embedsOf(call)[0]?.["title"]).toBe("Not allowed");
    expect(String(embedsOf(call)[0]?.["description"])).toContain("operate");
  });

  it("runs as the member, with role ids and names for the policy", async () => {
    const { fake } = harness();
    const call = await fake.slash("echo", { text: "hello" }).callback();
    const [embed] = embedsOf(call);
    expect(embed?.["title"]).toBe("Echo from alice");
    expect((embed?.["fields"] as Array<{ value: string }>)[0]?.value).toBe(`${IDS.operatorsRole}, operators`);
  });

  it("redacts secrets from everything it sends", async () => {
    const { fake } = harness();
    const call = await fake.slash("echo", { text: `the token is ${fake.token}` }).callback();
    expect(JSON.stringify(call.body)).not.toContain(fake.token);
    expect(String(embedsOf(call)[0]?.["description"])).toContain("[redacted]");
  });

  it("keeps a thread's selection on its parent channel", async () => {
    const { fake, services, channel } = harness();
    const call = await fake.slash("select", { name: "foo" }, { channelId: IDS.thread }).callback();
    expect(embedsOf(call)[0]?.["title"]).toBe("Selected foo");
    expect(services.channels.selectedEnvironment(channel)).toBe("foo");
  });

  it("anchors a run started in a thread to the thread", async () => {
    const { fake, anchored, channel } = harness();
    const interaction = fake.slash("slowpoke", {}, { channelId: IDS.thread });
    await fake.waitForCall(
      (c) => isEditOriginal(interaction.token)(c) && embedsOf(c)[0]?.["title"] === "Slow done",
      "the final edit",
    );
    expect(await anchored("slow-1")).toEqual({ runId: "slow-1", channel, id: IDS.thread });
  });
});
