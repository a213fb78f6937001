// /rl resume and /rl fork on real cookbook-miniature runs through the bot: the same run continues from its last
// checkpoint with its history and notices; a fork starts a new, linked run from a checkpoint's weights.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dispatch } from "../../commands/dispatch.ts";
import type { CommandContext } from "../../commands/types.ts";
import type { RunRow } from "../../db/runs.ts";
import type { Comparison } from "../../src/experiments/compare-runs.ts";
import { loadConfig } from "../../src/config.ts";
import { personRef, type Reply } from "../../src/reply.ts";
import { formatDuration } from "../../src/values/format-value.ts";
import { createServices, type Services } from "../../src/services.ts";
import { answer, confirmed } from "../helpers/confirm.ts";
import { environOf } from "../helpers/cookbook.ts";
import { CONSOLE, closeDemoStacks, nextEvent, type DemoStack } from "../helpers/demo-stack.ts";
import { tempDir } from "../helpers/test-services.ts";
import { READY_TIMEOUT_SECONDS } from "../helpers/ceiling.ts";
import { waitFor } from "../helpers/wait-for.ts";

const stacks: DemoStack[] = [];
afterEach(() => closeDemoStacks(stacks));

async function cookbook(settings: Record<string, string>): Promise<{ services: Services; ctx: CommandContext }> {
  const cwd = tempDir("rl-resume-");
  const config = loadConfig(
    {
      RL_LOG_LEVEL: "silent",
      RL_STACK: "tinker-cookbook",
      RL_STOP_GRACE_SECONDS: "3",
      RL_READY_TIMEOUT_SECONDS: READY_TIMEOUT_SECONDS,
    },
    cwd,
  );
  const services = createServices(config);
  stacks.push({ services, cwd, lockedFile: "" });
  await services.env.selectEnvironment(CONSOLE, "math_rl.train");
  for (const [field, value] of Object.entries(settings)) await services.env.editConfig(CONSOLE, field, value);
  return { services, ctx: { channel: CONSOLE, user: { id: "alice", name: "alice" }, via: "console", services } };
}

const checkpointsOf = (services: Services, id: string): string[] => {
  const file = path.join(services.config.dataDir, "runs", id, "checkpoints.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
};
const stepsLogged = (services: Services, id: string): number[] =>
  readFileSync(path.join(services.config.dataDir, "runs", id, "metrics.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { step: number }).step);
const noticesOf = (services: Services, id: string): string[] =>
  (
    services.db
      .prepare("SELECT dedupe_key FROM outbox WHERE run_id = ? AND kind = 'notice' ORDER BY id")
      .all(id) as Array<{
      dedupe_key: string;
    }>
  ).map((r) => r.dedupe_key.split(":").at(-1)!);

const completedNotice = (services: Services, id: string): Reply =>
  JSON.parse(
    (
      services.db
        .prepare("SELECT reply_json FROM outbox WHERE run_id = ? AND kind = 'notice' AND dedupe_key LIKE '%:completed'")
        .get(id) as { reply_json: string }
    ).reply_json,
  ) as Reply;

/** A long run stopped by alice once it saved a checkpoint: ready to be resumed. */
async function stoppedAfterCheckpoint() {
  const { services, ctx } = await cookbook({ max_steps: "40", save_every: "2", demo_step_seconds: "0.1" });
  const { reply } = await confirmed(ctx, "/rl start");
  const id = (reply.data as { run_id: string }).run_id;
  await waitFor(() => checkpointsOf(services, id).length >= 1, "a checkpoint");
  await services.manager.stop(id, "alice");
  return { services, ctx, id };
}

describe("/rl resume", () => {
  it("continues a stopped run from its last checkpoint as the same run, to its last step, with one completed notice", async () => {
    // Long enough after the resume point that the resumed trainer is still alive when the resume is answered.
    const { services, ctx } = await cookbook({ max_steps: "40", save_every: "4", demo_step_seconds: "0.2" });
    const { reply: started } = await confirmed(ctx, "/rl start");
    const id = (started.data as { run_id: string }).run_id;
    await waitFor(() => checkpointsOf(services, id).length >= 2, "two checkpoints");
    const wandbIdentity = () => {
      const environ = environOf(services.processes.list(id).find((p) => p.component === "trainer")!.pid!);
      return { id: environ.WANDB_RUN_ID, resume: environ.WANDB_RESUME };
    };
    const firstAttempt = wandbIdentity();
    await confirmed(ctx, `/rl stop ${id}`);
    const stopped = services.runs.get(id)!;
    expect(stopped.status).toBe("stopped");
    const firstMs = stopped.endedAt! - stopped.startedAt!;
    const last = JSON.parse(checkpointsOf(services, id).at(-1)!) as { name: string; batch: number };

    const completed = nextEvent(services, "completed");
    const { prompt, reply } = await confirmed(ctx, `/rl resume ${id}`);
    expect(prompt.title).toBe(`Resume run ${id} (math_rl.train) from checkpoint ${last.name}?`);
    expect((reply.data as { run_id: string; resumed_step: number }).run_id).toBe(id);
    expect((reply.data as { resumed_step: number }).resumed_step).toBe(last.batch);
    // Both attempts tell wandb.init the same run id, to resume if it exists: one WandB run, continued.
    expect(wandbIdentity()).toEqual(firstAttempt);
    expect(firstAttempt).toEqual({ id, resume: "allow" });
    expect((await completed).run.id).toBe(id);

    const run = services.runs.get(id)!;
    expect(run).toMatchObject({ status: "completed", attempt: 1, resumedBy: "alice", resumedStep: last.batch });
    // The resumed process went on from the checkpoint: every step after it is logged, ending at the last.
    const steps = stepsLogged(services, id);
    expect(steps.at(-1)).toBe(39);
    expect(steps.slice(steps.lastIndexOf(last.batch))).toEqual(
      Array.from({ length: 40 - last.batch }, (_, i) => last.batch + i),
    );
    // One notice of each kind per attempt: started, stopped; resumed (not started again), completed once.
    expect(noticesOf(services, id)).toEqual(["started", "stopped", "resumed", "completed"]);
    // Its duration is both attempts' training time, not the last attempt's alone nor the time stopped in between.
    expect(run.trainedMs).toBe(firstMs);
    const trainedMs = firstMs + run.endedAt! - run.startedAt!;
    expect(completedNotice(services, id).fields?.find((f) => f.label === "Duration")?.value).toBe(
      `${formatDuration(trainedMs)} in 2 attempts`,
    );
    const status = await dispatch({ text: `/rl status ${id}` }, ctx);
    expect(status.reply.fields?.find((f) => f.label === "Resumed")?.value).toBe(
      `at step ${last.batch} by ${personRef("alice")}`,
    );
    expect(status.reply.fields?.find((f) => f.label === "Step")?.value).toBe("40 / 40");
    expect(status.reply.fields?.find((f) => f.label === "Running time")?.value).toBe(
      `${Math.round((trainedMs / 60_000) * 10) / 10} min in 2 attempts`,
    );
    expect((await dispatch({ text: "/rl runs" }, ctx)).reply.text).toMatch(new RegExp(`Run ${id} .* · resumed$`, "m"));
  });

  it("is refused, with the reason and what to do instead, for a completed or checkpoint-less run", async () => {
    const { services, ctx } = await cookbook({ max_steps: "3", save_every: "100", demo_step_seconds: "0.05" });
    const completed = nextEvent(services, "completed");
    const { reply } = await confirmed(ctx, "/rl start");
    const id = (reply.data as { run_id: string }).run_id;
    await completed;
    const done = await dispatch({ text: `/rl resume ${id}` }, ctx);
    expect(done.reply.error?.message).toMatch(`Run ${id} completed; there is nothing left to resume. /rl fork ${id}`);

    // A failed run that saved nothing but its final record (never reached): no checkpoint to resume from.
    await services.env.editConfig(CONSOLE, "demo_fault", "error_in_step:1");
    const failed = nextEvent(services, "failed");
    const prompt = await dispatch({ text: "/rl start" }, ctx);
    await answer(prompt.reply, ctx);
    const failedId = (await failed).run.id;
    const refused = await dispatch({ text: `/rl resume ${failedId}` }, ctx);
    expect(refused.reply.error?.message).toMatch(/saved no checkpoint before it ended.*\/rl rerun/);
    expect(services.runs.get(failedId)!.attempt).toBe(0);
  });

  it("announces a resume queued behind a live run as queued, then once as resumed when it runs", async () => {
    const { services, ctx, id } = await stoppedAfterCheckpoint();
    const { reply } = await confirmed(ctx, "/rl start");
    const other = (reply.data as { run_id: string }).run_id;
    const { run: queued } = await services.manager.resume(id, "alice");
    expect(queued.status).toBe("queued");
    const resumed = nextEvent(services, "resumed");
    await services.manager.stop(other, "alice");
    expect((await resumed).message).toMatch(
      new RegExp(`^Run ${id} resumed from step \\d+, asked by alice, and is running\\.$`),
    );
    await services.manager.stop(id, "alice");
    expect(noticesOf(services, id)).toEqual(["started", "stopped", "queued", "resumed", "stopped"]);
  });

  it("moves the run once when the same resume arrives twice", async () => {
    const { services, id } = await stoppedAfterCheckpoint();
    const both = await Promise.allSettled([services.manager.resume(id, "alice"), services.manager.resume(id, "bob")]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = both.find((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(String(refused?.reason)).toMatch(
      /only a stopped, failed or lost run can be resumed|resumed or started by someone else/,
    );
    expect(services.runs.get(id)!.attempt).toBe(1);
    await services.manager.stop(id, "alice");
  });
});

describe("/rl resume, confirmed twice", () => {
  it("resumes once when two people's confirmations race and when one confirmation is replayed", async () => {
    const { services, ctx, id } = await stoppedAfterCheckpoint();

    // Two prompts for the same run, confirmed at the same moment: one resumes it, the other is told why not.
    const admin: CommandContext = { ...ctx, user: { id: "root", name: "root" } };
    const asked = [
      await dispatch({ text: `/rl resume ${id}` }, ctx),
      await dispatch({ text: `/rl resume ${id}` }, admin),
    ];
    const [one, two] = await Promise.all([answer(asked[0]!.reply, ctx), answer(asked[1]!.reply, admin)]);
    expect([one!.ok, two!.ok].sort()).toEqual([false, true]);
    expect((one!.ok ? two! : one!).reply.error?.message).toMatch(
      /only a stopped, failed or lost run can be resumed|resumed or started by someone else/,
    );
    // The same Confirm once more (a replayed click): nothing happens again.
    const replayed = await answer(asked[0]!.reply, ctx);
    expect(replayed.reply.error?.message).toMatch(/^This was already answered/);
    expect(services.runs.get(id)!.attempt).toBe(1);
    const resumedNotices = noticesOf(services, id).filter((k) => k === "resumed");
    expect(resumedNotices).toHaveLength(1);
    await services.manager.stop(id, "alice");
  });
});

describe("/rl resume <sweep>", () => {
  it("resumes the sweep's runs that saved a checkpoint and says why the others were not", async () => {
    const { services, ctx } = await cookbook({ max_steps: "40", save_every: "2", demo_step_seconds: "0.1" });
    const { reply } = await confirmed(ctx, "/rl sweep seed=1,2");
    const sweepId = (reply.data as { sweep_id: string }).sweep_id;
    const [first, second] = services.runs.listBySweep(sweepId);
    await waitFor(() => checkpointsOf(services, first!.id).length >= 1, "a checkpoint of the first run");
    await confirmed(ctx, `/rl stop ${sweepId}`);
    expect(services.runs.get(second!.id)!.status).toBe("stopped");

    const { prompt, reply: resumed } = await confirmed(ctx, `/rl resume ${sweepId}`);
    expect(prompt.title).toBe(`Resume sweep ${sweepId} (math_rl.train): 1 of its 2 runs?`);
    const outcomes = Object.fromEntries((resumed.fields ?? []).map((f) => [f.label, f.value]));
    expect(outcomes[`Run ${first!.id}`]).toMatch(/^(starting|running), from checkpoint \d+ \(step \d+\)$/);
    expect(outcomes[`Run ${second!.id}`]).toMatch(/^not resumed: .*saved no checkpoint/);
    expect(services.runs.get(first!.id)!.attempt).toBe(1);
    expect(services.runs.get(second!.id)!.attempt).toBe(0);
    await services.manager.stop(first!.id, "alice");
  });
});

/** An 8-step run that completed, with its mid checkpoint (step 4) to fork from. */
async function finishedParent() {
  const { services, ctx } = await cookbook({ max_steps: "8", save_every: "4", demo_step_seconds: "0.05" });
  const completed = nextEvent(services, "completed");
  const { reply } = await confirmed(ctx, "/rl start");
  const parent = (reply.data as { run_id: string }).run_id;
  await completed;
  const mid = JSON.parse(checkpointsOf(services, parent)[0]!) as { name: string; batch: number; state_path: string };
  return { services, ctx, parent, mid };
}

describe("/rl fork", () => {
  it("starts a new, linked run from a mid checkpoint's weights with the changed field", async () => {
    const { services, ctx, parent, mid } = await finishedParent();

    const forkDone = nextEvent(services, "completed");
    const { prompt, reply: forked } = await confirmed(ctx, `/rl fork ${parent} ${mid.name} learning_rate=0.00002`);
    expect(prompt.fields?.find((f) => f.label === "Differences")?.value).toBe("learning_rate: 0.00001 → 0.00002");
    const child = (forked.data as { run_id: string }).run_id;
    expect(child).not.toBe(parent);
    await forkDone;
    const run: RunRow = services.runs.get(child)!;
    expect(run).toMatchObject({ parentId: parent, forkStep: mid.batch, status: "completed" });
    expect(run.config).toMatchObject({ learning_rate: 0.00002, load_checkpoint_path: mid.state_path });
    const log = readFileSync(path.join(services.config.logsDir, `trainer_${child}.log`), "utf8");
    expect(log).toContain(`Loaded weights from ${mid.state_path}`);
    // It trained with the changed field: every step the fork logged used the new learning rate.
    const logged = readFileSync(path.join(services.config.dataDir, "runs", child, "metrics.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { "optim/lr": number })["optim/lr"]);
    expect(logged).toEqual(Array.from({ length: 8 }, () => 0.00002));
    const status = await dispatch({ text: `/rl status ${child}` }, ctx);
    expect(status.reply.fields?.find((f) => f.label === "Forked from")?.value).toBe(
      `run ${parent} at step ${mid.batch}`,
    );
    const listed = (await dispatch({ text: "/rl runs" }, ctx)).reply.text ?? "";
    expect(listed).toMatch(
      new RegExp(`Run ${child} \\(math_rl\\.train\\): completed · .* · fork of ${parent} at step ${mid.batch}$`, "m"),
    );
    expect(listed).toMatch(new RegExp(`Run ${parent} \\(math_rl\\.train\\): completed · [^·]+ · [^·]+$`, "m"));

    const unknown = await dispatch({ text: `/rl fork ${parent} 999999` }, ctx);
    expect(unknown.reply.error?.message).toMatch(`Run ${parent} has no checkpoint "999999". Its checkpoints: `);
  });
});

describe("/rl compare of a fork", () => {
  it("draws each fork after its parent's curve up to the fork step, labelled as the parent's, and names the parent", async () => {
    const { services, ctx, parent, mid } = await finishedParent();
    const forks: string[] = [];
    for (const rate of ["0.00002", "0.00003"]) {
      const done = nextEvent(services, "completed");
      const { reply: forked } = await confirmed(ctx, `/rl fork ${parent} ${mid.name} learning_rate=${rate}`);
      forks.push((forked.data as { run_id: string }).run_id);
      await done;
    }
    const rewards = (id: string) =>
      readFileSync(path.join(services.config.dataDir, "runs", id, "metrics.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { step: number; "env/all/reward/total": number })
        .map((m) => ({ done: m.step + 1, y: m["env/all/reward/total"] }));

    // Only the forks compared: the parent's line up to the fork step, once for both, then each fork from there on.
    const [a, b] = forks as [string, string];
    const compared = await dispatch({ text: `/rl compare ${a} ${b}` }, ctx);
    expect(compared.ok, compared.reply.text).toBe(true);
    const series = compared.reply.chart?.series ?? [];
    expect(series.map((s) => s.label)).toEqual([
      `${parent} (parent of ${a}, ${b}, to step ${mid.batch})`,
      `${a} learning_rate=0.00002`,
      `${b} learning_rate=0.00003`,
    ]);
    expect(series[0]!.points).toEqual(
      rewards(parent)
        .filter((p) => p.done <= mid.batch)
        .map((p) => ({ x: p.done, y: p.y })),
    );
    for (const [i, id] of forks.entries())
      expect(series[i + 1]!.points).toEqual(rewards(id).map((p) => ({ x: mid.batch + p.done, y: p.y })));
    const table = compared.reply.blocks![0]!.content.split("\n").map((l) => l.split(/\s{2,}/));
    expect(table[0]).toEqual(["run", "learning_rate", "reward", "steps", "time", "state", "forked from"]);
    for (const id of forks)
      expect(table.find((row) => row[0]!.startsWith(id))?.at(-1)).toBe(`${parent} at step ${mid.batch}`);
    const data = compared.reply.data as Comparison;
    expect(data.runs.map((r) => [r.forked_from?.run_id, r.forked_from?.step])).toEqual([
      [parent, mid.batch],
      [parent, mid.batch],
    ]);

    // The parent compared too: its whole line is drawn once, under its own name, and the fork still continues it.
    const withParent = await dispatch({ text: `/rl compare ${parent} ${a}` }, ctx);
    const lines = withParent.reply.chart?.series ?? [];
    expect(lines.map((s) => s.label.split(" ")[0])).toEqual([parent, a]);
    expect(lines[0]!.points).toEqual(rewards(parent).map((p) => ({ x: p.done, y: p.y })));
    expect(lines[1]!.points[0]!.x).toBe(mid.batch + 1);
    const rows = withParent.reply.blocks![0]!.content.split("\n").map((l) => l.split(/\s{2,}/));
    expect(rows.find((row) => row[0]!.startsWith(parent))?.at(-1)).toBe("–");
  });
});
