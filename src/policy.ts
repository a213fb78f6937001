// Who may do what: admins and operators by user id (or Discord role), everyone else the default role; console and CLI are admin.
import { channelLabel, type ChannelKey } from "../db/channel-key.ts";
import { personRef } from "./reply.ts";

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
  /** Role ids and names together, as the Discord adapter sends them. */
  roles?: readonly string[];
  /** Role ids alone, when the adapter tells them apart from names: then an id entry never matches a role merely named like it. */
  roleIds?: readonly string[];
  roleNames?: readonly string[];
  /** Not at this machine's terminal (an MCP client over HTTP): a console channel makes them no admin. */
  remote?: boolean;
}

/** Why a person has the role they have; refusals word themselves after it. */
export type AccessReason = "local" | "admin" | "operator" | "default" | "channel";

export interface Access {
  role: Role;
  reason: AccessReason;
}

const RANK: Record<Role, number> = { none: 0, read: 1, operate: 2, admin: 3 };
/** Whoever types on these already runs the bot on its own machine. */
const LOCAL_PLATFORMS = new Set(["console", "cli"]);
/** Discord ids (snowflakes): an entry like this names a role by id, and is never compared with role names. */
const SNOWFLAKE = /^\d{15,21}$/;

interface Entry {
  /** Absent for a bare id, which applies on every platform. */
  platform?: string;
  kind: "user" | "role";
  value: string;
}

/** "platform:role:<id or name>", "platform:<user id>" or a bare "<user id>"; the platform prefix in any case. */
export function parseEntry(raw: string): Entry | undefined {
  const entry = raw.trim();
  if (entry === "") return undefined;
  const role = /^([A-Za-z]+):role:(.*)$/.exec(entry);
  if (role) {
    const value = role[2]!.trim();
    return value ? { platform: role[1]!.toLowerCase(), kind: "role", value } : undefined;
  }
  const scoped = /^([A-Za-z]+):(.+)$/.exec(entry);
  if (scoped) return { platform: scoped[1]!.toLowerCase(), kind: "user", value: scoped[2]!.trim() };
  return { kind: "user", value: entry };
}

function holdsRole(subject: PolicySubject, value: string): boolean {
  const lower = value.toLowerCase();
  const isId = SNOWFLAKE.test(value);
  if (subject.roleIds || subject.roleNames) {
    return isId
      ? (subject.roleIds ?? []).includes(value)
      : (subject.roleNames ?? []).some((n) => n.toLowerCase() === lower);
  }
  // Ids and names mixed: an id entry is compared exactly, a name entry without regard to case.
  return (subject.roles ?? []).some((r) => (isId ? r === value : r.toLowerCase() === lower));
}

/** Whether one of `entries` names this person on this platform: a user entry by id only, a role entry by role only. */
export function matchesEntry(entries: readonly string[], platform: string, subject: PolicySubject): boolean {
  return entries.some((raw) => {
    const entry = parseEntry(raw);
    if (!entry) return false;
    if (entry.platform !== undefined && entry.platform !== platform) return false;
    if (entry.kind === "role") return holdsRole(subject, entry.value);
    return entry.value === subject.id;
  });
}

/** An allowlist entry is "<channel>", "platform:<channel>" or "platform:workspace:<channel>". */
export function channelAllowed(policy: Policy, channel: ChannelKey): boolean {
  if (policy.channelAllowlist.length === 0) return true;
  const forms = new Set([channel.channel, `${channel.platform}:${channel.channel}`, channelLabel(channel)]);
  return policy.channelAllowlist.some((raw) => {
    const entry = raw.trim();
    const prefixed = /^([A-Za-z]+):(.+)$/.exec(entry);
    return forms.has(prefixed ? `${prefixed[1]!.toLowerCase()}:${prefixed[2]!}` : entry);
  });
}

const higher = (a: Role, b: Role): Role => (RANK[a] >= RANK[b] ? a : b);

/**
 * The role and why. Admins act anywhere (to stop a run from wherever they are); everyone else only in the
 * allowlisted channels, when there is a list (docs/team-controls.md: "the channels where non-admins may use the bot"). Being
 * listed never lowers a person below the default role.
 */
export function accessOf(policy: Policy, channel: ChannelKey, subject: PolicySubject): Access {
  if (LOCAL_PLATFORMS.has(channel.platform) && subject.remote !== true) return { role: "admin", reason: "local" };
  if (matchesEntry(policy.admins, channel.platform, subject)) return { role: "admin", reason: "admin" };
  if (!channelAllowed(policy, channel)) return { role: "none", reason: "channel" };
  if (matchesEntry(policy.operators, channel.platform, subject)) {
    const role = higher("operate", policy.defaultRole);
    return { role, reason: role === "operate" ? "operator" : "default" };
  }
  return { role: policy.defaultRole, reason: "default" };
}

export function roleOf(policy: Policy, channel: ChannelKey, subject: PolicySubject): Role {
  return accessOf(policy, channel, subject).role;
}

export function allows(role: Role, level: Level): boolean {
  return RANK[role] >= RANK[level];
}

/** Who holds a level, for refusals that say whom to ask (an empty list when the default role already grants it). */
export function holdersOf(policy: Policy, level: Level): string[] {
  if (allows(policy.defaultRole, level)) return [];
  const list = (entries: readonly string[]) => entries.map((e) => e.trim()).filter(Boolean);
  if (level === "admin") return list(policy.admins);
  return [...list(policy.admins), ...list(policy.operators)];
}

/**
 * The holders of a level as a person on `platform` can reach them: people named (each adapter shows a name, never a
 * raw id or ping) and roles as roles; entries for another platform are no one this person can ask.
 */
export function holderNames(policy: Policy, level: Level, platform: string): string[] {
  return entryNames(holdersOf(policy, level), platform);
}

/** Allowlist entries (RL_ADMINS, RL_APPROVERS) as a person on `platform` reads them: people named, roles as roles. */
export function entryNames(entries: readonly string[], platform: string): string[] {
  return entries.flatMap((raw) => {
    const entry = parseEntry(raw);
    if (!entry || (entry.platform !== undefined && entry.platform !== platform.toLowerCase())) return [];
    return [entry.kind === "role" ? `anyone with the ${entry.value} role` : personRef(entry.value)];
  });
}

/** The settings that grant a level, named in refusals so the bot's operator knows what to change. */
function settingsFor(level: Level): string {
  return level === "admin" ? "RL_ADMINS" : "RL_OPERATORS or RL_ADMINS";
}

/** A refusal that says what is needed, what the person has, and who has it (or what to configure). */
export function refusalMessage(policy: Policy, access: Access, what: string, level: Level, platform: string): string {
  if (access.reason === "channel") {
    const where = policy.channelAllowlist
      .map((c) => c.trim())
      .filter(Boolean)
      .join(", ");
    const admins = holderNames(policy, "admin", platform);
    return (
      `${what} needs the ${level} permission; you have none in this channel: outside the channels listed in RL_CHANNEL_ALLOWLIST (${where}) only admins may use the bot. ` +
      `Use one of those channels${admins.length ? `, or ask an admin (${admins.join(", ")}) to add this one` : ", or ask the bot's operator to add this one"}.`
    );
  }
  const holders = holderNames(policy, level, platform);
  const ask = holders.length
    ? `Ask one of: ${holders.join(", ")} (listed in ${settingsFor(level)}).`
    : holdersOf(policy, level).length
      ? `No one here is listed in ${settingsFor(level)}; ask the bot's operator to add you there.`
      : `No one is listed in ${settingsFor(level)} yet; ask the bot's operator to add you there.`;
  return `${what} needs the ${level} permission; you have ${access.role}. ${ask}`;
}
