// Posts a reply to a channel, or into a run's thread (a thread channel, or the anchor message it answers).
import { DiscordAPIError, RESTJSONErrorCodes, Routes } from "discord.js";
import type { APIMessage, Client, REST } from "discord.js";
import { dmRecipient } from "../../db/outbox.ts";
import { deliveryError } from "../../src/outbox/delivery-failure.ts";
import type { Delivery } from "../../src/outbox/poster.ts";
import { RlError } from "../../src/errors.ts";
import type { Logger } from "../../src/log.ts";
import type { Reply } from "../../src/reply.ts";
import type { MessageRef, PostTarget } from "../chat-adapter.ts";
import { classifyDiscordFailure } from "./discord-delivery-failure.ts";
import { nonceFor } from "./discord-nonce.ts";
import { startThreadLate } from "./discord-thread.ts";
import { sendWithChart } from "./discord-chart.ts";
import type { DiscordMessage } from "./discord-render.ts";
import { anchorReply, renderFor, renderWithChart, type DiscordDeps } from "./discord-run.ts";

/** True when `id` is a thread (or any channel) Discord knows; false when it is no channel (so: a message id). */
async function isChannel(client: Client, id: string): Promise<boolean> {
  if (client.channels.cache.has(id)) return true;
  try {
    await client.channels.fetch(id);
    return true;
  } catch (err) {
    if (err instanceof DiscordAPIError && (err.code === RESTJSONErrorCodes.UnknownChannel || err.status === 404))
      return false;
    throw err;
  }
}

/** DM channel ids by person: POST /users/@me/channels is asked once per person while the bot runs. */
const dmChannels = new WeakMap<REST, Map<string, string>>();

/** The person's DM channel (discord.js user.createDM() does the same call): opened through the outbox's REST. */
async function dmChannelOf(rest: REST, userId: string): Promise<string> {
  const known = dmChannels.get(rest) ?? new Map<string, string>();
  dmChannels.set(rest, known);
  const id = known.get(userId);
  if (id) return id;
  const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id: string };
  known.set(userId, channel.id);
  return channel.id;
}

/**
 * The channel a message goes to or lives in: a target's thread when it is a thread channel, else the channel itself.
 * A new post to a message that has no thread yet (an older run's, or one whose thread a crash kept from starting)
 * starts it when `rest` is given; where Discord refuses one, the post answers the message instead.
 */
async function channelOf(
  client: Client,
  target: PostTarget,
  rest?: REST,
  log?: Logger,
): Promise<{ channelId: string; reference?: { message_id: string; fail_if_not_exists: boolean } }> {
  const user = dmRecipient(target.channel.channel);
  if (user && rest) return { channelId: await dmChannelOf(rest, user) };
  if (!target.thread) return { channelId: target.channel.channel };
  if (await isChannel(client, target.thread)) return { channelId: target.thread };
  if (rest) {
    try {
      return { channelId: await startThreadLate(rest, target.channel.channel, target.thread) };
    } catch (err) {
      log?.warn("discord: no thread from the run's message; answering it instead", { message: target.thread, err });
    }
  }
  return { channelId: target.channel.channel, reference: { message_id: target.thread, fail_if_not_exists: false } };
}

/**
 * Posts through `rest` (the outbox's REST manager, which hands 429s back rather than waiting them out). With a
 * delivery key the message carries a nonce derived from it and enforce_nonce, so a repeat of the same outbox message
 * (after a crash between the post and its mark as sent) gets Discord's first message back instead of a second one.
 * Rejects with an RlError (UPSTREAM) carrying the outbox's verdict (discord-delivery-failure.ts).
 */
export async function postReply(
  client: Client,
  rest: REST,
  target: PostTarget,
  reply: Reply,
  deps: DiscordDeps,
  delivery?: Delivery,
): Promise<MessageRef> {
  if (!client.isReady())
    throw deliveryError("Discord is not connected yet; the message will be posted once it is.", { transient: true });
  try {
    const { channelId, reference } = await channelOf(client, target, rest, deps.services.log);
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
      const raw = files.map((f) => ({ name: f.name, data: f.data, contentType: f.contentType ?? "image/png" }));
      return (await rest.post(Routes.channelMessages(channelId), {
        body,
        ...(raw.length ? { files: raw } : {}),
      })) as APIMessage;
    };
    const sent = await sendWithChart(rendered, send, deps.services.log);
    await anchorReply(
      reply,
      { channel: target.channel, ...(target.thread ? { thread: target.thread } : {}) },
      sent.id,
      false,
      deps,
      client.rest,
    );
    return { channel: target.channel, id: sent.id, ...(target.thread ? { thread: target.thread } : {}) };
  } catch (err) {
    const failure = classifyDiscordFailure(err);
    deps.services.log.warn("discord: post failed", { channel: target.channel, thread: target.thread, failure, err });
    const why =
      "retryAfterMs" in failure ? `rate limited for ${failure.retryAfterMs} ms` : (err as Error).message || String(err);
    throw deliveryError(`Could not post to Discord channel ${target.channel.channel}: ${why}`, failure, { cause: err });
  }
}

/** Edits a posted message in place (its embeds and buttons; the chart's picture stays as it was posted). */
export async function updateReply(
  client: Client,
  ref: MessageRef,
  reply: Reply,
  deps: DiscordDeps,
): Promise<MessageRef> {
  if (!client.isReady())
    throw new RlError("UPSTREAM", "Discord is not connected yet; the message will be edited once it is.");
  try {
    const { channelId } = await channelOf(client, ref);
    const m = renderFor(reply, deps);
    await client.rest.patch(Routes.channelMessage(channelId, ref.id), {
      body: { embeds: m.embeds, components: m.components, allowed_mentions: { parse: [] } },
    });
    return ref;
  } catch (err) {
    deps.services.log.warn("discord: edit failed", { channel: ref.channel, id: ref.id, err });
    throw new RlError("UPSTREAM", `Could not edit the Discord message ${ref.id}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
