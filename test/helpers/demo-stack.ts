// Real services driving the bundled demo stack on free ports, with small step counts, for training tests.
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { stringify } from "yaml";
import type { RunEvent, RunEventKind } from "../../src/training/run-events.ts";
import type { Services } from "../../src/services.ts";
import { createServices } from "../../src/services.ts";
import { loadConfig } from "../../src/config.ts";
import { tempDir } from "./test-services.ts";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface DemoOptions {
  totalSteps?: number;
  stepSeconds?: number;
  fault?: string;
  /** Extra seconds in the trainer's last step, after the environment has finished. */
  lastStepSeconds?: number;
  env?: Record<string, string>;
  /** Reuse a data folder (a bot restart). */
  cwd?: string;
  lockedFile?: string;
}

export interface DemoStack {
  services: Services;
  cwd: string;
  lockedFile: string;
}

/** Write a locked fields file for the demo stack on two free ports. */
export async function demoLockedFields(dir: string, options: DemoOptions = {}): Promise<string> {
  const apiPort = await freePort();
  const trainerPort = await freePort();
  const file = path.join(dir, "locked-fields.yaml");
  writeFileSync(
    file,
    stringify({
      env: {
        rollout_server_url: `http://127.0.0.1:${apiPort}`,
        total_steps: options.totalSteps ?? 6,
        use_wandb: false,
        group_size: 8,
      },
      openai: [{ model_name: "demo-policy", base_url: `http://127.0.0.1:${trainerPort}/v1`, api_key: "x" }],
      tinker: { lora_rank: 4, demo_step_seconds: options.stepSeconds ?? 0.05, ...(options.lastStepSeconds ? { demo_last_step_seconds: options.lastStepSeconds } : {}), ...(options.fault ? { demo_fault: options.fault } : {}) },
      slurm: false,
      testing: false,
    }),
  );
  return file;
}

export async function startDemo(options: DemoOptions = {}): Promise<DemoStack> {
  const cwd = options.cwd ?? tempDir("rl-demo-");
  const lockedFile = options.lockedFile ?? (await demoLockedFields(cwd, options));
  const config = loadConfig({ RL_LOG_LEVEL: "silent", RL_LOCKED_FIELDS: lockedFile, RL_STOP_GRACE_SECONDS: "3", RL_READY_TIMEOUT_SECONDS: "30", ...options.env }, cwd);
  return { services: createServices(config), cwd, lockedFile };
}

export const CONSOLE = { platform: "console", workspace: "local", channel: "console" };

/** The next event of `kind` for `runId` (or any run). */
export function nextEvent(services: Services, kind: RunEventKind, runId?: string): Promise<RunEvent> {
  return new Promise((resolve) => {
    const off = services.manager.onEvent((e) => {
      if (e.kind === kind && (runId === undefined || e.run.id === runId)) {
        off();
        resolve(e);
      }
    });
  });
}
