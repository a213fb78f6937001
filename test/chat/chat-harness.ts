// Real services on a temp data folder, the fake LLM on loopback, and the chat handler between them, for chat tests.
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CommandContext } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { createChatHandler, type ChatHandler, type ChatOptions } from "../../adapters/chat/create-chat-handler.ts";
import { DEMO_STACK_ROOT, loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { startFakeLlm, type FakeLlm, type FakeMessage } from "../fakes/llm-server.ts";
import { tempDir } from "../helpers/test-services.ts";

export const LLM_KEY = "sk-or-v1-fakekey0123456789abcdefFAKEKEY";
export const MODEL = "fake-org/fake-model";
export const SLACK: ChannelKey = { platform: "slack", workspace: "T", channel: "C" };

/** The demo stack's locked fields file, or (until it exists) a small one in `dir`. */
export function lockedFieldsEnv(dir: string): Record<string, string> {
  if (existsSync(path.join(DEMO_STACK_ROOT, "locked-fields.yaml"))) return {};
  const file = path.join(dir, "locked-fields.yaml");
  if (!existsSync(file)) writeFileSync(file, "env:\n  total_steps: 5\n");
  return { RL_LOCKED_FIELDS: file };
}

export interface ChatHarness {
  fake: FakeLlm;
  services: Services;
  chat: ChatHandler;
  /** The data folder; a second harness on it is the bot after a restart. */
  cwd: string;
  /** Every progress line shown, in order. */
  progress: string[];
  ctx(options?: { user?: string; channel?: ChannelKey; thread?: string }): CommandContext;
  /** Services and handler again on the same data folder and fake (a restart); the old services are closed. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  chat?: ChatOptions;
  /** Leave out LLM_BASE_URL, LLM_API_KEY and LLM_MODEL. */
  noLlm?: boolean;
}

export async function startChatHarness(options: HarnessOptions = {}): Promise<ChatHarness> {
  const fake = await startFakeLlm({ apiKey: LLM_KEY });
  const cwd = tempDir("rl-chat-");
  const env = {
    RL_LOG_LEVEL: "silent",
    ...lockedFieldsEnv(cwd),
    ...(options.noLlm ? {} : { LLM_BASE_URL: fake.baseUrl, LLM_API_KEY: LLM_KEY, LLM_MODEL: MODEL }),
    ...options.env,
  };
  const build = (): { services: Services; chat: ChatHandler } => {
    const services = createServices(loadConfig(env, cwd));
    return { services, chat: createChatHandler(services, options.chat) };
  };
  let current = build();
  const progress: string[] = [];
  const harness: ChatHarness = {
    fake,
    get services() {
      return current.services;
    },
    get chat() {
      return current.chat;
    },
    cwd,
    progress,
    ctx: ({ user = "U1", channel = SLACK, thread } = {}) => ({
      channel,
      ...(thread ? { thread } : {}),
      user: { id: user, name: user },
      via: "chat",
      services: current.services,
      progress: async (line) => void progress.push(line),
    }),
    async restart() {
      await current.services.close();
      current = build();
    },
    async close() {
      await current.services.close();
      await fake.close();
    },
  };
  return harness;
}

/** The parsed content of a tool message. */
export function toolResult(message: FakeMessage | undefined): Record<string, unknown> {
  if (message?.role !== "tool" || typeof message.content !== "string")
    throw new Error(`not a tool message: ${JSON.stringify(message)}`);
  return JSON.parse(message.content) as Record<string, unknown>;
}

/** The messages of the request the fake received at `index`, without the system prompt. */
export function conversation(fake: FakeLlm, index: number): FakeMessage[] {
  const request = fake.requests[index];
  if (!request) throw new Error(`no request ${index}; ${fake.requests.length} received`);
  return request.body.messages.filter((m) => m.role !== "system");
}
