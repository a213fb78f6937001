// A sweep's life: its record and one run per combination created together, started as the queue allows, stopped as one.
import { randomBytes } from "node:crypto";
import type { ChannelKey } from "../../../db/channel-key.ts";
import type { ConfigValues } from "../../../db/channels.ts";
import type { Db } from "../../../db/open-database.ts";
import type { RunRow, RunsRepo } from "../../../db/runs.ts";
import type { SweepRow, SweepsRepo } from "../../../db/sweeps.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../log.ts";
import type { Transitions } from "../lifecycle/transitions.ts";
import { checkTrainingKeys } from "./check-training-keys.ts";
import type { PrepareRun } from "./prepare-run.ts";
import type { StopRun } from "./stop-run.ts";
import type { BudgetGate } from "../../budgets/budget-gate.ts";
import { sweepEstimate } from "../../budgets/estimate.ts";

export interface SweepRequest {
  channel: ChannelKey;
  thread?: string;
  userId: string;
  /** As a start's: "mcp" when the person's own agent asked. */
  via?: string;
  environment: string;
  grid: SweepRow["grid"];
  /** Each run's values (the channel's config with one combination applied), already checked by applyChanges. */
  combinations: ConfigValues[];
  /** An admin's --over-budget: the sweep passes its budgets (the command audits it). */
  overBudget?: boolean;
}

export interface SweepsDeps {
  config: Config;
  db: Db;
  runs: RunsRepo;
  sweeps: SweepsRepo;
  transitions: Transitions;
  prepare: PrepareRun;
  /** Submit a sweep's runs as one Slurm job array. */
  launchArray: (sweepId: string, members: readonly RunRow[]) => Promise<RunRow[]>;
  startQueued: () => void;
  stop: StopRun;
  log: Logger;
  now: () => number;
  /** Spending limits, checked in the sweep's insert transaction. */
  budgets?: BudgetGate;
}

export function createSweeps(deps: SweepsDeps) {
  const { config, runs, transitions, log } = deps;

  /** Sweep ids start with "s", which no run id (hex) does, so one word names either. */
  function newSweepId(): string {
    for (;;) {
      const id = `s${randomBytes(4).toString("hex").slice(1)}`;
      if (!deps.sweeps.get(id)) return id;
    }
  }

  return {
    /**
     * A sweep: its record and one queued run per combination, committed together, then started in turn as the queue
     * allows. Queued sweep runs owe no notice each: the sweep's own reply lists them.
     */
    async startSweep(request: SweepRequest): Promise<{ sweep: SweepRow; runs: RunRow[] }> {
      checkTrainingKeys(config);
      const sweepId = newSweepId();
      const prepared = request.combinations.map((values) => ({ values, ...deps.prepare(request.environment, values) }));
      // On Slurm the sweep is one job array the cluster schedules: its runs are submitted together, not queued here.
      const status = config.backend === "slurm" ? "starting" : "queued";
      const create = deps.db.transaction(() => {
        deps.budgets?.enforce(
          request.channel,
          request.userId,
          sweepEstimate(prepared.map((p) => p.patch.totalSteps)),
          request.overBudget,
        );
        const sweep = deps.sweeps.insert({
          id: sweepId,
          channel: request.channel,
          thread: request.thread,
          environment: request.environment,
          grid: request.grid,
          createdBy: request.userId,
        });
        for (const p of prepared) {
          transitions.create(
            {
              id: p.id,
              channel: request.channel,
              thread: request.thread,
              environment: request.environment,
              config: p.values,
              status,
              createdBy: request.userId,
              ...(request.via === "mcp" ? { createdVia: request.via } : {}),
              backend: config.backend,
              stack: p.stack,
              sweepId,
            },
            p.patch,
          );
        }
        return sweep;
      });
      const sweep = create.immediate();
      log.info("sweep created", { sweepId, runs: prepared.length, backend: config.backend });
      if (config.backend === "slurm")
        return { sweep, runs: await deps.launchArray(sweepId, runs.listBySweep(sweepId)) };
      deps.startQueued();
      return { sweep, runs: runs.listBySweep(sweepId) };
    },

    /** Stop a whole sweep: its queued runs are cancelled first (so none starts in between), then its live runs stopped. */
    async stopSweep(sweepId: string, by: string): Promise<RunRow[]> {
      const members = runs.listBySweep(sweepId);
      for (const run of members.filter((r) => r.status === "queued")) {
        transitions.move(
          run.id,
          ["queued"],
          { status: "stopped", stoppedBy: by, endedAt: deps.now() },
          { notice: { kind: "stopped", message: `Queued run ${run.id} of sweep ${sweepId} was cancelled by ${by}.` } },
        );
      }
      for (const run of runs.listBySweep(sweepId).filter((r) => r.status === "starting" || r.status === "running")) {
        await deps
          .stop(run.id, by)
          .catch((err: unknown) => log.warn("stopping a sweep run failed", { sweepId, runId: run.id, err }));
      }
      return runs.listBySweep(sweepId);
    },
  };
}
