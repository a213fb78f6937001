// How a platform without DMs or other channels (the console) says where a routed message would have gone.
import { dmRecipient } from "../../db/outbox.ts";
import type { ChannelKey } from "../../db/channel-key.ts";
import type { Delivery } from "../outbox/poster.ts";

/** "→ DM to alice" or "→ #alerts" for a DM or named-channel message; undefined for one in its run's own place. */
export function routeMarker(channel: ChannelKey, delivery: Delivery | undefined): string | undefined {
  const user = dmRecipient(channel.channel);
  if (user) return `→ DM to ${user}`;
  if (delivery?.route === "named") return `→ #${channel.channel}`;
  return undefined;
}
