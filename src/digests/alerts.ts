// Decides stall, resumed and regression alerts from a run's progress: each posted once, re-armed when the run recovers.
import type { DigestState } from "../../db/digest-state.ts";

export interface AlertInput {
  state: DigestState;
  step: number | undefined;
  rewardMean: number | undefined;
  /** The best reward mean in the trainer's whole log: a peak between two passes counts too. */
  bestInLog?: number;
  now: number;
  stallMs: number;
  regressionFraction: number;
}

export interface AlertDecision {
  state: DigestState;
  alerts: Array<{ kind: "stall" | "resumed" | "regression"; message: string; key: string }>;
}

export function decideAlerts(input: AlertInput): AlertDecision {
  const s: DigestState = { ...input.state };
  const alerts: AlertDecision["alerts"] = [];
  if (input.step !== undefined && input.step !== s.lastStep) {
    if (s.stallAlerted && s.lastStepAt !== undefined) {
      const minutes = Math.round((input.now - s.lastStepAt) / 60_000);
      alerts.push({
        kind: "resumed",
        key: `resumed:${s.runId}:${s.lastStepAt}`,
        message: `Training moves again: step ${input.step}, after ${minutes} minutes at step ${s.lastStep ?? 0}.`,
      });
    }
    s.lastStep = input.step;
    s.lastStepAt = input.now;
    s.stallAlerted = false;
  }
  s.lastStepAt ??= input.now;
  if (!s.stallAlerted && input.now - s.lastStepAt >= input.stallMs) {
    const minutes = Math.round((input.now - s.lastStepAt) / 60_000);
    alerts.push({
      kind: "stall",
      key: `stall:${s.runId}:${s.lastStepAt}`,
      message: `No training progress for ${minutes} minutes (still at step ${s.lastStep ?? 0}).`,
    });
    s.stallAlerted = true;
  }
  if (input.rewardMean !== undefined) {
    const best = Math.max(
      input.rewardMean,
      ...[s.bestReward, input.bestInLog].filter((v): v is number => v !== undefined),
    );
    s.bestReward = best;
    const floor = best - Math.abs(best) * input.regressionFraction;
    if (input.rewardMean < floor) {
      if (!s.regressionAlerted) {
        alerts.push({
          kind: "regression",
          key: `regression:${s.runId}:${best}`,
          message: `Reward mean fell to ${input.rewardMean.toFixed(3)}, more than ${Math.round(input.regressionFraction * 100)}% below its best of ${best.toFixed(3)}.`,
        });
        s.regressionAlerted = true;
      }
    } else s.regressionAlerted = false;
  }
  return { state: s, alerts };
}
