// What a digest says: one line per run (progress, rate, ETA, reward changes, who started it), one for the checkpoints
// saved since the last digest, one for a sample of the latest step where the channel asked, and the channel's message
// around them (title, WandB links, the reward chart, the Status
// button), or that the hour's digests are used up.
import { wandbGroupLink, type WandbPages } from "../metrics/wandb-group-link.ts";
import type { Reply, ReplyField } from "../reply.ts";
import { sampleGist } from "../stacks/describe-samples.ts";
import { trainingMs } from "../values/training-time.ts";
import { startedBy } from "../training/started-by.ts";
import type { RunProgress } from "./run-progress.ts";

const f3 = (v: number) => Number(v.toFixed(3)).toString();
const change = (now: number | undefined, before: number | undefined) =>
  now === undefined || before === undefined ? "" : ` (${now - before >= 0 ? "+" : ""}${f3(now - before)})`;

export function runLine(p: RunProgress, now: number): ReplyField {
  // Steps count from the run's first attempt, so the rate is over every attempt's training time.
  const hours = Math.max(trainingMs(p.run, now) / 3_600_000, 1 / 3600);
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
  parts.push(`started by ${startedBy(p.run)}`, `logs: /rl logs ${p.run.id}`);
  return { label: `Run ${p.run.id} (${p.run.environment})`, value: parts.join(" · ") };
}

/** The checkpoints a run saved since its last digest, in one line (never one post per checkpoint); none: undefined. */
export function checkpointsLine(p: RunProgress): ReplyField | undefined {
  const saved = p.checkpoints ?? [];
  const fresh = saved.length - (p.state.lastCheckpointCount ?? 0);
  const latest = saved.at(-1);
  if (fresh <= 0 || !latest) return undefined;
  const what = fresh === 1 ? "" : `${fresh} new, latest `;
  return {
    label: `Checkpoint saved, run ${p.run.id}`,
    value: `${what}${latest.name} at step ${latest.step}: ${latest.path} · /rl checkpoints ${p.run.id}`,
  };
}

/** Characters of a completion's start the samples line shows of each rollout. */
const GIST_CHARS = 80;

/**
 * The best and worst rollout of the run's latest step, each its score and completion's start on one line; undefined
 * when the channel's digests show no samples or the run has written none. The model's text is inert: a field's value
 * is plain text on every surface.
 */
export function samplesLine(p: RunProgress): ReplyField | undefined {
  const latest = p.samples;
  if (!latest?.best) return undefined;
  const parts = [`best ${sampleGist(latest.best, GIST_CHARS)}`];
  const { best, worst } = latest;
  // A step whose rollouts all scored alike has one rollout for both.
  if (worst && (worst.group !== best.group || worst.index !== best.index))
    parts.push(`worst ${sampleGist(worst, GIST_CHARS)}`);
  parts.push(`/rl samples ${p.run.id}`);
  return { label: `Sample of step ${latest.step}, run ${p.run.id}`, value: parts.join(" · ") };
}

/** One channel's digest of `list` (its due runs). */
export function digestReply(list: RunProgress[], now: number, wandbPages?: WandbPages): Reply {
  const links = list.flatMap((p) => {
    const url = p.url ?? wandbGroupLink(p.run, wandbPages)?.url;
    return url ? [{ label: `WandB ${p.run.id}`, url }] : [];
  });
  const chartSource = list.find((p) => p.rewardHistory.length > 1);
  // The runs of one sweep (and nothing else) share its thread: one digest covers the sweep, there.
  const sweepIds = new Set(list.map((p) => p.run.sweepId));
  const sweepId = list.length > 1 && sweepIds.size === 1 ? list[0]!.run.sweepId : undefined;
  return {
    title:
      list.length === 1
        ? `📈 Digest: run ${list[0]!.run.id}`
        : sweepId
          ? `📈 Digest: sweep ${sweepId}, ${list.length} runs`
          : `📈 Digest: ${list.length} runs`,
    fields: list.flatMap((p) => [runLine(p, now), checkpointsLine(p), samplesLine(p)].filter((f) => f !== undefined)),
    links,
    chart: chartSource
      ? {
          title: `Reward mean, run ${chartSource.run.id}`,
          points: chartSource.rewardHistory.map((h) => ({ x: h.step, y: h.value })),
        }
      : undefined,
    buttons:
      list.length === 1 ? [{ kind: "command", label: "Status", command: `/rl status ${list[0]!.run.id}` }] : undefined,
  };
}

/** Said once per full hour when a channel has had its digests, so a quiet channel is never a mystery. */
export function digestsPausedReply(postsPerHour: number, resumesAt: number): Reply {
  const resumes = new Date(resumesAt).toISOString().slice(11, 16);
  return {
    title: "📈 Digests paused in this channel",
    text: `This channel had its ${postsPerHour} digests for the hour (RL_CHANNEL_POSTS_PER_HOUR); the next can go out after ${resumes} UTC. /rl status answers meanwhile.`,
  };
}
