// A live local run no process watches (the bot restarted): re-attach to its processes, or settle it from what is left.
import type { Component, RunProcessesRepo } from "../../../../db/run-processes.ts";
import type { RunRow } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { isSameProcess } from "../../../process/process-info.ts";
import { finishStop } from "../../lifecycle/finish-stop.ts";
import type { Transitions } from "../../lifecycle/transitions.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import type { TrainingStack } from "../../../stacks/training-stack.ts";
import type { ExitWatcher } from "./exit-watcher.ts";
import type { Launches } from "./launches.ts";
import type { LocalOutcomes } from "./local-outcomes.ts";

export interface LocalRecoveryDeps {
  processes: RunProcessesRepo;
  supervisor: LocalSupervisor;
  transitions: Transitions;
  launching: Launches;
  exits: ExitWatcher;
  outcomes: LocalOutcomes;
  stacks: StackRegistry;
  /** Do the process actions the run is owed (the lifecycle's executor). */
  carryOut: (runId: string) => Promise<void>;
  /** A run ended: start what is queued. */
  onEnded: () => void;
  log: Logger;
  now: () => number;
}

/** When its evidence says a run ended, kept between its start and now (a clock set back, a file touched since). */
async function endedWhileAway(stack: TrainingStack, run: RunRow, now: number): Promise<number> {
  const written = await stack.lastWrite(run).catch(() => undefined);
  if (written === undefined) return now;
  return Math.min(now, Math.max(run.startedAt ?? written, Math.round(written)));
}

export function createLocalRecovery(deps: LocalRecoveryDeps) {
  const { processes, supervisor, transitions, log } = deps;
  const { fail, complete } = deps.outcomes;

  return async function recover(run: RunRow): Promise<void> {
    if (supervisor.isTracked(run.id) || deps.launching.has(run.id)) return;
    const alive = processes.list(run.id).filter((p) => p.state !== "exited" && isSameProcess(p.pid, p.startTime));
    const isUp = (c: Component) => alive.some((p) => p.component === c);
    if (run.status === "stopping") {
      finishStop(transitions.move, run, deps.now(), true);
      await deps.carryOut(run.id);
      return;
    }
    if (run.status === "starting") {
      const message =
        "The bot restarted while this run was starting; its processes were stopped. Start it again with /rl start.";
      transitions.move(
        run.id,
        ["starting"],
        { status: "lost", error: message, endedAt: deps.now() },
        { notice: { kind: "lost", message }, stopAll: true },
      );
      await deps.carryOut(run.id);
      deps.onEnded();
      return;
    }
    // Running. A process that may finish first (an environment whose steps are done) being gone is no loss.
    const stack = deps.stacks.of(run);
    const required = stack.components.filter((c) => !c.mayFinishFirst);
    if (required.every((c) => isUp(c.name))) {
      for (const p of alive) {
        supervisor.attach(p);
        deps.exits.watch(run.id, p.component);
      }
      log.info("re-attached to a running run", { runId: run.id, components: alive.map((p) => p.component) });
      return;
    }
    const gone = required.find((c) => c.name !== stack.main && !isUp(c.name));
    if (isUp(stack.main) && gone) {
      return fail(
        run.id,
        gone.name,
        `The ${gone.title} ended while the bot was not running; the rest of the run was stopped.`,
      );
    }
    const progress = await stack.readProgress(run);
    // It ended while no bot watched: when its main process last wrote, not when this bot came back to find it.
    const endedAt = await endedWhileAway(stack, run, deps.now());
    if (progress.stepErrors.length > 0)
      return fail(
        run.id,
        stack.main,
        `The ${stack.main} reported a step error and stopped: ${progress.stepErrors.at(-1)}`,
        undefined,
        endedAt,
      );
    if (progress.completed) return complete(run.id, " (It finished while the bot was not running.)", endedAt);
    const message = `The bot lost track of this run: its ${stack.main} ended or was replaced while the bot was not running, without finishing.`;
    const lost = transitions.move(
      run.id,
      ["running"],
      { status: "lost", error: message, endedAt },
      { notice: { kind: "lost", message }, stopAll: true },
    );
    if (lost) {
      await deps.carryOut(run.id);
      deps.onEnded();
    }
  };
}
