// Finds a usable Slurm for the slurm tests, and small helpers to drive it from a test (blocker jobs, job state).
import { spawnSync } from "node:child_process";
import { createSlurmCommands, type SlurmJob } from "../../src/training/backends/slurm/slurm-commands.ts";
import { delay } from "../../src/training/wait-until.ts";

/** Why the slurm tests cannot run here, or undefined when an idle node is up. */
export function slurmMissing(): string | undefined {
  const r = spawnSync("sinfo", ["-h", "-o", "%T"], { encoding: "utf8", timeout: 15_000 });
  if (r.error)
    return `sinfo is not available (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); run .ci/start-slurm.sh as root`;
  if (r.status !== 0) return `sinfo failed: ${r.stderr.trim() || `exit ${r.status}`}; run .ci/start-slurm.sh as root`;
  const states = r.stdout
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!states.some((s) => ["idle", "mixed"].includes(s)))
    return `no idle Slurm node (node states: ${states.join(", ") || "none"})`;
  return undefined;
}

export const slurm = createSlurmCommands();

/** Poll `scontrol show job` until `check` passes (bounded). */
export async function untilJob(
  jobId: string,
  check: (job: SlurmJob | "unknown") => boolean,
  what: string,
): Promise<SlurmJob | "unknown"> {
  for (let i = 0; i < 600; i++) {
    const job = await slurm.show(jobId);
    if (check(job)) return job;
    await delay(100);
  }
  throw new Error(`gave up waiting for job ${jobId}: ${what}`);
}

/** Submit a job that takes the whole node, so the next job waits for resources. */
export async function submitBlocker(): Promise<string> {
  return slurm.submit(["--exclusive", "--job-name=rl-test-blocker", "--output=/dev/null", "--wrap", "sleep 300"], {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
  });
}
