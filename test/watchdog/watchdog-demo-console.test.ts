// The demo trainer with its reward collapse switched on gets exactly one collapse alert, printed on the console with
// its evidence and the commands to type; typing Ignore's command is taken; a healthy demo run gets no collapse alert.
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createConsoleAdapter } from "../../adapters/console/console.ts";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { Services } from "../../src/services.ts";
import { CONSOLE, startDemo, stopLiveRuns, type DemoStack } from "../helpers/demo-stack.ts";
import { waitFor } from "../helpers/wait-for.ts";

const stacks: DemoStack[] = [];
afterAll(async () => {
  for (const { services } of stacks) {
    await stopLiveRuns(services);
    await services.close();
  }
});

async function demo(fault?: string): Promise<Services> {
  const stack = await startDemo({ totalSteps: 400, stepSeconds: 0.1, ...(fault ? { fault } : {}) });
  stacks.push(stack);
  await stack.services.env.selectEnvironment(CONSOLE, "arithmetic");
  return stack.services;
}

const collapseKeys = (s: Services, runId: string) =>
  (
    s.db
      .prepare("SELECT dedupe_key AS k FROM outbox WHERE run_id = ? AND dedupe_key LIKE 'alert:watchdog:%' ORDER BY id")
      .all(runId) as Array<{ k: string }>
  ).map((r) => r.k);

/** Alert passes while the run trains, until it has logged `steps` steps. */
async function passesUntil(s: Services, runId: string, steps: number): Promise<void> {
  await waitFor(async () => {
    await s.digests.runNow({ alertsOnly: true });
    return ((await s.report.status(s.runs.get(runId)!)).step ?? 0) >= steps;
  }, `step ${steps} of run ${runId}`);
  await s.digests.runNow({ alertsOnly: true });
}

describe("the watchdog on demo runs, on the console", () => {
  it("one collapse alert for a collapsing run, with the commands to type; none for a healthy run", async () => {
    const [collapsing, healthy] = await Promise.all([demo("reward_collapse:10"), demo()]);
    const bad = await collapsing.manager.start({ channel: CONSOLE, userId: "local" });
    const good = await healthy.manager.start({ channel: CONSOLE, userId: "local" });
    await Promise.all([passesUntil(collapsing, bad.id, 24), passesUntil(healthy, good.id, 24)]);

    const keys = collapseKeys(collapsing, bad.id);
    expect(keys.filter((k) => k.startsWith("alert:watchdog:collapse:"))).toHaveLength(1);
    expect(collapseKeys(healthy, good.id).filter((k) => k.startsWith("alert:watchdog:collapse:"))).toEqual([]);

    // Printed on the console: the finding, the last healthy checkpoint, the samples and the commands to type.
    const output = new PassThrough();
    let printed = "";
    output.on("data", (b: Buffer) => (printed += b.toString()));
    const terminal = createConsoleAdapter(collapsing, { output, input: new PassThrough() });
    const unregister = collapsing.outboxSender.register("console", (t, r, d) => terminal.post(t, r, d), {
      threads: false,
    });
    await waitFor(async () => {
      await collapsing.outboxSender.drain();
      return printed.includes(`Reward collapse: run ${bad.id}`);
    }, "the collapse alert printed");
    unregister();
    const alert = printed.slice(printed.indexOf(`Reward collapse: run ${bad.id}`));
    expect(alert).toMatch(/The mean reward of the last 5 steps is \S+, under 50% of the run's best/);
    expect(alert).toMatch(/Last healthy checkpoint: step_\d+ at step \d+: tinker:\/\/demo\//);
    expect(alert).toContain('"I am not sure."');
    expect(alert).toContain(`[Stop: /rl stop ${bad.id}]`);
    expect(alert).toContain(`[Ignore: /rl notify watchdog collapse ignore=${bad.id}]`);

    // The command Ignore shows, typed.
    const ctx: CommandContext = {
      channel: CONSOLE,
      user: { id: "local", name: "local" },
      via: "console",
      services: collapsing,
    };
    const { reply } = await dispatch({ text: `/rl notify watchdog collapse ignore=${bad.id}` }, ctx);
    expect(reply.title).toBe(`Ignored: reward collapse on run ${bad.id}`);
    expect(collapsing.watchdog.ignored(bad.id)).toEqual(["collapse"]);
  });
});
