// Picks where a run's notice, alert or checkpoint note goes (/rl notify): the run's starter's own route, else the
// channel's, else the run's thread.
import type { ChannelKey } from "../../db/channel-key.ts";
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

export function createNoticeRouter(settings: NotifySettingsRepo) {
  return {
    /** The channel's settings (its alerts included). */
    channelSettings: (channel: ChannelKey): NotifySettings => settings.get(channel, CHANNEL_WIDE),
    /** Where `kind` goes for this run: its starter's route in its channel, else the channel's, else the default. */
    destinationOf(kind: NoticeKind, run: RunRow): Destination {
      return (
        settings.get(run.channel, run.createdBy).routes[kind] ??
        settings.get(run.channel, CHANNEL_WIDE).routes[kind] ??
        defaultDestination(kind)
      );
    },
    /** The outbox target for `kind` of this run; undefined when it is off (or folded into the digest). */
    route(kind: NoticeKind, run: RunRow): RoutedTarget | undefined {
      return targetOf(this.destinationOf(kind, run), run);
    },
    bestRewardBefore: settings.bestRewardBefore,
  };
}

export type NoticeRouter = ReturnType<typeof createNoticeRouter>;
