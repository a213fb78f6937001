import { afterEach, describe, expect, it } from "vitest";
import { createChatHandler } from "../../adapters/chat/create-chat-handler.ts";
import {
  conversation,
  LLM_KEY,
  SLACK,
  startChatHarness,
  toolResult,
  type ChatHarness,
  type HarnessOptions,
} from "./chat-harness.ts";

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const start = async (options: HarnessOptions = {}): Promise<ChatHarness> => {
  harness = await startChatHarness({ ...options, env: { RL_OPERATORS: "slack:U1", ...options.env } });
  return harness;
};

describe("the agent loop", () => {
  it("lists, selects, then answers, feeding each tool result back in order under its call's id", async () => {
    const h = await start();
    h.fake.script(
      { toolCalls: [{ name: "rl_list_environments", arguments: {} }] },
      { toolCalls: [{ name: "rl_select_environment", arguments: { name: "arithmetic" } }] },
      { text: "I selected arithmetic for this channel." },
    );
    const reply = await h.chat("Pick the arithmetic environment for us", h.ctx());

    expect(reply.error).toBeUndefined();
    expect(reply.text).toBe("I selected arithmetic for this channel.");
    expect(reply.buttons).toBeUndefined();
    expect(reply.data).toMatchObject({
      iterations: 3,
      tool_calls: [
        { name: "rl_list_environments", ok: true },
        { name: "rl_select_environment", ok: true },
      ],
    });
    expect(h.services.channels.selectedEnvironment(SLACK)).toBe("arithmetic");

    const requests = h.fake.requests;
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.authorization === `Bearer ${LLM_KEY}` && r.path === "/v1/chat/completions")).toBe(
      true,
    );
    const system = requests[0]!.body.messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toMatch(/no environment selected/);
    expect(system.content).toContain("rl_start_training");

    expect(conversation(h.fake, 0)).toEqual([{ role: "user", content: "Pick the arithmetic environment for us" }]);
    const second = conversation(h.fake, 1);
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(second[1]!.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "rl_list_environments", arguments: "{}" } },
    ]);
    expect(second[2]!.tool_call_id).toBe("call_1");
    const listed = toolResult(second[2]) as { environments: Array<{ name: string }> };
    expect(listed.environments.map((e) => e.name).sort()).toEqual(["arithmetic", "letters", "parity"]);

    const third = conversation(h.fake, 2);
    expect(third.slice(0, 3)).toEqual(second);
    expect(third.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    expect(third[3]!.tool_calls?.[0]).toMatchObject({ id: "call_2", function: { name: "rl_select_environment" } });
    expect(third[4]!.tool_call_id).toBe("call_2");
    expect(toolResult(third[4])).toMatchObject({ environment: "arithmetic" });

    expect(h.progress).toEqual([
      "Thinking…",
      "Running rl_list_environments…",
      "Thinking…",
      "Running rl_select_environment…",
      "Thinking…",
    ]);
  });

  it("runs two calls of one turn one after the other and answers both, in order", async () => {
    const h = await start();
    h.fake.script(
      {
        toolCalls: [
          { id: "first", name: "rl_select_environment", arguments: { name: "parity" } },
          { id: "second", name: "rl_get_current_config", arguments: {} },
        ],
      },
      { text: "Parity is selected; here is its config." },
    );
    const reply = await h.chat("use parity and show me its config", h.ctx());
    expect(reply.text).toBe("Parity is selected; here is its config.");
    const messages = conversation(h.fake, 1);
    expect(messages.map((m) => [m.role, m.tool_call_id])).toEqual([
      ["user", undefined],
      ["assistant", undefined],
      ["tool", "first"],
      ["tool", "second"],
    ]);
    expect(toolResult(messages[2])).toMatchObject({ environment: "parity" });
    // The config answer is parity's: the second call ran after the first had finished. (With the trainer's fields
    // the whole config passes the tool-result bound, so it comes shrunk, every field kept, as valid JSON.)
    expect(toolResult(messages[3])).toMatchObject({ shortened: expect.any(String), result: { environment: "parity" } });
    expect(h.progress).toEqual([
      "Thinking…",
      "Running rl_select_environment…",
      "Running rl_get_current_config…",
      "Thinking…",
    ]);
  });

  it("answers malformed arguments, wrong types and unknown tools with errors the model corrects", async () => {
    const h = await start();
    h.fake.script(
      {
        toolCalls: [
          { name: "rl_select_environment", arguments: '{"name": arith' },
          { name: "rl_select_environment", arguments: { name: 42 } },
          { name: "rl_select_environment", arguments: '["arithmetic"]' },
          { name: "rl_launch_rockets", arguments: {} },
        ],
      },
      (request) => {
        // The model reads the errors and tries again properly.
        const results = request.body.messages
          .filter((m) => m.role === "tool")
          .map((m) => (toolResult(m).error as { code: string }).code);
        expect(results).toEqual(["INVALID_ARGUMENTS", "USAGE", "INVALID_ARGUMENTS", "UNKNOWN_TOOL"]);
        return { toolCalls: [{ name: "rl_select_environment", arguments: { name: "arithmetic" } }] };
      },
      { text: "Done: arithmetic is selected." },
    );
    const reply = await h.chat("select arithmetic", h.ctx());
    expect(reply.error).toBeUndefined();
    expect(reply.text).toBe("Done: arithmetic is selected.");
    expect(h.services.channels.selectedEnvironment(SLACK)).toBe("arithmetic");

    const tools = conversation(h.fake, 1)
      .filter((m) => m.role === "tool")
      .map((m) => toolResult(m).error as { code: string; message: string });
    expect(tools[0]!.message).toMatch(/not valid JSON/);
    expect(tools[1]!.message).toMatch(/^name: .*expected string/);
    expect(tools[3]!.message).toMatch(/no tool named "rl_launch_rockets".*rl_select_environment/);
    expect(toolResult(conversation(h.fake, 2).at(-1))).toMatchObject({ environment: "arithmetic" });
    expect(h.progress).toContain("Running rl_launch_rockets…");
  });

  it("stops at the iteration limit with a clear message, and leaves a history the endpoint accepts", async () => {
    const h = await start({ chat: { maxIterations: 3 } });
    const again = { toolCalls: [{ name: "rl_list_environments" }] };
    h.fake.script(again, again, again, again);
    const reply = await h.chat("keep listing", h.ctx());
    expect(h.fake.requests).toHaveLength(3);
    expect(h.fake.pending()).toBe(1);
    expect(reply.error).toMatchObject({ code: "ITERATION_LIMIT", details: { max_iterations: 3 } });
    expect(reply.text).toMatch(/stopped after 3 steps/);
    expect(reply.text).toContain("LLM_MAX_ITERATIONS");
    expect(reply.text).toContain("rl_list_environments (done)");

    h.fake.requests.length = 0;
    h.fake.script({ text: "Sorry about that." });
    expect((await h.chat("ok, stop", h.ctx())).text).toBe("Sorry about that.");
    // The fake refuses a history with an unanswered call; the previous turn is closed by a note.
    expect(h.fake.requests[0]!.status).toBe(200);
    expect(conversation(h.fake, 0).at(-2)).toMatchObject({
      role: "assistant",
      content: expect.stringMatching(/stopped after 3 steps/),
    });
  });

  it("reads its limits from the LLM settings, and sends through the injected fetch", async () => {
    const h = await start();
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      seen.push(String(input));
      return globalThis.fetch(input, init);
    };
    const chat = createChatHandler(h.services, { fetch, llm: { ...h.services.config.llm, maxIterations: 2 } });
    const again = { toolCalls: [{ name: "rl_list_runs", arguments: { limit: 1 } }] };
    h.fake.script(again, again, again);
    const reply = await chat("list runs forever", h.ctx());
    expect(reply.error?.code).toBe("ITERATION_LIMIT");
    expect(seen).toEqual([`${h.fake.baseUrl}/chat/completions`, `${h.fake.baseUrl}/chat/completions`]);
  });

  it("keeps going when showing progress fails", async () => {
    const h = await start();
    h.fake.script({ toolCalls: [{ name: "rl_list_environments" }] }, { text: "Three environments." });
    const ctx = { ...h.ctx(), progress: async () => Promise.reject(new Error("message_not_found")) };
    expect((await h.chat("list them", ctx)).text).toBe("Three environments.");
  });
});
