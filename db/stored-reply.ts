// Reads back a reply stored as JSON (reply pages, the outbox), whichever version of the bot wrote it.
import type { Reply, ReplyDelivery } from "../src/reply.ts";

/**
 * The stored reply as a Reply. Rows written before delivery had its own object kept ephemeral, anchorRunId and runId
 * at the top level; they still mean the same.
 */
export function readStoredReply(stored: unknown): Reply {
  const { ephemeral, anchorRunId, runId, ...reply } = stored as Reply & ReplyDelivery;
  if (ephemeral === undefined && anchorRunId === undefined && runId === undefined) return reply;
  return {
    ...reply,
    delivery: {
      ...(ephemeral !== undefined ? { ephemeral } : {}),
      ...(anchorRunId !== undefined ? { anchorRunId } : {}),
      ...(runId !== undefined ? { runId } : {}),
      ...reply.delivery,
    },
  };
}
