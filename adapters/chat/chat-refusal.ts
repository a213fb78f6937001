// The refusal for a person with no access here: audited, and answered without spending the model's time.
import type { CommandContext } from "../../commands/types.ts";
import { RlError } from "../../src/errors.ts";
import { accessOf, allows, refusalMessage } from "../../src/policy.ts";
import type { Reply } from "../../src/reply.ts";
import type { Services } from "../../src/services.ts";
import { chatErrorReply } from "./chat-reply.ts";

/** A person with no access here (outside RL_CHANNEL_ALLOWLIST, or RL_DEFAULT_ROLE=none) does not get the model's time. */
export function chatRefusal(services: Services, ctx: CommandContext): Reply | undefined {
  const { redact, log } = services;
  const { policy } = services.config;
  const access = accessOf(policy, ctx.channel, ctx.user);
  if (allows(access.role, "read")) return undefined;
  const err = new RlError(
    "FORBIDDEN",
    refusalMessage(policy, access, "Asking me in plain words", "read", ctx.channel.platform),
    {
      details: { needed: "read", role: access.role },
    },
  );
  try {
    services.audit.record({
      ...ctx.channel,
      userId: ctx.user.id,
      command: "chat",
      args: {},
      outcome: "refused",
      detail: err.message,
    });
  } catch (auditErr) {
    log.error("audit write failed", { command: "chat", err: auditErr });
  }
  return chatErrorReply(err, redact, true);
}
