// /rl notify watchdog [<signal> off|on|reset|name=value,... | <signal|all> ignore=<run>]: the channel's watchdog signals,
// each tuned or switched off, and a run's signals ignored (an alert's Ignore button).
import type { NotifySettings, WatchdogSetting } from "../db/notify-settings.ts";
import { RlError } from "../src/errors.ts";
import type { Reply } from "../src/reply.ts";
import { describeValues, RULES, SIGNALS, signalValues, type Signal } from "../src/watchdog/watchdog-rules.ts";
import { checkOwnership } from "./check-ownership.ts";
import type { CommandContext } from "./types.ts";

export const WATCHDOG_FORMS =
  "/rl notify watchdog <signal> off|on|reset|name=value[,name=value], /rl notify watchdog <signal|all> ignore=<run>";

function parseSignal(word: string): Signal {
  const signal = SIGNALS.find((s) => s === word.toLowerCase());
  if (!signal)
    throw new RlError("USAGE", `"${word.slice(0, 40)}" is not a watchdog signal: use ${SIGNALS.join(", ")}.`);
  return signal;
}

/** "fraction=0.4 steps=8" -> the values, each checked against its signal's bounds. */
function parseValues(signal: Signal, text: string): Record<string, number> {
  const params = RULES[signal].params;
  const names = Object.keys(params);
  if (names.length === 0) throw new RlError("USAGE", `The ${signal} signal has no numbers to tune: say off or on.`);
  const values: Record<string, number> = {};
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const [name = "", raw = ""] = word.split("=", 2);
    const param = params[name];
    if (!param)
      throw new RlError(
        "USAGE",
        `${signal} has no number "${name.slice(0, 40)}": it has ${names.join(", ")} (e.g. /rl notify watchdog ${signal} ${names[0]}=${params[names[0]!]!.default}).`,
      );
    const n = Number(raw);
    if (
      raw.trim() === "" ||
      !Number.isFinite(n) ||
      n < param.min ||
      n > param.max ||
      (param.integer && !Number.isInteger(n))
    )
      throw new RlError(
        "USAGE",
        `${signal} ${name} must be ${param.integer ? "a whole number" : "a number"} from ${param.min} to ${param.max} (${param.about}); got "${raw.slice(0, 40)}".`,
      );
    values[name] = n;
  }
  if (Object.keys(values).length === 0)
    throw new RlError("USAGE", `Say off, on, reset or name=value for ${signal} (its numbers: ${names.join(", ")}).`);
  return values;
}

/** The channel's settings with one signal changed, and what is said of it. */
export function changeWatchdog(
  current: NotifySettings,
  signalWord: string,
  rest: string,
): { next: NotifySettings; said: string } {
  const signal = parseSignal(signalWord);
  const word = rest.trim().toLowerCase();
  const before: WatchdogSetting = current.watchdog?.[signal] ?? {};
  let setting: WatchdogSetting;
  if (word === "off") setting = { ...before, off: true };
  else if (word === "on") setting = { ...(before.values ? { values: before.values } : {}) };
  else if (word === "reset") setting = {};
  else setting = { values: { ...before.values, ...parseValues(signal, rest) } };
  const watchdog = { ...current.watchdog, [signal]: setting };
  if (Object.keys(setting).length === 0) delete watchdog[signal];
  const next = { ...current, watchdog };
  const values = signalValues(next, signal);
  return {
    next,
    said: values
      ? `${RULES[signal].title} alerts when ${RULES[signal].rule}${Object.keys(values).length ? ` (${describeValues(values)})` : ""}.`
      : `No ${RULES[signal].title.toLowerCase()} alerts in this channel (turn them on with /rl notify watchdog ${signal} on).`,
  };
}

/** Every signal, its rule and its numbers here. */
export function showWatchdog(settings: NotifySettings): Reply {
  const fields = SIGNALS.map((signal) => {
    const values = signalValues(settings, signal);
    const numbers = values && Object.keys(values).length ? ` (${describeValues(values)})` : "";
    return {
      label: `${signal}: ${RULES[signal].title}`,
      value: values ? `on: ${RULES[signal].rule}${numbers}` : "off",
    };
  });
  return {
    title: "The training watchdog in this channel",
    text: `Each signal alerts once per episode, with its evidence and a proposal (docs/watchdog.md). Change them with ${WATCHDOG_FORMS}.`,
    fields,
    data: {
      signals: Object.fromEntries(SIGNALS.map((s) => [s, signalValues(settings, s) ?? "off"])),
    },
  };
}

/** An alert's Ignore: the run's starter or an admin stops one signal's alerts (or all) for the run. */
export function ignoreSignals(
  runWord: string,
  signalWord: string,
  ctx: CommandContext<"config" | "report" | "watchdog" | "now">,
): Reply {
  const run = ctx.services.report.find(runWord);
  checkOwnership(run, ctx, "ignore");
  const signals = signalWord.toLowerCase() === "all" ? [...SIGNALS] : [parseSignal(signalWord)];
  const added = ctx.services.watchdog.ignore(run.id, signals, ctx.services.now());
  const which = signals.length === SIGNALS.length ? "any watchdog signal" : RULES[signals[0]!].title.toLowerCase();
  return {
    title: `Ignored: ${which} on run ${run.id}`,
    text: added.length
      ? `No more ${which} alerts for run ${run.id}; the run goes on as it is.`
      : `Already ignored: ${which} on run ${run.id}.`,
    data: { run_id: run.id, ignored: ctx.services.watchdog.ignored(run.id) },
  };
}
