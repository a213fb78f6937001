// One digest pass: per channel, the active runs' progress, rate, ETA, reward changes and WandB links, coalesced.
import { channelLabel, type ChannelKey } from "../../db/channel-key.ts";
import type { DigestStateRepo } from "../../db/digest-state.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import type { Logger } from "../log.ts";
import type { TrainerProgress } from "../metrics/trainer-log.ts";
import type { Checkpoint } from "../stacks/training-stack.ts";
import type { WandbClient } from "../metrics/wandb-client.ts";
import type { WandbPages } from "../metrics/wandb-group-link.ts";
import type { Reply } from "../reply.ts";
import { decideAlerts } from "./alerts.ts";
import { digestReply, digestsPausedReply } from "./digest-reply.ts";
import { findWandbRuns, readRunProgress, type RunProgress } from "./run-progress.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import { decideRewardAlerts } from "../notify/reward-alerts.ts";
import { queueCheckpointNotice } from "./checkpoint-notice.ts";

export interface DigestSettings {
  intervalMs: number;
  channelPostsPerHour: number;
  stallMs: number;
  regressionFraction: number;
}

export interface DigestCycleDeps {
  runs: RunsRepo;
  states: DigestStateRepo;
  outbox: OutboxRepo;
  wandb?: WandbClient;
  /** Where WandB pages live: a run's link is built from its names when WandB cannot be asked or did not answer. */
  wandbPages?: WandbPages;
  /** A run's progress as its training stack writes it. */
  progress: (run: RunRow) => Promise<TrainerProgress>;
  /** A run's checkpoints as its training stack records them, oldest first. */
  checkpoints: (run: RunRow) => Promise<Checkpoint[]>;
  log: Logger;
  now: () => number;
  settings: DigestSettings;
  /** Where alerts, digests and checkpoint notes go, and the reward alerts asked for (/rl notify). */
  router?: NoticeRouter;
}

export interface CycleOptions {
  /** `/rl digest now`: ignore the per-run interval (the channel's hourly cap still applies). */
  force?: boolean;
  channel?: ChannelKey;
  runId?: string;
  /** Only look for stalls and regressions (the every-minute check). */
  alertsOnly?: boolean;
}

export interface CycleResult {
  runs: number;
  messages: number;
  alerts: number;
  skippedChannels: number;
}

const HOUR = 3_600_000;
const ALERT_TITLES = {
  stall: "⚠️ Stalled",
  resumed: "▶️ Moving again",
  regression: "⚠️ Reward regression",
  above: "📈 Reward above threshold",
  below: "📉 Reward below threshold",
  best: "🏆 New best reward",
} as const;

/** The reward alerts the run's channel asked for (/rl notify), judged before this pass records the run's best. */
function rewardAlertsOf(p: RunProgress, router: NoticeRouter | undefined) {
  if (!router) return [];
  const settings = router.channelSettings(p.run.channel);
  const bestBefore = settings.newBest ? router.bestRewardBefore(p.run.channel, p.run.environment, p.run.id) : undefined;
  return decideRewardAlerts({
    runId: p.run.id,
    environment: p.run.environment,
    rewardMean: p.reward,
    settings,
    bestBefore,
  });
}

/**
 * Checks one run for stalls and regressions (on every pass, muted or not: they are about trouble, not routine),
 * queues the alerts it owes and keeps the state they are judged from; returns how many were queued.
 */
function queueAlerts(p: RunProgress, now: number, deps: DigestCycleDeps): number {
  const { run } = p;
  const bestInLog = p.rewardHistory.length ? Math.max(...p.rewardHistory.map((h) => h.value)) : undefined;
  const decision = decideAlerts({
    state: p.state,
    step: p.step,
    rewardMean: p.reward,
    bestInLog,
    now,
    stallMs: deps.settings.stallMs,
    regressionFraction: deps.settings.regressionFraction,
  });
  if (run.status !== "running") return 0;
  let queued = 0;
  const routed = deps.router
    ? deps.router.route("alerts", run)
    : { target: { channel: run.channel, thread: run.thread } };
  for (const alert of routed ? [...decision.alerts, ...rewardAlertsOf(p, deps.router)] : []) {
    const reply: Reply = {
      title: `${ALERT_TITLES[alert.kind]}: run ${run.id} (${run.environment})`,
      text: alert.message,
      buttons: [{ kind: "command", label: "Status", command: `/rl status ${run.id}` }],
    };
    if (deps.outbox.enqueue({ dedupeKey: `alert:${alert.key}`, ...routed!, kind: "alert", runId: run.id, reply }, now))
      queued++;
  }
  const { lastStep, lastStepAt, stallAlerted, bestReward, regressionAlerted } = decision.state;
  deps.states.update(run.id, { lastStep, lastStepAt, stallAlerted, bestReward, regressionAlerted });
  return queued;
}

/** A channel's digests go to the runs' thread, the channel itself or a named channel (/rl notify digests ...). */
function routeDigest(channel: ChannelKey, thread: string | undefined, router: NoticeRouter | undefined) {
  const to = router?.channelSettings(channel).routes.digests;
  if (to?.to === "channel") return { target: { channel }, route: "channel" as const };
  if (to?.to === "named") return { target: { channel: { ...channel, channel: to.channel } }, route: "named" as const };
  return { target: { channel, thread } };
}

/** Queues one channel's digest, or, past its hourly cap, the note that digests are paused; false when capped. */
function queueDigest(key: string, list: RunProgress[], now: number, deps: DigestCycleDeps): boolean | undefined {
  const { outbox, settings } = deps;
  const channel = list[0]!.run.channel;
  if (outbox.countSince(channel, "digest", now - HOUR) >= settings.channelPostsPerHour) {
    // Said once per full hour, so a quiet channel is never a mystery.
    const windowStart = outbox.oldestSince(channel, "digest", now - HOUR) ?? now;
    const reply = digestsPausedReply(settings.channelPostsPerHour, windowStart + HOUR);
    outbox.enqueue({ dedupeKey: `digest-cap:${key}:${windowStart}`, target: { channel }, kind: "alert", reply }, now);
    return false;
  }
  // Into the thread the runs share (a single run's, or a sweep's); runs started apart share the channel.
  const threads = new Set(list.map((p) => p.run.thread));
  const thread = threads.size === 1 ? list[0]!.run.thread : undefined;
  const reply = digestReply(list, now, deps.wandbPages);
  const routed = routeDigest(channel, thread, deps.router);
  if (!outbox.enqueue({ dedupeKey: `digest:${key}:${now}`, ...routed, kind: "digest", reply }, now)) return undefined;
  for (const p of list) {
    deps.states.update(p.run.id, {
      lastDigestAt: now,
      lastReward: p.reward ?? p.state.lastReward,
      lastPercentCorrect: p.percentCorrect ?? p.state.lastPercentCorrect,
      lastCheckpointCount: p.checkpoints?.length ?? p.state.lastCheckpointCount,
    });
  }
  return true;
}

/** A channel that turned its digests off (/rl notify digests off) gets none, not even on /rl digest now. */
const digestsOff = (run: RunRow, router: NoticeRouter | undefined): boolean =>
  router?.channelSettings(run.channel).routes.digests?.to === "off";

export function createDigestCycle(deps: DigestCycleDeps) {
  const { runs, states, settings } = deps;

  return async function runCycle(options: CycleOptions = {}): Promise<CycleResult> {
    const now = deps.now();
    let active = runs.listByStatus(["starting", "running"]);
    if (options.channel) active = active.filter((r) => channelLabel(r.channel) === channelLabel(options.channel!));
    if (options.runId) active = active.filter((r) => r.id === options.runId);
    const result: CycleResult = { runs: 0, messages: 0, alerts: 0, skippedChannels: 0 };
    if (active.length === 0) return result;
    const wandb = await findWandbRuns(active, deps.wandb, deps.log);

    const byChannel = new Map<string, RunProgress[]>();
    for (const run of active) {
      const p = await readRunProgress(run, wandb, deps);
      result.alerts += queueAlerts(p, now, deps);
      if (deps.router && run.status === "running")
        result.alerts += Number(await queueCheckpointNotice(run, now, { ...deps, router: deps.router }));
      if (options.alertsOnly) continue;
      const due =
        options.force || p.state.lastDigestAt === undefined || now - p.state.lastDigestAt >= settings.intervalMs;
      // Muting is read now, not from the copy taken when this run's progress was gathered.
      if (!due || (states.get(run.id).muted && !options.runId) || digestsOff(run, deps.router)) continue;
      const key = channelLabel(run.channel);
      const withCheckpoints = { ...p, checkpoints: await deps.checkpoints(run) };
      byChannel.set(key, [...(byChannel.get(key) ?? []), withCheckpoints]);
    }

    for (const [key, list] of byChannel) {
      const queued = queueDigest(key, list, now, deps);
      if (queued === false) result.skippedChannels++;
      if (!queued) continue;
      result.messages++;
      result.runs += list.length;
    }
    return result;
  };
}

export type DigestCycle = ReturnType<typeof createDigestCycle>;
