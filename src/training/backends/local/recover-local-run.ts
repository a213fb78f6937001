// A live local run no process watches (the bot restarted): re-attach to its processes, or settle it from what is left.
import type { Component, RunProcessesRepo } from "../../../../db/run-processes.ts";
import type { RunRow } from "../../../../db/runs.ts";
import type { Logger } from "../../../log.ts";
import { readTrainerProgress } from "../../../metrics/trainer-progress.ts";
import { isSameProcess } from "../../../process/process-info.ts";
import { finishStop } from "../../lifecycle/finish-stop.ts";
import { STOP_ORDER, type Transitions } from "../../lifecycle/transitions.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
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
  logPath: (runId: string, component: Component) => string;
  /** Do the process actions the run is owed (the lifecycle's executor). */
  carryOut: (runId: string) => Promise<void>;
  /** A run ended: start what is queued. */
  onEnded: () => void;
  log: Logger;
  now: () => number;
}

export function createLocalRecovery(deps: LocalRecoveryDeps) {
  const { processes, supervisor, transitions, log } = deps;
  const { fail, complete } = deps.outcomes;

  return async function recover(run: RunRow): Promise<void> {
    if (supervisor.isTracked(run.id) || deps.launching.has(run.id)) return;
    const alive = processes.list(run.id).filter((p) => p.state !== "exited" && isSameProcess(p.pid, p.startTime));
    const isUp = (c: Component) => alive.some((p) => p.component === c);
    if (run.status === "stopping") {
      finishStop(transitions.move, run, deps.now(), STOP_ORDER);
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
        { notice: { kind: "lost", message }, owe: STOP_ORDER },
      );
      await deps.carryOut(run.id);
      deps.onEnded();
      return;
    }
    // Running. The environment exits 0 when its steps are done while the trainer finishes its last step: that is no loss.
    if (isUp("trainer") && isUp("api")) {
      for (const p of alive) {
        supervisor.attach(p);
        deps.exits.watch(run.id, p.component);
      }
      log.info("re-attached to a running run", { runId: run.id, components: alive.map((p) => p.component) });
      return;
    }
    if (isUp("trainer"))
      return fail(
        run.id,
        "api",
        "The trajectory API ended while the bot was not running; the rest of the run was stopped.",
      );
    const progress = await readTrainerProgress(deps.logPath(run.id, "trainer"));
    if (progress.stepErrors.length > 0)
      return fail(run.id, "trainer", `The trainer reported a step error and stopped: ${progress.stepErrors.at(-1)}`);
    if (progress.completed) return complete(run.id, " (It finished while the bot was not running.)");
    const message =
      "The bot lost track of this run: its trainer ended or was replaced while the bot was not running, without finishing.";
    const lost = transitions.move(
      run.id,
      ["running"],
      { status: "lost", error: message, endedAt: deps.now() },
      { notice: { kind: "lost", message }, owe: STOP_ORDER },
    );
    if (lost) {
      await deps.carryOut(run.id);
      deps.onEnded();
    }
  };
}
