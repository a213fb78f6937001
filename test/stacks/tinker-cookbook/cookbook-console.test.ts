// A cookbook recipe run through the commands, on the bundled miniature: completes with steps, reward and final weights,
// shows its log, writes its config without secrets, stops with nothing left behind, and reports a recipe's traceback.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import type { CommandContext } from "../../../commands/types.ts";
import { processStartTime } from "../../../src/process/process-info.ts";
import { recipeLogDir } from "../../../src/stacks/tinker-cookbook/cookbook-stack.ts";
import { readRecipeRunFile } from "../../../src/stacks/tinker-cookbook/recipe-run-file.ts";
import {
  RECIPE,
  environOf,
  processesMentioning,
  selectRecipe,
  startCookbook,
  type RecipePace,
} from "../../helpers/cookbook.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../../helpers/demo-stack.ts";
import { waitFor } from "../../helpers/bot-process.ts";

const TINKER_KEY = "tinker-sentinel-5b1f0c";
const WANDB_KEY = "wandb-sentinel-9e2d7a";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function cookbook(pace: RecipePace, env: Record<string, string> = {}) {
  const stack = await startCookbook({ env });
  stacks.push(stack);
  await selectRecipe(stack.services, CONSOLE, pace);
  const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services: stack.services };
  const run = async (text: string) => dispatch({ text }, ctx, { confirmed: true });
  return { stack, services: stack.services, run };
}

const fieldOf = (reply: { fields?: Array<{ label: string; value: string }> }, label: string) =>
  reply.fields?.find((f) => f.label === label)?.value;

describe("a cookbook run through the commands", () => {
  it("completes: status shows step N / N and a reward, results the reward history and tinker:// weights, logs the recipe's output", async () => {
    const { services, run } = await cookbook({ steps: 6, stepSeconds: 0.05 });
    const completed = nextEvent(services, "completed");
    const started = await run("/rl start");
    expect(started.ok, started.reply.text).toBe(true);
    const id = (started.reply.data as { run_id: string }).run_id;
    expect(services.runs.get(id)).toMatchObject({ stack: "tinker-cookbook", environment: RECIPE });
    const event = await completed;
    expect(event.run.id).toBe(id);
    expect(event.message).toMatch(/^Training complete after 6 steps; reward mean [\d.]+\. Final weights: tinker:\/\//);

    const status = await run(`/rl status ${id}`);
    expect(status.reply.title).toBe(`✅ Run ${id} (${RECIPE}): completed`);
    expect(fieldOf(status.reply, "Step")).toBe("6 / 6");
    expect(fieldOf(status.reply, "Reward mean")).toMatch(/^0\.\d+$/);
    expect(fieldOf(status.reply, "Processes")).toBe("trainer exited (0)");
    // Nothing of the other stack's processes or wording on a recipe's run.
    expect(JSON.stringify(status.reply)).not.toMatch(/\b(api|env) (running|exited)|trajectory API|atropos/i);

    const results = await run(`/rl results ${id}`);
    const data = results.reply.data as {
      reward_history: Array<{ step: number; value: number }>;
      final_weights: string;
    };
    expect(data.reward_history.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(data.final_weights).toMatch(/^tinker:\/\/[\w-]+:train:0\/sampler_weights\/final$/);
    expect(fieldOf(results.reply, "Final weights")).toBe(data.final_weights);
    // Without WandB the history is the recipe's metrics.jsonl: no trainer log of Atropos's is named.
    expect((results.reply.data as { history_note?: string }).history_note).toBe(
      "WandB history needs WANDB_API_KEY. Reward history is from the run's own log files.",
    );

    const logs = await run(`/rl logs ${id}`);
    expect(logs.ok, logs.reply.text).toBe(true);
    expect(logs.reply.title).toBe(`trainer log of run ${id}`);
    expect(logs.reply.blocks?.[0]?.content).toMatch(/Training completed successfully/);
    const env = await run(`/rl logs ${id} env`);
    expect(env.ok).toBe(false);
    expect(env.reply.text).toBe(`Run ${id} has no env process; its processes are trainer. Try /rl logs ${id} trainer.`);
  });

  it("writes the bot's own fields into the run's config and hands the keys to the process environment only", async () => {
    const { stack, services, run } = await cookbook(
      { steps: 200, stepSeconds: 0.1 },
      { TINKER_API_KEY: TINKER_KEY, WANDB_API_KEY: WANDB_KEY, WANDB_PROJECT: "cookbook-tests" },
    );
    const started = await run("/rl start");
    const id = (started.reply.data as { run_id: string }).run_id;
    const row = services.runs.get(id)!;
    expect(row.status).toBe("running");
    const text = readFileSync(row.configPath!, "utf8");
    expect(text).not.toContain(TINKER_KEY);
    expect(text).not.toContain(WANDB_KEY);
    const file = readRecipeRunFile(row.configPath!);
    expect(file).toMatchObject({ recipe: RECIPE, module: `tinker_cookbook.recipes.${RECIPE}` });
    expect(file.args).toMatchObject({
      log_path: recipeLogDir(services.config, id),
      behavior_if_log_dir_exists: "resume",
      wandb_project: "cookbook-tests",
      wandb_name: `${RECIPE}-${id}`,
      demo_n_batches: 200,
    });
    expect(recipeLogDir(services.config, id)).toBe(`${stack.cwd}/data/runs/${id}`);

    const [trainer] = services.processes.list(id);
    expect(trainer?.component).toBe("trainer");
    const environ = environOf(trainer!.pid!);
    expect(environ).toMatchObject({ TINKER_API_KEY: TINKER_KEY, WANDB_API_KEY: WANDB_KEY });
    // The recipe's own config.json (written by the process from its arguments) holds no key either.
    const written = await waitFor(() => {
      try {
        return readFileSync(`${recipeLogDir(services.config, id)}/config.json`, "utf8");
      } catch {
        return undefined;
      }
    }, "the recipe's config.json");
    expect(written).not.toContain(TINKER_KEY);
    expect(written).not.toContain(WANDB_KEY);
  });

  it("stops a run midway: stopped, its process gone, nothing of it left running", async () => {
    const { services, run } = await cookbook({ steps: 400, stepSeconds: 0.1 });
    const started = await run("/rl start");
    const id = (started.reply.data as { run_id: string }).run_id;
    await waitFor(async () => ((await services.report.status(services.runs.get(id)!)).step ?? 0) >= 2, "two steps");
    const [trainer] = services.processes.list(id);
    const pid = trainer!.pid!;
    expect(processStartTime(pid)).toBeDefined();
    const logDir = recipeLogDir(services.config, id);
    expect(processesMentioning(logDir)).toEqual([pid]);

    const stopped = await run(`/rl stop ${id}`);
    expect(stopped.ok, stopped.reply.text).toBe(true);
    expect(stopped.reply.title).toBe(`⏹ Run ${id} (${RECIPE}): stopped`);
    expect(services.runs.get(id)).toMatchObject({ status: "stopped", stoppedBy: "local" });
    expect(processStartTime(pid)).toBeUndefined();
    expect(processesMentioning(logDir)).toEqual([]);
    const status = await run(`/rl status ${id}`);
    expect(fieldOf(status.reply, "Processes")).toMatch(/^trainer (exited|killed)/);
  });

  it("reports a recipe's failure with the last lines of its Python traceback", async () => {
    const { services, run } = await cookbook({ steps: 20, stepSeconds: 0.05, fault: "error_in_step:3" });
    const failed = nextEvent(services, "failed");
    const started = await run("/rl start");
    const id = (started.reply.data as { run_id: string }).run_id;
    const event = await failed;
    expect(event.run.id).toBe(id);
    expect(event.component).toBe("trainer");
    expect(event.message).toMatch(/^trainer exited with code 1/);
    expect(event.logTail?.join("\n")).toMatch(/Traceback|File ".*train\.py"/);
    expect(event.logTail?.at(-1)).toMatch(/^\s*RuntimeError: demo_fault: injected error in step 3$/);
    expect(services.runs.get(id)).toMatchObject({ status: "failed", failedComponent: "trainer" });

    const status = await run(`/rl status ${id}`);
    expect(status.reply.title).toBe(`❌ Run ${id} (${RECIPE}): failed`);
    expect(status.reply.text).toMatch(/^trainer exited with code 1/);
    // Steps 0-2 were logged before the error: the status says so, and no final weights are claimed.
    expect(fieldOf(status.reply, "Step")).toMatch(/^3 \//);
    const results = await run(`/rl results ${id}`);
    expect((results.reply.data as { final_weights?: string }).final_weights).toBeUndefined();
  });
});
