// What a platform implements to deliver the outbox's messages: a Poster, told which message it is posting.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { OutboxRoute } from "../../db/outbox.ts";
import type { Reply } from "../reply.ts";

/** What the outbox tells a poster about the message: `key` is its dedupe key, stable across restarts. */
export interface Delivery {
  key: string;
  /** The platform's id of a posted message to replace in place instead of posting a new one. */
  edit?: string;
  /** Set when /rl notify sent it somewhere other than the run's thread (a platform without DMs says where it meant). */
  route?: OutboxRoute;
}

/**
 * Posts one message; rejects with the platform's verdict (delivery-failure.ts) when the platform refuses it.
 * Resolves as soon as the platform has accepted it: the outbox marks it sent next, and anything awaited before
 * that widens the window in which a crash repeats the post.
 */
export type Poster = (
  target: { channel: ChannelKey; thread?: string },
  reply: Reply,
  delivery: Delivery,
) => Promise<{ id?: string }>;
