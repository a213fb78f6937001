// A stand-in for /rl start (it previews its steps and records whom it ran for) with the real /rl approve and /rl deny.
import { z } from "zod";
import { createDecideCommand } from "../../commands/approval/decide-approval.ts";
import { defineCommand, type AnyCommand } from "../../commands/types.ts";

export interface ApprovalCommands {
  commands: AnyCommand[];
  /** Whom each start ran for, and its steps. */
  started: Array<{ user: string; steps: number }>;
}

export function createApprovalCommands(): ApprovalCommands {
  const started: ApprovalCommands["started"] = [];
  const start = defineCommand({
    name: "start",
    summary: "start",
    description: "Test command.",
    args: z.object({ steps: z.coerce.number() }),
    positional: ["steps"],
    permission: "operate",
    uses: [],
    confirm: true,
    mutates: true,
    async preview({ steps }) {
      return {
        title: "Start?",
        fields: [
          { label: "Environment", value: "arithmetic" },
          { label: "Steps", value: String(steps) },
        ],
      };
    },
    async run({ steps }, ctx) {
      started.push({ user: ctx.user.id, steps });
      return { title: `Started for ${ctx.user.id}`, data: { run_id: "run00001" } };
    },
  });
  const commands: AnyCommand[] = [];
  commands.push(
    start,
    createDecideCommand("approve", () => commands),
    createDecideCommand("deny", () => commands),
  );
  return { commands, started };
}
