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
import { READY_TIMEOUT_SECONDS } from "./ceiling.ts";

// Ports handed out below the kernel's ephemeral range (32768-60999 here), so that no outgoing connection of another
// test and no other listen(0) can be given a port between our check and the component's bind. Each test process
// (vitest worker) draws from its own slice, so parallel test files never pick the same port.
const PORT_BASE = 20_000;
const SLICE = 600;
const slice = Number(process.env.VITEST_POOL_ID ?? process.pid) % 20;
let nextOffset = Math.floor(Math.random() * SLICE);

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port on 127.0.0.1 that nothing listens on, from this test process's own slice of the range below the ephemeral one. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < SLICE; tries++) {
    const port = PORT_BASE + slice * SLICE + (nextOffset++ % SLICE);
    if (await listenable(port)) return port;
  }
  throw new Error(`no free port in ${PORT_BASE + slice * SLICE}-${PORT_BASE + (slice + 1) * SLICE - 1}`);
}

export interface DemoOptions {
  totalSteps?: number;
  stepSeconds?: number;
  fault?: string;
  /** Extra seconds in the trainer's last step, after the environment has finished. */
  lastStepSeconds?: number;
  env?: Record<string, string>;
  /** The environment the run's processes inherit (default: the test's own). */
  processEnv?: NodeJS.ProcessEnv;
  /** Reuse a data folder (a bot restart). */
  cwd?: string;
  lockedFile?: string;
  /** How long a process showing no evidence of work must stay alive to count as started (the bot's default: 2 s). */
  settleMs?: number;
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
      tinker: {
        lora_rank: 4,
        demo_step_seconds: options.stepSeconds ?? 0.05,
        ...(options.lastStepSeconds ? { demo_last_step_seconds: options.lastStepSeconds } : {}),
        ...(options.fault ? { demo_fault: options.fault } : {}),
      },
      slurm: false,
      testing: false,
    }),
  );
  return file;
}

export async function startDemo(options: DemoOptions = {}): Promise<DemoStack> {
  const cwd = options.cwd ?? tempDir("rl-demo-");
  const lockedFile = options.lockedFile ?? (await demoLockedFields(cwd, options));
  const config = loadConfig(
    {
      RL_LOG_LEVEL: "silent",
      RL_LOCKED_FIELDS: lockedFile,
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: READY_TIMEOUT_SECONDS,
      ...options.env,
    },
    cwd,
  );
  return {
    services: createServices(config, { settleMs: options.settleMs, processEnv: options.processEnv }),
    cwd,
    lockedFile,
  };
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

/** After a test: stops every run the services still have queued, starting or running. */
export async function stopLiveRuns(services: Services): Promise<void> {
  for (const run of services.runs.listByStatus(["queued", "starting", "running"]))
    await services.manager.stop(run.id, "test cleanup").catch(() => undefined);
}

/** After a test: stops what each stack still runs, waits for the stops, and closes it. */
export async function closeDemoStacks(stacks: DemoStack[]): Promise<void> {
  for (const s of stacks.splice(0)) {
    await stopLiveRuns(s.services);
    await s.services.manager.settled();
    await s.services.close();
  }
}
