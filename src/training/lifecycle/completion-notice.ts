// What a completed run's notice says, on every backend: steps, reward mean, the final weights and final checkpoint.
import type { RunRow } from "../../../db/runs.ts";
import { finalCheckpoint } from "../../stacks/describe-checkpoints.ts";
import type { TrainingStack } from "../../stacks/training-stack.ts";
import type { RunEvent } from "../run-events.ts";

export interface CompletionNotice {
  message: string;
  reward: NonNullable<RunEvent["reward"]>;
}

export async function describeCompletion(stack: TrainingStack, run: RunRow, note = ""): Promise<CompletionNotice> {
  const [progress, checkpoints] = await Promise.all([
    stack.readProgress(run),
    // The notice goes out without the checkpoint line rather than not at all.
    stack.readCheckpoints(run).catch(() => []),
  ]);
  const weights = progress.finalWeights ? ` Final weights: ${progress.finalWeights}` : "";
  const final = finalCheckpoint(checkpoints);
  // Where the stack's final weights are its final checkpoint (atropos-tinker), the path is said once.
  const saved =
    final && final.path !== progress.finalWeights
      ? ` Final checkpoint: ${final.name} (step ${final.step}) ${final.path}`
      : "";
  return {
    message: `Training complete after ${progress.step ?? "?"} steps; reward mean ${progress.rewardMean ?? "?"}.${weights}${saved}${note}`,
    reward: { final: progress.rewardMean, history: progress.rewardHistory },
  };
}
