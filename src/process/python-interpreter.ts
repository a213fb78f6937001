// The Python a run's processes are spawned with. A bare name on PATH (python3, or RL_PYTHON's) may be a pyenv, asdf or
// conda shim that spends 0.3-0.5 s choosing an interpreter before every process it starts; the bot asks that name once
// for its sys.executable, in the training root with the children's environment (so the shim chooses as it would for
// them), and spawns the answer. A path in RL_PYTHON is spawned as given: it is the person's own choice.
import { execa } from "execa";
import { statSync } from "node:fs";
import path from "node:path";
import { findCommand } from "./find-command.ts";
import type { SpawnPlan } from "./supervised-process.ts";

/** python, python3, python3.11: the names the bot resolves (as check-spawn-plan recognises an interpreter). */
export const PYTHON_NAME = /^python[0-9.]*$/;

const ASK_TIMEOUT_MS = 15_000;
const ASK = "import sys; print(sys.executable)";

/** What a bare interpreter name resolves to: the program to spawn, and the folder a shim would put first on PATH. */
export interface ResolvedPython {
  command: string;
  /** The interpreter's own bin folder when it is not where the name was found (a shim's), else undefined. */
  binDir?: string;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

async function ask(command: string, cwd: string, env: Record<string, string>): Promise<string | undefined> {
  const result = await execa(command, ["-c", ASK], {
    cwd,
    env,
    extendEnv: false,
    timeout: ASK_TIMEOUT_MS,
    reject: false,
    stdin: "ignore",
  });
  const out = result.failed ? "" : String(result.stdout).trim();
  return path.isAbsolute(out) && isFile(out) ? out : undefined;
}

async function resolveName(command: string, cwd: string, env: Record<string, string>): Promise<ResolvedPython> {
  const found = findCommand(command, cwd, env.PATH);
  // Not on PATH: spawned as given, so the launch names what is missing as it always did.
  if (!found.found) return { command };
  const executable = await ask(found.path, cwd, env);
  if (!executable) return { command };
  const binDir = path.dirname(executable);
  // A shim (pyenv exec, asdf exec) puts the interpreter's folder first on PATH: its pip-installed commands and a
  // `python` run by the training code are then the same interpreter's.
  return binDir === path.dirname(found.path) ? { command: executable } : { command: executable, binDir };
}

/** One bot's resolver: each (name, folder, PATH) asked once, the answer kept for the bot's life. */
export function createPythonResolver() {
  const cache = new Map<string, Promise<ResolvedPython>>();
  const resolve = (command: string, cwd: string, env: Record<string, string>): Promise<ResolvedPython> => {
    if (command.includes("/") || !PYTHON_NAME.test(command)) return Promise.resolve({ command });
    const key = [command, cwd, env.PATH ?? ""].join("\0");
    let answer = cache.get(key);
    if (!answer) cache.set(key, (answer = resolveName(command, cwd, env)));
    return answer;
  };
  return {
    resolve,
    /** The plan with its interpreter resolved (unchanged when its command is not a bare Python name). */
    async resolvePlan(plan: SpawnPlan): Promise<SpawnPlan> {
      const resolved = await resolve(plan.command, plan.cwd, plan.env);
      if (resolved.command === plan.command) return plan;
      const env = resolved.binDir
        ? { ...plan.env, PATH: [resolved.binDir, plan.env.PATH].filter(Boolean).join(path.delimiter) }
        : plan.env;
      return { ...plan, command: resolved.command, env };
    },
  };
}

export type PythonResolver = ReturnType<typeof createPythonResolver>;
