// Extra /rl commands for the Discord tests: slow work, a confirm-first launch, a stop button target, every option type, charts.
import { z } from "zod";
import { COMMANDS } from "../../commands/index.ts";
import { defineCommand, type AnyCommand } from "../../commands/types.ts";

export const slowpoke = defineCommand({
  name: "slowpoke",
  summary: "Takes a while (test)",
  description: "Reports progress, then answers; the reply anchors run slow-1.",
  args: z.object({}),
  permission: "read",
  uses: [],
  slow: true,
  async run(_args, ctx) {
    await ctx.progress?.("halfway there");
    return { title: "Slow done", text: "All finished.", delivery: { anchorRunId: "slow-1" } };
  },
});

export const launch = defineCommand({
  name: "launch",
  summary: "Start a pretend run (test)",
  description: "Asks for confirmation, then answers with a run message carrying a Stop button.",
  args: z.object({ steps: z.number().int().min(1).optional().describe("Training steps") }),
  permission: "operate",
  uses: [],
  confirm: true,
  slow: true,
  mutates: true,
  async preview({ steps }) {
    return { title: "Launch a run?", fields: [{ label: "Steps", value: String(steps ?? 10) }] };
  },
  async run({ steps }, ctx) {
    await ctx.progress?.("starting the trainer");
    return {
      title: "Launched run r1",
      fields: [{ label: "Steps", value: String(steps ?? 10) }],
      buttons: [
        { kind: "command", label: "Stop", command: "/rl halt r1", style: "danger" },
        { kind: "command", label: "Status", command: "/rl help" },
      ],
      delivery: { anchorRunId: "r1" },
    };
  },
});

export const halt = defineCommand({
  name: "halt",
  summary: "Stop a pretend run (test)",
  description: "Answers that the run stopped.",
  args: z.object({ run_id: z.string().min(1).describe("Run id") }),
  positional: ["run_id"],
  permission: "operate",
  uses: [],
  async run({ run_id }) {
    return { title: `Stopped ${run_id}` };
  },
});

export const typed = defineCommand({
  name: "typed",
  summary: "Every option type (test)",
  description: "Echoes its arguments.",
  args: z.object({
    label: z.string().optional().describe("Some text"),
    count: z.number().int().min(1).describe("A whole number"),
    ratio: z.number().optional().describe("A number"),
    flag: z.boolean().optional().describe("A switch"),
    tags: z.array(z.string()).optional().describe("Tags"),
    mode: z.enum(["fast", "careful"]).describe("How"),
  }),
  permission: "read",
  uses: [],
  async run(args) {
    return { title: "Typed", text: JSON.stringify(args), data: args };
  },
});

export const echo = defineCommand({
  name: "echo",
  summary: "Say something back (test)",
  description: "Echoes the text; used to check redaction.",
  args: z.object({ text: z.string().describe("Text") }),
  positional: ["text"],
  restOfLine: true,
  permission: "read",
  uses: [],
  async run({ text }, ctx) {
    return {
      title: `Echo from ${ctx.user.name ?? ctx.user.id}`,
      text,
      fields: [{ label: "Roles", value: (ctx.user.roles ?? []).join(", ") || "none" }],
    };
  },
});

let gate: Promise<void> = Promise.resolve();

/** Hold /rl gated until the returned function is called (so a test can outlast the 3 s window without sleeping). */
export function holdGated(): () => void {
  let open!: () => void;
  gate = new Promise<void>((resolve) => (open = resolve));
  return open;
}

export const gated = defineCommand({
  name: "gated",
  summary: "Waits for the test (test)",
  description: "Not marked slow, but takes as long as the test wants; answers privately.",
  args: z.object({}),
  permission: "read",
  uses: [],
  async run() {
    await gate;
    return { title: "Gated done", delivery: { ephemeral: true } };
  },
});

/** A reward curve as digests and /rl results carry it. */
export function rewardChart(points = 40, title = "Reward mean by step") {
  return {
    title,
    points: Array.from({ length: points }, (_, i) => ({ x: i * 10, y: 0.2 + 0.6 * (1 - Math.exp(-i / 12)) })),
  };
}

export const plot = defineCommand({
  name: "plot",
  summary: "A reply with a reward chart (test)",
  description: "Answers with a chart of `points` points, privately when asked.",
  args: z.object({
    points: z.number().int().min(0).optional().describe("How many points"),
    private: z.boolean().optional().describe("Answer privately"),
  }),
  permission: "read",
  uses: [],
  async run(args) {
    return {
      title: "Results",
      text: "Reward so far.",
      chart: rewardChart(args.points ?? 40),
      ...(args.private ? { delivery: { ephemeral: true } } : {}),
    };
  },
});

export const plotslow = defineCommand({
  name: "plotslow",
  summary: "A slow reply with a reward chart (test)",
  description: "Defers, reports progress, then answers with a chart.",
  args: z.object({}),
  permission: "read",
  uses: [],
  slow: true,
  async run(_args, ctx) {
    await ctx.progress?.("reading the history");
    return { title: "Slow results", chart: rewardChart() };
  },
});

/**
 * Discord takes at most 25 subcommands: the registry's commands the Discord tests never call (logs, digest, audit,
 * checkpoints, resume, fork, budget, compare; approve and deny are buttons there)
 * make room for the test commands, so that every one here is registered. registration.test.ts checks that the whole
 * registry fits by itself.
 */
const UNUSED_HERE = new Set([
  "logs",
  "digest",
  "audit",
  "checkpoints",
  "resume",
  "fork",
  "budget",
  "approve",
  "deny",
  "compare",
]);

export const TEST_COMMANDS: readonly AnyCommand[] = [
  ...COMMANDS.filter((c) => !UNUSED_HERE.has(c.name)),
  slowpoke,
  launch,
  halt,
  typed,
  echo,
  gated,
  plot,
  plotslow,
];
