// Mentions and direct messages: hands the text to the chat entry point (the LLM), or answers with a hint until there is one.
import { errorReply } from "../../commands/dispatch.ts";
import { COMMANDS } from "../../commands/index.ts";
import type { AnyCommand, CommandContext } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import { asRlError } from "../../src/errors.ts";
import type { ChartRenderer } from "../../src/metrics/render-chart.ts";
import { isEphemeral, type Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import type { SlackMessenger } from "./slack-messenger.ts";
import type { SlackPeople } from "./slack-people.ts";
import { createProgressMessage } from "./slack-progress.ts";
import { renderPlain, renderSlack } from "./slack-render.ts";
import type { AnchorHandler, ChatHandler } from "../chat-adapter.ts";
import { recordAnchor } from "../record-anchor.ts";
import { recordApprovalMessage } from "../record-approval-message.ts";
import { shareChart } from "./slack-chart.ts";

export interface SlackChatDeps {
  services: Services;
  messenger: SlackMessenger;
  people?: SlackPeople;
  chat?: ChatHandler;
  commands?: readonly AnyCommand[];
  onAnchor?: AnchorHandler;
  renderChart: ChartRenderer;
}

export interface SlackChatMessage {
  channel: ChannelKey;
  userId: string;
  text: string;
  /** Where the answer goes: the thread the message is in, or the thread it starts. */
  thread?: string;
  botUserId?: string;
}

/** The hint shown while there is no chat entry point: what to type instead. */
export function chatHint(commands: readonly AnyCommand[] = COMMANDS): Reply {
  return {
    text:
      `I answer /rl commands: ${commands.map((c) => `/rl ${c.name}`).join(", ")}. Try /rl help.\n` +
      "Plain-language requests need LLM_BASE_URL and LLM_MODEL set.",
  };
}

export async function answerChat(message: SlackChatMessage, deps: SlackChatDeps): Promise<void> {
  const { services, messenger } = deps;
  const channelId = message.channel.channel;
  // The bot's own mention is how the message reached us, not part of the request.
  const text = (
    message.botUserId
      ? message.text.replace(/<@([A-Z0-9]+)(\|[^>]*)?>/g, (m: string, id: string) =>
          id === message.botUserId ? "" : m,
        )
      : message.text.replace(/^\s*<@[A-Z0-9]+(\|[^>]*)?>/, "")
  ).trim();
  let progressTs: string | undefined;
  // The first line is posted in the thread; later ones edit it, and the answer replaces it.
  const progress = createProgressMessage(async (line) => {
    const plain = renderPlain(line, services.redact);
    if (progressTs) await messenger.update(channelId, progressTs, plain);
    else {
      const posted = await messenger.post(channelId, plain, message.thread);
      if (posted.ok) progressTs = posted.ts;
    }
  });
  const ctx: CommandContext = {
    channel: message.channel,
    thread: message.thread,
    user: (await deps.people?.named({ id: message.userId })) ?? { id: message.userId },
    via: "chat",
    services,
    progress: (line) => progress.show(line),
  };
  let reply: Reply;
  try {
    reply = deps.chat ? await deps.chat(text, ctx) : chatHint(deps.commands);
  } catch (err) {
    const rlError = asRlError(err);
    services.log.error("slack chat failed", { channel: channelId, user: message.userId, err });
    reply = errorReply(rlError);
  }
  await progress.close();
  const rendered = renderSlack(reply, { redact: services.redact, names: await deps.people?.namesIn(reply) });
  if (isEphemeral(reply)) {
    const sent = await messenger.ephemeral(channelId, message.userId, rendered, message.thread);
    if (sent.ok) {
      if (progressTs) await messenger.remove(channelId, progressTs);
      return;
    }
  }
  const posted = progressTs
    ? await messenger.update(channelId, progressTs, rendered)
    : await messenger.post(channelId, rendered, message.thread);
  const ts = progressTs && posted.ok ? progressTs : posted.ok ? posted.ts : undefined;
  const anchorRunId = reply.delivery?.anchorRunId;
  if (ts && anchorRunId)
    await recordAnchor(deps.onAnchor, services.log, anchorRunId, message.channel, ts, {
      id: ts,
      ...(message.thread ? { thread: message.thread } : {}),
    });
  if (ts) recordApprovalMessage(services, reply, { id: ts });
  if (ts)
    await shareChart(
      reply.chart,
      { channel: channelId, thread: message.thread },
      { messenger, renderChart: deps.renderChart, redact: services.redact, log: services.log },
    );
}
