// What status, results, runs and logs answer: process states, progress from run-api and the trainer log, WandB.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { DigestStateRepo } from "../../db/digest-state.ts";
import type { OutboxKind, OutboxRepo } from "../../db/outbox.ts";
import type { Component, ProcessRow, RunProcessesRepo } from "../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import { RlError } from "../errors.ts";
import { readTailLines } from "../metrics/log-tail.ts";
import type { WandbLookup, WandbView } from "../metrics/wandb-lookup.ts";
import { isSameProcess } from "../process/process-info.ts";
import type { Checkpoint, SampleQuery, StepSamples } from "../stacks/training-stack.ts";
import { trainingMs } from "../values/training-time.ts";
import type { RunManager } from "./run-manager.ts";
import type { SlurmJobView } from "./backends/slurm/job-view.ts";

export interface RunStatusView {
  run_id: string;
  status: RunRow["status"];
  environment: string;
  created_by: string;
  created_at: string;
  started_at?: string;
  ended_at?: string;
  /** Training time: every attempt's, from its start to its end (or now), without the time between attempts. */
  running_time_minutes: number;
  processes: Record<Component, string>;
  step: number | null;
  total_steps: number | null;
  queue_size: number | null;
  reward_mean: number | null;
  loss: number | null;
  step_errors: string[];
  error?: string;
  failed_component?: string;
  stopped_by?: string;
  wandb: WandbView;
  wandb_project?: string;
  wandb_run_name?: string;
  logs: Record<Component, string>;
  /** Runs on the slurm backend: the batch job, with why it is pending or where it runs. */
  slurm?: SlurmJobView;
  /** A running run whose step has not changed for the stall period (as the minute's alert check saw it). */
  stalled?: { minutes: number; last_step: number };
  /** The run's messages the outbox stopped trying, by reason (a channel the bot cannot post in, ...). */
  undelivered?: Array<{ kind: OutboxKind; why: string; count: number }>;
  /** A resumed run: how many times, the last time by whom and from which step. */
  resumed?: { times: number; by?: string; step?: number };
  /** A forked run: the run and step it started from. */
  forked_from?: { run_id: string; step?: number };
}

/** A checkpoint as commands and the chat model see it. */
export interface CheckpointView {
  name: string;
  step: number;
  time?: string;
  path: string;
  sampler_path?: string;
  final?: boolean;
}

export interface RunCheckpointsView {
  run_id: string;
  environment: string;
  status: RunRow["status"];
  stack: string;
  /** Every checkpoint the run saved. */
  count: number;
  /** The newest `limit` of them, newest first. */
  checkpoints: CheckpointView[];
  can_resume: boolean;
  resume_note: string;
}

/** A step's sampled rollouts, as /rl samples and the chat tool show them. */
export interface RunSamplesView extends StepSamples {
  run_id: string;
  environment: string;
  status: RunRow["status"];
  stack: string;
}

export interface RunResultsView extends RunStatusView {
  reward_history: Array<{ step: number; value: number }>;
  percent_correct_history: Array<{ step: number; value: number }>;
  final_weights?: string;
  /** How many checkpoints the run saved, and the newest. */
  checkpoints: { count: number; latest?: CheckpointView };
  failed_log_tail?: string[];
  history_note?: string;
}

const checkpointView = (c: Checkpoint): CheckpointView => ({
  name: c.name,
  step: c.step,
  ...(c.time ? { time: c.time } : {}),
  path: c.path,
  ...(c.samplerPath ? { sampler_path: c.samplerPath } : {}),
  ...(c.final ? { final: true } : {}),
});

const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());

function processState(p: ProcessRow | undefined): string {
  // No pid: the command could not be spawned, so nothing ever ran.
  if (!p || p.pid === undefined) return "not started";
  if (p.state === "exited") {
    if (p.signal) return `killed (${p.signal})`;
    return p.exitCode === undefined ? "exited" : `exited (${p.exitCode})`;
  }
  if (!isSameProcess(p.pid, p.startTime)) return "gone";
  return p.state === "ready" ? "running" : "starting";
}

export interface RunReportDeps {
  runs: RunsRepo;
  processes: RunProcessesRepo;
  manager: RunManager;
  wandb: WandbLookup;
  digestStates: DigestStateRepo;
  outbox: OutboxRepo;
  stallMs: number;
  now: () => number;
  /** Log lines leave the report with the bot's keys masked: a trainer may print one, and the report reaches chat and the model. */
  redact: (text: string) => string;
}

function stallOf(deps: RunReportDeps, run: RunRow): Pick<RunStatusView, "stalled"> {
  if (run.status !== "running") return {};
  const { lastStep, lastStepAt } = deps.digestStates.get(run.id);
  if (lastStepAt === undefined || deps.now() - lastStepAt < deps.stallMs) return {};
  return { stalled: { minutes: Math.round((deps.now() - lastStepAt) / 60_000), last_step: lastStep ?? 0 } };
}

function undeliveredOf(deps: RunReportDeps, run: RunRow): Pick<RunStatusView, "undelivered"> {
  const groups = new Map<string, { kind: OutboxKind; why: string; count: number }>();
  for (const m of deps.outbox.undelivered(run.id)) {
    const key = `${m.kind}\n${m.why}`;
    const group = groups.get(key) ?? { kind: m.kind, why: m.why, count: 0 };
    group.count++;
    groups.set(key, group);
  }
  return groups.size ? { undelivered: [...groups.values()] } : {};
}

export function createRunReport(deps: RunReportDeps) {
  const { runs, manager } = deps;

  /** The run called `id` (a unique prefix is enough); NOT_FOUND otherwise — never rate-limited. */
  function find(id: string): RunRow {
    const exact = runs.get(id);
    if (exact) return exact;
    const ids = id.length >= 3 ? runs.idsLike(id, 2) : [];
    if (ids.length === 1) return runs.get(ids[0]!)!;
    throw new RlError(
      "NOT_FOUND",
      `No run "${id}".${ids.length > 1 ? " That prefix matches several runs; give more of the id." : ""} See /rl runs.`,
    );
  }

  function latest(channel: ChannelKey): RunRow {
    const run = runs.listByChannel(channel, 1)[0];
    if (!run) throw new RlError("NOT_FOUND", "No runs in this channel yet. Start one with /rl start.");
    return run;
  }

  async function status(input: RunRow): Promise<RunStatusView> {
    // A query never acts: the supervising process keeps the row up to date.
    const run = deps.runs.get(input.id) ?? input;
    const procs = deps.processes.list(run.id);
    const components = manager.stackOf(run).components.map((c) => c.name);
    const byComponent = Object.fromEntries(
      components.map((c) => [c, processState(procs.find((p) => p.component === c))]),
    );
    // A slurm run's processes live on a compute node: the job's status file knows them, not this machine's /proc.
    const slurm = run.backend === "slurm" ? await manager.slurmView(run) : undefined;
    const trainer = await manager.progress(run);
    const api = manager.isLive(run) ? await manager.apiStatus(run) : undefined;
    return {
      run_id: run.id,
      status: run.status,
      environment: run.environment,
      created_by: run.createdBy,
      ...(run.attempt > 0 ? { resumed: { times: run.attempt, by: run.resumedBy, step: run.resumedStep } } : {}),
      ...(run.parentId ? { forked_from: { run_id: run.parentId, step: run.forkStep } } : {}),
      created_at: iso(run.createdAt)!,
      started_at: iso(run.startedAt),
      ended_at: iso(run.endedAt),
      running_time_minutes: Math.round((trainingMs(run, deps.now()) / 60_000) * 10) / 10,
      processes: slurm?.processes ?? byComponent,
      step: trainer.step ?? api?.current_step ?? null,
      total_steps: run.totalSteps ?? trainer.totalSteps ?? null,
      queue_size: api?.queue_size ?? null,
      reward_mean: trainer.rewardMean ?? null,
      loss: trainer.loss ?? null,
      step_errors: trainer.stepErrors.slice(-3),
      error: run.error,
      failed_component: run.failedComponent,
      stopped_by: run.stoppedBy,
      wandb: await deps.wandb.view(run),
      wandb_project: run.wandbProject,
      wandb_run_name: run.wandbRunName,
      logs: Object.fromEntries(components.map((c) => [c, manager.logPath(run.id, c)])),
      ...(slurm?.job ? { slurm: slurm.job } : {}),
      ...stallOf(deps, run),
      ...undeliveredOf(deps, run),
    };
  }

  async function results(run: RunRow): Promise<RunResultsView> {
    const base = await status(run);
    const trainer = await manager.progress(run);
    const saved = await manager.checkpoints(run);
    const latest = saved.at(-1);
    const history = await deps.wandb.history(runs.get(run.id)!);
    const fromWandb = "reward" in history && history.reward.length > 0;
    return {
      ...base,
      reward_history: fromWandb ? history.reward : trainer.rewardHistory,
      percent_correct_history: "percentCorrect" in history ? history.percentCorrect : [],
      final_weights: trainer.finalWeights,
      checkpoints: { count: saved.length, ...(latest ? { latest: checkpointView(latest) } : {}) },
      failed_log_tail: base.failed_component
        ? (await readTailLines(manager.logPath(run.id, base.failed_component as Component), 20)).map(deps.redact)
        : undefined,
      history_note: "note" in history ? `${history.note} Reward history is from the run's own log files.` : undefined,
    };
  }

  async function checkpoints(run: RunRow, limit: number): Promise<RunCheckpointsView> {
    const stack = manager.stackOf(run);
    const saved = await manager.checkpoints(run);
    return {
      run_id: run.id,
      environment: run.environment,
      status: run.status,
      stack: stack.id,
      count: saved.length,
      checkpoints: saved.slice(-limit).reverse().map(checkpointView),
      can_resume: stack.canResume,
      resume_note: stack.resumeNote,
    };
  }

  /** Undefined when the run's processes have written no samples (yet). */
  async function samples(run: RunRow, query: SampleQuery): Promise<RunSamplesView | undefined> {
    const stack = manager.stackOf(run);
    const read = await stack.readSamples(run, query);
    if (!read) return undefined;
    const view = { run_id: run.id, environment: run.environment, status: run.status, stack: stack.id, ...read };
    // Model text is the run's own output, but a prompt may quote a key the environment was given: redact as logs are.
    view.samples = read.samples.map((s) => ({
      ...s,
      prompt: deps.redact(s.prompt),
      completion: deps.redact(s.completion),
    }));
    return view;
  }

  return {
    find,
    latest,
    status,
    results,
    checkpoints,
    samples,
    /** Newest first: `limit` runs after the newest `offset`, of the channel's or (undefined) every channel's. */
    list(channel: ChannelKey | undefined, limit = 20, offset = 0): RunRow[] {
      return channel ? runs.listByChannel(channel, limit, offset) : runs.listAll(limit, offset);
    },
    count(channel: ChannelKey | undefined): number {
      return runs.countIn(channel);
    },
    async logs(run: RunRow, component: Component, lines: number): Promise<string[]> {
      return (await readTailLines(manager.logPath(run.id, component), lines)).map(deps.redact);
    },
  };
}

export type RunReport = ReturnType<typeof createRunReport>;
