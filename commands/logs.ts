// /rl logs <run> [component]: the last lines of one of a run's process logs (its stack names them).
import { z } from "zod";
import { RlError } from "../src/errors.ts";
import { defineCommand } from "./types.ts";

export default defineCommand({
  name: "logs",
  summary: "Show the end of a run's log",
  description: "Show the last lines of one process log of a run: trainer (default); on atropos-tinker also env or api.",
  toolName: "rl_get_logs",
  args: z.object({
    run: z.string().min(1).max(64).describe("Run id"),
    // Every stack's process names (a cookbook run has only a trainer; the run's own are checked below).
    component: z.enum(["trainer", "env", "api"]).optional().describe("Which process (default trainer)"),
    lines: z.number().int().min(1).max(200).optional().describe("How many lines (default 30)"),
  }),
  positional: ["run", "component"],
  permission: "read",
  personal: true,
  uses: ["manager", "redact", "report"],
  async run({ run: id, component, lines }, ctx) {
    const run = ctx.services.report.find(id);
    const names = ctx.services.manager.stackOf(run).components.map((c) => c.name);
    const which = component ?? ctx.services.manager.stackOf(run).main;
    if (!names.includes(which)) {
      throw new RlError(
        "INVALID_VALUE",
        `Run ${run.id} has no ${which} process; its processes are ${names.join(", ")}. Try /rl logs ${run.id} ${names.includes("trainer") ? "trainer" : names[0]}.`,
      );
    }
    const tail = await ctx.services.report.logs(run, which, lines ?? 30);
    const content = ctx.services.redact(tail.join("\n"));
    return {
      title: `${which} log of run ${run.id}`,
      blocks: [{ kind: "code", content: content || "(empty)" }],
      data: { run_id: run.id, component: which, lines: tail.map(ctx.services.redact) },
    };
  },
});
