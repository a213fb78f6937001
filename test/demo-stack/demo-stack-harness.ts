// Test kit for the Python demo stack: spawns its processes (no shell, own process group), captures output, kills them all.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { afterEach, beforeEach } from "vitest";
import { WAIT_CEILING_MS } from "../helpers/ceiling.ts";
import { waitFor as waitUntil } from "../helpers/wait-for.ts";
import { trackProcess } from "../helpers/children.ts";

export const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/demo-stack");
export const ENV_DIR = path.join(DEMO_DIR, "tinker_atropos", "environments");

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface DemoProcess {
  name: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
  running: () => boolean;
}

/** The environment every demo process gets: the demo folder on PYTHONPATH, no stray API key, no .pyc files. */
function demoEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.OPENAI_API_KEY;
  delete env.PYTHONSTARTUP;
  Object.assign(env, {
    PYTHONPATH: DEMO_DIR,
    PYTHONUNBUFFERED: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    DEMO_UNREACHABLE_SECONDS: "10",
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Spawns python3 processes and guarantees they are all gone after killAll(). */
export class ProcessPool {
  private readonly procs: DemoProcess[] = [];

  start(
    name: string,
    args: string[],
    opts: { cwd?: string; env?: Record<string, string | undefined> } = {},
  ): DemoProcess {
    const child = spawn("python3", args, {
      cwd: opts.cwd ?? DEMO_DIR,
      env: demoEnv(opts.env ?? {}),
      detached: true, // its own process group, so killAll can signal the whole group
      stdio: ["ignore", "pipe", "pipe"],
    });
    trackProcess(child);
    let out = "";
    let err = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const exited = new Promise<Exit>((resolve) => {
      child.on("close", (code, signal) => resolve({ code, signal }));
      child.on("error", (e) => {
        err += `spawn error: ${e.message}`;
        resolve({ code: -1, signal: null });
      });
    });
    const proc: DemoProcess = {
      name,
      child,
      stdout: () => out,
      stderr: () => err,
      exited,
      running: () => child.exitCode === null && child.signalCode === null,
    };
    this.procs.push(proc);
    return proc;
  }

  /** Output of every process, for failure messages. */
  logs(): string {
    return this.procs
      .map(
        (p) =>
          `----- ${p.name} stdout -----\n${p.stdout().slice(-3000)}\n----- ${p.name} stderr -----\n${p.stderr().slice(-3000)}`,
      )
      .join("\n");
  }

  async killAll(): Promise<void> {
    const pending = this.procs.splice(0);
    for (const p of pending) {
      if (p.running() && p.child.pid !== undefined) {
        try {
          process.kill(-p.child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    await Promise.all(pending.map((p) => p.exited));
  }
}

export { freePort } from "../helpers/demo-stack.ts";

export async function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds, naming every process's output when it never does. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  logs: () => string,
): Promise<void> {
  await waitUntil(check, what, { explain: logs });
}

/** Resolves with the exit, or fails with every process's output at the suite's ceiling. */
export async function exitOf(proc: DemoProcess, logs: () => string, timeoutMs = WAIT_CEILING_MS): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${proc.name} did not exit\n${logs()}`)), timeoutMs);
  });
  try {
    return await Promise.race([proc.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}

export function makeTempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "demo-stack-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh ProcessPool and temp folder for each test of the calling file, killed and removed after it. */
export function usePoolPerTest(): { pool: () => ProcessPool; dir: () => string; logs: () => string } {
  let pool = new ProcessPool();
  let tmp: { dir: string; cleanup: () => void } | undefined;
  beforeEach(() => {
    pool = new ProcessPool();
    tmp = makeTempDir();
  });
  afterEach(async () => {
    await pool.killAll();
    tmp?.cleanup();
  });
  return {
    pool: () => pool,
    dir: () => {
      if (tmp === undefined) throw new Error("usePoolPerTest: no test is running");
      return tmp.dir;
    },
    logs: () => pool.logs(),
  };
}

export interface StackPorts {
  api: number;
  inference: number;
}

/** A run YAML in the layout the bot writes (env / openai / tinker / slurm / testing). */
export function writeRunYaml(
  dir: string,
  ports: StackPorts,
  opts: { env?: Record<string, unknown>; tinker?: Record<string, unknown>; name?: string } = {},
): string {
  const config = {
    env: {
      tokenizer_name: "Qwen/Qwen3-8B",
      rollout_server_url: `http://127.0.0.1:${ports.api}`,
      use_wandb: false,
      max_token_length: 8192,
      max_num_workers: 2048,
      worker_timeout: 3600,
      total_steps: 8,
      steps_per_eval: 100,
      max_batches_offpolicy: 3,
      inference_weight: 1.0,
      eval_limit_ratio: 0.1,
      ensure_scores_are_not_same: false,
      group_size: 8,
      batch_size: 64,
      wandb_name: "arithmetic",
      ...opts.env,
    },
    openai: [
      {
        model_name: "Qwen/Qwen3-8B",
        base_url: `http://127.0.0.1:${ports.inference}/v1`,
        api_key: "x",
        num_requests_for_eval: 256,
        timeout: 3600,
      },
    ],
    tinker: {
      lora_rank: 32,
      learning_rate: 0.00004,
      max_token_trainer_length: 9000,
      checkpoint_dir: "./temp/",
      save_checkpoint_interval: 25,
      wandb_project: "rl-chatops-test",
      wandb_run_name: "arithmetic-test",
      demo_step_seconds: 0.05,
      ...opts.tinker,
    },
    slurm: false,
    testing: false,
  };
  const file = path.join(dir, `${opts.name ?? "run"}.yaml`);
  writeFileSync(file, stringify(config));
  return file;
}

/** The numbers printed on the trainer's `Reward/mean: x` lines, in order. */
export function rewardMeans(stdout: string): number[] {
  return [...stdout.matchAll(/^Reward\/mean: ([0-9.]+)$/gm)].map((m) => Number(m[1]));
}

export function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
