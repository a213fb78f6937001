// /rl fork <run> [checkpoint] [field=value ...]: a new run that starts from one of a run's checkpoints, with changes,
// linked to its parent; asks to confirm, listing the differences.
import { z } from "zod";
import type { RunRow } from "../db/runs.ts";
import type { AppliedChanges } from "../src/environment-ops.ts";
import { RlError } from "../src/errors.ts";
import type { Checkpoint } from "../src/stacks/training-stack.ts";
import { componentList } from "../src/stacks/describe-stack.ts";
import { quoteInput } from "../src/values/quote-input.ts";
import { usageOf } from "./arg-specs.ts";
import { tokenize } from "./parse-command-text.ts";
import { describeChanges } from "./describe-changes.ts";
import { parseAssignments } from "./parse-assignments.ts";
import { startReply } from "./start-reply.ts";
import { defineCommand, type AnyCommand, type CommandContext } from "./types.ts";

const args = z.object({
  run: z.string().min(1).max(64).describe("Run id to fork from"),
  rest: z
    .string()
    .max(4000)
    .optional()
    .describe(
      "A checkpoint name (default: the run's latest), then changes as field=value words, e.g. 000020 learning_rate=2e-5",
    ),
});

interface ForkPlan {
  parent: RunRow;
  checkpoint: Checkpoint;
  applied: AppliedChanges;
  forkField: string;
}

/** The first word names a checkpoint unless it is a field=value change. */
function splitRest(rest: string | undefined): { checkpoint?: string; changes: string } {
  const words = tokenize(rest ?? "");
  const first = words[0];
  if (!first || first.value.includes("=")) return { changes: rest ?? "" };
  const second = words[1];
  return { checkpoint: first.value, changes: second ? (rest ?? "").slice(second.start) : "" };
}

async function planFork(
  command: AnyCommand,
  input: z.output<typeof args>,
  ctx: CommandContext<"report" | "env" | "manager">,
): Promise<ForkPlan> {
  const parent = ctx.services.report.find(input.run);
  const { manager } = ctx.services;
  const stack = manager.stackOf(parent);
  if (!stack.forkField) {
    throw new RlError(
      "CONFLICT",
      `Run ${parent.id} cannot be forked: its training stack (${stack.id}) cannot start a run from a checkpoint's weights. /rl rerun ${parent.id} runs its config again from step 0.`,
    );
  }
  if (stack.id !== manager.currentStack.id) {
    throw new RlError(
      "CONFLICT",
      `Run ${parent.id} belongs to the ${stack.id} stack and this bot runs ${manager.currentStack.id}: fork it from a bot started with RL_STACK=${stack.id}.`,
    );
  }
  const { checkpoint: wanted, changes } = splitRest(input.rest);
  const saved = await manager.checkpoints(parent);
  const checkpoint = wanted ? saved.find((c) => c.name === wanted) : saved.at(-1);
  if (!checkpoint) {
    throw new RlError(
      "NOT_FOUND",
      saved.length === 0
        ? `Run ${parent.id} has saved no checkpoint yet; /rl rerun ${parent.id} runs its config again from step 0.`
        : `Run ${parent.id} has no checkpoint ${quoteInput(wanted ?? "")}. Its checkpoints: ${saved.map((c) => c.name).join(", ")} (see /rl checkpoints ${parent.id}).`,
    );
  }
  const assignments = parseAssignments(changes, usageOf(command));
  if (assignments.some((a) => a.field === stack.forkField)) {
    throw new RlError(
      "USAGE",
      `${stack.forkField} is what a fork sets, to the checkpoint's path; name the checkpoint instead (see /rl checkpoints ${parent.id}).`,
    );
  }
  const applied = await ctx.services.env.applyChanges(parent.environment, parent.config, assignments);
  return { parent, checkpoint, applied, forkField: stack.forkField };
}

const fork: AnyCommand = defineCommand({
  name: "fork",
  summary: "Start a new run from a run's checkpoint, with changes",
  description:
    "Start a new training run from one of a run's checkpoints (default: its latest; see /rl checkpoints), with that run's environment and config, optionally changing fields given as field=value words (checked as /rl set does). The new run has its own id and log folder and is linked to its parent in /rl runs, /rl status and /rl compare. Refused where the training stack cannot start from a checkpoint's weights (atropos-tinker). Needs confirmation by the person, whose prompt lists the differences.",
  toolName: "rl_fork_training",
  args,
  positional: ["run", "rest"],
  restOfLine: true,
  permission: "operate",
  uses: ["env", "manager", "redact", "report"],
  slow: true,
  confirm: true,
  mutates: true,
  examples: ["/rl fork ab12cd34", "/rl fork ab12cd34 000020 learning_rate=2e-5"],
  async preview(input, ctx) {
    const { parent, checkpoint, applied } = await planFork(fork, input, ctx);
    return {
      title: `Fork run ${parent.id} (${parent.environment}) from checkpoint ${checkpoint.name}?`,
      fields: [
        { label: "Checkpoint", value: `${checkpoint.name}, step ${checkpoint.step}` },
        {
          label: "Differences",
          value: describeChanges(applied.changes),
        },
      ],
      data: {
        fork_of: parent.id,
        checkpoint: checkpoint.name,
        step: checkpoint.step,
        changes: applied.changes,
      },
    };
  },
  async run(input, ctx) {
    const { parent, checkpoint, applied, forkField } = await planFork(fork, input, ctx);
    await ctx.progress?.(`Starting ${componentList(ctx.services.manager.currentStack)}…`);
    const run = await ctx.services.manager.start({
      channel: ctx.channel,
      thread: ctx.thread,
      userId: ctx.user.id,
      via: ctx.via,
      progress: ctx.progress,
      from: { environment: applied.environment, values: { ...applied.values, [forkField]: checkpoint.path } },
      parent: { id: parent.id, step: checkpoint.step },
    });
    const reply = await startReply(run, ctx);
    return {
      ...reply,
      text: `Forked from run ${parent.id} at checkpoint ${checkpoint.name} (step ${checkpoint.step}). ${reply.text ?? ""}`.trim(),
      data: {
        ...(reply.data as object),
        fork_of: parent.id,
        checkpoint: checkpoint.name,
        fork_step: checkpoint.step,
        changes: applied.changes,
      },
    };
  },
});

export default fork;
