// Discovery's parse helper threads are stopped between two parses, never in the middle of one: Worker.terminate()
// during a tree-sitter parse aborts the whole process ("terminate called after throwing an instance of 'Napi::Error'").
// The bot's discovery process stops them the same way before it exits, or is killed (safe: a process of its own).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { spawnTracked } from "../helpers/children.ts";

const CHILD = path.join(PACKAGE_ROOT, "test", "environments", "stop-helpers-child.ts");

/** Runs the child in `mode` and checks it exited by itself, said nothing on stderr, and printed `expected`. */
async function expectCleanRun(
  mode: "pool" | "scanner",
  expected: string,
  env: Record<string, string> = {},
): Promise<void> {
  const child = await spawnTracked(process.execPath, ["--import", "tsx", CHILD, mode], {
    cwd: PACKAGE_ROOT,
    env,
    reject: false,
  });
  expect({ exitCode: child.exitCode, signal: child.signal, stderr: child.stderr }).toEqual({
    exitCode: 0,
    signal: undefined,
    stderr: "",
  });
  expect(child.stdout).toBe(expected);
}

describe("stopping discovery's helper threads", () => {
  it("stops a helper that is parsing without aborting the process, and parses what it owed here", async () => {
    for (let attempt = 0; attempt < 2; attempt++) await expectCleanRun("pool", "released; 8 of 8 parsed");
  });

  it("closes the bot's discovery process at any moment of a scan without an abort", async () => {
    await expectCleanRun("scanner", "closed 7 scans");
  });

  it("terminates a thread past its grace period only once no thread of its tree is inside a parse", async () => {
    // With no grace at all every stop reaches the terminate path while the helpers are parsing (and discovery's process
    // is killed in the middle of its scan).
    const noGrace = { RL_THREAD_STOP_GRACE_MS: "0" };
    await expectCleanRun("pool", "released; 8 of 8 parsed", noGrace);
    await expectCleanRun("scanner", "closed 7 scans", noGrace);
  });
});
