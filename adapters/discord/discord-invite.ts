// The permissions the bot needs in a server's channels, and the invite link that asks for exactly them with the two
// scopes it uses (bot, applications.commands). docs/discord.md lists the same; a test keeps the two the same.
import { PermissionFlagsBits } from "discord.js";

/** Each permission: its flag, its name in Discord's settings, and what the bot does with it. */
export const BOT_PERMISSIONS = [
  { flag: "ViewChannel", shown: "View Channels", why: "to see the channels it answers in" },
  { flag: "SendMessages", shown: "Send Messages", why: "answers, notices and digests" },
  { flag: "SendMessagesInThreads", shown: "Send Messages in Threads", why: "notices in a run's thread" },
  { flag: "CreatePublicThreads", shown: "Create Public Threads", why: "a thread for each run and sweep" },
  { flag: "EmbedLinks", shown: "Embed Links", why: "every answer is an embed" },
  { flag: "AttachFiles", shown: "Attach Files", why: "reward charts and the whole texts of cut samples" },
  { flag: "ReadMessageHistory", shown: "Read Message History", why: "replies, and a run's message found again" },
] as const satisfies ReadonlyArray<{ flag: keyof typeof PermissionFlagsBits; shown: string; why: string }>;

/** The permissions as Discord's integer. */
export function botPermissions(): bigint {
  return BOT_PERMISSIONS.reduce((sum, p) => sum | PermissionFlagsBits[p.flag], 0n);
}

/** The link a server admin opens to add the bot with its scopes and permissions. */
export function inviteUrl(applicationId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${applicationId}&scope=bot+applications.commands&permissions=${botPermissions()}`;
}
