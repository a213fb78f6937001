// Shared kit for the TRL, verl and prime-rl miniature tests: run a miniature as a python3 process, read its JSON
// files, and run an oracle (the real PyYAML / pydantic / OmegaConf) on what it reads.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { exitOf, usePoolPerTest, type DemoProcess, type Exit } from "../../demo-stack/demo-stack-harness.ts";

export const EXAMPLES_DIR = path.resolve(import.meta.dirname, "../../../examples");

export interface MiniatureRun {
  start: (name: string, args: string[], env?: Record<string, string | undefined>) => DemoProcess;
  /** Runs to its end and returns the process (the exit is checked by the caller). */
  run: (
    name: string,
    args: string[],
    env?: Record<string, string | undefined>,
  ) => Promise<DemoProcess & { exit: Exit }>;
  dir: () => string;
  logs: () => string;
}

/** A fresh process pool and temp folder per test, every process killed when the test ends. The process runs in the
 * temp folder (whatever a trainer writes relative to its working directory stays there) with the miniature on
 * PYTHONPATH; site packages off (-S): it needs nothing but the standard library. Steps take no time unless a test
 * says otherwise. */
export function useMiniature(folder: string): MiniatureRun {
  const { pool, dir, logs } = usePoolPerTest();
  const root = path.join(EXAMPLES_DIR, folder);
  const start = (name: string, args: string[], env: Record<string, string | undefined> = {}) =>
    pool().start(name, ["-S", ...args], {
      cwd: dir(),
      env: {
        PYTHONPATH: root,
        RL_DEMO_STEP_SECONDS: "0",
        RL_DEMO_FAULT: undefined,
        WANDB_API_KEY: undefined,
        COLUMNS: "200",
        ...env,
      },
    });
  const run = async (name: string, args: string[], env: Record<string, string | undefined> = {}) => {
    const proc = start(name, args, env);
    const exit = await exitOf(proc, logs, 60_000);
    return Object.assign(proc, { exit });
  };
  return { start, run, dir, logs };
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

export function readJsonl<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

export const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

/** Sends a signal to the process group and waits for the exit. */
export async function signalAndWait(proc: DemoProcess, signal: NodeJS.Signals, logs: () => string): Promise<Exit> {
  process.kill(-(proc.child.pid as number), signal);
  return exitOf(proc, logs);
}

/** Why an oracle interpreter cannot run `probe`, or undefined when it can. */
export function oracleMissing(python: string, probe: string): string | undefined {
  const result = spawnSync(python, ["-c", probe], { encoding: "utf8" });
  if (result.error) return `${python}: ${result.error.message}`;
  return result.status === 0 ? undefined : `${python} -c '${probe}': ${result.stderr.trim().split("\n").at(-1)}`;
}

/** Runs a Python snippet with `input` on stdin and returns its stdout parsed as JSON (fails the test on an error). */
export function pythonJson<T>(python: string, script: string, input: string, cwd?: string): T {
  const out = execFileSync(python, ["-c", script], {
    input,
    encoding: "utf8",
    cwd,
    env: { ...process.env, PYTHONPATH: cwd ?? "" },
  });
  return JSON.parse(out) as T;
}

export function expectExit(proc: { exit: Exit }, code: number, logs: () => string): void {
  expect(proc.exit, logs()).toEqual({ code, signal: null });
}
