// The outbox's posts and edits on Slack: rendered with people's names looked up first, accepted or refused with the
// outbox's verdict on Slack's answer, and the run's thread and chart seen to in the background.
import type { AnchorHandler, ChatAdapter } from "../chat-adapter.ts";
import { recordAnchor } from "../record-anchor.ts";
import { dmRecipient } from "../../db/outbox.ts";
import { deliveryError } from "../../src/outbox/delivery-failure.ts";
import type { ChartRenderer } from "../../src/metrics/render-chart.ts";
import type { Services } from "../../src/services.ts";
import { shareChart } from "./slack-chart.ts";
import { classifySlackFailure } from "./slack-delivery-failure.ts";
import type { SendResult, SlackMessenger } from "./slack-messenger.ts";
import type { SlackPeople } from "./slack-people.ts";
import { renderSlack } from "./slack-render.ts";

export interface SlackPostsDeps {
  services: Services;
  /** The outbox's own client: a 429 comes back at once with its Retry-After (rejectRateLimitedCalls). */
  outboxMessenger: SlackMessenger;
  messenger: SlackMessenger;
  people: SlackPeople;
  renderChart: ChartRenderer;
  onAnchor?: AnchorHandler;
  track: (work: Promise<void>) => Promise<void>;
}

export function createSlackPosts(deps: SlackPostsDeps): Pick<ChatAdapter, "post" | "update"> {
  const { services, outboxMessenger, messenger, people, renderChart, track } = deps;
  const { log } = services;
  /** DM channels by person: conversations.open is asked once per person while the bot runs. */
  const dms = new Map<string, string>();
  /** The Slack channel a target names: a `dm:<user>` target is the DM conversations.open opens with that person. */
  const channelIdOf = async (channel: string): Promise<string> => {
    const user = dmRecipient(channel);
    if (!user) return channel;
    const known = dms.get(user);
    if (known) return known;
    const opened = await outboxMessenger.openDm(user);
    if (!opened.ok) {
      const failure = classifySlackFailure(opened.error, opened.retryAfterSeconds);
      throw deliveryError(`Slack would not open a DM with ${user} (${opened.error}).`, failure, {
        details: { slackError: opened.error },
      });
    }
    dms.set(user, opened.channel);
    return opened.channel;
  };
  return {
    // A reply's chart follows as a PNG in the same place (needs files:write); its failure is logged, never thrown.
    async post(target, reply) {
      const channelId = await channelIdOf(target.channel.channel);
      // People's names are looked up before the post: nothing is awaited between Slack taking it and its mark as sent.
      const rendered = renderSlack(reply, { redact: services.redact, names: await people.namesIn(reply) });
      const ts = accepted(await outboxMessenger.post(channelId, rendered, target.thread), channelId);
      // Slack has no idempotency key: the caller marks the message sent the moment this returns, so nothing is awaited
      // here. The run's thread is recorded in the background (main.ts records it synchronously), the chart follows
      // next to the message (a run's chart with no run thread yet goes under the message itself), and a failure of
      // either is only logged. stop() still waits for both.
      const { anchorRunId, runId } = reply.delivery ?? {};
      const message = { id: ts, ...(target.thread ? { thread: target.thread } : {}) };
      if (anchorRunId) void track(recordAnchor(deps.onAnchor, log, anchorRunId, target.channel, ts, message));
      const thread = target.thread ?? (runId ? ts : undefined);
      if (reply.chart)
        void track(
          shareChart(
            reply.chart,
            { channel: channelId, thread },
            { messenger, renderChart, redact: services.redact, log },
          ).then(() => undefined),
        );
      return { channel: target.channel, id: ts, ...(target.thread ? { thread: target.thread } : {}) };
    },
    async update(ref, reply) {
      const channelId = ref.channel.channel;
      accepted(
        await messenger.update(
          channelId,
          ref.id,
          renderSlack(reply, { redact: services.redact, names: await people.namesIn(reply) }),
        ),
        channelId,
      );
      return ref;
    },
  };
}

/** The message's ts, or an RlError("UPSTREAM") saying what Slack answered, with the outbox's verdict on it. */
function accepted(sent: SendResult, channelId: string): string {
  if (sent.ok && sent.ts) return sent.ts;
  const error = sent.ok ? "no_ts" : sent.error;
  const failure = classifySlackFailure(error, sent.ok ? undefined : sent.retryAfterSeconds);
  throw deliveryError(`Slack did not accept the message for channel ${channelId} (${error}).`, failure, {
    details: { slackError: error },
  });
}
