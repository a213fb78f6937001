// The in-job launcher's "written" readiness (a recipe's config.json): the component is ready once it rewrote the file
// since it started, not because a stale copy from an earlier attempt is there, and not only after its settle period.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { childEnv } from "../../src/process/child-env.ts";
import type { TrainingStack } from "../../src/stacks/training-stack.ts";
import { JOB_LAUNCHER, buildJobSpec, jobFiles, writeJobSpec } from "../../src/training/backends/slurm/job-spec.ts";
import { readJobStatus } from "../../src/training/backends/slurm/job-status.ts";
import { delay } from "../../src/training/wait-until.ts";
import { waitFor } from "../helpers/bot-process.ts";
import { tempDir } from "../helpers/test-services.ts";

// SIGTERM, not SIGKILL: the launcher then stops the recipe it started in its own session before it exits.
const children: Array<PromiseLike<unknown> & { kill: (s?: NodeJS.Signals) => boolean }> = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    c.kill("SIGTERM");
    await c;
  }
});

// A recipe stand-in: waits for the test's go file, then rewrites config.json and trains until stopped.
const RECIPE = `
import os, sys, time
folder, go = sys.argv[1], sys.argv[2]
print("waiting for go", flush=True)
while not os.path.exists(go):
    time.sleep(0.02)
with open(os.path.join(folder, "config.json"), "w") as f:
    f.write('{"attempt": 2}')
print("wrote config.json", flush=True)
time.sleep(120)
`;
import { spawnTracked } from "../helpers/children.ts";

const stack: Pick<TrainingStack, "components" | "main" | "stopOrder" | "stepErrorPattern"> = {
  components: [
    {
      name: "trainer",
      title: "recipe",
      ready: { kind: "written", runFile: "config.json", settleMs: 10 * 60_000 },
      help: { what: "python3", settings: [], provider: "" },
    },
  ],
  main: "trainer",
  stopOrder: ["trainer"],
};

describe("job-launcher.py, written readiness", () => {
  it("counts a recipe ready when it rewrites config.json, not on the stale one an earlier attempt left", async () => {
    const dir = tempDir("rl-launcher-written-");
    const runId = "cafe0002";
    const runFolder = path.join(dir, "runs", runId);
    mkdirSync(runFolder, { recursive: true });
    writeFileSync(path.join(runFolder, "config.json"), '{"attempt": 1}');
    const go = path.join(dir, "go");
    const files = jobFiles(path.join(dir, "logs"), path.join(dir, "run-configs"), runId);
    const log = path.join(dir, "logs", `trainer_${runId}.log`);
    const { spec } = buildJobSpec({
      runId,
      runFolder,
      configPath: path.join(dir, "run-configs", "run.json"),
      stack,
      plans: [
        {
          component: "trainer",
          command: "python3",
          args: ["-c", RECIPE, runFolder, go],
          cwd: dir,
          env: childEnv(process.env, dir, {}),
          logPath: log,
        },
      ],
      files,
      stopGraceMs: 2000,
      readyTimeoutMs: 60_000,
      secrets: [],
    });
    expect(spec.components[0]!.ready).toEqual({
      kind: "written",
      path: path.join(runFolder, "config.json"),
      settle_seconds: 600,
    });
    writeJobSpec(files.spec, spec);
    const sub = spawnTracked("python3", [JOB_LAUNCHER, files.spec], { reject: false });
    children.push(sub);

    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes("waiting for go"), "the recipe");
    // Given time to look, the launcher still waits: the config.json there is the earlier attempt's.
    await delay(1000);
    expect((await readJobStatus(files.status))?.state ?? "starting").toBe("starting");

    writeFileSync(go, "");
    const status = await waitFor(async () => {
      const s = await readJobStatus(files.status);
      return s?.state === "running" && s;
    }, "the run to be running");
    expect(status.ready).toEqual(["trainer"]);
    // Stopped as Slurm stops a job: the launcher stops the recipe (its own session) before it exits.
    sub.kill("SIGTERM");
    expect((await sub).exitCode).toBe(143);
  });
});
