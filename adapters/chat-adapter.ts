// The one contract every platform adapter implements (Slack, Discord, the console), with one message reference.
import type { ChannelKey } from "../db/channel-key.ts";
import type { Delivery } from "../src/outbox/poster.ts";
import type { Reply } from "../src/reply.ts";

export type { ChatHandler } from "./chat/create-chat-handler.ts";

/** Where a message goes: a channel, or a thread in it (as threadOf gave it for an earlier message). */
export interface PostTarget {
  channel: ChannelKey;
  thread?: string;
}

/**
 * A message the bot posted. What each platform calls its parts (Slack's channel and ts, Discord's channel id and
 * message id) stays inside its adapter: callers keep this and hand it back.
 */
export interface MessageRef {
  channel: ChannelKey;
  /** The platform's id of the message (Slack: its ts; Discord: its id). */
  id: string;
  /** The thread it was posted in, when it was. */
  thread?: string;
}

/** The message itself (a sweep's message is edited as its runs move): its id, and the thread it is in, if any. */
export interface AnchorMessage {
  id: string;
  thread?: string;
}

/** Records a posted message's thread as the run's, where later notices about the run go. */
export type AnchorHandler = (
  runId: string,
  channel: ChannelKey,
  thread: string,
  message?: AnchorMessage,
) => void | Promise<void>;

export interface ChatAdapter {
  readonly platform: "slack" | "discord" | "console";
  /** False where there are no threads (the console): a run's notices never wait for its thread. */
  readonly threads: boolean;
  start(): Promise<void>;
  /** Stops taking input, lets the work in flight finish, then disconnects. */
  stop(): Promise<void>;
  /**
   * Posts a reply (notices, digests) with its chart beside it. Resolves as soon as the platform has accepted it (the
   * outbox marks it sent next); rejects with an RlError("UPSTREAM") carrying the platform's verdict
   * (src/outbox/delivery-failure.ts) when the platform refuses, so the outbox tries again later or gives up.
   * `delivery` names the outbox message, for platforms that deduplicate a repeat (Discord's nonce).
   */
  post(target: PostTarget, reply: Reply, delivery?: Delivery): Promise<MessageRef>;
  /** Replaces a posted message's content with the reply; rejects with an RlError("UPSTREAM") when the platform refuses. */
  update(ref: MessageRef, reply: Reply): Promise<MessageRef>;
  /** The thread later messages about this one go to (a PostTarget's thread). */
  threadOf(ref: MessageRef): string;
}

/** Where a thread is a message's own id, or the thread it is already in (Slack, Discord's message replies). */
export const threadOfMessage = (ref: MessageRef): string => ref.thread ?? ref.id;
