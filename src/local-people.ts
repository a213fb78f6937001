// Who a command from this machine (rl-chatops exec, rl-chatops mcp over stdio) is made by: the operating-system user
// running it, never a name it asserts. Only that user can connect to the bot's socket (0600, owned by the bot's user),
// so the bot takes its own user as the caller's. RL_LOCAL_PEOPLE names the person an OS user is on the console
// channels (console:NAME); RL_LOCAL_ACT_FOR_OTHERS lets an OS user's scripts name another person with --user.
import os from "node:os";
import { RlError } from "./errors.ts";

export interface LocalPeople {
  /** OS user -> their person on the console channels (RL_LOCAL_PEOPLE). */
  people: Record<string, string>;
  /** OS users whose commands may act as another person (RL_LOCAL_ACT_FOR_OTHERS). */
  actForOthers: string[];
}

/** As the console channels name people (console:NAME in RL_ADMINS), and OS user names. */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9._@-]{0,63}$/;

/** RL_LOCAL_PEOPLE's "osuser=name" entries (or "osuser=console:name"); a bad one stops the bot naming the setting. */
export function parseLocalPeople(entries: readonly string[], actForOthers: readonly string[]): LocalPeople {
  const people: Record<string, string> = {};
  for (const entry of entries) {
    const match = /^([^=\s]+)\s*=\s*(?:console:)?(\S+)$/i.exec(entry);
    if (!match || !NAME.test(match[1]!) || !NAME.test(match[2]!))
      throw new RlError(
        "CONFIG",
        `RL_LOCAL_PEOPLE has a bad value: "${entry.slice(0, 80)}". Expected OSUSER=NAME, comma-separated (e.g. RL_LOCAL_PEOPLE=ada=alice: the machine's user ada is console:alice in RL_ADMINS and RL_APPROVERS); a Slack or Discord person acts in their chat.`,
      );
    people[match[1]!] = match[2]!;
  }
  const bad = actForOthers.find((user) => user !== "*" && !NAME.test(user));
  if (bad !== undefined)
    throw new RlError(
      "CONFIG",
      `RL_LOCAL_ACT_FOR_OTHERS has a bad value: "${bad.slice(0, 80)}". List the machine's user names whose scripts may act as other people (rl-chatops exec --user NAME), comma-separated.`,
    );
  return { people, actForOthers: [...actForOthers] };
}

let ownUser: string | undefined;

/** The operating-system user this process runs as (the bot's: the only one its socket lets in, with root). */
export function osUserName(): string {
  if (ownUser === undefined) {
    try {
      ownUser = os.userInfo().username;
    } catch {
      // A uid with no name in the passwd database (a container's): its number names it.
      ownUser = `uid${process.getuid?.() ?? ""}`;
    }
  }
  return ownUser;
}

/** The person the machine's user is on the console channels: RL_LOCAL_PEOPLE's name for them, else their own. */
export function ownPerson(settings: LocalPeople, osUser: string = osUserName()): string {
  return settings.people[osUser] ?? osUser;
}

/** The person a local command is made by, or why it may not act as the one it names. */
export function localPerson(
  settings: LocalPeople,
  named: string | undefined,
  osUser: string = osUserName(),
): { person: string } | { refused: string } {
  const own = ownPerson(settings, osUser);
  if (named === undefined || named === own || named === osUser) return { person: own };
  if (settings.actForOthers.includes(osUser) || settings.actForOthers.includes("*")) return { person: named };
  return {
    refused: `--user ${named.slice(0, 64)} is refused: on this machine you are ${osUser}, who acts as ${own}. Leave --user out to act as yourself; for an admin's script that acts for others, the bot's settings must say so: RL_LOCAL_ACT_FOR_OTHERS=${osUser}.`,
  };
}
