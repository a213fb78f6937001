// Slow work shows on Slack whatever the command's definition says: "Working on…" appears, then becomes the answer in place.
import { afterEach, describe, expect, it } from "vitest";
import { slashCommand } from "./slack-payloads.ts";
import { startSlackHarness, type SlackHarness } from "./slack-harness.ts";
import { createTestCommands } from "./test-commands.ts";

let h: SlackHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("slow work on Slack", () => {
  it("posts Working on… for a command not marked slow that is still running, and edits it into the answer", async () => {
    const t = createTestCommands();
    h = await startSlackHarness({ commands: t.commands });
    await h.slash(slashCommand({ text: "wait", responseUrl: h.fake.responseUrl() }));
    // The command is still waiting on its gate: the bot said it is working on it.
    const working = await h.fake.waitForCall("chat.postMessage", (c) => c.body.text === "Working on /rl wait…");
    const ts = [...h.fake.messages.values()].find((m) => m.text === "Working on /rl wait…")?.ts;
    expect(working.ok).toBe(true);
    t.gate.open();
    const answer = await h.fake.waitForCall("chat.update", (c) => String(c.body.text).startsWith("Waited"));
    expect(answer.body.ts).toBe(ts);
    expect(h.fake.calls.filter((c) => c.method === "chat.postMessage")).toHaveLength(1);
  });
});
