// The one place Slack's refusals are classified: a 429 waits its Retry-After, a refusal that will not clear stops, the rest retry.
import type { DeliveryFailure } from "../../src/outbox/delivery-failure.ts";

/** Refusals about the channel: the bot cannot post there until a person changes something in Slack. */
const CHANNEL_REFUSALS: Record<string, string> = {
  channel_not_found:
    "the channel was deleted, or it is private and the bot was never added; invite the bot to the channel (/invite @bot) or start runs from a channel it is in",
  not_in_channel: "invite the bot to the channel (/invite @bot in the channel)",
  is_archived: "the channel is archived; unarchive it, or start runs from another channel",
  restricted_action: "the workspace does not let the bot post in this channel; ask a Slack admin to allow it",
  restricted_action_read_only_channel: "the channel is read-only for the bot; ask a Slack admin to allow it to post",
};

/** Refusals of a DM (conversations.open): that person cannot be written to; the notice goes to the run's thread. */
const DM_REFUSALS: Record<string, string> = {
  cannot_dm_bot: "the run was started by a bot, which cannot be sent a DM",
  user_not_found: "Slack knows no such person in this workspace",
  user_disabled: "the person's Slack account is deactivated",
  user_not_visible: "the bot is not allowed to see this person",
};

/** Refusals about the app itself: every post fails until the app or its token is fixed. */
const APP_REFUSALS: Record<string, string> = {
  account_inactive:
    "the bot's Slack account is deactivated (the app was uninstalled?); reinstall the app and set SLACK_BOT_TOKEN",
  invalid_auth: "Slack no longer accepts SLACK_BOT_TOKEN; reinstall the app and set SLACK_BOT_TOKEN to its new token",
  not_authed: "no token was sent; set SLACK_BOT_TOKEN",
  token_revoked: "SLACK_BOT_TOKEN was revoked; reinstall the app and set SLACK_BOT_TOKEN to its new token",
  token_expired: "SLACK_BOT_TOKEN has expired; reinstall the app and set SLACK_BOT_TOKEN to its new token",
  team_access_not_granted: "the app is not installed in this workspace; install it there",
  missing_scope: "the app lacks the chat:write scope (im:write for DMs); add it and reinstall the app",
  ekm_access_denied: "the workspace's key management denies access; ask a Slack admin",
};

/** True for refusals that mean "the bot cannot post in this channel" (response_url may still reach the person). */
export function isSlackChannelRefusal(code: string): boolean {
  return code in CHANNEL_REFUSALS;
}

/** Slack's error code (and the Retry-After of a 429, in seconds) as the outbox's verdict. */
export function classifySlackFailure(code: string, retryAfterSeconds?: number): DeliveryFailure {
  if (retryAfterSeconds !== undefined) return { retryAfterMs: Math.max(0, retryAfterSeconds) * 1000 };
  const hint = CHANNEL_REFUSALS[code] ?? DM_REFUSALS[code] ?? APP_REFUSALS[code];
  return hint ? { permanent: code, hint } : { transient: true };
}
