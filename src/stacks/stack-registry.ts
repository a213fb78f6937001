// The bot's training stack, and the stack of any run: runs made under another RL_STACK are still listed, stopped and read.
import type { RunRow } from "../../db/runs.ts";
import { RlError } from "../errors.ts";
import type { TrainingStack } from "./training-stack.ts";

export interface StackRegistry {
  /** The stack new runs are started on (RL_STACK). */
  current: TrainingStack;
  /** The stack a run was started on. */
  of(run: Pick<RunRow, "id" | "stack">): TrainingStack;
}

/**
 * `others` are the stacks this bot does not start runs on: their runs are still watched, stopped and read, but a
 * queued one is not launched (its config is for the other stack's processes).
 */
export function createStackRegistry(current: TrainingStack, others: readonly TrainingStack[]): StackRegistry {
  const byId = new Map<string, TrainingStack>([[current.id, current]]);
  for (const stack of others) {
    if (byId.has(stack.id)) continue;
    byId.set(stack.id, {
      ...stack,
      plan: async (run) => {
        throw new RlError(
          "CONFLICT",
          `Run ${run.id} belongs to the ${stack.id} stack and this bot runs ${current.id}: start the bot with RL_STACK=${stack.id} to launch it.`,
        );
      },
    });
  }
  return {
    current,
    of(run) {
      const stack = byId.get(run.stack);
      if (!stack) {
        throw new RlError(
          "CONFLICT",
          `Run ${run.id} belongs to an unknown training stack "${run.stack}" (known: ${[...byId.keys()].join(", ")}).`,
        );
      }
      return stack;
    },
  };
}
