// What one run's batch job is (or a sweep's job array): the launcher's spec file (commands as JSON), its environment, and sbatch's argv.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PACKAGE_ROOT, type SlurmSettings } from "../../../config.ts";
import { RlError } from "../../../errors.ts";
import type { SpawnPlan } from "../../../process/supervised-process.ts";
import type { ReadyCheck, TrainingStack } from "../../../stacks/training-stack.ts";

/** The in-job launcher; sbatch copies it into Slurm's spool, so the node needs only python3. */
export const JOB_LAUNCHER = path.join(PACKAGE_ROOT, "src", "training", "backends", "slurm", "job-launcher.py");

/** A readiness check as the launcher reads it (seconds, snake_case). */
export type JobReadyCheck =
  | { kind: "http"; url: string }
  | { kind: "traffic"; status_url: string; settle_seconds: number }
  | { kind: "written"; path: string; settle_seconds: number }
  | { kind: "settle"; settle_seconds: number };

export interface JobSpecComponent {
  name: string;
  argv: string[];
  cwd: string;
  log: string;
  /** Variables of the job's environment this component must not see (e.g. the api gets no keys). */
  env_unset: string[];
  ready: JobReadyCheck;
  may_finish_first: boolean;
  /**
   * How it starts when Slurm restarts the job (a requeue): the plan of the run's next attempt, with the stack's resume
   * fields, and the variables of its environment that differ. Absent: the same argv again.
   */
  restart_argv?: string[];
  restart_env?: Record<string, string>;
}

export interface JobSpec {
  run_id: string;
  status_path: string;
  grace_seconds: number;
  ready_timeout_seconds: number;
  config_path: string;
  /** The component whose clean exit ends the run. */
  main: string;
  stop_order: string[];
  /** A line of the main component's log starting with this is a failed step, whatever its exit code. */
  step_error_pattern?: string;
  /** A stop signal goes to the main process at once, so the trainer saves before the job's end (RL_SLURM_REQUEUE). */
  forward_signal_to_main?: boolean;
  components: JobSpecComponent[];
}

function jobReadyCheck(check: ReadyCheck, runFolder: string): JobReadyCheck {
  if (check.kind === "http") return check;
  if (check.kind === "traffic")
    return { kind: "traffic", status_url: check.statusUrl, settle_seconds: check.settleMs / 1000 };
  if (check.kind === "written")
    return { kind: "written", path: path.join(runFolder, check.runFile), settle_seconds: check.settleMs / 1000 };
  return { kind: "settle", settle_seconds: check.settleMs / 1000 };
}

export interface JobFiles {
  spec: string;
  status: string;
  /** The launcher's own stdout and stderr (sbatch --output). */
  output: string;
}

export function jobFiles(logsDir: string, runConfigsDir: string, runId: string): JobFiles {
  return {
    spec: path.join(runConfigsDir, `job_${runId}.json`),
    status: path.join(logsDir, `job_${runId}.json`),
    output: path.join(logsDir, `job_${runId}.out`),
  };
}

export const jobName = (runId: string) => `rl-${runId}`;

export interface JobSpecInput {
  runId: string;
  /** The run's own folder in the data folder (a "written" readiness check's file is in it). */
  runFolder: string;
  configPath: string;
  /** The run's stack: its components in start order, how each is judged ready, the stop order. */
  stack: Pick<TrainingStack, "components" | "main" | "stopOrder" | "stepErrorPattern">;
  /** One plan per component of the stack, in its order. */
  plans: SpawnPlan[];
  /** The plans of the run's next attempt, when the job may be requeued and they differ. */
  restartPlans?: SpawnPlan[];
  files: JobFiles;
  stopGraceMs: number;
  readyTimeoutMs: number;
  secrets: readonly string[];
  /** The job may be requeued: its launcher hands a stop signal to the main process first. */
  forwardSignalToMain?: boolean;
}

/** What a component's restart changes: its argv and the variables whose values differ, when anything does. */
function restartOf(
  plan: SpawnPlan,
  next: SpawnPlan | undefined,
): Pick<JobSpecComponent, "restart_argv" | "restart_env"> {
  if (!next) return {};
  const argv = [next.command, ...next.args];
  const env = Object.fromEntries(Object.entries(next.env).filter(([k, v]) => plan.env[k] !== v));
  const sameArgv = argv.length === plan.args.length + 1 && argv.every((a, i) => a === [plan.command, ...plan.args][i]);
  if (sameArgv && Object.keys(env).length === 0) return {};
  return { restart_argv: argv, ...(Object.keys(env).length ? { restart_env: env } : {}) };
}

/**
 * The job runs with one environment (the union of the components' environments, handed to sbatch, so keys
 * never touch the disk); each component drops what its local counterpart would not get.
 */
export function buildJobSpec(input: JobSpecInput): { spec: JobSpec; env: Record<string, string> } {
  const env: Record<string, string> = {};
  for (const plan of input.plans) {
    for (const [k, v] of Object.entries(plan.env)) {
      if (k in env && env[k] !== v) {
        throw new RlError("INTERNAL", `components need different values of ${k}; one Slurm job cannot give them both`);
      }
      env[k] = v;
    }
  }
  const components = input.plans.map((plan, i) => ({
    name: plan.component,
    argv: [plan.command, ...plan.args],
    cwd: plan.cwd,
    log: plan.logPath,
    env_unset: Object.keys(env).filter((k) => !(k in plan.env)),
    ready: jobReadyCheck(input.stack.components[i]!.ready, input.runFolder),
    may_finish_first: input.stack.components[i]!.mayFinishFirst ?? false,
    ...restartOf(plan, input.restartPlans?.[i]),
  }));
  const spec: JobSpec = {
    run_id: input.runId,
    status_path: input.files.status,
    grace_seconds: input.stopGraceMs / 1000,
    ready_timeout_seconds: input.readyTimeoutMs / 1000,
    config_path: input.configPath,
    main: input.stack.main,
    stop_order: [...input.stack.stopOrder],
    ...(input.stack.stepErrorPattern ? { step_error_pattern: input.stack.stepErrorPattern } : {}),
    ...(input.forwardSignalToMain ? { forward_signal_to_main: true } : {}),
    components,
  };
  const text = JSON.stringify(spec, null, 2);
  if (input.secrets.some((s) => s.length >= 4 && text.includes(s))) {
    throw new RlError(
      "INVALID_VALUE",
      "A component command contains one of the bot's API keys; keys go through the job's environment, never its files.",
    );
  }
  return { spec, env };
}

export function writeJobSpec(file: string, spec: JobSpec): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(spec, null, 2)}\n`, { mode: 0o600 });
}

/** A sweep's job array: one task per run, task i running specs[i]; at most `throttle` tasks at once. */
export interface JobArray {
  name: string;
  specs: string[];
  /** sbatch's --output pattern, with %a for the task index. */
  output: string;
  throttle: number;
}

/** Where a job array's tasks write their launcher output; task i's file is the pattern with %a replaced by i. */
export const arrayOutputPattern = (logsDir: string, sweepId: string) => path.join(logsDir, `job_${sweepId}_%a.out`);

/**
 * Without RL_SLURM_REQUEUE a node failure must end the run visibly, not restart the training from step 0. With it the
 * job may run again (the bot follows each restart), its launcher is warned before the time limit so the trainer
 * saves, and each start appends to the launcher's output instead of truncating the last one's.
 */
function requeueArgs(settings: SlurmSettings): string[] {
  if (!settings.requeue) return ["--no-requeue"];
  return ["--requeue", `--signal=B:TERM@${settings.signalSeconds}`, "--open-mode=append"];
}

/** sbatch's options and the script with its argument(s); "--parsable" is added by the command wrapper. */
export function sbatchArgs(
  settings: SlurmSettings,
  job: { runId: string; files: JobFiles; chdir: string; launcher?: string; array?: JobArray },
): string[] {
  const { array } = job;
  const args = [
    `--job-name=${jobName(array ? array.name : job.runId)}`,
    `--output=${array ? array.output : job.files.output}`,
    ...(array ? [`--array=0-${array.specs.length - 1}%${array.throttle}`] : []),
    `--chdir=${job.chdir}`,
    // The job carries the keys in its environment, whatever SBATCH_EXPORT says.
    "--export=ALL",
    "--nodes=1",
    "--ntasks=1",
    ...requeueArgs(settings),
  ];
  if (settings.partition) args.push(`--partition=${settings.partition}`);
  if (settings.account) args.push(`--account=${settings.account}`);
  if (settings.timeLimit) args.push(`--time=${settings.timeLimit}`);
  if (settings.gpus) args.push(`--gpus=${settings.gpus}`);
  args.push(...settings.extraArgs);
  args.push(job.launcher ?? JOB_LAUNCHER, ...(array ? array.specs : [job.files.spec]));
  return args;
}
