// The one boundary where a tool result leaves for the model's provider masks the bot's keys, whatever the result holds:
// a key in a failed run's stored error and config (texts the run report passes on as they are) never reaches the model.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { logPathOf } from "../../src/stacks/log-path.ts";
import { SLACK, startChatHarness, toolResult, type ChatHarness } from "../chat/chat-harness.ts";

const KEY = "tk-the-bot-tinker-key-0123456789";
let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("tool results sent to the model's provider", () => {
  it("never carry a key of the bot's, asked about through each read tool", async () => {
    const h = (harness = await startChatHarness({ env: { TINKER_API_KEY: KEY } }));
    const { services } = h;
    services.runs.insert({
      id: "dead0001",
      channel: SLACK,
      environment: "arithmetic",
      config: { wandb_name: `run-${KEY}` },
      status: "failed",
      createdBy: "U1",
    });
    services.runs.update("dead0001", {
      failedComponent: "trainer",
      error: `The trainer exited with code 1: auth failed for ${KEY}`,
    });
    const log = logPathOf(services.config.logsDir, "dead0001", "trainer");
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(log, `Connecting with key ${KEY}\nRuntimeError: boom\n`);

    const reads = [
      { name: "rl_get_results", arguments: { run: "dead0001" } },
      { name: "rl_check_status", arguments: { run: "dead0001" } },
      { name: "rl_list_runs", arguments: {} },
      { name: "rl_get_logs", arguments: { run: "dead0001" } },
      { name: "rl_compare_runs", arguments: { runs: "dead0001" } },
    ];
    h.fake.script({ toolCalls: reads }, { text: "It failed on authentication." });
    await h.chat("why did dead0001 fail?", h.ctx());

    const sent = h.fake.requests.at(-1)!.body.messages.filter((m) => m.role === "tool");
    expect(sent).toHaveLength(reads.length);
    // The stored error is what the person asked about: it reaches the model, with the key masked.
    expect(JSON.stringify(toolResult(sent[0]))).toContain("auth failed for [redacted]");
    expect(JSON.stringify(h.fake.requests)).not.toContain(KEY);
  });
});
