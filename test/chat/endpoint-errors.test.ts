import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_CHANNEL } from "../../adapters/console/console.ts";
import type { Reply } from "../../src/reply.ts";
import { conversation, LLM_KEY, startChatHarness, type ChatHarness, type HarnessOptions } from "./chat-harness.ts";

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const start = async (options: HarnessOptions = {}): Promise<ChatHarness> => (harness = await startChatHarness(options));

/** Everything the person could see of a reply. */
const shown = (reply: Reply): string => JSON.stringify(reply);

describe("chat without an LLM", () => {
  it("answers with a short list of /rl commands, not an error, and calls nothing", async () => {
    const h = await start({ noLlm: true });
    const reply = await h.chat("start a run please", h.ctx());
    expect(reply.error).toBeUndefined();
    expect(reply.text).toMatch(/LLM_BASE_URL and LLM_MODEL/);
    const list = reply.blocks?.[0]?.content ?? "";
    for (const command of ["/rl envs", "/rl select <name>", "/rl start", "/rl status [run]"])
      expect(list).toContain(command);
    expect(h.fake.requests).toEqual([]);
  });

  it("treats an empty message as a request for help", async () => {
    const h = await start();
    const reply = await h.chat("   ", h.ctx());
    expect(reply.error).toBeUndefined();
    expect(reply.blocks?.[0]?.content).toContain("/rl help");
    expect(h.fake.requests).toEqual([]);
  });
});

describe("endpoint failures become clear replies without secrets", () => {
  it("a wrong key: says to check LLM_API_KEY and never repeats the key the endpoint echoed", async () => {
    const wrong = "sk-wrong-key-ABCDEFGHIJKLMNOP";
    const h = await start({ env: { LLM_API_KEY: wrong } });
    const reply = await h.chat("list environments", h.ctx());
    expect(h.fake.requests[0]!.status).toBe(401);
    expect(reply.error).toMatchObject({ code: "UPSTREAM", details: { status: 401 } });
    expect(reply.text).toMatch(/refused the API key \(HTTP 401\)\. Check LLM_API_KEY/);
    expect(shown(reply)).not.toContain(wrong);
    expect(shown(reply)).not.toContain(LLM_KEY);
  });

  it("429: says when to try again, from Retry-After", async () => {
    const h = await start();
    h.fake.script({
      status: 429,
      headers: { "Retry-After": "7" },
      body: { error: { message: "Rate limit exceeded" } },
    });
    const reply = await h.chat("list environments", h.ctx());
    expect(reply.error).toMatchObject({ code: "RATE_LIMITED", details: { status: 429, retry_after_seconds: 7 } });
    expect(reply.title).toBe("The language model is busy");
    expect(reply.text).toMatch(/Try again in 7 seconds/);
  });

  it("500: says the service failed", async () => {
    const h = await start();
    h.fake.script({ status: 500 });
    const reply = await h.chat("list environments", h.ctx());
    expect(reply.error?.code).toBe("UPSTREAM");
    expect(reply.text).toMatch(/failed \(HTTP 500\)\. Try again/);
  });

  it("a slow endpoint: times out with a clear message", async () => {
    const h = await start({ chat: { timeoutMs: 200 } });
    h.fake.script({ delayMs: 30_000, then: { text: "too late" } });
    const reply = await h.chat("list environments", h.ctx());
    expect(reply.error?.code).toBe("TIMEOUT");
    expect(reply.text).toMatch(/did not answer within/);
  });

  it("an answer that is not JSON, or not a completion", async () => {
    const h = await start();
    h.fake.script(
      { raw: "<html>Bad gateway</html>" },
      { raw: JSON.stringify({ error: { message: "Provider returned error", code: 502 } }) },
      { raw: "{}" },
    );
    expect((await h.chat("one", h.ctx())).text).toMatch(/not JSON/);
    expect((await h.chat("two", h.ctx())).text).toMatch(/reported an error: Provider returned error/);
    expect((await h.chat("three", h.ctx())).text).toMatch(/not a chat completion/);
  });

  it("a 400 quoting the model name is passed on, with any secret in it redacted", async () => {
    const h = await start();
    h.fake.script({
      status: 400,
      body: { error: { message: `fake-org/fake-model is not a valid model ID (key ${LLM_KEY})` } },
    });
    const reply = await h.chat("list environments", h.ctx());
    expect(reply.text).toMatch(/rejected the request \(HTTP 400\): fake-org\/fake-model is not a valid model ID/);
    expect(shown(reply)).not.toContain(LLM_KEY);
    expect(reply.text).toContain("[redacted]");
  });

  it("an unreachable endpoint names LLM_BASE_URL", async () => {
    const h = await start({ env: { LLM_BASE_URL: "http://127.0.0.1:9/v1" } });
    const reply = await h.chat("list environments", h.ctx());
    expect(reply.error?.code).toBe("UPSTREAM");
    expect(reply.text).toMatch(/Could not reach the language model service .*Check LLM_BASE_URL/);
    // The setting is named, never the host and port it holds.
    expect(reply.text).not.toContain("127.0.0.1");
  });

  it("a failure after tools ran: says what ran, and the next turn's history is still valid", async () => {
    const h = await start({ env: { RL_OPERATORS: "slack:U1" } });
    // The 503 outlasts the client's tries.
    h.fake.script(
      { toolCalls: [{ name: "rl_select_environment", arguments: { name: "letters" } }] },
      { status: 503 },
      { status: 503 },
      { status: 503 },
    );
    const reply = await h.chat("select letters", h.ctx());
    expect(reply.error?.code).toBe("UPSTREAM");
    expect(reply.text).toMatch(/HTTP 503[\s\S]*What ran: rl_select_environment \(done\)/);
    h.fake.script({ text: "Yes, letters is selected." });
    await h.chat("did it work?", h.ctx());
    expect(h.fake.requests.at(-1)!.status).toBe(200);
    expect(conversation(h.fake, h.fake.requests.length - 1).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
  });

  it("refuses an over-long message before calling the model", async () => {
    const h = await start({ chat: { maxMessageChars: 4000 } });
    const reply = await h.chat("x".repeat(4001), h.ctx());
    expect(reply.error).toMatchObject({ code: "USAGE", details: { length: 4001, limit: 4000 } });
    expect(reply.text).toMatch(/4,001 characters; the limit is 4,000/);
    expect(h.fake.requests).toEqual([]);
  });

  it("keeps the key out of tool results sent to the model and out of the stored conversation", async () => {
    const h = await start();
    // A person pastes the key into a config value: the set is refused, and the refusal the model reads names no key.
    h.fake.script(
      {
        toolCalls: [
          { name: "rl_select_environment", arguments: { name: "letters" } },
          { name: "rl_edit_config", arguments: { field: "wandb_name", value: LLM_KEY } },
        ],
      },
      { text: "Set." },
    );
    const ctx = { ...h.ctx(), channel: CONSOLE_CHANNEL, via: "console" as const };
    const reply = await h.chat(`set wandb_name to ${LLM_KEY}`, ctx);
    expect(reply.data).toMatchObject({ tool_calls: [{ ok: true }, { name: "rl_edit_config", ok: false }] });
    const tools = JSON.stringify(h.fake.requests.at(-1)!.body.messages.filter((m) => m.role === "tool"));
    expect(tools).toContain("holds one of the bot's secrets");
    // Not in anything sent to the provider: tool results, nor the person's own message.
    expect(JSON.stringify(h.fake.requests.map((r) => r.body))).not.toContain(LLM_KEY);
    const stored = h.services.db.prepare("SELECT message_json FROM conversations").all() as Array<{
      message_json: string;
    }>;
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(LLM_KEY);
    expect(shown(reply)).not.toContain(LLM_KEY);
  });

  it("tries again after a 429 with a short Retry-After and after a 500, and answers; never after a 401", async () => {
    const h = await start();
    h.fake.script({ status: 429, headers: { "Retry-After": "1" } }, { text: "First." });
    expect((await h.chat("hello", h.ctx())).text).toBe("First.");
    h.fake.script({ status: 500 }, { text: "Second." });
    expect((await h.chat("hello again", h.ctx())).text).toBe("Second.");
    expect(h.fake.requests.map((r) => r.status)).toEqual([429, 200, 500, 200]);
    h.fake.requests.length = 0;
    h.fake.script({ status: 401 }, { text: "never asked" });
    expect((await h.chat("and again", h.ctx())).error?.code).toBe("UPSTREAM");
    expect(h.fake.requests.map((r) => r.status)).toEqual([401]);
  });
});
