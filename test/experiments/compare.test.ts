// /rl compare and a sweep's own comparison: differing config, rewards, steps, time and state, the best run named, one chart.
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { Comparison } from "../../src/experiments/compare-runs.ts";
import type { Reply } from "../../src/reply.ts";
import { CONSOLE, closeDemoStacks, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { waitFor } from "../helpers/wait-for.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function demo(): Promise<{
  stack: DemoStack;
  ctx: CommandContext;
  posted: Array<{ thread?: string; reply: Reply }>;
}> {
  const stack = await startDemo({ totalSteps: 4 });
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, "arithmetic");
  const posted: Array<{ thread?: string; reply: Reply }> = [];
  stack.services.outboxSender.register(
    "console",
    async (target, reply) => {
      posted.push({ thread: target.thread, reply });
      return {};
    },
    { threads: false },
  );
  stack.services.digests.start();
  stack.services.outboxSender.start();
  return { stack, ctx: { channel: CONSOLE, user: { id: "local" }, via: "console", services: stack.services }, posted };
}

const isComparison = (reply: Reply) => reply.title?.startsWith("📊") === true;

describe("a sweep's comparison", () => {
  it("is posted by itself once both runs of a 2-value sweep complete, with both rewards and the best run named", async () => {
    const { stack, ctx, posted } = await demo();
    const started = await dispatch({ text: "/rl sweep temperature=0.2,1.8" }, ctx, { confirmed: true });
    expect(started.ok, started.reply.text).toBe(true);
    const { sweep_id: sweepId } = started.reply.data as { sweep_id: string };
    await waitFor(() => posted.some((p) => isComparison(p.reply)), "the sweep's comparison to be posted");
    const runs = stack.services.runs.listBySweep(sweepId);
    expect(runs.map((r) => r.status)).toEqual(["completed", "completed"]);

    const [comparison, ...more] = posted.filter((p) => isComparison(p.reply)).map((p) => p.reply);
    expect(more).toEqual([]);
    expect(comparison!.title).toBe(`📊 Sweep ${sweepId} (arithmetic): finished, 2 runs compared`);
    const data = comparison!.data as Comparison & { sweep_id: string };
    expect(data.fields).toEqual(["temperature"]);
    expect(data.runs.map((r) => [r.run_id, r.config, r.status, r.step])).toEqual([
      [runs[0]!.id, { temperature: 0.2 }, "completed", 4],
      [runs[1]!.id, { temperature: 1.8 }, "completed", 4],
    ]);
    for (const r of data.runs) expect(typeof r.reward).toBe("number");
    const best = [...data.runs].sort((a, b) => b.reward! - a.reward!)[0]!;
    expect(data.best).toBe(best.run_id);
    expect(comparison!.text).toBe(
      `Best: run ${best.run_id} (temperature=${best.config.temperature}), reward ${Number(best.reward!.toFixed(3))}.`,
    );
    const table = comparison!.blocks![0]!.content.split("\n");
    expect(table[0]).toMatch(/^run\s+temperature\s+reward\s+steps\s+time\s+state$/);
    for (const r of data.runs)
      expect(table.find((line) => line.startsWith(r.run_id))).toMatch(
        new RegExp(`${r.config.temperature}\\s+${Number(r.reward!.toFixed(3))}\\s+4/4\\s+\\S+\\s+completed$`),
      );
    expect(comparison!.chart?.series?.map((s) => s.label)).toEqual([
      `${runs[0]!.id} temperature=0.2`,
      `${runs[1]!.id} temperature=1.8`,
    ]);
    expect(comparison!.chart?.series?.every((s) => s.points.length === 4)).toBe(true);

    // Asked again (/rl compare <sweep>): the same table, not marked finished; and recovery posts nothing more.
    const asked = await dispatch({ text: `/rl compare ${sweepId}` }, ctx);
    expect(asked.reply.title).toBe(`📊 Sweep ${sweepId} (arithmetic): 2 runs compared`);
    expect(asked.reply.blocks).toEqual(comparison!.blocks);
    await stack.services.manager.recover();
    await stack.services.outboxSender.drain();
    expect(posted.filter((p) => isComparison(p.reply))).toHaveLength(1);
  });

  it("is queued at start for a sweep whose last run ended while the bot was down", async () => {
    const { stack } = await demo();
    const { services } = stack;
    services.sweeps.insert({
      id: "s0000001",
      channel: CONSOLE,
      environment: "arithmetic",
      grid: [{ field: "seed", values: [1, 2] }],
      createdBy: "local",
    });
    services.runs.insert({
      id: "feed0001",
      channel: CONSOLE,
      environment: "arithmetic",
      config: { seed: 1 },
      status: "completed",
      createdBy: "local",
      sweepId: "s0000001",
    });
    services.runs.insert({
      id: "feed0002",
      channel: CONSOLE,
      environment: "arithmetic",
      config: { seed: 2 },
      status: "failed",
      createdBy: "local",
      sweepId: "s0000001",
    });
    services.sweeps.insert({
      id: "s0000002",
      channel: CONSOLE,
      environment: "arithmetic",
      grid: [{ field: "seed", values: [1, 2] }],
      createdBy: "local",
    });
    services.runs.insert({
      id: "feed0003",
      channel: CONSOLE,
      environment: "arithmetic",
      config: { seed: 1 },
      status: "completed",
      createdBy: "local",
      sweepId: "s0000002",
    });
    services.runs.insert({
      id: "feed0004",
      channel: CONSOLE,
      environment: "arithmetic",
      config: { seed: 2 },
      status: "queued",
      createdBy: "local",
      sweepId: "s0000002",
    });
    await services.manager.recover();
    expect(services.sweeps.get("s0000001")?.comparedAt).toBeDefined();
    // The other sweep still has a run to go: no comparison yet.
    expect(services.sweeps.get("s0000002")?.comparedAt).toBeUndefined();
  });
});

describe("/rl compare", () => {
  it("compares runs by id, showing only the fields on which they differ, defaults named", async () => {
    const { stack, ctx } = await demo();
    stack.services.runs.insert({
      id: "feed0001",
      channel: CONSOLE,
      environment: "arithmetic",
      config: { seed: 1, temperature: 0.3 },
      status: "completed",
      createdBy: "local",
    });
    stack.services.runs.insert({
      id: "feed0002",
      channel: CONSOLE,
      environment: "arithmetic",
      config: { seed: 1 },
      status: "failed",
      createdBy: "local",
    });
    const reply = await dispatch({ text: "/rl compare feed0001 feed0002" }, ctx);
    expect(reply.ok, reply.reply.text).toBe(true);
    expect(reply.reply.title).toBe("📊 2 runs compared");
    expect(reply.reply.text).toBe("No run has a reward yet.");
    expect(reply.reply.blocks![0]!.content.split("\n").map((l) => l.split(/\s{2,}/))).toEqual([
      ["run", "temperature", "reward", "steps", "time", "state"],
      ["feed0001", "0.3", "–", "0/?", "–", "completed"],
      ["feed0002", "default", "–", "0/?", "–", "failed"],
    ]);
    expect(reply.reply.chart).toBeUndefined();
  });

  it.each([
    ["feed0001", "USAGE", /two or more runs/],
    ["feed0001 nosuch01", "NOT_FOUND", /nosuch01/],
  ])("refuses %s with the reason", async (ids, code, message) => {
    const { stack, ctx } = await demo();
    stack.services.runs.insert({
      id: "feed0001",
      channel: CONSOLE,
      environment: "arithmetic",
      config: {},
      status: "completed",
      createdBy: "local",
    });
    const reply = await dispatch({ text: `/rl compare ${ids}` }, ctx);
    expect(reply.reply.error?.code).toBe(code);
    expect(reply.reply.text).toMatch(message);
  });
});
