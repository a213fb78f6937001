// A bot's core services on one of the built-in stack manifests (src/stacks/builtin/), its bundled miniature as the
// training root, in a fresh data folder: what a test of RL_STACK=verl (prime-rl, trl-grpo) drives, and the files a
// run of it wrote.
import path from "node:path";
import type { CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import { createServices, type Services } from "../../src/services.ts";
import { confirmed } from "./confirm.ts";
import { CONSOLE, type DemoStack } from "./demo-stack.ts";
import { tempDir } from "./test-services.ts";

/**
 * Services on RL_STACK=`name` (with the bot's settings `env`: the slurm backend, say). The trainer processes get the
 * test's environment plus `trainerEnv` (a miniature's pace: RL_DEMO_STEP_SECONDS), and never a W&B key.
 */
export function startBuiltin(
  name: string,
  trainerEnv: Record<string, string> = {},
  env: Record<string, string> = {},
): DemoStack {
  const cwd = tempDir(`rl-${name}-`);
  const config = loadConfig(
    {
      RL_LOG_LEVEL: "silent",
      RL_STACK: name,
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: "30",
      WANDB_BASE_URL: "http://127.0.0.1:9",
      ...env,
    },
    cwd,
  );
  const processEnv = { ...process.env, WANDB_API_KEY: undefined, RL_DEMO_STEP_SECONDS: "0", ...trainerEnv };
  return { services: createServices(config, { settleMs: 300, processEnv }), cwd, lockedFile: "" };
}

/** A person in the console channel of `stack`. */
export const consoleContext = (stack: DemoStack): CommandContext => ({
  channel: CONSOLE,
  user: { id: "alice", name: "alice" },
  via: "console",
  services: stack.services,
});

/** A file in a run's own folder. */
export const runFile = (services: Services, runId: string, ...parts: string[]) =>
  path.join(services.config.dataDir, "runs", runId, ...parts);

/** Waits, checking every 25 ms, for what a test needs (the suite's timeout bounds it). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 25));
}

/** Runs a command that starts a run (/rl start, /rl fork), confirmed as a click would, and waits for that run to
 * complete: its id. */
export async function runToEnd(ctx: CommandContext, command: string): Promise<string> {
  const done = new Set<string>();
  const off = ctx.services.manager.onEvent((e) => {
    if (e.kind === "completed") done.add(e.run.id);
  });
  try {
    const { reply } = await confirmed(ctx, command);
    const id = (reply.data as { run_id: string }).run_id;
    await until(() => done.has(id));
    return id;
  } finally {
    off();
  }
}
