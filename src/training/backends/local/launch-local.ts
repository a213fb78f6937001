// Starts a run's processes in turn, as its stack lists them, on this machine, each checked for a free port and waited for until ready.
import type { Component, RunProcessesRepo } from "../../../../db/run-processes.ts";
import type { RunRow, RunsRepo } from "../../../../db/runs.ts";
import type { Config } from "../../../config.ts";
import { asRlError } from "../../../errors.ts";
import { checkSpawnPlan } from "../../../process/check-spawn-plan.ts";
import { crashPoint, type CrashPoint } from "../../../process/crash-point.ts";
import type { PythonResolver } from "../../../process/python-interpreter.ts";
import type { StackRegistry } from "../../../stacks/stack-registry.ts";
import { mainStartsLast } from "../../../stacks/training-stack.ts";
import type { Notice, Transitions } from "../../lifecycle/transitions.ts";
import type { LocalSupervisor } from "../../local-supervisor.ts";
import { waitUntil } from "../../wait-until.ts";
import { ensurePortFree } from "./ensure-port-free.ts";
import type { ExitWatcher } from "./exit-watcher.ts";
import type { Launches } from "./launches.ts";
import type { LocalOutcomes } from "./local-outcomes.ts";
import type { Readiness } from "./readiness.ts";

const READY_POLL_MS = 20;

export interface LocalLauncherDeps {
  config: Config;
  runs: RunsRepo;
  processes: RunProcessesRepo;
  supervisor: LocalSupervisor;
  transitions: Transitions;
  stacks: StackRegistry;
  launching: Launches;
  readiness: Readiness;
  exits: ExitWatcher;
  /** The bot's interpreter resolver: a bare Python name is spawned as the interpreter it launches. */
  python: PythonResolver;
  fail: LocalOutcomes["fail"];
  now: () => number;
}

/**
 * A resumed attempt is announced once, as resumed: a resume launched at once already posted it (the outbox keeps one per
 * attempt, so this one is dropped), a queued one hears it now that it runs.
 */
function runningNotice(run: RunRow): Notice {
  if (run.attempt === 0) return { kind: "started", message: `Run ${run.id} of ${run.environment} is running.` };
  return {
    kind: "resumed",
    message: `Run ${run.id} resumed from step ${run.resumedStep ?? 0}${run.resumedBy ? `, asked by ${run.resumedBy}` : ""}, and is running.`,
  };
}

export function createLocalLauncher(deps: LocalLauncherDeps) {
  const { config, runs, processes, supervisor, transitions, launching } = deps;

  return async function launch(run: RunRow, progress?: (text: string) => Promise<void>): Promise<RunRow> {
    const abort = new AbortController();
    let settle!: () => void;
    launching.set(run.id, { abort, done: new Promise<void>((r) => (settle = r)) });
    let component: Component | undefined;
    try {
      const stack = deps.stacks.of(run);
      // Every component's command is checked before the first is spawned: a missing trainer is named before an API
      // was started for nothing (and stopped again).
      const plans = new Map<Component, Awaited<ReturnType<typeof stack.plan>>>();
      for (const spec of stack.components) {
        component = spec.name;
        const plan = await stack.plan(run, component);
        checkSpawnPlan(plan, spec.help);
        plans.set(component, await deps.python.resolvePlan(plan));
      }
      for (const spec of stack.components) {
        component = spec.name;
        if (spec.port !== undefined) await ensurePortFree(spec.port, spec.title);
        const plan = plans.get(component)!;
        abort.signal.throwIfAborted();
        const ready = deps.readiness(
          run.id,
          component,
          spec.ready,
          spec.mayFinishFirst || mainStartsLast(stack, component),
        );
        supervisor.spawn(run.id, plan);
        crashPoint(`spawned:${component}` as CrashPoint);
        if (run.attempt > 0) crashPoint(`resume:spawned:${component}` as CrashPoint);
        deps.exits.watch(run.id, component);
        // A run whose main process already finished cleanly is past its start-up: what is left is judging its end.
        await waitUntil(async () => supervisor.exitedCleanly(run.id, stack.main) || (await ready()), {
          what: `The ${component}`,
          timeoutMs: config.readyTimeoutMs,
          // A refused connection costs a millisecond: a coarse poll only adds its interval to every component's start.
          intervalMs: READY_POLL_MS,
          signal: abort.signal,
        });
        processes.markReady(run.id, component);
        await progress?.(`${component} is ready`).catch(() => undefined);
      }
      // A component that exited after it was judged ready (during the last progress post) aborted the start; its exit
      // was judged as a start's, so running now would leave a dead process behind a run reported up.
      abort.signal.throwIfAborted();
      transitions.move(
        run.id,
        ["starting"],
        { status: "running", startedAt: deps.now() },
        { notice: runningNotice(run) },
      );
    } catch (thrown) {
      const err = asRlError(thrown);
      const failedComponent = (err.details.component as Component | undefined) ?? component;
      await deps.fail(run.id, failedComponent, err.message);
    } finally {
      launching.delete(run.id);
      settle();
    }
    return runs.get(run.id)!;
  };
}
