// The policy's word on one command for one person here: a FORBIDDEN error unless their role allows it.
import { RlError } from "../src/errors.ts";
import { accessOf, allows, refusalMessage } from "../src/policy.ts";
import type { AnyCommand, CommandContext } from "./types.ts";

/** Throws FORBIDDEN unless the person's role here allows the command. */
export function checkPermission(command: AnyCommand, ctx: CommandContext): void {
  const { policy } = ctx.services.config;
  const access = accessOf(policy, ctx.channel, ctx.user);
  if (!allows(access.role, command.permission)) {
    throw new RlError(
      "FORBIDDEN",
      refusalMessage(policy, access, `/rl ${command.name}`, command.permission, ctx.channel.platform),
      {
        details: {
          needed: command.permission,
          role: access.role,
          ...(access.reason === "channel" ? { reason: "channel_not_allowed" } : {}),
        },
      },
    );
  }
}
