// Decides the reward alerts a channel asked for (/rl notify): above or below a threshold, and a new best for the
// environment here. Each has a key of its own, so the outbox posts it once per run.
import type { NotifySettings } from "../../db/notify-settings.ts";

export interface RewardAlert {
  kind: "above" | "below" | "best";
  key: string;
  message: string;
}

export interface RewardAlertInput {
  runId: string;
  environment: string;
  rewardMean: number | undefined;
  settings: NotifySettings;
  /** The best reward mean of the environment's other runs in this channel; undefined when none reached one. */
  bestBefore: number | undefined;
}

const shown = (n: number): string => Number(n.toFixed(4)).toString();

export function decideRewardAlerts(input: RewardAlertInput): RewardAlert[] {
  const { runId, rewardMean: reward, settings } = input;
  if (reward === undefined) return [];
  const alerts: RewardAlert[] = [];
  const { rewardAbove: above, rewardBelow: below } = settings;
  if (above !== undefined && reward > above)
    alerts.push({
      kind: "above",
      key: `above:${runId}:${above}`,
      message: `Reward mean reached ${shown(reward)}, above the alert threshold of ${shown(above)}.`,
    });
  if (below !== undefined && reward < below)
    alerts.push({
      kind: "below",
      key: `below:${runId}:${below}`,
      message: `Reward mean fell to ${shown(reward)}, below the alert threshold of ${shown(below)}.`,
    });
  // The first run of an environment has nothing to beat: "new best" means better than an earlier run here.
  if (settings.newBest && input.bestBefore !== undefined && reward > input.bestBefore)
    alerts.push({
      kind: "best",
      key: `best:${runId}`,
      message: `New best reward for ${input.environment} in this channel: ${shown(reward)} (the best before was ${shown(input.bestBefore)}).`,
    });
  return alerts;
}
