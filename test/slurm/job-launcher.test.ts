// The in-job launcher on its own (no Slurm needed): readiness order, outcome, the status file, SIGTERM's stop order.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Component } from "../../db/run-processes.ts";
import { DEMO_STACK_ROOT, loadConfig } from "../../src/config.ts";
import { createEnvironmentCatalog } from "../../src/environments/resolution/catalog.ts";
import { createEnvironmentScanner } from "../../src/environments/scanner.ts";
import { createAtroposStack } from "../../src/stacks/atropos-tinker/atropos-stack.ts";
import { loadLockedFields } from "../../src/locked-fields.ts";
import { childEnv } from "../../src/process/child-env.ts";
import type { SpawnPlan } from "../../src/process/supervised-process.ts";
import { processStartTime } from "../../src/process/process-info.ts";
import { buildRunConfig, stackAddresses, writeRunConfig } from "../../src/stacks/atropos-tinker/run-config.ts";
import { JOB_LAUNCHER, buildJobSpec, jobFiles, writeJobSpec } from "../../src/training/backends/slurm/job-spec.ts";
import { readJobStatus } from "../../src/training/backends/slurm/job-status.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { spawnTracked } from "../helpers/children.ts";

const children: Array<{ kill: (s?: NodeJS.Signals) => boolean }> = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

interface Setup {
  files: ReturnType<typeof jobFiles>;
  logOf: (c: Component) => string;
}

/** A job spec for the demo stack in a temp folder, with the same commands the bot would give the job. */
async function setup(
  options: {
    totalSteps?: number;
    stepSeconds?: number;
    fault?: string;
    readyTimeoutMs?: number;
    apiCommand?: string[];
    forwardSignalToMain?: boolean;
  } = {},
): Promise<Setup> {
  const dir = tempDir("rl-launcher-");
  const locked = loadLockedFields(await demoLockedFields(dir, options));
  const addresses = stackAddresses(locked);
  const runId = "cafe0001";
  const runConfig = buildRunConfig({ runId, environment: "arithmetic", values: {}, locked, wandbProject: "p" });
  const configPath = writeRunConfig(path.join(dir, "run-configs"), runId, runConfig, []);
  const logOf = (c: Component) => path.join(dir, "logs", `${c}_${runId}.log`);
  const env = childEnv(process.env, DEMO_STACK_ROOT, {});
  const plan = (component: Component, argv: string[], extra: Record<string, string> = {}): SpawnPlan => ({
    component,
    command: argv[0]!,
    args: argv.slice(1),
    cwd: DEMO_STACK_ROOT,
    env: { ...env, ...extra },
    logPath: logOf(component),
  });
  const plans = [
    plan("api", [
      ...(options.apiCommand ?? ["python3", "run_api.py"]),
      "--host",
      "127.0.0.1",
      "--port",
      String(addresses.apiPort),
    ]),
    plan("trainer", ["python3", "launch_training.py", "--config", configPath], { TINKER_API_KEY: "tk-test-key" }),
    plan("env", [
      "python3",
      path.join(DEMO_STACK_ROOT, "tinker_atropos/environments/arithmetic_env.py"),
      "serve",
      "--config",
      configPath,
    ]),
  ];
  const files = jobFiles(path.join(dir, "logs"), path.join(dir, "run-configs"), runId);
  // The stack's own description of its processes (readiness, stop order); the plans above are written out by hand.
  const stack = createAtroposStack({
    config: loadConfig({ RL_DATA_DIR: dir }, dir),
    locked,
    catalog: createEnvironmentCatalog(dir, createEnvironmentScanner({ lockedEnv: locked.env })),
    envSettleMs: 2000,
  });
  const { spec, env: jobEnv } = buildJobSpec({
    runId,
    runFolder: path.join(dir, "runs", runId),
    configPath,
    stack,
    plans,
    files,
    stopGraceMs: 3000,
    readyTimeoutMs: options.readyTimeoutMs ?? 30_000,
    secrets: ["tk-test-key"],
    forwardSignalToMain: options.forwardSignalToMain,
  });
  expect(jobEnv.TINKER_API_KEY).toBe("tk-test-key");
  expect(spec.components.map((c) => [c.name, c.env_unset])).toEqual([
    ["api", ["TINKER_API_KEY"]],
    ["trainer", []],
    ["env", ["TINKER_API_KEY"]],
  ]);
  writeJobSpec(files.spec, spec);
  expect(readFileSync(files.spec, "utf8")).not.toContain("tk-test-key");
  return { files, logOf };
}

function launch(s: Setup, extraEnv: Record<string, string> = {}) {
  const sub = spawnTracked("python3", [JOB_LAUNCHER, s.files.spec], {
    reject: false,
    env: childEnv(process.env, DEMO_STACK_ROOT, { TINKER_API_KEY: "tk-test-key", ...extraEnv }),
    extendEnv: false,
  });
  children.push(sub);
  return sub;
}

describe("job-launcher.py", () => {
  it("starts api, trainer, env in order, and exits 0 with a completed status when training completes", async () => {
    const s = await setup({ totalSteps: 6 });
    const result = await launch(s);
    expect(result.exitCode).toBe(0);
    const out = String(result.stdout);
    const order = ["api is ready", "trainer is ready", "env is ready", "completed"].map((m) => out.indexOf(m));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const status = await readJobStatus(s.files.status);
    expect(status).toMatchObject({
      state: "completed",
      reached_running: true,
      ready: ["api", "trainer", "env"],
      component: "trainer",
      exit_code: 0,
    });
    expect(readFileSync(s.logOf("trainer"), "utf8")).toContain("Training complete!");
  });

  it("on SIGTERM stops env, then trainer, then api, and exits 143 with a stopped status", async () => {
    const s = await setup({ totalSteps: 400, stepSeconds: 0.1 });
    const sub = launch(s);
    await waitFor(async () => (await readJobStatus(s.files.status))?.state === "running", "the job to be running");
    const pids = Object.values((await readJobStatus(s.files.status))?.components ?? {}).map((c) => c.pid);
    expect(pids).toHaveLength(3);
    sub.kill("SIGTERM");
    const result = await sub;
    expect(result.exitCode).toBe(143);
    const out = String(result.stdout);
    const order = ["stopping env", "stopping trainer", "stopping api"].map((m) => out.indexOf(m));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await readJobStatus(s.files.status)).toMatchObject({ state: "stopped" });
    for (const pid of pids) expect(processStartTime(pid!)).toBeUndefined();
  });

  it("in a requeueable job forwards SIGTERM to the trainer at once and records which start of the job it is", async () => {
    const s = await setup({ totalSteps: 400, stepSeconds: 0.1, forwardSignalToMain: true });
    const sub = launch(s, { SLURM_RESTART_COUNT: "2" });
    await waitFor(async () => (await readJobStatus(s.files.status))?.state === "running", "the job to be running");
    sub.kill("SIGTERM");
    const result = await sub;
    expect(result.exitCode).toBe(143);
    const out = String(result.stdout);
    const order = ["forwarding SIGTERM to trainer", "job-launcher: stopping env", "job-launcher: stopping api"].map(
      (m) => out.indexOf(m),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await readJobStatus(s.files.status)).toMatchObject({ state: "stopped", restart_count: 2 });
  });

  it("fails naming a trainer that never becomes ready, and stops what it started", async () => {
    // The timeout is per component: the API's Python must be ready within it too (up to 1.4 s on a loaded machine).
    const s = await setup({ fault: "no_health", readyTimeoutMs: 8000 });
    const result = await launch(s);
    expect(result.exitCode).toBe(1);
    const status = await readJobStatus(s.files.status);
    expect(status).toMatchObject({ state: "failed", component: "trainer", reached_running: false });
    expect(status?.message).toMatch(/The trainer was not ready after 8 s/);
    for (const c of Object.values(status?.components ?? {})) if (c.pid) expect(processStartTime(c.pid)).toBeUndefined();
  });

  it("fails naming the component that cannot start", async () => {
    const s = await setup({ apiCommand: ["/nonexistent/run-api"] });
    const result = await launch(s);
    expect(result.exitCode).toBe(1);
    const status = await readJobStatus(s.files.status);
    expect(status).toMatchObject({ state: "failed", component: "api" });
    expect(status?.message).toMatch(/api could not start/);
  });
});
