// A trainer the project has never seen, driven by its manifest alone through the bot's core: a run to its end with
// progress, checkpoints and samples read from the trainer's own files; stop and resume in the same run with every
// step once; a fork from a checkpoint with a change; the argv each process got.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import type { CommandContext } from "../../../commands/types.ts";
import { confirmed } from "../../helpers/confirm.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";
import { argvsOf, itersLogged, savedIters, selectToy, startToy } from "../../helpers/toy-trainer.ts";
import type { Services } from "../../../src/services.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function toy(pace: Parameters<typeof selectToy>[2]): Promise<{ services: Services; ctx: CommandContext }> {
  const stack = await startToy();
  stacks.push(stack);
  await selectToy(stack.services, CONSOLE, pace);
  const ctx: CommandContext = {
    channel: CONSOLE,
    user: { id: "alice", name: "alice" },
    via: "console",
    services: stack.services,
  };
  return { services: stack.services, ctx };
}

/** Waits, checking on every tick of the run's own events, for what a test needs (the suite's timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 25));
}

describe("a stack manifest for a trainer the project has never seen", () => {
  it("runs an entry to its end: changes as overrides, progress, whole checkpoints and samples from the trainer's own files", async () => {
    const { services, ctx } = await toy({ iters: 6, saveEvery: 2 });
    await dispatch({ text: "/rl set lr 0.7" }, ctx);
    const completed = nextEvent(services, "completed");
    const { reply } = await confirmed(ctx, "/rl start");
    const id = (reply.data as { run_id: string }).run_id;
    expect((await completed).run.id).toBe(id);

    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ stack: "toy", status: "completed", totalSteps: 6 });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.step).toBe(6);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    // The run's file holds what was asked, never the bot's settings; the trainer read its changes as key=value.
    const written = JSON.parse(readFileSync(run.configPath!, "utf8")) as { values: Record<string, unknown> };
    expect(written.values).toMatchObject({ lr: 0.7, iters: 6 });

    // A checkpoint folder without its DONE marker (a trainer killed while saving) is never offered.
    const half = path.join(services.config.dataDir, "runs", id, "saves", "iter-5");
    mkdirSync(half);
    writeFileSync(path.join(half, "weights.json"), "{");
    const checkpoints = await services.manager.checkpoints(run);
    expect(checkpoints.map((c) => c.step)).toEqual([2, 4, 6]);
    expect(checkpoints.map((c) => c.name)).toEqual(["iter-2", "iter-4", "iter-6"]);

    const samples = await dispatch({ text: `/rl samples ${id} --step 3 --best --n 2` }, ctx);
    expect(JSON.stringify(samples.reply)).toContain("iter 3 question");
    expect(samples.reply.title).toContain("samples of step 3");
  });

  it("stops a run and resumes it as the same run from its last whole checkpoint, each step counted once", async () => {
    const { services, ctx } = await toy({ iters: 40, saveEvery: 3, pause: 0.1 });
    const { reply } = await confirmed(ctx, "/rl start");
    const id = (reply.data as { run_id: string }).run_id;
    await until(() => savedIters(services, id).length >= 2);
    const [firstArgv] = argvsOf(services, id);
    expect(firstArgv).not.toContain("resume=true");
    await confirmed(ctx, `/rl stop ${id}`);
    expect(services.runs.get(id)!.status).toBe("stopped");
    const last = savedIters(services, id).at(-1)!;

    const completed = nextEvent(services, "completed", id);
    const { prompt } = await confirmed(ctx, `/rl resume ${id}`);
    expect(prompt.title).toBe(`Resume run ${id} (toy) from checkpoint iter-${last}?`);
    await completed;
    const [, resumedArgv, more] = argvsOf(services, id);
    // The same command, the same changes, and the manifest's resume fields after them.
    expect(resumedArgv!.slice(0, -1)).toEqual(firstArgv);
    expect(resumedArgv!.at(-1)).toBe("resume=true");
    expect(more).toBeUndefined();

    const logged = itersLogged(services, id);
    expect(logged.slice(logged.lastIndexOf(last + 1))).toEqual(
      Array.from({ length: 40 - last }, (_, i) => last + 1 + i),
    );
    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ status: "completed", attempt: 1, resumedStep: last });
    const progress = await services.manager.stackOf(run).readProgress(run);
    expect(progress.rewardHistory.map((p) => p.step)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("forks a new run from a checkpoint's weights with a change, setting the manifest's fork field to its path", async () => {
    const { services, ctx } = await toy({ iters: 4, saveEvery: 2 });
    const completed = nextEvent(services, "completed");
    const { reply } = await confirmed(ctx, "/rl start");
    const parent = (reply.data as { run_id: string }).run_id;
    await completed;
    const checkpoint = path.join(services.config.dataDir, "runs", parent, "saves", "iter-2");

    const childDone = nextEvent(services, "completed");
    const { reply: forked } = await confirmed(ctx, `/rl fork ${parent} iter-2 lr=0.05`);
    const child = (forked.data as { run_id: string }).run_id;
    expect((await childDone).run.id).toBe(child);
    const [argv] = argvsOf(services, child);
    expect(argv).toContain(`init_from=${checkpoint}`);
    expect(argv).toContain("lr=0.05");
    expect(argv).toContain(`out_dir=${path.join(services.config.dataDir, "runs", child)}`);
    expect(services.runs.get(child)).toMatchObject({ parentId: parent, stack: "toy" });
  });
});
