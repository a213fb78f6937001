// /rl compare <run|sweep> [<run> ...]: the runs side by side: differing config, reward, steps, time, state, and their curves.
import { z } from "zod";
import type { RunRow } from "../db/runs.ts";
import type { SweepRow } from "../db/sweeps.ts";
import { RlError } from "../src/errors.ts";
import { compareRuns } from "../src/experiments/compare-runs.ts";
import { comparisonReply } from "../src/experiments/comparison-reply.ts";
import { defineCommand } from "./types.ts";

/** More lines than this make an unreadable chart and a table wider than a message. */
const MAX_COMPARED = 25;

export default defineCommand({
  name: "compare",
  summary: "Compare runs or a sweep",
  description:
    "Compare training runs: given a sweep id, all its runs; else the run ids given (two or more, space-separated). Returns a table of the config fields on which they differ with each run's final (or latest) reward mean, steps, duration and state, names the run with the best reward, and one chart with every run's reward curve. A forked run is drawn from its fork step on, after its parent's curve up to that step (the parent's line is labelled as such), and the table names the run and step it was forked from.",
  toolName: "rl_compare_runs",
  args: z.object({
    run: z.string().min(1).max(2000).describe("A sweep id, or two or more run ids separated by spaces"),
  }),
  positional: ["run"],
  restOfLine: true,
  permission: "operate",
  uses: ["now", "report", "runs", "sweeps"],
  slow: true,
  examples: ["/rl compare s1a2b3c4", "/rl compare ab12cd34 ef56ab78"],
  async run({ run: text }, ctx) {
    const { report, sweeps, runs: runsRepo } = ctx.services;
    const ids = text.split(/[\s,]+/).filter(Boolean);
    const runs: RunRow[] = [];
    let sweep: SweepRow | undefined;
    for (const id of ids) {
      const asSweep = sweeps.get(id);
      if (asSweep) sweep = ids.length === 1 ? asSweep : undefined;
      for (const run of asSweep ? runsRepo.listBySweep(asSweep.id) : [report.find(id)])
        if (!runs.some((r) => r.id === run.id)) runs.push(run);
    }
    if (runs.length < 2)
      throw new RlError(
        "USAGE",
        "Compare needs two or more runs: give a sweep id, or two or more run ids (see /rl runs).",
      );
    if (runs.length > MAX_COMPARED)
      throw new RlError("USAGE", `That is ${runs.length} runs; compare at most ${MAX_COMPARED} at once.`);
    await ctx.progress?.(`Reading the results of ${runs.length} runs…`);
    return comparisonReply(await compareRuns(runs, report, ctx.services.now), sweep);
  },
});
