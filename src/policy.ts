// Who may do what: admins and operators by user id (and Discord role), everyone else the default role.
import type { ChannelKey } from "../db/channel-key.ts";

export type Role = "none" | "read" | "operate" | "admin";
export type Level = "read" | "operate" | "admin";

export interface Policy {
  admins: string[];
  operators: string[];
  defaultRole: Role;
  channelAllowlist: string[];
}

export interface PolicySubject {
  id: string;
  roles?: string[];
}

const RANK: Record<Role, number> = { none: 0, read: 1, operate: 2, admin: 3 };

/** An entry matches "platform:id", a bare "id", or "platform:role:<id or name>". */
function matches(entries: string[], platform: string, subject: PolicySubject): boolean {
  return entries.some((entry) => {
    if (entry === subject.id || entry === `${platform}:${subject.id}`) return true;
    const role = entry.match(/^([a-z]+):role:(.+)$/);
    return !!role && role[1] === platform && (subject.roles ?? []).some((r) => r.toLowerCase() === role[2]!.toLowerCase());
  });
}

export function roleOf(policy: Policy, channel: ChannelKey, subject: PolicySubject): Role {
  if (channel.platform === "console" || channel.platform === "cli") return "admin";
  if (matches(policy.admins, channel.platform, subject)) return "admin";
  if (policy.channelAllowlist.length > 0 && !policy.channelAllowlist.some((c) => c === channel.channel || c === `${channel.platform}:${channel.channel}`)) {
    return "none";
  }
  if (matches(policy.operators, channel.platform, subject)) return "operate";
  return policy.defaultRole;
}

export function allows(role: Role, level: Level): boolean {
  return RANK[role] >= RANK[level];
}

/** Who holds a level, for refusals that say whom to ask. */
export function holdersOf(policy: Policy, level: Level): string[] {
  if (level === "admin") return policy.admins;
  if (level === "operate") return [...policy.admins, ...policy.operators];
  return [];
}
