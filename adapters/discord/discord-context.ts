// Where a Discord event happened (channel key and thread) and who did it (user with role ids and names).
import type { APIInteractionGuildMember, Guild, GuildMember, User } from "discord.js";
import type { Caller } from "../../commands/types.ts";
import type { ChannelKey } from "../../db/channel-key.ts";

export const PLATFORM = "discord";

/** The little of a channel this needs; discord.js channels (cached or partial) have it. */
export interface ChannelLike {
  id: string;
  isThread(): boolean;
  parentId?: string | null;
}

export interface Where {
  channel: ChannelKey;
  /** Set in a thread: the key is then the thread's parent channel, so selections are shared with it. */
  thread?: string;
}

export function whereOf(guildId: string | null, channel: ChannelLike | null, channelId: string | null): Where {
  const workspace = guildId ?? "dm";
  if (channel?.isThread() && channel.parentId) {
    return { channel: { platform: PLATFORM, workspace, channel: channel.parentId }, thread: channel.id };
  }
  return { channel: { platform: PLATFORM, workspace, channel: channel?.id ?? channelId ?? "unknown" } };
}

/** The person, with role ids and names for the policy's "discord:role:<id or name>" entries. */
export function callerOf(
  user: User,
  member: GuildMember | APIInteractionGuildMember | null,
  guild: Guild | null,
): Caller {
  const roles: string[] = [];
  const roleIds: string[] = [];
  const roleNames: string[] = [];
  // A cached member has role objects; an uncached one (raw API data) only role ids, named from the guild's cache.
  const ids = !member
    ? []
    : Array.isArray(member.roles)
      ? (member.roles as string[])
      : [...(member as GuildMember).roles.cache.keys()];
  for (const id of ids) {
    // Everyone holds @everyone (its id is the guild's): it names no one in particular.
    if (id === guild?.id) continue;
    roles.push(id);
    roleIds.push(id);
    const name = guild?.roles.cache.get(id)?.name;
    if (name) {
      roles.push(name);
      roleNames.push(name);
    }
  }
  // The name a mention of them shows here (their server nickname first), so "confirmed by" and "asked by" agree.
  const nick = member && "nick" in member && typeof member.nick === "string" && member.nick ? member.nick : undefined;
  return { id: user.id, name: nick ?? user.globalName ?? user.username, roles, roleIds, roleNames };
}
