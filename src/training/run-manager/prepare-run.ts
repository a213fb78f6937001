// A new run's id and written run config, on the bot's training stack; the run itself is created by the caller.
import { randomBytes } from "node:crypto";
import type { ConfigValues } from "../../../db/channels.ts";
import type { RunPatch, RunsRepo } from "../../../db/runs.ts";
import type { TrainingStack } from "../../stacks/training-stack.ts";

export interface RunPreparerDeps {
  runs: RunsRepo;
  stack: TrainingStack;
}

export type PrepareRun = (environment: string, values: ConfigValues) => { id: string; stack: string; patch: RunPatch };

export function createRunPreparer(deps: RunPreparerDeps): PrepareRun {
  const { runs, stack } = deps;

  function newRunId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!runs.get(id)) return id;
    }
  }

  return function prepare(environment, values) {
    const id = newRunId();
    return { id, stack: stack.id, patch: stack.prepare(id, environment, values) };
  };
}
