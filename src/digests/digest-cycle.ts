// One digest pass: per channel, the active runs' progress, rate, ETA, reward changes and WandB links, coalesced.
import { channelLabel, type ChannelKey } from "../../db/channel-key.ts";
import type { DigestStateRepo, DigestState } from "../../db/digest-state.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunRow, RunsRepo } from "../../db/runs.ts";
import { asRlError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { readTrainerProgress } from "../metrics/trainer-progress.ts";
import type { WandbClient, WandbRun } from "../metrics/wandb-client.ts";
import { metricsFromSummary } from "../metrics/wandb-metrics.ts";
import { wandbGroupLink, type WandbPages } from "../metrics/wandb-group-link.ts";
import { personRef, type Reply, type ReplyField } from "../reply.ts";
import { decideAlerts } from "./alerts.ts";

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
  trainerLogPath: (runId: string) => string;
  log: Logger;
  now: () => number;
  settings: DigestSettings;
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

interface RunProgress {
  run: RunRow;
  state: DigestState;
  step?: number;
  total?: number;
  reward?: number;
  percentCorrect?: number;
  evalPercentCorrect?: number;
  url?: string;
  rewardHistory: Array<{ step: number; value: number }>;
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? undefined : v);
const f3 = (v: number) => Number(v.toFixed(3)).toString();
const change = (now: number | undefined, before: number | undefined) =>
  now === undefined || before === undefined ? "" : ` (${now - before >= 0 ? "+" : ""}${f3(now - before)})`;

function runLine(p: RunProgress, now: number): ReplyField {
  const started = p.run.startedAt ?? p.run.createdAt;
  const hours = Math.max((now - started) / 3_600_000, 1 / 3600);
  const step = p.step ?? 0;
  const rate = step / hours;
  const parts = [`${p.run.status}, ${Math.round(hours * 60)} min`, `step ${step}/${p.total ?? "?"}`];
  if (rate > 0) {
    parts.push(`${rate >= 10 ? Math.round(rate) : f3(rate)} steps/h`);
    if (p.total !== undefined && p.total > step) parts.push(`ETA ${Math.round(((p.total - step) / rate) * 60)} min`);
  }
  if (p.reward !== undefined) parts.push(`reward ${f3(p.reward)}${change(p.reward, p.state.lastReward)}`);
  if (p.percentCorrect !== undefined)
    parts.push(`correct ${f3(p.percentCorrect)}${change(p.percentCorrect, p.state.lastPercentCorrect)}`);
  if (p.evalPercentCorrect !== undefined) parts.push(`eval ${f3(p.evalPercentCorrect)}`);
  parts.push(`started by ${personRef(p.run.createdBy)}`, `logs: /rl logs ${p.run.id}`);
  return { label: `Run ${p.run.id} (${p.run.environment})`, value: parts.join(" · ") };
}

const HOUR = 3_600_000;
const ALERT_TITLES = { stall: "⚠️ Stalled", resumed: "▶️ Moving again", regression: "⚠️ Reward regression" } as const;

export function createDigestCycle(deps: DigestCycleDeps) {
  const { runs, states, outbox, settings } = deps;

  /** One query per WandB project for all its runs (never one per run). */
  async function wandbRuns(active: RunRow[]): Promise<Map<string, WandbRun>> {
    const found = new Map<string, WandbRun>();
    if (!deps.wandb) return found;
    const byProject = new Map<string, string[]>();
    for (const r of active)
      if (r.wandbProject && r.wandbRunName)
        byProject.set(r.wandbProject, [...(byProject.get(r.wandbProject) ?? []), r.wandbRunName]);
    for (const [project, names] of byProject) {
      try {
        for (const [name, run] of await deps.wandb.findTrainerRuns(project, names))
          found.set(`${project}/${name}`, run);
      } catch (err) {
        deps.log.warn("WandB unavailable for digests", { project, err: asRlError(err).message });
      }
    }
    return found;
  }

  async function progressOf(run: RunRow, wandb: Map<string, WandbRun>): Promise<RunProgress> {
    const trainer = await readTrainerProgress(deps.trainerLogPath(run.id));
    const w = wandb.get(`${run.wandbProject}/${run.wandbRunName}`);
    const metrics = w ? metricsFromSummary(w.summary) : undefined;
    return {
      run,
      state: states.get(run.id),
      step: trainer.step ?? num(metrics?.step),
      total: run.totalSteps ?? trainer.totalSteps,
      reward: trainer.rewardMean ?? num(metrics?.rewardMean),
      percentCorrect: num(metrics?.percentCorrect),
      evalPercentCorrect: num(metrics?.evalPercentCorrect),
      url: w?.url,
      rewardHistory: trainer.rewardHistory,
    };
  }

  return async function runCycle(options: CycleOptions = {}): Promise<CycleResult> {
    const now = deps.now();
    let active = runs.listByStatus(["starting", "running"]);
    if (options.channel) active = active.filter((r) => channelLabel(r.channel) === channelLabel(options.channel!));
    if (options.runId) active = active.filter((r) => r.id === options.runId);
    const result: CycleResult = { runs: 0, messages: 0, alerts: 0, skippedChannels: 0 };
    if (active.length === 0) return result;
    const wandb = await wandbRuns(active);

    const byChannel = new Map<string, RunProgress[]>();
    for (const run of active) {
      const p = await progressOf(run, wandb);
      // Alerts are checked on every pass, muted or not: they are about trouble, not routine.
      const bestInLog = p.rewardHistory.length ? Math.max(...p.rewardHistory.map((h) => h.value)) : undefined;
      const decision = decideAlerts({
        state: p.state,
        step: p.step,
        rewardMean: p.reward,
        bestInLog,
        now,
        stallMs: settings.stallMs,
        regressionFraction: settings.regressionFraction,
      });
      for (const alert of run.status === "running" ? decision.alerts : []) {
        const queued = outbox.enqueue(
          {
            dedupeKey: `alert:${alert.key}`,
            target: { channel: run.channel, thread: run.thread },
            kind: "alert",
            runId: run.id,
            reply: {
              title: `${ALERT_TITLES[alert.kind]}: run ${run.id} (${run.environment})`,
              text: alert.message,
              buttons: [{ kind: "command", label: "Status", command: `/rl status ${run.id}` }],
            } satisfies Reply,
          },
          now,
        );
        if (queued) result.alerts++;
      }
      if (run.status === "running") {
        const { lastStep, lastStepAt, stallAlerted, bestReward, regressionAlerted } = decision.state;
        states.update(run.id, { lastStep, lastStepAt, stallAlerted, bestReward, regressionAlerted });
      }
      if (options.alertsOnly) continue;
      const due =
        options.force || p.state.lastDigestAt === undefined || now - p.state.lastDigestAt >= settings.intervalMs;
      // Muting is read now, not from the copy taken when this run's progress was gathered.
      if (!due || (states.get(run.id).muted && !options.runId)) continue;
      const key = channelLabel(run.channel);
      byChannel.set(key, [...(byChannel.get(key) ?? []), p]);
    }

    for (const [key, list] of byChannel) {
      const channel = list[0]!.run.channel;
      if (outbox.countSince(channel, "digest", now - HOUR) >= settings.channelPostsPerHour) {
        result.skippedChannels++;
        // Said once per full hour, so a quiet channel is never a mystery.
        const windowStart = outbox.oldestSince(channel, "digest", now - HOUR) ?? now;
        const resumes = new Date(windowStart + HOUR).toISOString().slice(11, 16);
        const reply: Reply = {
          title: "📈 Digests paused in this channel",
          text: `This channel had its ${settings.channelPostsPerHour} digests for the hour (RL_CHANNEL_POSTS_PER_HOUR); the next can go out after ${resumes} UTC. /rl status answers meanwhile.`,
        };
        outbox.enqueue(
          { dedupeKey: `digest-cap:${key}:${windowStart}`, target: { channel }, kind: "alert", reply },
          now,
        );
        continue;
      }
      const links = list.flatMap((p) => {
        const url = p.url ?? wandbGroupLink(p.run, deps.wandbPages)?.url;
        return url ? [{ label: `WandB ${p.run.id}`, url }] : [];
      });
      const chartSource = list.find((p) => p.rewardHistory.length > 1);
      // The runs of one sweep (and nothing else) share its thread: one digest covers the sweep, there.
      const sweepIds = new Set(list.map((p) => p.run.sweepId));
      const sweepId = list.length > 1 && sweepIds.size === 1 ? list[0]!.run.sweepId : undefined;
      const reply: Reply = {
        title:
          list.length === 1
            ? `📈 Digest: run ${list[0]!.run.id}`
            : sweepId
              ? `📈 Digest: sweep ${sweepId}, ${list.length} runs`
              : `📈 Digest: ${list.length} runs`,
        fields: list.map((p) => runLine(p, now)),
        links,
        chart: chartSource
          ? {
              title: `Reward mean, run ${chartSource.run.id}`,
              points: chartSource.rewardHistory.map((h) => ({ x: h.step, y: h.value })),
            }
          : undefined,
        buttons:
          list.length === 1
            ? [{ kind: "command", label: "Status", command: `/rl status ${list[0]!.run.id}` }]
            : undefined,
      };
      // Into the thread the runs share (a single run's, or a sweep's); runs started apart share the channel.
      const threads = new Set(list.map((p) => p.run.thread));
      const thread = threads.size === 1 ? list[0]!.run.thread : undefined;
      const queued = outbox.enqueue(
        { dedupeKey: `digest:${key}:${now}`, target: { channel, thread }, kind: "digest", reply },
        now,
      );
      if (!queued) continue;
      result.messages++;
      for (const p of list) {
        states.update(p.run.id, {
          lastDigestAt: now,
          lastReward: p.reward ?? p.state.lastReward,
          lastPercentCorrect: p.percentCorrect ?? p.state.lastPercentCorrect,
        });
        result.runs++;
      }
    }
    return result;
  };
}

export type DigestCycle = ReturnType<typeof createDigestCycle>;
