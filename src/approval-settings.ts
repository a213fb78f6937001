// RL_APPROVE_WHEN and RL_APPROVERS read and checked at start: which starts need a second person, and who may be one.
import { RlError } from "./errors.ts";

/** One part of RL_APPROVE_WHEN: every start, starts of at least N steps, sweeps of at least N runs, one environment. */
export type ApprovalRule =
  { kind: "always" } | { kind: "steps"; min: number } | { kind: "runs"; min: number } | { kind: "env"; name: string };

const ACCEPTED = "always, steps>=N, runs>=N or env=NAME, comma-separated (e.g. steps>=1000,env=gsm8k)";

/** The rules of RL_APPROVE_WHEN; a part that is none of the accepted forms stops the bot naming the setting. */
export function parseApproveWhen(value: string): ApprovalRule[] {
  const parts = value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.map((part): ApprovalRule => {
    if (part.toLowerCase() === "always") return { kind: "always" };
    const limit = /^(steps|runs)\s*>=\s*(\d{1,12})$/i.exec(part);
    if (limit) return { kind: limit[1]!.toLowerCase() as "steps" | "runs", min: Number(limit[2]) };
    const env = /^env\s*=\s*([\w.-]+)$/i.exec(part);
    if (env) return { kind: "env", name: env[1]! };
    throw new RlError(
      "CONFIG",
      `RL_APPROVE_WHEN has a bad value: "${part}" is not a rule. Expected ${ACCEPTED}. Set RL_APPROVE_WHEN in the environment or in the RL_CONFIG file.`,
    );
  });
}

const SLACK_USER = /^[UW][A-Z0-9]{2,}$/;
const SNOWFLAKE = /^\d{15,21}$/;

/** Why an RL_APPROVERS entry names no one the bot can know, or undefined when it names a person or a role. */
function unknownEntry(entry: string): string | undefined {
  const role = /^([A-Za-z]+):role:(.*)$/.exec(entry);
  if (role) {
    if (role[1]!.toLowerCase() !== "discord") return `only Discord has roles, so "${entry}" is no role`;
    return role[2]!.trim() ? undefined : `"${entry}" names no role`;
  }
  const scoped = /^([A-Za-z]+):(.+)$/.exec(entry);
  const platform = scoped?.[1]!.toLowerCase();
  const id = (scoped?.[2] ?? entry).trim();
  if (platform === "console" || platform === "cli") return undefined;
  if (platform === "slack") return SLACK_USER.test(id) ? undefined : `"${entry}" is not a Slack user id (U…)`;
  if (platform === "discord") return SNOWFLAKE.test(id) ? undefined : `"${entry}" is not a Discord user id`;
  if (platform !== undefined) return `"${platform}" is not a platform (slack, discord, console, cli)`;
  return SLACK_USER.test(id) || SNOWFLAKE.test(id)
    ? undefined
    : `"${entry}" is neither a Slack nor a Discord user id (a name is not an id; a role is written discord:role:NAME)`;
}

/** The approvers as RL_ADMINS takes them; an entry that names no person or role stops the bot naming the setting. */
export function checkApprovers(entries: readonly string[], rules: readonly ApprovalRule[]): string[] {
  for (const entry of entries) {
    const why = unknownEntry(entry);
    if (why)
      throw new RlError(
        "CONFIG",
        `RL_APPROVERS has a bad value: ${why}. List user ids (U…, Discord ids, slack:ID, discord:ID, console:NAME) and roles (discord:role:NAME).`,
      );
  }
  if (rules.length > 0 && entries.length === 0)
    throw new RlError(
      "CONFIG",
      "RL_APPROVE_WHEN asks for approvals but RL_APPROVERS lists no one who may give them. Set RL_APPROVERS.",
    );
  return [...entries];
}
