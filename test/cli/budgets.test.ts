// Budgets on real processes: two execs racing for a budget's last run start one, a sweep over its steps is refused
// with what is left and when it resets, an admin's --over-budget passes and is audited, a typo'd window is refused.
import { describe, expect, it } from "vitest";
import { readDb, supervisedFoldersPerTest } from "../helpers/bot-process.ts";
import { COOKBOOK_ENV, cookbookLockedFields, RECIPE } from "../helpers/cookbook.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const folders = supervisedFoldersPerTest();

async function cookbookFolder(): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = tempDir("rl-budgets-");
  folders.push(cwd);
  const env = { ...COOKBOOK_ENV, RL_LOCKED_FIELDS: cookbookLockedFields(cwd), RL_IDLE_EXIT_MINUTES: "10" };
  for (const command of [`/rl select ${RECIPE}`, "/rl set demo_n_batches 4", "/rl set demo_step_seconds 0.1"]) {
    const out = await runCli(["exec", command], { cwd, env });
    expect(out.code, out.stderr).toBe(0);
  }
  return { cwd, env };
}

const runCount = (cwd: string, env: Record<string, string>) =>
  readDb(cwd, env, (db) => (db.prepare("SELECT COUNT(*) AS n FROM runs").get() as { n: number }).n);

describe("budgets", () => {
  it("two execs racing for the last run of a budget start one run; the other is refused with what is left", async () => {
    const { cwd, env } = await cookbookFolder();
    const set = await runCli(["exec", "/rl budget set runs 1 per day"], { cwd, env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain("Budget set: 1 runs per day for this channel");

    const [a, b] = await Promise.all([
      runCli(["exec", "/rl start", "--json"], { cwd, env }),
      runCli(["exec", "/rl start", "--json"], { cwd, env }),
    ]);
    expect(runCount(cwd, env)).toBe(1);
    const outs = [a, b].map((o) => o.stdout + o.stderr);
    const refused = outs.filter((o) => o.includes("Over budget"));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain("this run: 1 run, 4 steps; channel has 0 of 1 runs left today (resets ");
    expect(refused[0]).toContain("An admin can start it anyway with --over-budget");

    const shown = await runCli(["exec", "/rl budget", "--json"], { cwd, env });
    const budgets = (JSON.parse(shown.stdout) as { budgets: Array<Record<string, unknown>> }).budgets;
    expect(budgets).toEqual([
      expect.objectContaining({ scope: "channel", kind: "runs", period: "day", limit: 1, used: 1, left: 0 }),
    ]);
  });

  it("a sweep over the week's steps is refused with its estimate; --over-budget passes and is audited", async () => {
    const { cwd, env } = await cookbookFolder();
    expect((await runCli(["exec", "/rl budget set steps 10 per week"], { cwd, env })).code).toBe(0);
    const first = await runCli(["exec", "/rl sweep learning_rate=1e-5,2e-5"], { cwd, env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(["exec", "/rl sweep learning_rate=3e-5,4e-5"], { cwd, env });
    expect(second.code).not.toBe(0);
    expect(second.stdout + second.stderr).toContain(
      "Over budget: this sweep: 2 runs x 4 steps; channel has 2 of 10 steps left this week (resets ",
    );
    expect(runCount(cwd, env)).toBe(2);

    const over = await runCli(["exec", "/rl sweep learning_rate=3e-5,4e-5 --over-budget"], { cwd, env });
    expect(over.code, over.stdout + over.stderr).toBe(0);
    expect(runCount(cwd, env)).toBe(4);
    const audit = await runCli(["exec", "/rl audit", "--json"], { cwd, env });
    expect(audit.stdout).toContain("--over-budget");
  });

  it("a window with a typo is refused with the accepted forms, and nothing is set", async () => {
    const { cwd, env } = await cookbookFolder();
    const typo = await runCli(["exec", "/rl budget set steps 100 per wek"], { cwd, env });
    expect(typo.code).not.toBe(0);
    expect(typo.stdout + typo.stderr).toContain('"wek" is not a budget window: use per day, per week or per month');
    const kind = await runCli(["exec", "/rl budget set stpes 100 per week"], { cwd, env });
    expect(kind.stdout + kind.stderr).toContain("use one of runs, concurrent, steps, gpu-hours");
    const shown = await runCli(["exec", "/rl budget"], { cwd, env });
    expect(shown.stdout).toContain("No budgets here");
  });
});
