// The training watchdog's signals: each one's rule in words, its numbers and their defaults, and what a channel set
// (/rl notify watchdog). docs/watchdog.md explains each.
import type { NotifySettings, WatchdogSetting } from "../../db/notify-settings.ts";

export const SIGNALS = ["collapse", "plateau", "stall", "groups", "entropy", "length"] as const;
export type Signal = (typeof SIGNALS)[number];

interface Param {
  default: number;
  /** What it means, for /rl notify watchdog. */
  about: string;
  min: number;
  max: number;
  integer?: boolean;
}

interface SignalRule {
  title: string;
  /** The rule in one line, with its numbers' names. */
  rule: string;
  params: Record<string, Param>;
}

export const RULES: Record<Signal, SignalRule> = {
  collapse: {
    title: "Reward collapse",
    rule: "the mean reward of the last `steps` steps is under `fraction` of the run's best",
    params: {
      fraction: { default: 0.5, about: "of the run's best", min: 0.01, max: 0.99 },
      steps: { default: 5, about: "steps averaged", min: 1, max: 1000, integer: true },
    },
  },
  plateau: {
    title: "Plateau",
    rule: "no step of the last `window` beat the best before them by more than `gain` of its size",
    params: {
      window: { default: 50, about: "steps without gain", min: 2, max: 100_000, integer: true },
      gain: { default: 0.01, about: "least rise that counts, as a fraction of the best", min: 0, max: 10 },
    },
  },
  stall: {
    title: "Stall",
    rule: "no new step for `times` the median step time measured (and at least `minutes`)",
    params: {
      times: { default: 5, about: "median step times", min: 1.5, max: 1000 },
      minutes: { default: 3, about: "least wait", min: 1, max: 24 * 60 },
    },
  },
  groups: {
    title: "Group collapse",
    rule: "every rollout of every group of the latest step scored the same as the rest of its group (no advantage)",
    params: {},
  },
  entropy: {
    title: "Entropy collapse",
    rule: "the mean entropy of the last `steps` steps is under `fraction` of the mean of the first `steps`",
    params: {
      fraction: { default: 0.2, about: "of the early entropy", min: 0.001, max: 0.99 },
      steps: { default: 5, about: "steps averaged", min: 1, max: 1000, integer: true },
    },
  },
  length: {
    title: "Length drift",
    rule: "the mean completion length of the last `steps` steps is over `factor` times (or under 1/`factor` of) the first `steps`' mean",
    params: {
      factor: { default: 2, about: "times the early length", min: 1.1, max: 100 },
      steps: { default: 5, about: "steps averaged", min: 1, max: 1000, integer: true },
    },
  },
};

/** A signal's numbers in a channel: its defaults with what the channel changed; undefined when switched off. */
export type SignalValues = Record<string, number>;

export function signalValues(settings: NotifySettings, signal: Signal): SignalValues | undefined {
  const set: WatchdogSetting | undefined = settings.watchdog?.[signal];
  if (set?.off) return undefined;
  const values: SignalValues = {};
  for (const [name, param] of Object.entries(RULES[signal].params)) values[name] = set?.values?.[name] ?? param.default;
  return values;
}

/** "fraction 0.5, steps 5". */
export function describeValues(values: SignalValues): string {
  return Object.entries(values)
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
}
