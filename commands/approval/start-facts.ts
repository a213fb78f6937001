// What a start will do, for RL_APPROVE_WHEN: read from the command's own preview and the channel's config.
import type { StartFacts } from "../../src/approvals/match-rules.ts";
import type { Reply } from "../../src/reply.ts";
import { contextFor, type AnyCommand, type CommandContext } from "../types.ts";

const field = (reply: Reply, label: string): string | undefined => reply.fields?.find((f) => f.label === label)?.value;

function stepsIn(values: unknown): number | undefined {
  if (!values || typeof values !== "object") return undefined;
  const steps = (values as Record<string, unknown>).total_steps;
  return typeof steps === "number" ? steps : undefined;
}

/**
 * The environment, the most steps of any run and the number of runs. The preview is what the asker confirmed, so the
 * rule is matched against the same plan; steps a preview does not show are read from the channel's config for start
 * and sweep, and left unknown otherwise (a rerun or resume of another run's config).
 */
export async function startFacts(
  command: AnyCommand,
  parsed: Record<string, unknown>,
  ctx: CommandContext,
): Promise<StartFacts> {
  const preview = command.preview ? await command.preview(parsed, contextFor(command, ctx)) : {};
  const data = (preview.data ?? {}) as { environment?: unknown; combinations?: unknown; changes?: unknown };
  const environment =
    typeof data.environment === "string" ? data.environment : (field(preview, "Environment") ?? undefined);
  const combinations = Array.isArray(data.combinations) ? (data.combinations as unknown[]) : undefined;
  let steps = Number(field(preview, "Steps")) || stepsIn(data.changes);
  if (command.name === "start" || command.name === "sweep") {
    const fromCombos = (combinations ?? []).map(stepsIn).filter((s): s is number => s !== undefined);
    const view = steps === undefined ? await ctx.services.env.getConfig(ctx.channel) : undefined;
    const configured = view?.configurable_fields.find((f) => f.name === "total_steps")?.current_value;
    const base = steps ?? (typeof configured === "number" ? configured : undefined);
    steps = fromCombos.length ? Math.max(...fromCombos, ...(base !== undefined ? [base] : [])) : base;
  }
  return { environment, steps, runs: combinations?.length ?? 1 };
}
