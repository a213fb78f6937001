// Runs the real rl-chatops command line in a child process, as a person would.
import path from "node:path";
import { spawnTracked } from "./children.ts";
import { PACKAGE_ROOT } from "../../src/config.ts";

export const CLI = path.join(PACKAGE_ROOT, "bin", "rl-chatops.js");

export async function runCli(args: string[], options: { cwd: string; env?: Record<string, string>; input?: string }) {
  const result = await spawnTracked(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { RL_LOG_LEVEL: "silent", ...options.env },
    input: options.input,
    reject: false,
  });
  return { code: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}
