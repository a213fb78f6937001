// Token-shaped strings of any service never reach the LLM's provider, whatever carries them: a run's log, a stored
// error, a config value, the person's own message. The bot holds none of these keys, so only their shape gives them away.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { redactTokens } from "../../src/redact.ts";
import { logPathOf } from "../../src/stacks/log-path.ts";
import { SLACK, startChatHarness, type ChatHarness } from "../chat/chat-harness.ts";

// Made-up tokens in each service's real shape.
const TOKENS = {
  github: "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
  githubFineGrained: "github_pat_11ABCDEFG0" + "a".repeat(20) + "_" + "B".repeat(59),
  huggingFace: "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
  slackBot: "xoxb-1234567890-0987654321-" + "AbCdEfGhIjKlMnOpQrStUvWx",
  slackApp: "xapp-1-A0123456789-1234567890123-" + "0a1b2c3d".repeat(8),
  discordBot: "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhIjKl." + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  openai: "sk-proj-" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp",
  awsKeyId: "AKIA" + "IOSFODNN7EXAMPLE",
  wandbClassic: "0123456789abcdef0123456789abcdef01234567",
  wandbNew: "wandb_v1_" + "P8cHrniQ29Wxdf88kvUbpAvcqk3_C7da4fmnluUQT7bIQTHOxRssWeznFmYiIMRGIHLgBh717viLj",
  googleKey: "AIza" + "SyA-1234567890abcdefghijklmnopqrstu",
} as const;

describe("redactTokens", () => {
  it("masks every service's token shape, alone and inside text, JSON and URLs", () => {
    for (const [service, token] of Object.entries(TOKENS)) {
      expect(redactTokens(`a ${token} b`), service).toBe("a [redacted] b");
      const json = JSON.stringify({ line: `key="${token}"\n` });
      expect(JSON.parse(redactTokens(json)), service).toEqual({ line: 'key="[redacted]"\n' });
    }
    expect(redactTokens("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX")).toBe(
      "https://[redacted]",
    );
    expect(redactTokens("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).toBe(
      "aws_secret_access_key = [redacted]",
    );
  });

  it("masks a value named as a secret however it looks, and leaves ordinary values alone", () => {
    expect(redactTokens("export WANDB_API_KEY=opaque-value-9")).toBe("export WANDB_API_KEY=[redacted]");
    expect(redactTokens('{"api_key": "0pa-que_value.99"}')).toBe('{"api_key": "[redacted]"}');
    expect(redactTokens("Authorization: Bearer abcdefghijklmnop1234")).toBe("Authorization: Bearer [redacted]");
    const ordinary = [
      "tokenizer_name: NousResearch/DeepHermes-3-Llama-3-3B-Preview",
      "eos_token: <|endoftext|>, pad_token_id: 128001, max_tokens: 2048",
      "commit 0123456789abcdef0123456789abcdef01234567",
      "sha256 " + "ab".repeat(32),
      "task-reward-normalisation-for-the-long-horizon",
      "run dead0001 failed at step 120: CUDA out of memory",
    ];
    for (const text of ordinary) expect(redactTokens(text)).toBe(text);
  });
});

let harness: ChatHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("what the chat sends to the model's provider", () => {
  it("carries no other service's token from a log, a stored error, a config value or the person's message", async () => {
    // A Discord-only bot: none of these keys is the bot's, so the known-secret redactor knows none of them.
    const h = (harness = await startChatHarness());
    const { services } = h;
    services.runs.insert({
      id: "dead0002",
      channel: SLACK,
      environment: "arithmetic",
      config: { hub_token_file: TOKENS.huggingFace, wandb_key: TOKENS.wandbNew },
      status: "failed",
      createdBy: "U1",
    });
    services.runs.update("dead0002", {
      failedComponent: "trainer",
      error: `upload refused for ${TOKENS.awsKeyId}; github said 401 for ${TOKENS.github}`,
    });
    const log = logPathOf(services.config.logsDir, "dead0002", "trainer");
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(
      log,
      [
        `posting to slack with ${TOKENS.slackBot} and ${TOKENS.slackApp}`,
        `discord login ${TOKENS.discordBot}`,
        `wandb: Appending key for api.wandb.ai to your netrc file: ${TOKENS.wandbClassic}`,
        `openai client key=${TOKENS.openai} google=${TOKENS.googleKey}`,
        "RuntimeError: boom",
      ].join("\n") + "\n",
    );

    h.fake.script(
      {
        toolCalls: [
          { name: "rl_get_logs", arguments: { run: "dead0002" } },
          { name: "rl_get_results", arguments: { run: "dead0002" } },
          { name: "rl_check_status", arguments: { run: "dead0002" } },
        ],
      },
      { text: "It failed uploading." },
      { text: "Noted." },
    );
    await h.chat(`why did dead0002 fail? my token is ${TOKENS.githubFineGrained}`, h.ctx());
    // The next turn sends the remembered conversation back: it was kept clean too.
    await h.chat("thanks", h.ctx());

    const sent = JSON.stringify(h.fake.requests.map((r) => r.body));
    expect(h.fake.requests).toHaveLength(3);
    expect(sent).toContain("RuntimeError: boom");
    expect(sent).toContain("my token is [redacted]");
    for (const [service, token] of Object.entries(TOKENS)) expect(sent, service).not.toContain(token);
    // Nor is any of them stored in the conversation's memory on disk.
    const db = JSON.stringify(services.db.prepare("SELECT * FROM conversations").all());
    expect(db).toContain("my token is [redacted]");
    for (const [service, token] of Object.entries(TOKENS)) expect(db, service).not.toContain(token);
  });
});
