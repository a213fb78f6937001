// The bundled tinker-cookbook miniature as the bot's stack, for tests: core services on it, a channel set to run its
// math_rl.train recipe quickly, and looking for a run's leftover processes.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChannelKey } from "../../db/channel-key.ts";
import { COOKBOOK_DEMO_ROOT } from "../../src/config.ts";
import type { Services } from "../../src/services.ts";
import { startDemo, type DemoOptions, type DemoStack } from "./demo-stack.ts";
import { tempDir } from "./test-services.ts";
import { READY_TIMEOUT_SECONDS } from "./ceiling.ts";

export const RECIPE = "math_rl.train";

/** Settings that put a bot (core services, a harness or a real process) on the cookbook miniature. */
export const COOKBOOK_ENV: Readonly<Record<string, string>> = {
  RL_STACK: "tinker-cookbook",
  RL_STOP_GRACE_SECONDS: "3",
  RL_READY_TIMEOUT_SECONDS: READY_TIMEOUT_SECONDS,
  // A WandB that refuses at once, so status and results never wait on the network.
  WANDB_BASE_URL: "http://127.0.0.1:9",
};

/** A Slack or Discord bot on the bundled miniature where people only read unless a test names who may operate. */
export const COOKBOOK_CHAT_ENV: Readonly<Record<string, string>> = {
  ...COOKBOOK_ENV,
  RL_TRAINING_ROOT: COOKBOOK_DEMO_ROOT,
  RL_DEFAULT_ROLE: "read",
};

export interface RecipePace {
  /** demo_n_batches: the run's steps. */
  steps?: number;
  stepSeconds?: number;
  /** demo_fault: error_in_step:K or crash_in_step:K. */
  fault?: string;
}

/** A locked fields file for the cookbook stack (no recipe field locked). */
export function cookbookLockedFields(dir: string): string {
  const file = path.join(dir, "cookbook-locked-fields.yaml");
  writeFileSync(file, "recipe: {}\n");
  return file;
}

/** Core services on the cookbook stack in a fresh (or the given) data folder. */
export function startCookbook(options: Pick<DemoOptions, "env" | "cwd" | "settleMs"> = {}): Promise<DemoStack> {
  const cwd = options.cwd ?? tempDir("rl-cookbook-");
  return startDemo({
    cwd,
    lockedFile: cookbookLockedFields(cwd),
    env: { ...COOKBOOK_ENV, ...options.env },
    settleMs: options.settleMs,
  });
}

/** Select math_rl.train in the channel and pace it (few short steps by default). */
export async function selectRecipe(services: Services, channel: ChannelKey, pace: RecipePace = {}): Promise<void> {
  await services.env.selectEnvironment(channel, RECIPE);
  await services.env.editConfig(channel, "demo_n_batches", String(pace.steps ?? 5));
  await services.env.editConfig(channel, "demo_step_seconds", String(pace.stepSeconds ?? 0.05));
  if (pace.fault) await services.env.editConfig(channel, "demo_fault", pace.fault);
}

/** Pids of live processes whose command line contains `text` (a run's log folder: its recipe and anything it left). */
export function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").includes(text)) pids.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return pids;
}

/** A live process's environment, as the kernel holds it. */
export function environOf(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) out[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return out;
}
