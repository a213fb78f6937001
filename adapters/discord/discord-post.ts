// Posts a reply to a channel, or into a run's thread (a thread channel, or the anchor message it answers).
import { DiscordAPIError, RESTJSONErrorCodes, Routes } from "discord.js";
import type { APIMessage, Client, REST } from "discord.js";
import type { ChannelKey } from "../../db/channel-key.ts";
import { deliveryError } from "../../src/digests/delivery-failure.ts";
import type { Delivery } from "../../src/digests/outbox-sender.ts";
import type { Reply } from "../../src/reply.ts";
import { classifyDiscordFailure } from "./discord-delivery-failure.ts";
import { nonceFor } from "./discord-nonce.ts";
import { sendWithChart } from "./discord-chart.ts";
import type { DiscordMessage } from "./discord-render.ts";
import { anchorReply, renderWithChart, type DiscordDeps } from "./discord-run.ts";

export interface PostTarget {
  channel: ChannelKey;
  /** A thread id, or the id of the message a run was anchored to. */
  thread?: string;
}

/** True when `id` is a thread (or any channel) Discord knows; false when it is no channel (so: a message id). */
async function isChannel(client: Client, id: string): Promise<boolean> {
  if (client.channels.cache.has(id)) return true;
  try {
    await client.channels.fetch(id);
    return true;
  } catch (err) {
    if (err instanceof DiscordAPIError && (err.code === RESTJSONErrorCodes.UnknownChannel || err.status === 404)) return false;
    throw err;
  }
}

/**
 * Posts through `rest` (the outbox's REST manager, which hands 429s back rather than waiting them out). With a
 * delivery key the message carries a nonce derived from it and enforce_nonce, so a repeat of the same outbox message
 * (after a crash between the post and its mark as sent) gets Discord's first message back instead of a second one.
 * Rejects with an RlError (UPSTREAM) carrying the outbox's verdict (discord-delivery-failure.ts).
 */
export async function postReply(client: Client, rest: REST, target: PostTarget, reply: Reply, deps: DiscordDeps, delivery?: Delivery): Promise<{ id: string }> {
  if (!client.isReady()) throw deliveryError("Discord is not connected yet; the message will be posted once it is.", { transient: true });
  try {
    let channelId = target.channel.channel;
    let reference: { message_id: string; fail_if_not_exists: boolean } | undefined;
    if (target.thread) {
      if (await isChannel(client, target.thread)) channelId = target.thread;
      else reference = { message_id: target.thread, fail_if_not_exists: false };
    }
    const rendered = await renderWithChart(reply, deps);
    const send = async (m: DiscordMessage): Promise<APIMessage> => {
      const files = m.files ?? [];
      const body = {
        embeds: m.embeds,
        components: m.components,
        allowed_mentions: { parse: [] },
        ...(delivery ? { nonce: nonceFor(delivery.key), enforce_nonce: true } : {}),
        ...(reference ? { message_reference: reference } : {}),
        // Names the upload in files[0] (multipart), as discord.js does for its own messages.
        ...(files.length ? { attachments: files.map((f, i) => ({ id: String(i), filename: f.name })) } : {}),
      };
      const raw = files.map((f) => ({ name: f.name, data: f.data, contentType: "image/png" }));
      return (await rest.post(Routes.channelMessages(channelId), { body, ...(raw.length ? { files: raw } : {}) })) as APIMessage;
    };
    const sent = await sendWithChart(rendered, send, deps.services.log);
    anchorReply(reply, { channel: target.channel, ...(target.thread ? { thread: target.thread } : {}) }, sent.id, false, deps);
    return { id: sent.id };
  } catch (err) {
    const failure = classifyDiscordFailure(err);
    deps.services.log.warn("discord: post failed", { channel: target.channel, thread: target.thread, failure, err });
    const why = "retryAfterMs" in failure ? `rate limited for ${failure.retryAfterMs} ms` : (err as Error).message || String(err);
    throw deliveryError(`Could not post to Discord channel ${target.channel.channel}: ${why}`, failure, { cause: err });
  }
}
