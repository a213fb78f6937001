// Starts a run's or a sweep's thread from its message, once: a repeat (after a restart) finds the thread Discord has.
import { DiscordAPIError, RESTJSONErrorCodes, Routes } from "discord.js";
import type { APIMessage, APIThreadChannel, REST } from "discord.js";

/** Discord's limit on a thread's name. */
const MAX_THREAD_NAME = 100;
/** A week: a sweep's thread stays open while its runs train. */
const ARCHIVE_AFTER_MINUTES = 10080;

/** The message's title as a thread name Discord takes: one line, 1-100 characters. */
export function threadNameOf(title: string | undefined, fallback: string): string {
  const line = (title ?? "").replace(/\s+/g, " ").trim() || fallback;
  const chars = Array.from(line);
  return chars.length <= MAX_THREAD_NAME ? line : `${chars.slice(0, MAX_THREAD_NAME - 1).join("")}…`;
}

/**
 * The thread started from the message: created, or (160004, a thread was already created from it: the bot restarted
 * after creating it) the one Discord names in the message's `thread` field. Its id is the message's on Discord.
 */
export async function startThreadFrom(rest: REST, channelId: string, messageId: string, name: string): Promise<string> {
  try {
    const thread = (await rest.post(Routes.threads(channelId, messageId), {
      body: { name, auto_archive_duration: ARCHIVE_AFTER_MINUTES },
    })) as APIThreadChannel;
    return thread.id;
  } catch (err) {
    if (!(err instanceof DiscordAPIError) || err.code !== RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage) throw err;
    const message = (await rest.get(Routes.channelMessage(channelId, messageId))) as APIMessage;
    return message.thread?.id ?? messageId;
  }
}

/** For a message posted before its thread was started (an older run, or a crash in between): its title as the name. */
export async function startThreadLate(rest: REST, channelId: string, messageId: string): Promise<string> {
  const message = (await rest.get(Routes.channelMessage(channelId, messageId))) as APIMessage;
  if (message.thread) return message.thread.id;
  return startThreadFrom(rest, channelId, messageId, threadNameOf(message.embeds[0]?.title, "Run notices"));
}
