// Checkpoints of real runs through the bot: a cookbook-miniature run's checkpoints.jsonl and an atropos demo run's
// trainer log, in /rl checkpoints, /rl results, the completed notice and the digest.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import { loadConfig } from "../../src/config.ts";
import type { Reply } from "../../src/reply.ts";
import { createServices } from "../../src/services.ts";
import type { RunCheckpointsView } from "../../src/training/run-report.ts";
import { answer } from "../helpers/confirm.ts";
import { CONSOLE, closeDemoStacks, nextEvent, startDemo, type DemoStack } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import { waitFor } from "../helpers/wait-for.ts";
import { READY_TIMEOUT_SECONDS } from "../helpers/ceiling.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

function cookbook(): { stack: DemoStack; ctx: CommandContext } {
  const cwd = tempDir("rl-ckpt-");
  const config = loadConfig(
    {
      RL_LOG_LEVEL: "silent",
      RL_STACK: "tinker-cookbook",
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: READY_TIMEOUT_SECONDS,
    },
    cwd,
  );
  const stack = { services: createServices(config), cwd, lockedFile: "" };
  stacks.push(stack);
  return { stack, ctx: { channel: CONSOLE, user: { id: "local" }, via: "console", services: stack.services } };
}

async function startRun(ctx: CommandContext): Promise<string> {
  const prompt = await dispatch({ text: "/rl start" }, ctx);
  expect(prompt.needsConfirmation, prompt.reply.text).toBe(true);
  const started = await answer(prompt.reply, ctx);
  expect(started.ok, started.reply.text).toBe(true);
  return (started.reply.data as { run_id: string }).run_id;
}

const run = async (ctx: CommandContext, text: string): Promise<Reply> => {
  const result = await dispatch({ text }, ctx);
  expect(result.ok, result.reply.text).toBe(true);
  return result.reply;
};

describe("checkpoints of a cookbook-miniature run", () => {
  it("are listed newest first, counted in results, named in the digest while it runs and in the completed notice", async () => {
    const { stack, ctx } = cookbook();
    const { services } = stack;
    await services.env.selectEnvironment(CONSOLE, "math_rl.train");
    for (const [field, value] of [
      ["max_steps", "12"],
      ["save_every", "4"],
      ["demo_step_seconds", "0.25"],
    ])
      await services.env.editConfig(CONSOLE, field!, value!);

    const completed = nextEvent(services, "completed");
    const id = await startRun(ctx);
    const file = path.join(services.config.dataDir, "runs", id, "checkpoints.jsonl");
    await waitFor(() => existsSync(file) && readFileSync(file, "utf8").includes("000004"), "the first checkpoint");
    const early = await run(ctx, `/rl checkpoints ${id}`);
    expect(early.text).toMatch(/^000004 · step 4 · .+ · tinker:\/\/\S+\/weights\/000004$/m);

    await services.digests.runNow({ force: true, runId: id });
    const digest = services.db
      .prepare("SELECT reply_json FROM outbox WHERE kind = 'digest' ORDER BY id DESC LIMIT 1")
      .get() as { reply_json: string };
    const fields = (JSON.parse(digest.reply_json) as Reply).fields ?? [];
    expect(fields.filter((f) => f.label === `Checkpoint saved, run ${id}`)).toHaveLength(1);

    const event = await completed;
    expect(event.run.id).toBe(id);
    expect(event.message).toMatch(/Final weights: tinker:\/\/\S+\/sampler_weights\/final/);
    expect(event.message).toMatch(/Final checkpoint: final \(step 12\) tinker:\/\/\S+\/weights\/final/);

    const list = await run(ctx, `/rl checkpoints ${id}`);
    const view = list.data as RunCheckpointsView;
    expect(view).toMatchObject({ run_id: id, stack: "tinker-cookbook", count: 3, can_resume: true });
    expect(view.checkpoints.map((c) => [c.name, c.step, c.final ?? false])).toEqual([
      ["final", 12, true],
      ["000008", 8, false],
      ["000004", 4, false],
    ]);
    // The records carry no time: only the newest has one, from when the file was last written.
    expect(view.checkpoints.map((c) => c.time !== undefined)).toEqual([true, false, false]);
    for (const c of view.checkpoints) {
      expect(c.path).toMatch(new RegExp(`/weights/${c.name}$`));
      expect(c.sampler_path).toMatch(new RegExp(`/sampler_weights/${c.name}$`));
    }
    expect(list.text?.split("\n")).toEqual([
      expect.stringMatching(/^🏁 final · step 12 · .* UTC · tinker:/),
      expect.stringMatching(/^000008 · step 8 · time not recorded · tinker:/),
      expect.stringMatching(/^000004 · step 4 · time not recorded · tinker:/),
    ]);

    const paged = await run(ctx, `/rl checkpoints ${id} --limit 1`);
    expect((paged.data as RunCheckpointsView).checkpoints.map((c) => c.name)).toEqual(["final"]);
    expect(paged.text).toContain("… and 2 older (--limit 100 shows more).");

    const results = await run(ctx, `/rl results ${id}`);
    expect(results.fields).toContainEqual({
      label: "Checkpoints",
      value: `3, latest final at step 12: ${view.checkpoints[0]!.path}`,
    });
    expect((results.data as { checkpoints: unknown }).checkpoints).toEqual({ count: 3, latest: view.checkpoints[0] });
  });

  it("says there is no checkpoint yet", async () => {
    const { stack, ctx } = cookbook();
    stack.services.runs.insert({
      id: "none0001",
      channel: CONSOLE,
      environment: "math_rl.train",
      config: {},
      status: "failed",
      createdBy: "local",
      stack: "tinker-cookbook",
    });
    const reply = await run(ctx, "/rl checkpoints none0001");
    expect(reply.text).toBe("No checkpoint yet.");
    expect(reply.data).toMatchObject({ count: 0, checkpoints: [] });
    const results = await run(ctx, "/rl results none0001");
    expect(results.fields).toContainEqual({ label: "Checkpoints", value: "none yet" });
  });
});

describe("checkpoints of an atropos demo run", () => {
  it("are the weights its trainer logs at each step and at the end, and resuming is said to be impossible", async () => {
    const stack = await startDemo({ totalSteps: 3 });
    stacks.push(stack);
    const { services } = stack;
    const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services };
    await services.env.selectEnvironment(CONSOLE, "arithmetic");
    const completed = nextEvent(services, "completed");
    const id = await startRun(ctx);
    const event = await completed;
    // Its final checkpoint is its final weights: the path is said once.
    expect(event.message).toContain("Final weights: tinker://demo/");
    expect(event.message).not.toContain("Final checkpoint");

    const list = await run(ctx, `/rl checkpoints ${id}`);
    const view = list.data as RunCheckpointsView;
    expect(view).toMatchObject({ stack: "atropos-tinker", count: 4, can_resume: false });
    expect(view.checkpoints.map((c) => [c.name, c.step, c.final ?? false])).toEqual([
      ["final", 3, true],
      ["step_3", 3, false],
      ["step_2", 2, false],
      ["step_1", 1, false],
    ]);
    expect(view.checkpoints[1]!.path).toMatch(/^tinker:\/\/demo\/\S+\/sampler_weights\/step_3$/);
    expect(list.text?.split("\n").at(-1)).toBe(
      "Resuming is not possible on atropos-tinker: tinker-atropos's trainer always starts at step 0.",
    );
    const results = await run(ctx, `/rl results ${id}`);
    expect(results.fields).toContainEqual({
      label: "Checkpoints",
      value: `4, latest final at step 3: ${view.checkpoints[0]!.path}`,
    });
  });
});
