// Finds a usable Slurm for the slurm tests, and small helpers to drive it from a test (blocker jobs, job state).
import { spawnSync } from "node:child_process";
import type { RunRow } from "../../db/runs.ts";
import { jobFiles } from "../../src/training/backends/slurm/job-spec.ts";
import { readJobStatus } from "../../src/training/backends/slurm/job-status.ts";
import {
  TERMINAL_STATES,
  createSlurmCommands,
  restartsOf,
  type SlurmJob,
} from "../../src/training/backends/slurm/slurm-commands.ts";
import type { Services } from "../../src/services.ts";
import { nextEvent, type DemoStack } from "./demo-stack.ts";
import { waitFor } from "./wait-for.ts";

/** The slurm backend, polled each second; /rl start waits up to 30 s for the job to leave the queue (1-3 s here). */
export const SLURM_ENV = { RL_BACKEND: "slurm", RL_SLURM_POLL_SECONDS: "1", RL_SLURM_START_WAIT_SECONDS: "30" };

/** How long slurmMissing waits for a node that another test file's job keeps busy. */
const NODE_FREE_WAIT_MS = 5 * 60_000;

/** Why the slurm tests cannot run here, or undefined when an idle node is up (waiting, bounded, while one is busy). */
export function slurmMissing(): string | undefined {
  const deadline = Date.now() + NODE_FREE_WAIT_MS;
  for (;;) {
    const r = spawnSync("sinfo", ["-h", "-o", "%T"], { encoding: "utf8", timeout: 15_000 });
    if (r.error)
      return `sinfo is not available (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); run .ci/start-slurm.sh as root`;
    if (r.status !== 0) return `sinfo failed: ${r.stderr.trim() || `exit ${r.status}`}; run .ci/start-slurm.sh as root`;
    const states = r.stdout
      .split("\n")
      .map((s) => s.trim())
      .filter(Boolean);
    if (states.some((s) => ["idle", "mixed"].includes(s))) return undefined;
    // A node that is only allocated (or finishing a job) is busy with another test's job: it will be free soon.
    const busy = states.some((s) => /^(allocated|completing)/.test(s));
    if (!busy || Date.now() >= deadline)
      return `no idle Slurm node (node states: ${states.join(", ") || "none"})${busy ? ` after waiting ${NODE_FREE_WAIT_MS / 60_000} minutes` : ""}`;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
}

export const slurm = createSlurmCommands();

/** Poll `scontrol show job` until `check` passes. */
export async function untilJob(
  jobId: string,
  check: (job: SlurmJob | "unknown") => boolean,
  what: string,
): Promise<SlurmJob | "unknown"> {
  let job: SlurmJob | "unknown" = "unknown";
  await waitFor(
    async () => {
      job = await slurm.show(jobId);
      return check(job);
    },
    `job ${jobId}: ${what}`,
    { everyMs: 100 },
  );
  return job;
}

/** Submit a job that takes the whole node, so the next job waits for resources. */
export async function submitBlocker(): Promise<string> {
  return slurm.submit(["--exclusive", "--job-name=rl-test-blocker", "--output=/dev/null", "--wrap", "sleep 300"], {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
  });
}

/** A run's job status file, as the job launcher writes it. */
export const statusOf = (stack: DemoStack, runId: string) =>
  readJobStatus(jobFiles(stack.services.config.logsDir, stack.services.config.runConfigsDir, runId).status);

/** The component pids the launcher recorded (the node is this machine). */
export async function componentPids(stack: DemoStack, runId: string): Promise<number[]> {
  const status = await statusOf(stack, runId);
  return Object.values(status?.components ?? {}).flatMap((c) => (typeof c.pid === "number" ? [c.pid] : []));
}

/** Wait for a run's job to end (or be forgotten by Slurm). */
export const jobEnded = (run: RunRow) =>
  untilJob(run.jobId!, (j) => j === "unknown" || TERMINAL_STATES.has(j.state), "the job to end");

export function scontrol(...args: string[]): void {
  const r = spawnSync("scontrol", args, { encoding: "utf8", timeout: 30_000 });
  if (r.status !== 0) throw new Error(`scontrol ${args.join(" ")}: ${r.stderr || r.stdout}`);
}

/**
 * Slurm holds a requeued job about two minutes (Reason=BeginTime) before it may run again; the tests do not wait that
 * out: once the job is back in the queue, it may start now.
 */
export async function releaseRequeued(jobId: string, restarts: number): Promise<void> {
  await untilJob(
    jobId,
    (j) => j !== "unknown" && restartsOf(j) >= restarts && j.state === "PENDING",
    `job ${jobId} pending after requeue ${restarts}`,
  );
  scontrol("update", `jobid=${jobId}`, "StartTime=now");
}

/**
 * Preempts a running run's job (`scontrol requeue`) and lets it start again at once: resolves when the bot has seen it
 * queued and then resumed, the same run.
 */
export async function requeueRun(services: Services, run: RunRow): Promise<void> {
  const preempted = nextEvent(services, "queued", run.id);
  const resumed = nextEvent(services, "resumed", run.id);
  scontrol("requeue", run.jobId!);
  await preempted;
  await releaseRequeued(run.jobId!, 1);
  if ((await resumed).run.id !== run.id) throw new Error(`another run than ${run.id} resumed`);
}
