// Runs typed /rl commands through the dispatcher as an operator in one Slack channel, for command tests.
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { Services } from "../../src/services.ts";

export const slashContext = (s: Services): CommandContext => ({
  channel: { platform: "slack", workspace: "T1", channel: "C1" },
  user: { id: "U1" },
  via: "slash",
  services: s,
});

/** The reply to `text` typed in the channel. */
export async function runSlash(s: Services, text: string) {
  return (await dispatch({ text }, slashContext(s))).reply;
}
