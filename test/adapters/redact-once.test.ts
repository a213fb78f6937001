// Every outgoing reply is redacted exactly once, where each adapter renders what it sends: a secret in any part of a
// reply, on any path (a posted notice, a command's answer, a chat answer), never reaches Slack, Discord or the
// terminal, and the redactor is never run over text it already redacted.
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createConsoleAdapter } from "../../adapters/console/console.ts";
import { REDACTED } from "../../src/redact.ts";
import type { Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import { delay } from "../../src/training/wait-until.ts";
import { startHarness, stopHarness, type Harness } from "../discord/harness.ts";
import { testServices } from "../helpers/test-services.ts";
import { BOT_TOKEN, startSlackHarness, type SlackHarness } from "../slack/slack-harness.ts";
import { CHANNEL, TEAM, slashCommand } from "../slack/slack-payloads.ts";
import { createTestCommands } from "../slack/test-commands.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Wraps the bot's redactor (adapters read it from the services when they render) to see every text it is given. */
function countRedactions(services: Services): string[] {
  const seen: string[] = [];
  const real = services.redact;
  services.redact = (text) => {
    seen.push(text);
    return real(text);
  };
  return seen;
}

/** A reply with the secret in every part a person can see. */
const leaky = (secret: string): Reply => ({
  title: `Run r1 for ${secret}`,
  text: `The key is ${secret}.`,
  fields: [{ label: "Key", value: secret }],
  blocks: [{ kind: "code", content: `export KEY=${secret}` }],
  links: [{ label: `Docs ${secret}`, url: "https://docs.example/" }],
  buttons: [{ kind: "command", label: `Status ${secret}`, command: "/rl status r1" }],
});

/** Each text holding the secret went through the redactor once, and no redacted text went through it again. */
function expectRedactedOnce(seen: readonly string[], secret: string, parts: number): void {
  const withSecret = seen.filter((t) => t.includes(secret));
  expect(withSecret.length).toBeGreaterThanOrEqual(parts);
  expect(new Set(withSecret).size).toBe(withSecret.length);
  expect(seen.filter((t) => t.includes(REDACTED))).toEqual([]);
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await delay(25);
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe("Slack: one redaction, where the adapter renders", () => {
  const start = async (): Promise<SlackHarness> => {
    const h = await startSlackHarness({ commands: createTestCommands().commands });
    cleanups.push(() => h.close());
    return h;
  };
  const sent = (h: SlackHarness) =>
    JSON.stringify([
      ...h.fake.calls.items.filter((c) => c.method !== "auth.test").map((c) => c.body),
      ...h.fake.responses.items.map((r) => r.body),
    ]);

  it("a posted notice", async () => {
    const h = await start();
    const seen = countRedactions(h.services);
    const { id } = await h.adapter.post(
      { channel: { platform: "slack", workspace: TEAM, channel: CHANNEL } },
      leaky(BOT_TOKEN),
    );
    const shown = JSON.stringify(h.fake.messages.get(`${CHANNEL}:${id}`));
    expect(shown).toContain(REDACTED);
    expect(sent(h)).not.toContain(BOT_TOKEN);
    expectRedactedOnce(seen, BOT_TOKEN, 6);
  });

  it("a command's answer", async () => {
    const h = await start();
    const seen = countRedactions(h.services);
    await h.slash(slashCommand({ text: "leak", responseUrl: h.fake.responseUrl() }));
    await until(() => sent(h).includes(`The token is ${REDACTED}.`), "the answer");
    expect(sent(h)).not.toContain(BOT_TOKEN);
    expectRedactedOnce(seen, BOT_TOKEN, 1);
  });
});

describe("Discord: one redaction, where the adapter renders", () => {
  const start = async (): Promise<Harness> => {
    const h = await startHarness();
    cleanups.push(() => stopHarness(h));
    return h;
  };
  const sent = (h: Harness) => JSON.stringify(h.fake.calls.map((c) => c.body ?? null));

  it("a posted notice", async () => {
    const h = await start();
    const secret = h.fake.token;
    const seen = countRedactions(h.services);
    await h.adapter.post({ channel: h.channel }, leaky(secret));
    expect(sent(h)).toContain("redacted");
    expect(sent(h)).not.toContain(secret);
    expectRedactedOnce(seen, secret, 6);
  });

  it("a command's answer", async () => {
    const h = await start();
    const secret = h.fake.token;
    const seen = countRedactions(h.services);
    await h.fake.slash("echo", { text: `my token is ${secret}` }).callback();
    expect(sent(h)).toContain("my token is");
    expect(sent(h)).not.toContain(secret);
    expectRedactedOnce(seen, secret, 1);
  });
});

describe("console: one redaction, where the adapter prints", () => {
  const SECRET = "wandb-secret-0123456789abcdef0123";
  const start = async () => {
    const services = testServices({ WANDB_API_KEY: SECRET });
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = "";
    output.on("data", (chunk: Buffer) => (printed += chunk.toString("utf8")));
    const terminal = createConsoleAdapter(services, {
      input,
      output,
      chat: async (text) => ({ title: "Chat", text: `You said: ${text}` }),
    });
    await terminal.start();
    cleanups.push(async () => {
      await terminal.stop();
      await services.close();
    });
    return { services, terminal, input, printed: () => printed };
  };

  it("a posted notice", async () => {
    const c = await start();
    const seen = countRedactions(c.services);
    await c.terminal.post({ channel: { platform: "console", workspace: "local", channel: "console" } }, leaky(SECRET));
    expect(c.printed()).toContain(REDACTED);
    expect(c.printed()).not.toContain(SECRET);
    expectRedactedOnce(seen, SECRET, 6);
  });

  it("a chat answer", async () => {
    const c = await start();
    const seen = countRedactions(c.services);
    c.input.write(`what is ${SECRET}?\n`);
    await until(() => c.printed().includes("You said:"), "the chat answer");
    expect(c.printed()).toContain(`You said: what is ${REDACTED}?`);
    expect(c.printed()).not.toContain(SECRET);
    expectRedactedOnce(seen, SECRET, 1);
  });
});
