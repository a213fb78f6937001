// Reads the status file the in-job launcher keeps (data/logs/job_{runId}.json), defensively: it is another program's output.
import { readFile } from "node:fs/promises";
import { z } from "zod";

const componentView = z.object({
  state: z.string(),
  pid: z.number().nullable().optional(),
  exit_code: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
});

const statusSchema = z.object({
  state: z.enum(["starting", "running", "stopping", "completed", "failed", "stopped"]),
  node: z.string().nullable().optional(),
  job_id: z.string().nullable().optional(),
  /** SLURM_RESTART_COUNT of the job start that wrote it: a requeued job's next start writes over the same file. */
  restart_count: z.number().default(0),
  ready: z.array(z.string()).default([]),
  reached_running: z.boolean().default(false),
  components: z.record(z.string(), componentView).default({}),
  component: z.string().nullable().optional(),
  exit_code: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});

export type JobStatus = z.output<typeof statusSchema>;
export type JobOutcome = "completed" | "failed" | "stopped";

export const isOutcome = (state: JobStatus["state"] | undefined): state is JobOutcome =>
  state === "completed" || state === "failed" || state === "stopped";

/** The launcher's last word, or undefined when there is no file yet (pending job) or it cannot be read. */
export async function readJobStatus(file: string): Promise<JobStatus | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = statusSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The status file when it is the current start's: one a requeued job's earlier start left is not the run's now. */
export const currentStatus = (status: JobStatus | undefined, restarts: number): JobStatus | undefined =>
  status && status.restart_count >= restarts ? status : undefined;

export const isComponent = (name: string | null | undefined): name is string => typeof name === "string" && name !== "";

/**
 * What /rl status shows for each component of a job, in the words the local backend uses; while the job waits in
 * the Slurm queue, each says so with Slurm's reason, so the existing status reply shows it.
 */
export function componentStates(
  status: JobStatus | undefined,
  pending: { reason?: string } | undefined,
  components: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const waiting = pending ? `pending in the Slurm queue${pending.reason ? ` (${pending.reason})` : ""}` : "not started";
  for (const c of components) {
    const v = status?.components[c];
    if (!v || v.state === "not started") out[c] = waiting;
    else if (v.state === "exited")
      out[c] = v.signal ? `killed (${v.signal})` : v.exit_code == null ? "exited" : `exited (${v.exit_code})`;
    else out[c] = v.state;
  }
  return out;
}
