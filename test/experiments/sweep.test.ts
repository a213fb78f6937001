// /rl sweep on the demo stack: a checked, capped grid, one prompt listing every combination, runs sharing a sweep id
// that queue and run one after another, one thread, and /rl stop <sweep> stopping all of it.
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { RunRow } from "../../db/runs.ts";
import { answer } from "../helpers/confirm.ts";
import {
  CONSOLE,
  closeDemoStacks,
  nextEvent,
  startDemo,
  type DemoOptions,
  type DemoStack,
} from "../helpers/demo-stack.ts";
import { waitFor } from "../helpers/wait-for.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function demo(options: DemoOptions = {}): Promise<{ stack: DemoStack; ctx: CommandContext }> {
  const stack = await startDemo({ totalSteps: 3, ...options });
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, "arithmetic");
  await stack.services.env.editConfig(CONSOLE, "seed", "7");
  return { stack, ctx: { channel: CONSOLE, user: { id: "local" }, via: "console", services: stack.services } };
}

const sweepRuns = (stack: DemoStack, sweepId: string): RunRow[] => stack.services.runs.listBySweep(sweepId);

describe("/rl sweep", () => {
  it("asks once, listing every combination, then runs each on the channel's config, one after another, to completion", async () => {
    const { stack, ctx } = await demo();
    const prompt = await dispatch({ text: "/rl sweep temperature=0.3,0.9 num_choices=2,3" }, ctx);
    expect(prompt.needsConfirmation).toBe(true);
    expect(prompt.reply.title).toBe("Start a sweep of arithmetic: 4 runs?");
    expect(prompt.reply.blocks?.[0]?.content).toBe(
      [
        "1. temperature=0.3 num_choices=2",
        "2. temperature=0.3 num_choices=3",
        "3. temperature=0.9 num_choices=2",
        "4. temperature=0.9 num_choices=3",
      ].join("\n"),
    );
    expect(stack.services.runs.listAll(10)).toEqual([]);

    const done = await answer(prompt.reply, ctx);
    expect(done.ok, done.reply.text).toBe(true);
    const { sweep_id: sweepId } = done.reply.data as { sweep_id: string };
    const runs = sweepRuns(stack, sweepId);
    expect(runs.map((r) => r.config)).toEqual([
      { seed: 7, temperature: 0.3, num_choices: 2 },
      { seed: 7, temperature: 0.3, num_choices: 3 },
      { seed: 7, temperature: 0.9, num_choices: 2 },
      { seed: 7, temperature: 0.9, num_choices: 3 },
    ]);
    // One at a time (RL_MAX_CONCURRENT_RUNS=1): never two of them live together.
    let most = 0;
    const off = stack.services.manager.onEvent(() => {
      most = Math.max(
        most,
        sweepRuns(stack, sweepId).filter((r) => ["starting", "running", "stopping"].includes(r.status)).length,
      );
    });
    await waitFor(
      () => sweepRuns(stack, sweepId).every((r) => r.status === "completed"),
      "every run of the sweep to complete",
    );
    off();
    expect(most).toBe(1);
    // One prompt, answered once: the sweep is one confirmation.
    expect(stack.services.db.prepare("SELECT COUNT(*) AS n FROM confirmations").get()).toEqual({ n: 1 });
  });

  it("puts every run's notices in the sweep's thread once its message becomes one", async () => {
    const { stack, ctx } = await demo({ totalSteps: 400, stepSeconds: 0.1 });
    const done = await dispatch({ text: "/rl sweep temperature=0.3,0.9" }, ctx, { confirmed: true });
    const { sweep_id: sweepId } = done.reply.data as { sweep_id: string };
    expect(done.reply.delivery?.anchorRunId).toBe(sweepRuns(stack, sweepId)[0]!.id);
    stack.services.runs.update(done.reply.delivery!.anchorRunId!, { thread: "1700000000.000100" });
    expect(sweepRuns(stack, sweepId).map((r) => r.thread)).toEqual(["1700000000.000100", "1700000000.000100"]);
    // Runs outside the sweep keep their own threads.
    const other = await stack.services.manager.start({ channel: CONSOLE, userId: "local" });
    expect(stack.services.runs.get(other.id)!.thread).toBeUndefined();
  });

  it("stops every run of the sweep with one confirmation: the queued are cancelled, the running stopped", async () => {
    const { stack, ctx } = await demo({ totalSteps: 400, stepSeconds: 0.1 });
    const started = nextEvent(stack.services, "started");
    const done = await dispatch({ text: "/rl sweep temperature=0.3,0.6,0.9" }, ctx, { confirmed: true });
    const { sweep_id: sweepId } = done.reply.data as { sweep_id: string };
    await started;
    const prompt = await dispatch({ text: `/rl stop ${sweepId}` }, ctx);
    expect(prompt.reply.title).toBe(`Stop sweep ${sweepId} (arithmetic): 3 of its 3 runs?`);
    const stopped = await answer(prompt.reply, ctx);
    expect(stopped.ok, stopped.reply.text).toBe(true);
    expect(sweepRuns(stack, sweepId).map((r) => r.status)).toEqual(["stopped", "stopped", "stopped"]);
    await stack.services.manager.settled();
    // Nothing of the sweep started after the stop.
    expect(sweepRuns(stack, sweepId).filter((r) => r.startedAt !== undefined)).toHaveLength(1);
  });

  it.each([
    [
      "temperature=0.1,0.2 num_choices=2,3",
      { RL_SWEEP_MAX_RUNS: "3" },
      /4 combinations \(2 temperature × 2 num_choices\); a sweep may start at most 3 \(RL_SWEEP_MAX_RUNS\)/,
    ],
    ["temperature=0.1,0.2 --max 1", {}, /2 combinations .* at most 1 \(--max\)/],
    [
      "temperature=0.1,0.2 --max 99",
      {},
      /--max 99 is more than this bot allows for one sweep \(16, RL_SWEEP_MAX_RUNS\)/,
    ],
    ["temperature=0.1,hot", {}, /temperature/],
    ["group_size=4,8", {}, /group_size is locked/],
    ["temperature=0.1,,0.2", {}, /empty value/],
    ["temperature=0.1,0.1", {}, /twice/],
    ["temperature=0.1 Temperature=0.2", {}, /given twice/],
    ["temperature", {}, /field=value/],
  ])("refuses %s with the reason, and starts nothing", async (grid, env, message) => {
    const { stack, ctx } = await demo({ env });
    const reply = await dispatch({ text: `/rl sweep ${grid}` }, ctx, { confirmed: true });
    expect(reply.ok).toBe(false);
    expect(reply.reply.text).toMatch(message);
    expect(stack.services.runs.listAll(10)).toEqual([]);
    expect(stack.services.db.prepare("SELECT COUNT(*) AS n FROM sweeps").get()).toEqual({ n: 0 });
  });
});
