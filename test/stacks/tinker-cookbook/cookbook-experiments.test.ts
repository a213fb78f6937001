// Sweeps, reruns and comparisons of cookbook recipe runs: each run of a sweep completes with its own value in its own
// log folder, /rl compare lines them up, and /rl rerun runs the old config with a change.
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import type { CommandContext } from "../../../commands/types.ts";
import type { Comparison } from "../../../src/experiments/compare-runs.ts";
import { recipeLogDir } from "../../../src/stacks/tinker-cookbook/cookbook-stack.ts";
import { readRecipeRunFile } from "../../../src/stacks/tinker-cookbook/recipe-run-file.ts";
import { waitFor } from "../../helpers/bot-process.ts";
import { RECIPE, selectRecipe, startCookbook } from "../../helpers/cookbook.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function cookbook() {
  const stack = await startCookbook();
  stacks.push(stack);
  await selectRecipe(stack.services, CONSOLE, { steps: 5, stepSeconds: 0.05 });
  const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services: stack.services };
  return { services: stack.services, run: (text: string) => dispatch({ text }, ctx, { confirmed: true }), ctx };
}

describe("experiments on the cookbook stack", () => {
  it("sweeps learning_rate: both runs complete with their own value, and /rl compare lines them up", async () => {
    const { services, run, ctx } = await cookbook();
    const prompt = await dispatch({ text: "/rl sweep learning_rate=1e-5,2e-5" }, ctx);
    expect(prompt.reply.title).toBe(`Start a sweep of ${RECIPE}: 2 runs?`);
    const started = await run("/rl sweep learning_rate=1e-5,2e-5");
    expect(started.ok, started.reply.text).toBe(true);
    const { sweep_id: sweepId } = started.reply.data as { sweep_id: string };
    const runs = () => services.runs.listBySweep(sweepId);
    await waitFor(() => runs().every((r) => r.status === "completed"), "both runs of the sweep to complete");
    const [a, b] = runs();
    expect([a!.config, b!.config]).toEqual([
      expect.objectContaining({ learning_rate: 1e-5 }),
      expect.objectContaining({ learning_rate: 2e-5 }),
    ]);
    for (const r of [a!, b!]) {
      expect(r.stack).toBe("tinker-cookbook");
      expect(readRecipeRunFile(r.configPath!).args).toMatchObject({
        learning_rate: r.config.learning_rate,
        log_path: recipeLogDir(services.config, r.id),
      });
    }

    const compared = await run(`/rl compare ${a!.id} ${b!.id}`);
    expect(compared.ok, compared.reply.text).toBe(true);
    const data = compared.reply.data as Comparison;
    expect(data.fields).toEqual(["learning_rate"]);
    expect(data.runs.map((r) => [r.run_id, r.config, r.status, r.step])).toEqual([
      [a!.id, { learning_rate: 1e-5 }, "completed", 5],
      [b!.id, { learning_rate: 2e-5 }, "completed", 5],
    ]);
    for (const r of data.runs) expect(typeof r.reward).toBe("number");
    // The toy learns faster with the larger rate, and the runs are seeded alike: the rewards differ.
    expect(data.runs[0]!.reward).not.toBe(data.runs[1]!.reward);
    expect(data.best).toBe([...data.runs].sort((x, y) => y.reward! - x.reward!)[0]!.run_id);
    expect(compared.reply.chart?.series?.every((s) => s.points.length === 5)).toBe(true);
  });

  it("reruns a completed run with seed=3: a new run of the old config with the change, to completion", async () => {
    const { services, run } = await cookbook();
    const firstDone = nextEvent(services, "completed");
    const first = (await run("/rl start")).reply.data as { run_id: string };
    await firstDone;
    // The channel's config changes after: a rerun takes the old run's, not the channel's.
    await services.env.editConfig(CONSOLE, "demo_n_batches", "7");

    const prompt = await dispatch(
      { text: `/rl rerun ${first.run_id} seed=3` },
      { channel: CONSOLE, user: { id: "local" }, via: "console", services },
    );
    expect(prompt.reply.fields).toContainEqual({ label: "Differences", value: "seed: 0 → 3" });
    const completed = nextEvent(services, "completed");
    const rerun = await run(`/rl rerun ${first.run_id} seed=3`);
    expect(rerun.ok, rerun.reply.text).toBe(true);
    const id = (rerun.reply.data as { run_id: string }).run_id;
    expect(rerun.reply.data).toMatchObject({ rerun_of: first.run_id });
    const row = services.runs.get(id)!;
    expect(row.config).toMatchObject({ seed: 3, demo_n_batches: 5 });
    expect(readRecipeRunFile(row.configPath!).args).toMatchObject({
      seed: 3,
      demo_n_batches: 5,
      log_path: recipeLogDir(services.config, id),
    });
    const event = await completed;
    expect(event.run.id).toBe(id);
    expect(event.message).toMatch(/^Training complete after 5 steps/);
    const results = await run(`/rl results ${id}`);
    expect((results.reply.data as { final_weights: string }).final_weights).toMatch(/^tinker:\/\//);
  });
});
