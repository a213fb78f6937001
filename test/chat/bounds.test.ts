// Chat mode's bounds against the fake LLM over HTTP: capped answers and memory, a size cap on responses, tools by role, scalars as value text.
import { afterEach, describe, expect, it } from "vitest";
import { createConversationsRepo } from "../../db/conversations.ts";
import { MAX_HISTORY_CHARS } from "../../adapters/chat/bound-history.ts";
import { MAX_ANSWER_CHARS } from "../../adapters/chat/chat-reply.ts";
import { MAX_LLM_RESPONSE_BYTES } from "../../adapters/chat/read-capped-body.ts";
import { SLACK, startChatHarness, toolResult, type ChatHarness } from "./chat-harness.ts";

let harness: ChatHarness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("chat mode bounds", () => {
  it("shows and remembers a huge answer cut, saying how much was left out", async () => {
    const h = (harness = await startChatHarness());
    const huge = "word ".repeat(500_000).trimEnd(); // 2.5 MB
    h.fake.script({ text: huge });
    const reply = await h.chat("tell me everything", h.ctx());
    expect(reply.text!.length).toBeLessThan(MAX_ANSWER_CHARS + 200);
    expect(reply.text).toContain(`${(huge.length - MAX_ANSWER_CHARS).toLocaleString("en")} more not shown`);
    expect(JSON.stringify(reply.data).length).toBeLessThan(MAX_ANSWER_CHARS + 1_000);
    const stored = createConversationsRepo(h.services.db).recent({ ...SLACK }, 10);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(stored[1]).length).toBeLessThan(MAX_ANSWER_CHARS + 200);
  });

  it("sends back at most the memory's character budget, whole turns only", async () => {
    const h = (harness = await startChatHarness());
    for (let i = 0; i < 12; i++) {
      h.fake.script({ text: `${i} ${"x".repeat(7_000)}` });
      await h.chat(`question ${i} ${"q".repeat(500)}`, h.ctx());
    }
    h.fake.script({ text: "done" });
    await h.chat("last", h.ctx());
    const messages = h.fake.requests.at(-1)!.body.messages.filter((m) => m.role !== "system");
    expect(JSON.stringify(messages.slice(0, -1)).length).toBeLessThanOrEqual(MAX_HISTORY_CHARS);
    expect(messages[0]!.role).toBe("user");
    expect(messages.length).toBeLessThan(24);
    expect(messages.at(-1)).toEqual({ role: "user", content: "last" });
  });

  it("refuses to read a response past the size cap and says so", async () => {
    const h = (harness = await startChatHarness());
    h.fake.script({ raw: `{"pad":"${"p".repeat(MAX_LLM_RESPONSE_BYTES + 10)}"}` });
    const reply = await h.chat("hello", h.ctx());
    expect(reply.error?.code).toBe("UPSTREAM");
    expect(reply.text).toContain("over 4 MB");
  });

  it("offers a read-only person only the tools their role allows", async () => {
    const h = (harness = await startChatHarness({ env: { RL_DEFAULT_ROLE: "read", RL_OPERATORS: "slack:U9" } }));
    h.fake.script({ text: "hi" }, { text: "hi" });
    await h.chat("hello", h.ctx({ user: "U1" }));
    await h.chat("hello", h.ctx({ user: "U9" }));
    const names = (i: number) => (h.fake.requests[i]!.body.tools ?? []).map((t) => t.function.name);
    expect(names(0)).toContain("rl_get_current_config");
    expect(names(0)).not.toContain("rl_edit_config");
    expect(names(0)).not.toContain("rl_start_training");
    expect(names(1)).toContain("rl_edit_config");
    expect(names(1).length).toBeGreaterThan(names(0).length);
  });

  it("takes a JSON number or boolean where the command takes the value as text", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.fake.script(
      { toolCalls: [{ name: "rl_select_environment", arguments: { name: "arithmetic" } }] },
      { toolCalls: [{ name: "rl_edit_config", arguments: { field: "num_choices", value: 3 } }] },
      { text: "Set." },
    );
    await h.chat("use 3 choices in arithmetic", h.ctx());
    const result = toolResult(h.fake.requests[2]!.body.messages.at(-1));
    expect(result).not.toHaveProperty("error");
    expect(
      (await h.services.env.getConfig(SLACK)).configurable_fields.find((f) => f.name === "num_choices")?.current_value,
    ).toBe(3);
  });

  it("takes a JSON array for a list field", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.fake.script(
      { toolCalls: [{ name: "rl_select_environment", arguments: { name: "arithmetic" } }] },
      { toolCalls: [{ name: "rl_edit_config", arguments: { field: "operations", value: ["add", "mul"] } }] },
      { text: "Set." },
    );
    await h.chat("only add and mul in arithmetic", h.ctx());
    const result = toolResult(h.fake.requests[2]!.body.messages.at(-1));
    expect(result).not.toHaveProperty("error");
    expect(
      (await h.services.env.getConfig(SLACK)).configurable_fields.find((f) => f.name === "operations")?.current_value,
    ).toEqual(["add", "mul"]);
  });
});

describe("chat mode's limits on tool calls", () => {
  it("runs at most 20 calls of one model message and 40 in a turn, telling the model and the person", async () => {
    const h = (harness = await startChatHarness());
    const many = { toolCalls: Array.from({ length: 25 }, () => ({ name: "rl_list_runs", arguments: {} })) };
    h.fake.script(many, many, { text: "Here are your runs." });
    const reply = await h.chat("list my runs, many times", h.ctx());

    const results = (index: number) => {
      const tools = h.fake.requests[index]!.body.messages.filter((m) => m.role === "tool").map(toolResult);
      return tools.slice(index === 1 ? 0 : 25);
    };
    const limited = (rs: Array<Record<string, unknown>>) =>
      rs.filter((r) => JSON.stringify(r).includes("TOOL_CALL_LIMIT")).map((r) => JSON.stringify(r));
    // The first message: 20 ran, the last 5 were answered "not run" with what to do.
    expect(limited(results(1))).toHaveLength(5);
    expect(limited(results(1))[0]).toContain("at most 20 tool calls run from one message");
    // The second: the turn's 40 were reached after 20 more.
    expect(limited(results(2))).toHaveLength(5);
    expect(limited(results(2))[0]).toContain("this turn has used its 40 tool calls");
    expect(reply.text).toContain("Here are your runs.");
    expect(reply.text).toContain("(10 more tool calls were not run: at most 40 per message of yours.)");
  });
});
