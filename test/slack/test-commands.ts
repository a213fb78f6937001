// Commands defined only for the Slack tests: echo, a gated one, a slow confirm command with run buttons, a huge reply, a chart.
import { z } from "zod";
import { createHelpCommand } from "../../commands/help.ts";
import { COMMANDS } from "../../commands/index.ts";
import { defineCommand, type AnyCommand } from "../../commands/types.ts";
import { RlError } from "../../src/errors.ts";

export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function createGate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export interface TestCommands {
  commands: AnyCommand[];
  /** /rl wait answers only after this opens. */
  gate: Gate;
  /** Arguments each /rl launch run() received (it only runs once confirmed). */
  launched: string[];
}

export function createTestCommands(): TestCommands {
  const gate = createGate();
  const launched: string[] = [];
  const echo = defineCommand({
    name: "echo",
    summary: "Say the words back, publicly",
    description: "Test command.",
    args: z.object({ words: z.string().min(1).describe("What to say") }),
    positional: ["words"],
    restOfLine: true,
    permission: "read",
    uses: [],
    async run({ words }, ctx) {
      return { title: "Echo", text: words, fields: [{ label: "Asked by", value: ctx.user.name ?? ctx.user.id }] };
    },
  });
  const wait = defineCommand({
    name: "wait",
    summary: "Answer when the test says so",
    description: "Test command.",
    args: z.object({}),
    permission: "read",
    uses: [],
    async run() {
      await gate.promise;
      return { title: "Waited", text: "The gate opened." };
    },
  });
  const launch = defineCommand({
    name: "launch",
    summary: "A slow command that asks for confirmation",
    description: "Test command.",
    args: z.object({ name: z.string().min(1).describe("Environment") }),
    positional: ["name"],
    permission: "operate",
    uses: [],
    slow: true,
    confirm: true,
    mutates: true,
    async preview({ name }) {
      return { title: `Launch ${name}?`, fields: [{ label: "Environment", value: name }] };
    },
    async run({ name }, ctx) {
      launched.push(name);
      await ctx.progress?.("processes are up");
      return {
        title: `Launched ${name}`,
        text: "Run run-42 is training.",
        delivery: { anchorRunId: "run-42" },
        buttons: [
          { kind: "command", label: "Status", command: "/rl echo status of run-42" },
          { kind: "command", label: "Stop", command: "/rl halt run-42", style: "danger" },
        ],
      };
    },
  });
  const halt = defineCommand({
    name: "halt",
    summary: "Stop a run (asks for confirmation)",
    description: "Test command.",
    args: z.object({ id: z.string().min(1).describe("Run id") }),
    positional: ["id"],
    permission: "operate",
    uses: [],
    confirm: true,
    mutates: true,
    async run({ id }) {
      return { title: `Halted ${id}` };
    },
  });
  const crunch = defineCommand({
    name: "crunch",
    summary: "A slow command without confirmation; 'fail' fails",
    description: "Test command.",
    args: z.object({ what: z.string().min(1).describe("What to crunch") }),
    positional: ["what"],
    permission: "read",
    uses: [],
    slow: true,
    async run({ what }, ctx) {
      // Not awaited on purpose: a late progress edit must not overwrite the answer.
      void ctx.progress?.("half way");
      await ctx.progress?.("almost done");
      if (what === "fail") throw new RlError("NOT_FOUND", "Nothing called fail to crunch.");
      return { title: `Crunched ${what}`, fields: [{ label: "Result", value: "42" }] };
    },
  });
  const big = defineCommand({
    name: "big",
    summary: "A reply past every Block Kit limit",
    description: "Test command.",
    args: z.object({}),
    permission: "read",
    uses: [],
    async run() {
      return bigReply();
    },
  });
  const leak = defineCommand({
    name: "leak",
    summary: "A reply that quotes the bot token",
    description: "Test command.",
    args: z.object({}),
    permission: "read",
    uses: ["config"],
    async run(_args, ctx) {
      return { title: "Leak", text: `The token is ${ctx.services.config.slack.botToken ?? ""}.` };
    },
  });
  const plot = defineCommand({
    name: "plot",
    summary: "A reply with a reward chart; 'private' answers ephemerally",
    description: "Test command.",
    args: z.object({
      mode: z.enum(["public", "private"]).optional().describe("Who sees it"),
      run: z.string().optional().describe("The run it is about"),
    }),
    positional: ["mode"],
    permission: "read",
    uses: [],
    async run({ mode, run }) {
      return {
        title: "Results",
        chart: rewardChart(),
        delivery: { ...(mode === "private" ? { ephemeral: true } : {}), ...(run ? { runId: run } : {}) },
      };
    },
  });
  return {
    commands: [createHelpCommand(() => COMMANDS), echo, wait, launch, halt, crunch, big, leak, plot],
    gate,
    launched,
  };
}

/** 100 fields, a 20,000-character code block, 40 buttons and a 7,000-character text. */
export function bigReply() {
  return {
    title: `A very long title ${"x".repeat(300)}`,
    text: `${"Lorem ipsum dolor sit amet <b> & more. ".repeat(180)}`,
    fields: Array.from({ length: 100 }, (_, i) => ({
      label: `field_${i}`,
      value: `value ${i} ${"v".repeat(i === 0 ? 3000 : 10)}`,
    })),
    blocks: [
      {
        kind: "code" as const,
        title: "trainer.log",
        content: Array.from({ length: 400 }, (_, i) => `step ${i}: ${"loss=0.1234 ".repeat(4)}`)
          .join("\n")
          .padEnd(20_000, "#"),
      },
    ],
    buttons: Array.from({ length: 40 }, (_, i) => ({
      kind: "command" as const,
      label: `Button ${i} ${"long label ".repeat(10)}`,
      command: `/rl echo ${i}`,
    })),
    links: [{ label: "WandB run", url: "https://wandb.example/team/project/runs/abc?x=1|2" }],
  };
}

/** A reward curve as digests and /rl results carry it. */
export function rewardChart(points = 40, title = "Reward mean by step") {
  return {
    title,
    points: Array.from({ length: points }, (_, i) => ({ x: i * 10, y: 0.2 + 0.6 * (1 - Math.exp(-i / 12)) })),
  };
}
