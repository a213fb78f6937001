// The training watchdog: on every digest and alert pass, each running run's logged progress is judged by the signals
// its channel keeps on (/rl notify watchdog). A signal fires once per episode (it is re-armed once it no longer holds),
// with its evidence and a proposal; the episode is kept in the database, so a restarted bot does not say it again.
import type { NotifySettings } from "../../db/notify-settings.ts";
import type { OutboxRepo } from "../../db/outbox.ts";
import type { RunRow } from "../../db/runs.ts";
import type { WatchdogState, WatchdogStateRepo } from "../../db/watchdog-state.ts";
import type { Logger } from "../log.ts";
import type { Reply } from "../reply.ts";
import type { NoticeRouter } from "../notify/notice-router.ts";
import type { Checkpoint, SampleQuery, StepSamples } from "../stacks/training-stack.ts";
import {
  findCollapse,
  findEntropyCollapse,
  findGroupCollapse,
  findLengthDrift,
  findPlateau,
  findStall,
  type Finding,
  type Point,
} from "./signals.ts";
import { healthyCheckpoint, watchdogAlert, type Evidence } from "./watchdog-alert.ts";
import { signalValues, type Signal } from "./watchdog-rules.ts";

/** What the watchdog reads of a run's progress. */
export interface WatchedProgress {
  step?: number;
  rewardHistory: readonly Point[];
  entropyHistory?: readonly Point[];
  lengthHistory?: readonly Point[];
}

export interface WatchdogDeps {
  states: WatchdogStateRepo;
  outbox: Pick<OutboxRepo, "enqueue">;
  router: Pick<NoticeRouter, "channelSettings" | "route">;
  checkpoints: (run: RunRow) => Promise<Checkpoint[]>;
  /** A step's rollouts, redacted (group collapse, and the alert's best and worst). */
  samples?: (run: RunRow, query: SampleQuery) => Promise<StepSamples | undefined>;
  /** The run's stack can start a run from a checkpoint (/rl fork). */
  forkable: (run: RunRow) => boolean;
  log: Logger;
  /** Runs the writes as one database transaction: an episode is recorded with its alert, or neither is. */
  transaction?: <T>(write: () => T) => T;
}

/** Moments new steps were seen, kept per run: enough for a steady median. */
const SEEN_KEPT = 30;
/** Rollouts of the latest step read for group collapse: the groups among them are judged. */
const GROUP_ROLLOUTS = 64;

/** The signals that hold now, judged by the channel's settings (a collapse makes a plateau go without saying). */
async function findings(
  run: RunRow,
  p: WatchedProgress,
  state: WatchdogState,
  settings: NotifySettings,
  now: number,
  deps: WatchdogDeps,
): Promise<{ found: Finding[]; samples?: StepSamples }> {
  const found: Finding[] = [];
  const on = (signal: Signal) => signalValues(settings, signal);
  const add = (f: Finding | undefined) => void (f && found.push(f));
  const collapse = on("collapse");
  if (collapse) add(findCollapse(p.rewardHistory, collapse));
  const plateau = on("plateau");
  if (plateau && !found.length) add(findPlateau(p.rewardHistory, plateau));
  const stall = on("stall");
  if (stall) add(findStall(state.seen, now, stall));
  const entropy = on("entropy");
  if (entropy && p.entropyHistory) add(findEntropyCollapse(p.entropyHistory, entropy));
  const length = on("length");
  if (length && p.lengthHistory) add(findLengthDrift(p.lengthHistory, length));
  let samples: StepSamples | undefined;
  if (on("groups") && deps.samples) {
    samples = await deps.samples(run, { pick: "first", n: GROUP_ROLLOUTS }).catch((err: unknown) => {
      deps.log.warn("watchdog: the run's samples could not be read", { runId: run.id, err });
      return undefined;
    });
    if (samples) add(findGroupCollapse(samples.step, samples.samples));
  }
  return { found, samples };
}

/** The step the episode began at (or, for a stall, the moment of the last step seen): its key, once per episode. */
function episodeKey(f: Finding, p: WatchedProgress, state: WatchdogState): string {
  if (f.signal === "stall") return String(state.seen.at(-1)?.[1] ?? 0);
  return String(p.step ?? 0);
}

export function createWatchdog(deps: WatchdogDeps) {
  /** The best and worst rollout of the latest step, for the alert's evidence. */
  async function extremes(run: RunRow): Promise<Evidence["samples"]> {
    if (!deps.samples) return undefined;
    try {
      const best = await deps.samples(run, { pick: "best", n: 1 });
      if (!best?.samples[0]) return undefined;
      const worst = await deps.samples(run, { step: best.step, pick: "worst", n: 1 });
      return { step: best.step, best: best.samples[0], worst: worst?.samples[0] };
    } catch (err) {
      deps.log.warn("watchdog: the run's samples could not be read", { runId: run.id, err });
      return undefined;
    }
  }

  async function evidence(run: RunRow, f: Finding, p: WatchedProgress): Promise<Evidence> {
    const curve =
      f.signal === "entropy"
        ? { title: "Entropy", points: p.entropyHistory ?? [] }
        : f.signal === "length"
          ? { title: "Mean completion length", points: p.lengthHistory ?? [] }
          : { title: "Reward mean", points: p.rewardHistory };
    const saved = await deps.checkpoints(run).catch(() => []);
    const checkpoint = healthyCheckpoint(saved, f.healthyUpTo);
    return {
      run,
      finding: f,
      curve,
      forkable: deps.forkable(run),
      ...(checkpoint ? { checkpoint } : {}),
      samples: await extremes(run),
    };
  }

  return {
    /**
     * Judges a running run; queues an alert for each signal that begins an episode now. Returns how many were queued.
     * `router` is the pass's (each channel's settings read once in it).
     */
    async check(run: RunRow, p: WatchedProgress, now: number, router = deps.router): Promise<number> {
      const before = deps.states.get(run.id);
      const state: WatchdogState = { open: { ...before.open }, seen: [...before.seen], ignored: before.ignored };
      if (p.step !== undefined && p.step !== state.seen.at(-1)?.[0]) {
        state.seen.push([p.step, now]);
        if (state.seen.length > SEEN_KEPT) state.seen.shift();
      }
      const settings = router.channelSettings(run.channel);
      const { found } = await findings(run, p, state, settings, now, deps);
      const begun: Finding[] = [];
      const holding = new Set(found.map((f) => f.signal));
      for (const signal of Object.keys(state.open)) if (!holding.has(signal as Signal)) delete state.open[signal];
      for (const f of found) {
        if (state.open[f.signal] !== undefined) continue;
        state.open[f.signal] = episodeKey(f, p, state);
        if (!state.ignored.includes(f.signal)) begun.push(f);
      }
      const routed = router.route("alerts", run);
      const alerts: Array<{ f: Finding; reply: Reply }> = [];
      for (const f of routed ? begun : []) alerts.push({ f, reply: watchdogAlert(await evidence(run, f, p)) });
      const transaction = deps.transaction ?? (<T>(write: () => T): T => write());
      return transaction(() => {
        let queued = 0;
        for (const { f, reply } of alerts) {
          const dedupeKey = `alert:watchdog:${f.signal}:${run.id}:${state.open[f.signal]}`;
          if (deps.outbox.enqueue({ dedupeKey, ...routed!, kind: "alert", runId: run.id, reply }, now)) queued++;
        }
        if (JSON.stringify(state) !== JSON.stringify(before)) deps.states.set(run.id, state, now);
        return queued;
      });
    },
    /** A person's Ignore: no more alerts of these signals for the run. */
    ignore(runId: string, signals: readonly Signal[], now: number): Signal[] {
      const state = deps.states.get(runId);
      const added = signals.filter((s) => !state.ignored.includes(s));
      if (added.length) deps.states.set(runId, { ...state, ignored: [...state.ignored, ...added] }, now);
      return added;
    },
    /** The signals ignored for a run. */
    ignored: (runId: string): string[] => deps.states.get(runId).ignored,
  };
}

export type Watchdog = ReturnType<typeof createWatchdog>;
