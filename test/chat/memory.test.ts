import { afterEach, describe, expect, it } from "vitest";
import { createConversationsRepo, startIndex } from "../../db/conversations.ts";
import { openDatabase } from "../../db/open-database.ts";
import { repairHistory } from "../../adapters/chat/repair-history.ts";
import { conversation, SLACK, startChatHarness, type ChatHarness } from "./chat-harness.ts";

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const selectTurn = [
  { toolCalls: [{ name: "rl_select_environment", arguments: { name: "letters" } }] },
  { text: "letters is selected." },
] as const;

describe("conversation memory", () => {
  it("remembers a thread's earlier turns, tool calls included, and describes the new selection", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.fake.script(...selectTurn);
    await h.chat("select letters", h.ctx({ thread: "1700000000.000100" }));
    h.fake.script({ text: "You selected letters a moment ago." });
    const reply = await h.chat("what did I just select?", h.ctx({ thread: "1700000000.000100" }));
    expect(reply.text).toBe("You selected letters a moment ago.");

    const request = h.fake.requests[2]!;
    expect(request.body.messages[0]!.content).toContain('selected environment is "letters"');
    expect(conversation(h.fake, 2).map((m) => [m.role, m.content ?? null])).toEqual([
      ["user", "select letters"],
      ["assistant", null],
      ["tool", expect.stringContaining('"environment":"letters"')],
      ["assistant", "letters is selected."],
      ["user", "what did I just select?"],
    ]);
  });

  it("keeps each thread's memory apart", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.fake.script(...selectTurn, { text: "Nothing yet in this thread." });
    await h.chat("select letters", h.ctx({ thread: "A" }));
    await h.chat("what did we do?", h.ctx({ thread: "B" }));
    expect(conversation(h.fake, 2)).toEqual([{ role: "user", content: "what did we do?" }]);
  });

  it("survives a restart: a new services instance on the same data folder remembers the thread", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" } }));
    h.fake.script(...selectTurn);
    await h.chat("select letters", h.ctx({ thread: "T1" }));
    await h.restart();
    h.fake.script({ text: "Still letters." });
    await h.chat("which one again?", h.ctx({ thread: "T1" }));
    expect(conversation(h.fake, 2).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(conversation(h.fake, 2)[0]).toEqual({ role: "user", content: "select letters" });
  });

  it("keeps at most LLM_HISTORY_MESSAGES messages, cut at a turn so no tool result is orphaned", async () => {
    const h = (harness = await startChatHarness({ env: { RL_OPERATORS: "slack:U1" }, chat: { historyMessages: 5 } }));
    h.fake.script(...selectTurn); // 4 messages: user, assistant(call), tool, assistant
    await h.chat("select letters", h.ctx());
    h.fake.script({ toolCalls: [{ name: "rl_get_current_config" }] }, { text: "Here it is." });
    await h.chat("show config", h.ctx());
    h.fake.script({ text: "ok" });
    await h.chat("thanks", h.ctx());
    // The window of 5 would start at the first turn's tool result; it starts at the second turn's question instead.
    expect(conversation(h.fake, 4).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(conversation(h.fake, 4)[0]).toEqual({ role: "user", content: "show config" });
    const repo = createConversationsRepo(h.services.db);
    // After this turn, the last 5 would start inside the config turn, so only "thanks" and its answer remain.
    expect(repo.recent({ ...SLACK }, 100).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(repo.recent({ ...SLACK }, 100)[0]).toMatchObject({ role: "user", content: "thanks" });
  });
});

describe("the conversations repository", () => {
  const key = { platform: "discord", workspace: "G", channel: "C", thread: "TH" };
  const msgs = (...roles: string[]) => roles.map((role, i) => ({ role, n: i }));

  it("appends in order and loads the last N, starting at a person's message", () => {
    const repo = createConversationsRepo(openDatabase(":memory:"));
    repo.append(key, msgs("user", "assistant", "tool", "tool", "assistant", "user", "assistant"));
    expect(repo.recent(key, 3)).toEqual([
      { role: "user", n: 5 },
      { role: "assistant", n: 6 },
    ]);
    expect(repo.recent(key, 5).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(repo.recent(key, 100).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(repo.recent({ ...key, thread: "other" }, 100)).toEqual([]);
  });

  it("trims whole turns from the front, never leaving a tool message first", () => {
    const repo = createConversationsRepo(openDatabase(":memory:"));
    repo.append(key, msgs("user", "assistant", "tool", "tool", "assistant", "user", "assistant", "tool", "assistant"));
    repo.trim(key, 6);
    expect(repo.count(key)).toBe(4);
    expect(repo.recent(key, 100).map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    // A later append continues after the kept messages.
    repo.append(key, msgs("user"));
    expect(repo.recent(key, 100).at(-1)).toEqual({ role: "user", n: 0 });
  });

  it("within one long turn, starts after any leading tool results rather than forgetting everything", () => {
    expect(startIndex(["tool", "tool", "assistant", "tool", "assistant"])).toBe(2);
    expect(startIndex(["tool", "tool"])).toBe(2);
    expect(startIndex(["assistant", "user", "assistant"])).toBe(1);
  });
});

describe("repairing a loaded history", () => {
  const call = (id: string) => ({ id, type: "function" as const, function: { name: "rl_list_runs", arguments: "{}" } });
  it("drops orphan tool results and tool calls whose results are missing, keeping whole groups", () => {
    const repaired = repairHistory([
      { role: "tool", tool_call_id: "orphan", content: "{}" },
      { role: "user", content: "q1" },
      { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
      { role: "tool", tool_call_id: "a", content: "{}" },
      { role: "user", content: "q2" },
      { role: "assistant", content: null, tool_calls: [call("c")] },
      { role: "tool", tool_call_id: "c", content: "{}" },
      { role: "assistant", content: "done" },
    ]);
    expect(repaired.map((m) => (m.role === "tool" ? `tool:${m.tool_call_id}` : m.role))).toEqual([
      "user",
      "user",
      "assistant",
      "tool:c",
      "assistant",
    ]);
  });
});
