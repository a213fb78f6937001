// Starting one run: from the channel's selection and config (or a rerun's), launched now or queued behind live runs.
import type { ChannelKey } from "../../../db/channel-key.ts";
import type { ChannelsRepo, ConfigValues } from "../../../db/channels.ts";
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import type { Config } from "../../config.ts";
import { RlError } from "../../errors.ts";
import { LIVE_STATUSES, type Transitions } from "../lifecycle/transitions.ts";
import { checkTrainingKeys } from "./check-training-keys.ts";
import type { PrepareRun } from "./prepare-run.ts";
import type { BudgetGate } from "../../budgets/budget-gate.ts";

export interface StartRequest {
  channel: ChannelKey;
  thread?: string;
  userId: string;
  /** The surface the start came through ("mcp": the person's own agent), kept with the run for its notices. */
  via?: string;
  progress?: (text: string) => Promise<void>;
  /** A rerun's environment and values instead of the channel's selection and config (already checked by applyChanges). */
  from?: { environment: string; values: ConfigValues };
  /** A fork: the run it starts from and the step of that run's checkpoint. */
  parent?: { id: string; step: number };
  /** An admin's --over-budget: the start passes its budgets (the command audits it). */
  overBudget?: boolean;
}

export interface RunStarterDeps {
  config: Config;
  runs: RunsRepo;
  channels: ChannelsRepo;
  /** The environment a channel would start now (its selection, checked startable); errors say what to do. */
  startableEnvironment(channel: ChannelKey): Promise<{ name: string }>;
  transitions: Transitions;
  prepare: PrepareRun;
  launch: (run: RunRow, progress?: (text: string) => Promise<void>) => Promise<RunRow>;
  /** The bot is shutting down: a run started now could not finish. */
  isClosing: () => boolean;
  /** Spending limits, checked in the run's insert transaction. */
  budgets?: BudgetGate;
}

export function createRunStarter(deps: RunStarterDeps) {
  const { config, runs, transitions } = deps;

  /** Create a run from the channel's selection and config; launch it now or queue it. Resolves once it is running, failed or queued. */
  return async function start(request: StartRequest): Promise<RunRow> {
    const environment = request.from
      ? request.from.environment
      : (await deps.startableEnvironment(request.channel)).name;
    checkTrainingKeys(config);
    const values = request.from?.values ?? deps.channels.configValues(request.channel, environment);
    // Checked after the last wait: from here to the launch's registration nothing yields, so a shutdown either
    // refuses this start or finds its launch and stops it.
    if (deps.isClosing())
      throw new RlError(
        "CONFLICT",
        "The bot is shutting down: nothing was started. Start the run again once it is back.",
      );
    const prepared = deps.prepare(environment, values);
    const queued = runs.countByStatus(LIVE_STATUSES) >= config.maxConcurrentRuns || runs.countByStatus(["queued"]) > 0;
    const run = transitions.create(
      {
        id: prepared.id,
        channel: request.channel,
        thread: request.thread,
        environment,
        config: values,
        status: queued ? "queued" : "starting",
        createdBy: request.userId,
        ...(request.via === "mcp" ? { createdVia: request.via } : {}),
        backend: config.backend,
        stack: prepared.stack,
        parentId: request.parent?.id,
        forkStep: request.parent?.step,
      },
      prepared.patch,
      queued
        ? {
            notice: {
              kind: "queued",
              message: `Run ${prepared.id} is queued: another run is using the training ports.`,
            },
          }
        : {},
      () =>
        deps.budgets?.enforce(
          request.channel,
          request.userId,
          {
            what: "this run",
            runs: 1,
            stepsEach: prepared.patch.totalSteps,
            steps: prepared.patch.totalSteps ?? 0,
            concurrent: 1,
          },
          request.overBudget,
        ),
    );
    if (queued) return run;
    return deps.launch(run, request.progress);
  };
}
