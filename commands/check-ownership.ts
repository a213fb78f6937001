// Who may act on a run or sweep: the person who started it (on the same platform), or an admin.
import type { RunRow } from "../db/runs.ts";
import { RlError } from "../src/errors.ts";
import { accessOf, holderNames } from "../src/policy.ts";
import { personRef } from "../src/reply.ts";
import type { CommandContext } from "./types.ts";

/** "stop" -> "Stopping", "resume" -> "Resuming", "fork" -> "Forking". */
const gerundOf = (verb: string): string =>
  verb === "stop" ? "Stopping" : `${verb[0]!.toUpperCase()}${verb.slice(1).replace(/e$/, "")}ing`;

/**
 * The same check for every route (typed, a Stop or Confirm button, a chat tool call): all reach preview or run.
 * User ids are per platform, so the starter is the same id on the same platform.
 */
export function checkOwnership(
  run: Pick<RunRow, "id" | "createdBy" | "channel">,
  ctx: CommandContext<"config">,
  verb: string,
  noun = "Run",
): void {
  const { policy } = ctx.services.config;
  const access = accessOf(policy, ctx.channel, ctx.user);
  if (access.role === "admin") return;
  if (run.createdBy === ctx.user.id && run.channel.platform === ctx.channel.platform) return;
  const admins = holderNames(policy, "admin", ctx.channel.platform);
  const starter = personRef(run.createdBy);
  throw new RlError(
    "FORBIDDEN",
    `${noun} ${run.id} was started by ${starter}; only they or an admin may ${verb} it. ${gerundOf(verb)} another person's ${noun.toLowerCase()} needs the admin permission; you have ${access.role}. ${
      admins.length
        ? `Ask ${starter} or one of: ${admins.join(", ")} (RL_ADMINS).`
        : `Ask ${starter}; no admins are configured (RL_ADMINS).`
    }`,
    { details: { needed: "admin", role: access.role, started_by: run.createdBy } },
  );
}
