// A trainer the project has never seen, driven through its stack manifest (test/fixtures/toy-trainer): services on
// it, its config paced for a test, and what its runs wrote.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ChannelKey } from "../../db/channel-key.ts";
import { PACKAGE_ROOT } from "../../src/config.ts";
import type { Services } from "../../src/services.ts";
import { startDemo, type DemoStack } from "./demo-stack.ts";
import { tempDir } from "./test-services.ts";

export const TOY_ROOT = path.join(PACKAGE_ROOT, "test", "fixtures", "toy-trainer");
export const TOY_MANIFEST = path.join(TOY_ROOT, "stack.yaml");

/** Settings that put a bot on the toy trainer's manifest. */
export const TOY_ENV: Readonly<Record<string, string>> = {
  RL_STACK: TOY_MANIFEST,
  // The trainer's own folder, whatever a harness sets; empty means unset.
  RL_TRAINING_ROOT: TOY_ROOT,
  RL_ENVIRONMENTS_DIR: "",
  RL_STOP_GRACE_SECONDS: "3",
  RL_READY_TIMEOUT_SECONDS: "30",
  WANDB_BASE_URL: "http://127.0.0.1:9",
};

export interface ToyPace {
  iters?: number;
  pause?: number;
  saveEvery?: number;
}

/** Core services on the toy trainer's manifest in a fresh data folder. */
export function startToy(env: Record<string, string> = {}): Promise<DemoStack> {
  const cwd = tempDir("rl-toy-");
  return startDemo({ cwd, lockedFile: "", env: { ...TOY_ENV, ...env }, settleMs: 300 });
}

export async function selectToy(services: Services, channel: ChannelKey, pace: ToyPace = {}): Promise<void> {
  await services.env.selectEnvironment(channel, "toy");
  await services.env.editConfig(channel, "iters", String(pace.iters ?? 6));
  await services.env.editConfig(channel, "pause", String(pace.pause ?? 0.02));
  await services.env.editConfig(channel, "save_every", String(pace.saveEvery ?? 2));
}

const runDir = (services: Services, runId: string) => path.join(services.config.dataDir, "runs", runId);

/** The iterations a run's trainer logged, in the order written (a resumed run logs some again). */
export function itersLogged(services: Services, runId: string): number[] {
  return jsonLines<{ iter: number }>(path.join(runDir(services, runId), "log.jsonl")).map((r) => r.iter);
}

/** Every record of a JSON-lines file (none when it does not exist yet). */
function jsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/** The whole checkpoints a run saved (a folder with its DONE marker). */
export function savedIters(services: Services, runId: string): number[] {
  const saves = path.join(runDir(services, runId), "saves");
  if (!existsSync(saves)) return [];
  return readdirNumbers(saves).filter((n) => existsSync(path.join(saves, `iter-${n}`, "DONE")));
}

function readdirNumbers(dir: string): number[] {
  return readdirSync(dir)
    .map((d) => Number(/^iter-(\d+)$/.exec(d)?.[1]))
    .filter((n) => Number.isInteger(n))
    .sort((a, b) => a - b);
}

/** The command line each attempt of a run's trainer started with (argv[0] is the script), oldest first. */
export function argvsOf(services: Services, runId: string): string[][] {
  return jsonLines<string[]>(path.join(runDir(services, runId), "argv.jsonl"));
}
