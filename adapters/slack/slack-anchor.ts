// Records a posted message as a run's thread through the injected callback; a failure is logged, not thrown.
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Logger } from "../../src/log.ts";

/** Records a posted message as the thread where later notices about a run go. */
export type AnchorHandler = (runId: string, channel: ChannelKey, ts: string) => void | Promise<void>;

/** The message is already posted, so a failure here must not make a caller post it again. */
export async function recordAnchor(onAnchor: AnchorHandler | undefined, log: Logger, runId: string, channel: ChannelKey, ts: string): Promise<void> {
  if (!onAnchor) return;
  try {
    await onAnchor(runId, channel, ts);
  } catch (err) {
    log.error("slack: recording the run's thread failed", { runId, channel: channel.channel, ts, err });
  }
}
