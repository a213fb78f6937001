// /rl notify [kinds destination | failures only | reward above|below N | best on|off | reset] [--user ID]: where each
// kind of notice goes in this channel (or for one person's runs), and the reward alerts the channel wants.
import { z } from "zod";
import {
  CHANNEL_WIDE,
  NOTICE_KINDS,
  type Destination,
  type NoticeKind,
  type NotifySettings,
} from "../db/notify-settings.ts";
import { RlError } from "../src/errors.ts";
import { defaultDestination } from "../src/notify/notice-router.ts";
import {
  DESTINATION_FORMS,
  describeDestination,
  destinationWord,
  parseDestination,
  parseNoticeKinds,
} from "../src/notify/notify-words.ts";
import { accessOf, allows, refusalMessage } from "../src/policy.ts";
import { personRef, type Reply } from "../src/reply.ts";
import { changeWatchdog, ignoreSignals, showWatchdog, WATCHDOG_FORMS } from "./notify-watchdog.ts";
import { defineCommand, type AnyCommand, type CommandContext } from "./types.ts";

const word = (what: string) => z.string().max(80).optional().describe(what);

const args = z.object({
  what: word(
    "Kinds (started, failed, completed, stopped, alerts, digests, checkpoint; comma-separated, or all), or failures, reward, best, watchdog, reset",
  ),
  where: word(
    `Where they go: ${DESTINATION_FORMS}; or only / above / below / on / off; after watchdog: a signal, or ignore`,
  ),
  value: word(
    "The reward threshold (reward above|below N); after watchdog <signal>: off, on, reset, name=value[,name=value] or ignore=<run>",
  ),
  user: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("A person's id, or me: routes for the runs that person starts here"),
});

type Args = z.output<typeof args>;

const FORMS = `/rl notify <kinds> <thread|channel|#channel|dm|off> [--user ID|me], /rl notify failures only, /rl notify reward above|below <N>, /rl notify reward off, /rl notify best on|off, /rl notify reset, /rl notify watchdog, ${WATCHDOG_FORMS}`;

/** Whose routes: the channel's, or one person's (their own, or anyone's for an admin). */
function ownerOf(input: Args, ctx: CommandContext<"config">): string {
  if (!input.user) return CHANNEL_WIDE;
  const id = input.user.replace(/^<@!?([^>]+)>$/, "$1");
  const userId = id.toLowerCase() === "me" ? ctx.user.id : id;
  if (userId !== ctx.user.id && accessOf(ctx.services.config.policy, ctx.channel, ctx.user).role !== "admin")
    throw new RlError("FORBIDDEN", "Only an admin may set another person's notice routes; use --user me for your own.");
  return userId;
}

const whose = (owner: string): string =>
  owner === CHANNEL_WIDE ? "this channel" : `runs ${personRef(owner)} starts here`;

/** "failures only": the failure and alerts arrive (where they went, or the run's thread); nothing else is posted. */
function failuresOnly(current: NotifySettings): NotifySettings {
  const keep = (kind: NoticeKind): Destination => {
    const d = current.routes[kind];
    return d && d.to !== "off" ? d : { to: "thread" };
  };
  return {
    ...current,
    routes: {
      started: { to: "off" },
      completed: { to: "off" },
      stopped: { to: "off" },
      digests: { to: "off" },
      checkpoint: { to: "off" },
      failed: keep("failed"),
      alerts: keep("alerts"),
    },
  };
}

function checkRoute(kind: NoticeKind, d: Destination, owner: string): void {
  if (d.to === "digest" && kind !== "checkpoint")
    throw new RlError("USAGE", `Only checkpoint notes fold into the digest; send ${kind} to ${DESTINATION_FORMS}.`);
  if (kind === "digests" && (d.to === "dm" || owner !== CHANNEL_WIDE))
    throw new RlError(
      "USAGE",
      "Digests cover every active run of the channel, so they are the channel's: send them to thread, channel, #channel or off.",
    );
}

function parseThreshold(value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || value.trim() === "" || !Number.isFinite(n))
    throw new RlError("USAGE", `The threshold must be a number, e.g. /rl notify reward above 0.9.`);
  return n;
}

/** The new settings the words ask for, and a line saying what changed. */
function change(input: Args, current: NotifySettings, owner: string): { next: NotifySettings; said: string } {
  const what = (input.what ?? "").toLowerCase();
  const where = (input.where ?? "").toLowerCase();
  if (what === "failures-only" || (what === "failures" && where === "only"))
    return {
      next: failuresOnly(current),
      said: `Failures only for ${whose(owner)}: failures and alerts arrive, nothing else is posted.`,
    };
  if (what === "reward" || what === "best") {
    if (owner !== CHANNEL_WIDE)
      throw new RlError(
        "USAGE",
        "Reward alerts are the channel's: leave out --user (route them with /rl notify alerts dm --user me).",
      );
    if (what === "best") {
      if (where !== "on" && where !== "off")
        throw new RlError("USAGE", "Say /rl notify best on, or /rl notify best off.");
      return {
        next: { ...current, newBest: where === "on" },
        said:
          where === "on"
            ? "An alert when a run beats every earlier run of its environment here."
            : "No new-best alerts.",
      };
    }
    if (where === "off") {
      const { rewardAbove: _a, rewardBelow: _b, ...rest } = current;
      return { next: rest, said: "No reward threshold alerts." };
    }
    if (where !== "above" && where !== "below")
      throw new RlError(
        "USAGE",
        "Say /rl notify reward above <N>, /rl notify reward below <N>, or /rl notify reward off.",
      );
    const n = parseThreshold(input.value);
    return where === "above"
      ? { next: { ...current, rewardAbove: n }, said: `An alert once per run when its reward mean rises above ${n}.` }
      : { next: { ...current, rewardBelow: n }, said: `An alert once per run when its reward mean falls below ${n}.` };
  }
  if (!input.where)
    throw new RlError("USAGE", `Say where ${input.what} should go: ${DESTINATION_FORMS}.\nForms: ${FORMS}`);
  const kinds = parseNoticeKinds(input.what ?? "");
  const destination = parseDestination(input.where);
  for (const kind of kinds) checkRoute(kind, destination, owner);
  const routes = { ...current.routes };
  for (const kind of kinds) routes[kind] = destination;
  return {
    next: { ...current, routes },
    said: `${kinds.join(", ")} of ${whose(owner)} go to ${describeDestination(destination)}.`,
  };
}

function show(ctx: CommandContext<"notify">): Reply {
  const channel = ctx.services.notify.get(ctx.channel, CHANNEL_WIDE);
  const mine = ctx.services.notify.get(ctx.channel, ctx.user.id);
  const people = ctx.services.notify.people(ctx.channel);
  const fields: Array<{ label: string; value: string }> = NOTICE_KINDS.map((kind) => {
    const set = channel.routes[kind];
    const own = mine.routes[kind];
    const d = set ?? defaultDestination(kind);
    const value = `${describeDestination(d)}${set ? "" : " (default)"}${own ? `; your runs: ${describeDestination(own)}` : ""}`;
    return { label: kind, value };
  });
  const alerts = [
    channel.rewardAbove !== undefined ? `reward above ${channel.rewardAbove}` : undefined,
    channel.rewardBelow !== undefined ? `reward below ${channel.rewardBelow}` : undefined,
    channel.newBest ? "new best for the environment here" : undefined,
  ].filter((a): a is string => a !== undefined);
  fields.push({ label: "Reward alerts", value: alerts.length ? alerts.join("; ") : "none" });
  const watchdog = Object.entries(channel.watchdog ?? {}).map(
    ([signal, set]) =>
      `${signal} ${
        set.off
          ? "off"
          : Object.entries(set.values ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(" ")
      }`,
  );
  fields.push({
    label: "Watchdog",
    value: watchdog.length
      ? `${watchdog.join("; ")}; the rest as default`
      : "every signal on, as default (/rl notify watchdog)",
  });
  if (people.length) fields.push({ label: "People with their own routes", value: people.map(personRef).join(", ") });
  const words = (s: NotifySettings) =>
    Object.fromEntries(Object.entries(s.routes).map(([k, d]) => [k, destinationWord(d)]));
  return {
    title: "Where notices go in this channel",
    text: `Change it with ${FORMS}.`,
    fields,
    data: {
      routes: Object.fromEntries(
        NOTICE_KINDS.map((k) => [k, destinationWord(channel.routes[k] ?? defaultDestination(k))]),
      ),
      your_routes: words(mine),
      reward_above: channel.rewardAbove ?? null,
      reward_below: channel.rewardBelow ?? null,
      new_best: channel.newBest ?? false,
      people,
    },
  };
}

const notify: AnyCommand = defineCommand({
  name: "notify",
  summary: "Show or set where notices go",
  description:
    "Where each kind of notice goes in this channel: started, failed, completed, stopped, alerts, digests and checkpoint, to the run's thread (default), the channel, another channel (#name or a mention), a DM to whoever started the run, or off. `failures only` posts failures and alerts and nothing else; `reward above|below N` and `best on` add reward alerts (once per run); a saved checkpoint is in the digest unless routed. `watchdog` shows the training watchdog's signals (reward collapse, plateau, stall, group collapse, entropy collapse, length drift); `watchdog <signal> off|on|reset|name=value` switches or tunes one for the channel, `watchdog <signal|all> ignore=<run>` stops its alerts for one run. `--user ID|me` sets routes for the runs one person starts. With no words it shows the routing.",
  toolName: "rl_notify",
  args,
  positional: ["what", "where", "value"],
  permission: "read",
  uses: ["notify", "config", "now", "report", "watchdog"],
  mutates: true,
  // Showing the routes is a read for the asker; changing them is the team's to see.
  personal: ({ what }) => ["", "show"].includes((what ?? "").toLowerCase()),
  examples: [
    "/rl notify",
    "/rl notify failed,completed dm --user me",
    "/rl notify failures only",
    "/rl notify alerts #training-alerts",
    "/rl notify reward above 0.9",
    "/rl notify best on",
    "/rl notify watchdog collapse fraction=0.4 steps=8",
    "/rl notify watchdog plateau off",
  ],
  async run(input, ctx) {
    const what = (input.what ?? "").toLowerCase();
    if (what === "" || what === "show") return show(ctx);
    const where = (input.where ?? "").toLowerCase();
    if (what === "watchdog" && (where === "" || where === "show" || where === "help"))
      return showWatchdog(ctx.services.notify.get(ctx.channel, CHANNEL_WIDE));
    // Anyone may look; changing where a channel's notices go is for those who may operate it.
    const { policy } = ctx.services.config;
    const access = accessOf(policy, ctx.channel, ctx.user);
    if (!allows(access.role, "operate"))
      throw new RlError("FORBIDDEN", refusalMessage(policy, access, "/rl notify", "operate", ctx.channel.platform), {
        details: { needed: "operate", role: access.role },
      });
    const ignore = /^ignore=(\S+)$/i.exec(input.value ?? "");
    if (what === "watchdog" && ignore) return ignoreSignals(ignore[1]!, input.where ?? "", ctx);
    const owner = ownerOf(input, ctx as CommandContext);
    const { notify: repo } = ctx.services;
    if (what === "watchdog") {
      if (owner !== CHANNEL_WIDE)
        throw new RlError("USAGE", "The watchdog's signals are the channel's: leave out --user.");
      const { next, said } = changeWatchdog(repo.get(ctx.channel, owner), input.where!, input.value ?? "");
      repo.set(ctx.channel, owner, next, ctx.user.id, ctx.services.now());
      return { title: "Watchdog changed", text: said, data: { said } };
    }
    if (what === "reset") {
      const cleared = repo.clear(ctx.channel, owner);
      return {
        title: `Notice routes of ${whose(owner)} reset`,
        text: cleared
          ? "Every notice goes to the run's thread again."
          : "Nothing was set; every notice goes to the run's thread.",
        data: { reset: cleared },
      };
    }
    const { next, said } = change(input, repo.get(ctx.channel, owner), owner);
    repo.set(ctx.channel, owner, next, ctx.user.id, ctx.services.now());
    return { title: "Notice routing changed", text: said, data: { ...(owner ? { user: owner } : {}), said } };
  },
});

export default notify;
