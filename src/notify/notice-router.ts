// Picks where a run's notice, alert or checkpoint note goes (/rl notify): the run's starter's own route, else the
// channel's, else the run's thread.
import { channelLabel, type ChannelKey } from "../../db/channel-key.ts";
import {
  CHANNEL_WIDE,
  type Destination,
  type NoticeKind,
  type NotifySettings,
  type NotifySettingsRepo,
} from "../../db/notify-settings.ts";
import { dmChannel, type OutboxRoute } from "../../db/outbox.ts";
import type { RunRow } from "../../db/runs.ts";

/** What a kind does when nobody said: the run's thread, and a saved checkpoint only in the next digest. */
export function defaultDestination(kind: NoticeKind): Destination {
  return kind === "checkpoint" ? { to: "digest" } : { to: "thread" };
}

export interface RoutedTarget {
  target: { channel: ChannelKey; thread?: string };
  route?: OutboxRoute;
}

/** The outbox target a destination means for a run; undefined when nothing is posted on its own. */
export function targetOf(destination: Destination, run: RunRow): RoutedTarget | undefined {
  const { channel } = run;
  switch (destination.to) {
    case "thread":
      return { target: { channel, thread: run.thread } };
    case "channel":
      return { target: { channel }, route: "channel" };
    case "named":
      return { target: { channel: { ...channel, channel: destination.channel } }, route: "named" };
    case "dm":
      return { target: { channel: { ...channel, channel: dmChannel(run.createdBy) } }, route: "dm" };
    case "off":
    case "digest":
      return undefined;
  }
}

/** The settings each read once: a pass over many runs asks for the same channels' settings again and again. */
function readOnce(settings: NotifySettingsRepo): NotifySettingsRepo {
  const read = new Map<string, NotifySettings>();
  return {
    ...settings,
    get(channel, userId) {
      const key = `${channelLabel(channel)}\n${userId}`;
      let found = read.get(key);
      if (!found) read.set(key, (found = settings.get(channel, userId)));
      return found;
    },
  };
}

export interface NoticeRouter {
  /** The channel's settings (its alerts included). */
  channelSettings(channel: ChannelKey): NotifySettings;
  /** Where `kind` goes for this run: its starter's route in its channel, else the channel's, else the default. */
  destinationOf(kind: NoticeKind, run: RunRow): Destination;
  /** The outbox target for `kind` of this run; undefined when it is off (or folded into the digest). */
  route(kind: NoticeKind, run: RunRow): RoutedTarget | undefined;
  /** The best reward mean any other run of `environment` in this channel reached, if one did. */
  bestRewardBefore: NotifySettingsRepo["bestRewardBefore"];
  /** A router for one pass over many runs: each setting read once, so a change made during the pass waits for the next. */
  forOnePass(): NoticeRouter;
}

export function createNoticeRouter(settings: NotifySettingsRepo): NoticeRouter {
  return {
    channelSettings: (channel: ChannelKey): NotifySettings => settings.get(channel, CHANNEL_WIDE),
    destinationOf(kind: NoticeKind, run: RunRow): Destination {
      return (
        settings.get(run.channel, run.createdBy).routes[kind] ??
        settings.get(run.channel, CHANNEL_WIDE).routes[kind] ??
        defaultDestination(kind)
      );
    },
    route(kind: NoticeKind, run: RunRow): RoutedTarget | undefined {
      return targetOf(this.destinationOf(kind, run), run);
    },
    bestRewardBefore: settings.bestRewardBefore,
    forOnePass: () => createNoticeRouter(readOnce(settings)),
  };
}
