// Slurm's command line for the bot: sbatch, scontrol show job, sacct, scancel, squeue; argv arrays, never a shell.
import { execa } from "execa";
import { RlError } from "../../../errors.ts";

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs one Slurm command; injected so the parsing can be exercised without a cluster. */
export type CommandRunner = (
  file: string,
  args: readonly string[],
  options?: { env?: Record<string, string> },
) => Promise<CommandResult>;

export const runSlurmCommand: CommandRunner = async (file, args, options = {}) => {
  const result = await execa(file, [...args], {
    reject: false,
    stdin: "ignore",
    timeout: 60_000,
    ...(options.env ? { env: options.env, extendEnv: false } : {}),
  });
  // A missing binary or a timeout has no exit code: report it as a failed command with execa's reason.
  const exitCode = typeof result.exitCode === "number" ? result.exitCode : 127;
  const stderr = String(result.stderr ?? "") || (result.failed ? (result.shortMessage ?? "failed") : "");
  return { exitCode, stdout: String(result.stdout ?? ""), stderr };
};

/** Job states after which nothing more happens to the job (squeue/scontrol's JobState). */
export const TERMINAL_STATES: ReadonlySet<string> = new Set([
  "COMPLETED",
  "FAILED",
  "CANCELLED",
  "TIMEOUT",
  "NODE_FAIL",
  "PREEMPTED",
  "BOOT_FAIL",
  "DEADLINE",
  "OUT_OF_MEMORY",
]);

export interface SlurmJob {
  jobId: string;
  /** PENDING, RUNNING, COMPLETING, COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ... */
  state: string;
  /** Why a pending job waits (Resources, Priority, JobHeldUser, ...); undefined when "None". */
  reason?: string;
  /** The node(s) it runs on; undefined while pending. */
  node?: string;
  /** The batch script's exit code and the signal that ended it, once the job has ended. */
  exitCode?: number;
  exitSignal?: number;
  fields: Record<string, string>;
}

const NULLISH = new Set(["", "(null)", "None", "N/A", "Unknown"]);
const present = (v: string | undefined) => (v === undefined || NULLISH.has(v) ? undefined : v);

/** Split `scontrol -o show job` output (one line of Key=Value pairs) into fields; the first record only. */
export function parseScontrolFields(text: string): Record<string, string> {
  const line = text.split("\n").find((l) => l.trim().length > 0) ?? "";
  const fields: Record<string, string> = {};
  // A new field starts at whitespace followed by Key= (keys such as AllocNode:Sid or Socks/Node included).
  for (const part of line.trim().split(/\s+(?=[A-Za-z][\w:/]*=)/)) {
    const eq = part.indexOf("=");
    if (eq > 0) fields[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return fields;
}

export function parseScontrolJob(text: string): SlurmJob | undefined {
  const fields = parseScontrolFields(text);
  const jobId = fields.JobId;
  const state = fields.JobState;
  if (!jobId || !state) return undefined;
  const [code, sig] = (fields.ExitCode ?? "").split(":");
  const ended = TERMINAL_STATES.has(state);
  return {
    jobId,
    state,
    reason: present(fields.Reason),
    node: present(fields.NodeList) ?? present(fields.BatchHost),
    exitCode: ended && code !== undefined && /^\d+$/.test(code) ? Number(code) : undefined,
    exitSignal: ended && sig !== undefined && /^\d+$/.test(sig) && sig !== "0" ? Number(sig) : undefined,
    fields,
  };
}

/** How many times Slurm has requeued the job (scontrol's `Restarts`): 0 for a job it never restarted. */
export const restartsOf = (job: SlurmJob): number => {
  const n = Number(job.fields.Restarts ?? "0");
  return Number.isInteger(n) && n >= 0 ? n : 0;
};

/** `sbatch --parsable` prints "ID" or "ID;CLUSTER". */
export function parseSbatchParsable(stdout: string): string | undefined {
  const first = stdout.trim().split("\n").at(-1)?.split(";")[0]?.trim();
  return first && /^\d+(_\d+)?$/.test(first) ? first : undefined;
}

const INVALID_JOB = /invalid job id/i;

export function createSlurmCommands(run: CommandRunner = runSlurmCommand) {
  const failure = (what: string, r: CommandResult) =>
    new RlError(
      "UPSTREAM",
      `${what} failed (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim().slice(0, 500) || "no output"}. Is Slurm reachable from the bot's machine?`,
      {
        details: { exitCode: r.exitCode },
      },
    );

  return {
    /** Submit a batch job; `args` end with the script and its arguments. The job inherits `env`. */
    async submit(args: readonly string[], env: Record<string, string>): Promise<string> {
      const r = await run("sbatch", ["--parsable", ...args], { env });
      const id = r.exitCode === 0 ? parseSbatchParsable(r.stdout) : undefined;
      if (!id) {
        throw new RlError(
          "PROCESS_FAILED",
          `sbatch refused the job: ${(r.stderr || r.stdout).trim().slice(0, 500) || `exit ${r.exitCode}`}. Check the RL_SLURM_* settings.`,
          {
            details: { exitCode: r.exitCode },
          },
        );
      }
      return id;
    },

    /** The job as scontrol sees it; "unknown" once Slurm has forgotten it (or never had it). Throws when Slurm cannot answer. */
    async show(jobId: string): Promise<SlurmJob | "unknown"> {
      const r = await run("scontrol", ["-o", "show", "job", jobId]);
      if (r.exitCode !== 0) {
        if (INVALID_JOB.test(r.stderr) || INVALID_JOB.test(r.stdout)) return "unknown";
        throw failure(`scontrol show job ${jobId}`, r);
      }
      const job = parseScontrolJob(r.stdout);
      if (!job) throw failure(`scontrol show job ${jobId} (unreadable answer)`, r);
      return job;
    },

    /**
     * The job from Slurm's accounting (sacct), for a job scontrol has forgotten (it keeps ended jobs for MinJobAge
     * only); undefined when the cluster keeps no accounting or does not know the job.
     */
    async account(jobId: string): Promise<SlurmJob | undefined> {
      const r = await run("sacct", ["-j", jobId, "-X", "-n", "-P", "-o", "JobID,State,ExitCode,NodeList,Reason"]);
      if (r.exitCode !== 0) return undefined;
      const [id, rawState, exit, node, reason] = (
        r.stdout.split("\n").find((l) => l.startsWith(`${jobId}|`)) ?? ""
      ).split("|");
      if (!id || !rawState) return undefined;
      // sacct writes "CANCELLED by 0" where scontrol writes CANCELLED.
      const state = rawState.split(" ")[0]!;
      const [code, sig] = (exit ?? "").split(":");
      return {
        jobId: id,
        state,
        reason: present(reason),
        node: present(node === "None assigned" ? undefined : node),
        exitCode: code !== undefined && /^\d+$/.test(code) ? Number(code) : undefined,
        exitSignal: sig !== undefined && /^\d+$/.test(sig) && sig !== "0" ? Number(sig) : undefined,
        fields: { JobId: id, JobState: state, ExitCode: exit ?? "" },
      };
    },

    /** Signal only the batch step (our launcher), which stops the components in order itself. */
    async signalBatch(jobId: string, signal: "TERM"): Promise<boolean> {
      const r = await run("scancel", ["--batch", `--signal=${signal}`, jobId]);
      return r.exitCode === 0;
    },

    /** Put the job back in the queue (it runs again from its script's start, its `Restarts` one more). */
    async requeue(jobId: string): Promise<void> {
      const r = await run("scontrol", ["requeue", jobId]);
      if (r.exitCode !== 0) throw failure(`scontrol requeue ${jobId}`, r);
    },

    /** Cancel the job outright: Slurm ends every process of it. */
    async cancel(jobId: string): Promise<boolean> {
      const r = await run("scancel", [jobId]);
      return r.exitCode === 0;
    },

    /** Ids of jobs with this name still known to Slurm (for a bot that died between sbatch and saving the id). */
    async findByName(name: string): Promise<string[]> {
      const r = await run("squeue", ["-h", "-t", "all", "-o", "%i", "-n", name]);
      if (r.exitCode !== 0) throw failure(`squeue -n ${name}`, r);
      return r.stdout
        .split("\n")
        .map((s) => s.trim())
        .filter((s) => /^\d+$/.test(s));
    },
  };
}

export type SlurmCommands = ReturnType<typeof createSlurmCommands>;
