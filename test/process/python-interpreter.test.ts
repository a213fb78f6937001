// The training Python resolved once: a bare python3 that is a shim (as pyenv's) is asked once for its interpreter, and a
// run's three processes are that interpreter, started with its folder first on PATH as the shim would have.
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPythonResolver } from "../../src/process/python-interpreter.ts";
import { closeDemoStacks, CONSOLE, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";

const REAL = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

/** A folder with a counting python3 shim in front of the real interpreter; its log gets a line per start. */
function shimFolder(body = `exec "${REAL}" "$@"`): { dir: string; starts: () => number; env: Record<string, string> } {
  const dir = tempDir("rl-shim-");
  const log = path.join(dir, "starts.log");
  writeFileSync(log, "");
  const shim = path.join(dir, "python3");
  writeFileSync(shim, `#!/bin/sh\necho started >> "${log}"\n${body}\n`);
  chmodSync(shim, 0o755);
  return {
    dir,
    starts: () => readFileSync(log, "utf8").split("\n").filter(Boolean).length,
    env: { PATH: [dir, process.env.PATH].join(path.delimiter) },
  };
}

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

describe("the training Python is resolved once", () => {
  it("asks a shim once for sys.executable and keeps the answer; paths, other commands and failures stay as given", async () => {
    const shim = shimFolder();
    const resolver = createPythonResolver();
    const cwd = tempDir();
    const first = await resolver.resolve("python3", cwd, shim.env);
    expect(first).toEqual({ command: REAL, binDir: path.dirname(REAL) });
    await resolver.resolve("python3", cwd, shim.env);
    expect(shim.starts()).toBe(1);
    // A path is the person's own choice, and anything else than a Python name is not asked.
    expect(await resolver.resolve(path.join(shim.dir, "python3"), cwd, shim.env)).toEqual({
      command: path.join(shim.dir, "python3"),
    });
    expect(await resolver.resolve("run-api", cwd, shim.env)).toEqual({ command: "run-api" });
    expect(shim.starts()).toBe(1);
    // Not on PATH, or a shim that cannot answer: spawned as given, so the launch names the problem as before.
    expect(await resolver.resolve("python3", cwd, { PATH: tempDir() })).toEqual({ command: "python3" });
    const broken = shimFolder('echo "pyenv: python3: command not found" >&2; exit 127');
    expect(await resolver.resolve("python3", cwd, broken.env)).toEqual({ command: "python3" });
  });

  it("a demo run's three processes are the interpreter itself, with one start of the shim for the whole run", async () => {
    const shim = shimFolder();
    const stack = await startDemo({ totalSteps: 400, stepSeconds: 0.1, processEnv: { ...process.env, ...shim.env } });
    stacks.push(stack);
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "parity");
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("running");
    const procs = services.processes.list(run.id);
    expect(procs.map((p) => p.component).sort()).toEqual(["api", "env", "trainer"]);
    for (const p of procs) {
      const argv = readFileSync(`/proc/${p.pid}/cmdline`, "utf8").split("\0");
      expect(argv[0]).toBe(REAL);
      const env = readFileSync(`/proc/${p.pid}/environ`, "utf8").split("\0");
      expect(env.find((e) => e.startsWith("PATH="))).toBe(`PATH=${path.dirname(REAL)}:${shim.env.PATH}`);
    }
    expect(shim.starts()).toBe(1);
  });
});
