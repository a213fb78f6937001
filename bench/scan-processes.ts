// Runs one discovery as a process of its own: the seed's algorithm under python3, or `rl-chatops scan DIR`.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface SeedScan {
  /** python3 start to exit, as seen from here. */
  processMs: number;
  /** The scan loop alone, timed inside Python with perf_counter. */
  scanMs: number;
  /** CPU time of the scan loop (time.process_time inside Python). */
  scanCpuMs: number;
  environments: number;
}

export interface ProcessRun {
  wallMs: number;
  stdout: string;
}

const SEED_SCRIPT = fileURLToPath(new URL("./seed-scan.py", import.meta.url));
export const CLI = fileURLToPath(new URL("../bin/rl-chatops.js", import.meta.url));
/** The interpreter itself, not a version manager's shim in front of it (pyenv's adds about 0.2 s to every start). */
export const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"]).toString().trim();

/**
 * The environment every process the bench times is started with: PATH, HOME and TMPDIR only, plus what the
 * measurement sets. The caller's shell plays no part: neither its rl-chatops settings and tokens nor what changes how
 * Node or Python start (NODE_OPTIONS, NODE_EXTRA_CA_CERTS, PYTHONPATH...). What that costs on the machine is reported
 * by its own row (cli-start.ts).
 */
export function measuredEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...extra };
}

/** Runs a command to completion; wall time from spawn to exit. Exit codes other than 0 and `allowExit` reject. */
export function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; allowExit?: number[] } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? measuredEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      const wallMs = performance.now() - start;
      if (code !== 0 && !(code !== null && options.allowExit?.includes(code)))
        return reject(
          new Error(
            `${command} ${args.join(" ")} exited with ${code}: ${Buffer.concat(err).toString().slice(0, 2000)}`,
          ),
        );
      resolve({ wallMs, stdout: Buffer.concat(out).toString() });
    });
  });
}

/** `env`: the environment to start it in (default `measuredEnv()`). */
export async function runSeedScan(
  dir: string,
  options: { recursive?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<SeedScan> {
  const run = await runProcess(PYTHON, [SEED_SCRIPT, dir, ...(options.recursive ? ["--recursive"] : [])], {
    env: options.env ?? measuredEnv(),
  });
  const answer = JSON.parse(run.stdout) as { scan_seconds: number; scan_cpu_seconds: number; environments: number };
  return {
    processMs: run.wallMs,
    scanMs: answer.scan_seconds * 1000,
    scanCpuMs: answer.scan_cpu_seconds * 1000,
    environments: answer.environments,
  };
}

/** `rl-chatops scan DIR [--json]`, started from `cwd` so its data folder lands there; `env` as for runSeedScan. */
export async function runCliScan(
  dir: string,
  cwd: string,
  options: { recursive?: boolean; json?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<ProcessRun> {
  const env = {
    ...(options.env ?? measuredEnv()),
    RL_LOG_LEVEL: "silent",
    RL_SCAN_RECURSIVE: options.recursive ? "true" : "false",
  };
  return runProcess(process.execPath, [CLI, "scan", dir, ...(options.json ? ["--json"] : [])], { cwd, env });
}
