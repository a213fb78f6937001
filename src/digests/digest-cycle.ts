// One digest pass: per channel, the active runs' progress, rate, ETA, reward changes and WandB links, coalesced.
import { channelLabel, type ChannelKey } from "../../db/channel-key.ts";
import type { DigestStateRepo } from "../../db/digest-state.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import type { Logger } from "../log.ts";
import type { TrainerProgress } from "../metrics/trainer-log.ts";
import type { Checkpoint, SampleQuery, StepSamples } from "../stacks/training-stack.ts";
import type { WandbClient } from "../metrics/wandb-client.ts";
import type { WandbPages } from "../metrics/wandb-group-link.ts";
import type { Reply } from "../reply.ts";
import { forEachLimited } from "../environments/for-each-limited.ts";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createTimeSlicer } from "../environments/scanning/time-slicer.ts";
import { decideAlerts } from "./alerts.ts";
import { digestReply, digestsPausedReply } from "./digest-reply.ts";
import { findWandbRuns, readRunProgress, type LatestSamples, type RunProgress } from "./run-progress.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import { decideRewardAlerts } from "../notify/reward-alerts.ts";
import { queueCheckpointNotice } from "./checkpoint-notice.ts";
import type { Watchdog } from "../watchdog/watchdog.ts";

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
  /** A step's rollouts as the run's stack records them, redacted (the digest's samples line). */
  samples?: (run: RunRow, query: SampleQuery) => Promise<StepSamples | undefined>;
  /** Whether a channel's digests show a sample of each run's latest step (/rl digest samples on). */
  samplesShown?: (channel: ChannelKey) => boolean;
  log: Logger;
  now: () => number;
  settings: DigestSettings;
  /** Runs `write` as one database transaction (one commit for a channel's writes, not one per statement). */
  transaction?: <T>(write: () => T) => T;
  /** Where alerts, digests and checkpoint notes go, and the reward alerts asked for (/rl notify). */
  router?: NoticeRouter;
  /** The training watchdog, called for each running run on every pass. */
  watchdog?: Pick<Watchdog, "check">;
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
/** The state the alerts are judged from, which queueAlerts keeps. */
const ALERT_FIELDS = ["lastStep", "lastStepAt", "stallAlerted", "bestReward", "regressionAlerted"] as const;
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
  // A loop, not Math.max(...): a long run's history holds more steps than a call may take arguments.
  let bestInLog: number | undefined;
  for (const h of p.rewardHistory) if (bestInLog === undefined || h.value > bestInLog) bestInLog = h.value;
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
  const patch = { lastStep, lastStepAt, stallAlerted, bestReward, regressionAlerted };
  // Most passes change nothing here (no new step, no new best): a write per run and pass would be most of the pass.
  if (ALERT_FIELDS.some((field) => patch[field] !== p.state[field])) deps.states.update(run.id, patch);
  return queued;
}

/** The best and worst rollout of the run's latest step, when its channel shows samples and the run wrote some. */
async function readLatestSamples(run: RunRow, deps: DigestCycleDeps): Promise<LatestSamples | undefined> {
  const { samples, samplesShown } = deps;
  if (!samples || !samplesShown?.(run.channel)) return undefined;
  try {
    const best = await samples(run, { pick: "best", n: 1 });
    if (!best?.samples[0]) return undefined;
    // The same step as the best, even if the run wrote another meanwhile.
    const worst = await samples(run, { step: best.step, pick: "worst", n: 1 });
    return { step: best.step, best: best.samples[0], worst: worst?.samples[0] };
  } catch (err) {
    // A samples file that cannot be read costs the line, never the digest.
    deps.log.warn("digest: the run's samples could not be read", { runId: run.id, err });
    return undefined;
  }
}

/** A channel's digests go to the runs' thread, the channel itself or a named channel (/rl notify digests ...). */
function routeDigest(channel: ChannelKey, thread: string | undefined, router: NoticeRouter | undefined) {
  const to = router?.channelSettings(channel).routes.digests;
  if (to?.to === "channel") return { target: { channel }, route: "channel" as const };
  if (to?.to === "named") return { target: { channel: { ...channel, channel: to.channel } }, route: "named" as const };
  return { target: { channel, thread } };
}

/**
 * Queues one channel's digest, or, past the hourly cap of the channel it goes to (its own, or the one /rl notify names),
 * the note that digests are paused there; false when capped.
 */
function queueDigest(key: string, list: RunProgress[], now: number, deps: DigestCycleDeps): boolean | undefined {
  const { outbox, settings } = deps;
  // Into the thread the runs share (a single run's, or a sweep's); runs started apart share the channel.
  const threads = new Set(list.map((p) => p.run.thread));
  const thread = threads.size === 1 ? list[0]!.run.thread : undefined;
  const routed = routeDigest(list[0]!.run.channel, thread, deps.router);
  const to = routed.target.channel;
  if (outbox.countSince(to, "digest", now - HOUR) >= settings.channelPostsPerHour) {
    // Said once per full hour, so a quiet channel is never a mystery.
    const windowStart = outbox.oldestSince(to, "digest", now - HOUR) ?? now;
    const reply = digestsPausedReply(settings.channelPostsPerHour, windowStart + HOUR);
    const dedupeKey = `digest-cap:${to.platform}:${to.workspace}:${to.channel}:${windowStart}`;
    outbox.enqueue({ dedupeKey, target: { channel: to }, kind: "alert", reply }, now);
    return false;
  }
  const reply = digestReply(list, now, deps.wandbPages);
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

/** Runs gathered at once: a stack whose reads go through the thread pool has them overlap, not wait one by one. */
const READ_CONCURRENCY = 16;

interface Gathered {
  p: RunProgress;
  /** Its digest is due (read before the writes; muting is checked again as they are made). */
  due: boolean;
}

/** A batch of reads or writes ends once it has run this long: well inside a turn of the loop people would notice. */
const SLICE_MS = 8;

/** A channel that turned its digests off (/rl notify digests off) gets none, not even on /rl digest now. */
const digestsOff = (run: RunRow, router: NoticeRouter | undefined): boolean =>
  router?.channelSettings(run.channel).routes.digests?.to === "off";

export function createDigestCycle(allDeps: DigestCycleDeps) {
  const { runs, states, settings } = allDeps;
  const transaction = allDeps.transaction ?? (<T>(write: () => T): T => write());

  return async function runCycle(options: CycleOptions = {}): Promise<CycleResult> {
    // Each channel's /rl notify settings read once in the pass, not again for every run and notice.
    const deps = allDeps.router ? { ...allDeps, router: allDeps.router.forOnePass() } : allDeps;
    const now = deps.now();
    let active = runs.listByStatus(["starting", "running"]);
    if (options.channel) active = active.filter((r) => channelLabel(r.channel) === channelLabel(options.channel!));
    if (options.runId) active = active.filter((r) => r.id === options.runId);
    const result: CycleResult = { runs: 0, messages: 0, alerts: 0, skippedChannels: 0 };
    if (active.length === 0) return result;
    const wandb = await findWandbRuns(active, deps.wandb, deps.log);

    // First every file read (progress, and checkpoints where a digest is due), a few at a time and a few milliseconds'
    // worth per turn of the loop (most reads are synchronous: see follow-log.ts); then the writes.
    const gathered = new Array<Gathered>(active.length);
    const maybeYield = createTimeSlicer(SLICE_MS);
    const stateOf = states.getMany(active.map((r) => r.id));
    await forEachLimited(active, READ_CONCURRENCY, async (run, index) => {
      await maybeYield();
      const p = await readRunProgress(run, stateOf.get(run.id)!, wandb, deps.progress);
      if (deps.router && run.status === "running")
        result.alerts += Number(await queueCheckpointNotice(run, now, { ...deps, router: deps.router }));
      if (deps.watchdog && run.status === "running")
        result.alerts += await deps.watchdog.check(run, p, now, deps.router);
      const due =
        !options.alertsOnly &&
        !digestsOff(run, deps.router) &&
        (options.force || p.state.lastDigestAt === undefined || now - p.state.lastDigestAt >= settings.intervalMs);
      if (!due) {
        gathered[index] = { p, due };
        return;
      }
      const samples = await readLatestSamples(run, deps);
      gathered[index] = { p: { ...p, checkpoints: await deps.checkpoints(run), ...(samples ? { samples } : {}) }, due };
    });
    const byChannel = new Map<string, Gathered[]>();
    for (const g of gathered) {
      const key = channelLabel(g.p.run.channel);
      const list = byChannel.get(key);
      if (list) list.push(g);
      else byChannel.set(key, [g]);
    }

    /** One channel's alerts and digest; the digest counted once it is queued. */
    const writeChannel = (key: string, list: Gathered[]): void => {
      const due: RunProgress[] = [];
      // Muting is read now, not from the copy taken when these runs' progress was gathered.
      const stateNow = states.getMany(list.map((g) => g.p.run.id));
      for (const { p, due: isDue } of list) {
        result.alerts += queueAlerts(p, now, deps);
        if (isDue && !(stateNow.get(p.run.id)!.muted && !options.runId)) due.push(p);
      }
      const queued = due.length > 0 ? queueDigest(key, due, now, deps) : undefined;
      if (queued === false) result.skippedChannels++;
      if (!queued) return;
      result.messages++;
      result.runs += due.length;
    };
    // Channels a few milliseconds' worth at a time, each batch one transaction (one commit, not one per statement),
    // the loop let go between batches: a pass over many runs is many short turns, not one that holds up every command.
    const channels = [...byChannel];
    for (let next = 0; next < channels.length;) {
      transaction(() => {
        const sliceStart = performance.now();
        do writeChannel(...channels[next++]!);
        while (next < channels.length && performance.now() - sliceStart < SLICE_MS);
      });
      await nextTurn();
    }
    return result;
  };
}

export type DigestCycle = ReturnType<typeof createDigestCycle>;
