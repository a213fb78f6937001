// Start failures that say what to fix: a missing or non-executable command is named with the setting that changes it.
import { chmodSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { logPathOf } from "../../src/stacks/log-path.ts";
import { CONSOLE, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const stacks: DemoStack[] = [];
afterEach(async () => {
  for (const s of stacks.splice(0)) {
    for (const run of s.services.runs.listByStatus(["queued", "starting", "running"]))
      await s.services.manager.stop(run.id, "test cleanup").catch(() => undefined);
    await s.services.close();
  }
});

async function demo(env: Record<string, string>) {
  // A long stop grace period: a start failure of a process that never ran must not wait it out.
  const stack = await startDemo({ env: { RL_STOP_GRACE_SECONDS: "30", ...env } });
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, "arithmetic");
  return stack;
}

describe("start failures name what to fix", () => {
  it("a missing run-api names the command, RL_API_COMMAND and atroposlib; no log, status 'not started', no grace wait", async () => {
    const stack = await demo({ RL_API_COMMAND: "run-api-not-installed --flag" });
    const { services } = stack;
    const run = await services.manager.start({ channel: CONSOLE, userId: "alice" });
    await services.manager.settled();
    // Nothing was spawned, so there is no process to record and none whose stop grace period could be waited out.
    expect(services.db.prepare("SELECT component FROM run_processes WHERE run_id = ?").all(run.id)).toEqual([]);
    expect(run.status).toBe("failed");
    expect(run.failedComponent).toBe("api");
    expect(run.error).toContain("run-api-not-installed");
    expect(run.error).toContain("RL_API_COMMAND");
    expect(run.error).toContain("atroposlib");
    expect(run.error).not.toMatch(/ENOENT/);
    expect(existsSync(logPathOf(services.config.logsDir, run.id, "api"))).toBe(false);
    const status = await services.report.status(services.runs.get(run.id)!);
    expect(status.processes).toMatchObject({ api: "not started", trainer: "not started", env: "not started" });
  });

  it("a trainer command that is a file but not executable says so and names RL_TRAINER_COMMAND, before the API is started", async () => {
    const dir = tempDir("rl-cmd-");
    const script = path.join(dir, "launch-trainer");
    writeFileSync(script, "#!/bin/sh\nexit 0\n");
    chmodSync(script, 0o644);
    const stack = await demo({ RL_TRAINER_COMMAND: script });
    const run = await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    await stack.services.manager.settled();
    expect(run.status).toBe("failed");
    expect(run.failedComponent).toBe("trainer");
    expect(run.error).toContain(script);
    expect(run.error).toMatch(/not executable/);
    expect(run.error).toContain("RL_TRAINER_COMMAND");
    expect(existsSync(logPathOf(stack.services.config.logsDir, run.id, "trainer"))).toBe(false);
    const status = await stack.services.report.status(stack.services.runs.get(run.id)!);
    // Every command is checked before anything is spawned: no API was started for nothing.
    expect(status.processes).toMatchObject({ api: "not started", trainer: "not started", env: "not started" });
    expect(stack.services.db.prepare("SELECT component FROM run_processes WHERE run_id = ?").all(run.id)).toEqual([]);
    expect(existsSync(logPathOf(stack.services.config.logsDir, run.id, "api"))).toBe(false);
  });

  it("a missing trainer command is refused before the API is started, in a real start from the command line", async () => {
    const cwd = tempDir();
    await runCli(["exec", "/rl select arithmetic"], { cwd });
    const out = await runCli(["exec", "/rl start", "--json"], {
      cwd,
      env: { RL_TRAINER_COMMAND: "launch-training-not-installed --flag" },
    });
    expect(out.code).toBe(1);
    const answer = JSON.parse(out.stdout) as { error: { code: string; message: string } };
    expect(answer.error.code).toBe("PROCESS_FAILED");
    expect(answer.error.message).toContain('"launch-training-not-installed" was not found on PATH');
    expect(answer.error.message).not.toContain("api is ready");
    // No component's log was opened: nothing was spawned (the background supervisor's own log aside).
    const logs = path.join(cwd, "data", "logs");
    expect((existsSync(logs) ? readdirSync(logs) : []).filter((f) => f !== "supervisor.log")).toEqual([]);
  });

  it("a trainer script missing from the training root names it, tinker-atropos and pip install -e .", async () => {
    const stack = await demo({ RL_TRAINER_COMMAND: "python3 no_such_launch_training.py" });
    const run = await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    expect(run.status).toBe("failed");
    expect(run.failedComponent).toBe("trainer");
    expect(run.error).toContain("no_such_launch_training.py");
    expect(run.error).toContain("RL_TRAINER_COMMAND");
    expect(run.error).toContain("pip install -e .");
  });

  it("a missing Python names RL_PYTHON for the environment", async () => {
    const stack = await demo({
      RL_PYTHON: "/nonexistent/bin/python3",
      RL_API_COMMAND: "python3 run_api.py",
      RL_TRAINER_COMMAND: "python3 launch_training.py",
    });
    const run = await stack.services.manager.start({ channel: CONSOLE, userId: "alice" });
    await stack.services.manager.settled();
    expect(run.status).toBe("failed");
    expect(run.failedComponent).toBe("env");
    expect(run.error).toContain("/nonexistent/bin/python3");
    expect(run.error).toContain("RL_PYTHON");
    const status = await stack.services.report.status(stack.services.runs.get(run.id)!);
    expect(status.processes.env).toBe("not started");
  });
});
