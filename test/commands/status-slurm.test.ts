// /rl status in text shows a Slurm run's job as --json has it: id, state, node, and why it is pending.
import { describe, expect, it } from "vitest";
import { renderText } from "../../adapters/render-text.ts";
import { slurmJobText, statusFields } from "../../commands/run-reply.ts";
import type { RunStatusView } from "../../src/training/run-report.ts";

const view = (slurm?: RunStatusView["slurm"]): RunStatusView => ({
  run_id: "ab12cd34",
  environment: "arithmetic",
  status: slurm?.state === "PENDING" ? "starting" : "running",
  created_by: "alice",
  created_at: "2026-01-01T00:00:00.000Z",
  running_time_minutes: 3,
  processes: { api: "running", trainer: "running", env: "running" },
  step: 4,
  total_steps: 20,
  queue_size: null,
  reward_mean: 0.5,
  loss: null,
  step_errors: [],
  wandb: {},
  logs: { api: "a.log", trainer: "t.log", env: "e.log" },
  ...(slurm ? { slurm } : {}),
});

describe("/rl status of a Slurm run, in text", () => {
  it("names the job, its state and node, and the reason a pending job waits", () => {
    const running = renderText({
      fields: statusFields(view({ job_id: "4242", state: "RUNNING", node: "vm", reason: "None" })),
    });
    expect(running).toContain("Slurm job: 4242 RUNNING on vm");
    expect(running).not.toContain("None");
    const pending = statusFields(view({ job_id: "4243", state: "PENDING", reason: "Resources" }));
    expect(pending.find((f) => f.label === "Slurm job")?.value).toBe("4243 PENDING (waiting: Resources)");
    // Right after the processes, where a person reads where the run is.
    expect(pending.map((f) => f.label).slice(4, 6)).toEqual(["Processes", "Slurm job"]);
    expect(slurmJobText({ job_id: "4244", state: "FAILED", node: "vm", exit_code: 1 })).toBe(
      "4244 FAILED on vm, exit code 1",
    );
  });

  it("a local run has no Slurm line", () => {
    expect(statusFields(view()).map((f) => f.label)).not.toContain("Slurm job");
  });
});
