// Records a posted message as a run's thread through the injected handler; a failure is logged, never thrown.
import type { ChannelKey } from "../db/channel-key.ts";
import type { Logger } from "../src/log.ts";
import type { AnchorHandler, AnchorMessage } from "./chat-adapter.ts";

/** The message is already posted, so a failure here must not make a caller post it again. */
export async function recordAnchor(
  onAnchor: AnchorHandler | undefined,
  log: Logger,
  runId: string,
  channel: ChannelKey,
  thread: string,
  message?: AnchorMessage,
): Promise<void> {
  if (!onAnchor) return;
  try {
    await onAnchor(runId, channel, thread, message);
  } catch (err) {
    log.error(`${channel.platform}: recording the run's thread failed`, {
      runId,
      channel: channel.channel,
      thread,
      err,
    });
  }
}
