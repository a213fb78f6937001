// One data folder, runs of both stacks: a bot on either stack lists the other's runs with their status, reads them, and
// stops a live one in the order of the run's own stack (atropos: env, trainer, api; a recipe: its one process).
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../../commands/dispatch.ts";
import type { CommandContext } from "../../../commands/types.ts";
import type { Services } from "../../../src/services.ts";
import { processStartTime } from "../../../src/process/process-info.ts";
import { recipeLogDir } from "../../../src/stacks/tinker-cookbook/cookbook-stack.ts";
import { waitFor } from "../../helpers/bot-process.ts";
import { RECIPE, processesMentioning, selectRecipe, startCookbook } from "../../helpers/cookbook.ts";
import { CONSOLE, closeDemoStacks, startDemo, type DemoStack } from "../../helpers/demo-stack.ts";

const stacks: DemoStack[] = [];
// One live run of each stack at a time: the run of the other stack counts against the limit too.
const TWO_RUNS = { RL_MAX_CONCURRENT_RUNS: "2" };
afterEach(() => closeDemoStacks(stacks));

const command = (services: Services) => {
  const ctx: CommandContext = { channel: CONSOLE, user: { id: "local" }, via: "console", services };
  return (text: string) => dispatch({ text }, ctx, { confirmed: true });
};
const pidsOf = (services: Services, runId: string) => services.processes.list(runId).map((p) => p.pid!);
/** The stops a run's end owed, in the order they were written. */
const stopsOf = (services: Services, runId: string) =>
  services.db
    .prepare("SELECT component FROM run_actions WHERE run_id = ? AND action = 'stop' ORDER BY id")
    .all(runId)
    .map((r) => (r as { component: string }).component);
const statusesOf = (reply: { data?: unknown }) =>
  Object.fromEntries(
    (reply.data as { runs: Array<{ run_id: string; status: string }> }).runs.map((r) => [r.run_id, r.status]),
  );

describe("runs of both stacks in one data folder", () => {
  it("a cookbook bot lists and stops an atropos run (env, trainer, api); an atropos bot lists and stops a recipe run", async () => {
    // An atropos-tinker bot starts a long run and goes away; the run carries on.
    const atropos = await startDemo({ totalSteps: 400, stepSeconds: 0.1, env: TWO_RUNS });
    const { cwd, lockedFile } = atropos;
    await atropos.services.env.selectEnvironment(CONSOLE, "arithmetic");
    const a = await atropos.services.manager.start({ channel: CONSOLE, userId: "local" });
    expect(a).toMatchObject({ status: "running", stack: "atropos-tinker" });
    const aPids = pidsOf(atropos.services, a.id);
    expect(aPids).toHaveLength(3);
    await atropos.services.close();

    // A cookbook bot on the same folder: it watches the atropos run and starts a recipe of its own.
    const cookbook = await startCookbook({ cwd, env: TWO_RUNS });
    stacks.push(cookbook);
    await cookbook.services.manager.recover();
    await selectRecipe(cookbook.services, CONSOLE, { steps: 400, stepSeconds: 0.1 });
    const onCookbook = command(cookbook.services);
    const started = await onCookbook("/rl start");
    expect(started.ok, started.reply.text).toBe(true);
    const b = (started.reply.data as { run_id: string }).run_id;
    expect(cookbook.services.runs.get(b)).toMatchObject({ status: "running", stack: "tinker-cookbook" });

    const listed = await onCookbook("/rl runs");
    expect(statusesOf(listed.reply)).toEqual({ [a.id]: "running", [b]: "running" });
    expect(listed.reply.text).toContain(`Run ${a.id} (arithmetic): running`);
    expect(listed.reply.text).toContain(`Run ${b} (${RECIPE}): running`);
    const aStatus = await onCookbook(`/rl status ${a.id}`);
    expect(aStatus.reply.fields).toContainEqual({
      label: "Processes",
      value: "api running, trainer running, env running",
    });
    const aLogs = await onCookbook(`/rl logs ${a.id} env`);
    expect(aLogs.ok, aLogs.reply.text).toBe(true);

    const stopA = await onCookbook(`/rl stop ${a.id}`);
    expect(stopA.ok, stopA.reply.text).toBe(true);
    expect(cookbook.services.runs.get(a.id)?.status).toBe("stopped");
    expect(stopsOf(cookbook.services, a.id)).toEqual(["env", "trainer", "api"]);
    for (const pid of aPids) expect(processStartTime(pid)).toBeUndefined();
    // The recipe run is untouched.
    expect(cookbook.services.runs.get(b)?.status).toBe("running");
    const bPid = pidsOf(cookbook.services, b)[0]!;
    expect(processStartTime(bPid)).toBeDefined();
    stacks.splice(stacks.indexOf(cookbook), 1);
    await cookbook.services.close();

    // An atropos-tinker bot again: it lists the recipe run as running, reads it, and stops it.
    const again = await startDemo({ cwd, lockedFile, env: TWO_RUNS });
    stacks.push(again);
    await again.services.manager.recover();
    const onAtropos = command(again.services);
    expect(statusesOf((await onAtropos("/rl runs")).reply)).toEqual({ [a.id]: "stopped", [b]: "running" });
    await waitFor(
      async () => ((await again.services.report.status(again.services.runs.get(b)!)).step ?? 0) >= 1,
      "a step of the recipe run",
    );
    const bStatus = await onAtropos(`/rl status ${b}`);
    expect(bStatus.reply.title).toBe(`🏃 Run ${b} (${RECIPE}): running`);
    expect(bStatus.reply.fields).toContainEqual({ label: "Processes", value: "trainer running" });
    expect(bStatus.reply.fields?.find((f) => f.label === "Step")?.value).toMatch(/^[1-9]\d* \//);
    const bLogs = await onAtropos(`/rl logs ${b} api`);
    expect(bLogs.reply.text).toBe(`Run ${b} has no api process; its processes are trainer. Try /rl logs ${b} trainer.`);

    const stopB = await onAtropos(`/rl stop ${b}`);
    expect(stopB.ok, stopB.reply.text).toBe(true);
    expect(again.services.runs.get(b)?.status).toBe("stopped");
    expect(stopsOf(again.services, b)).toEqual(["trainer"]);
    expect(processStartTime(bPid)).toBeUndefined();
    expect(processesMentioning(recipeLogDir(again.services.config, b))).toEqual([]);
  });
});
