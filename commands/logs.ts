// /rl logs <run> [component]: the last lines of a run's trainer, environment or API log.
import { z } from "zod";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "logs",
  summary: "Show the end of a run's log",
  description: "Show the last lines of one component's log of a run: trainer (default), env or api.",
  toolName: "rl_get_logs",
  args: z.object({
    run: z.string().min(1).max(64).describe("Run id"),
    component: z.enum(["trainer", "env", "api"]).optional().describe("Which process (default trainer)"),
    lines: z.number().int().min(1).max(200).optional().describe("How many lines (default 30)"),
  }),
  positional: ["run", "component"],
  permission: "read",
  uses: ["redact", "report"],
  async run({ run: id, component, lines }, ctx) {
    const run = ctx.services.report.find(id);
    const which = component ?? "trainer";
    const tail = await ctx.services.report.logs(run, which, lines ?? 30);
    const content = ctx.services.redact(tail.join("\n"));
    return {
      title: `${which} log of run ${run.id}`,
      blocks: [{ kind: "code", content: content || "(empty)" }],
      data: { run_id: run.id, component: which, lines: tail.map(ctx.services.redact) },
    };
  },
});
