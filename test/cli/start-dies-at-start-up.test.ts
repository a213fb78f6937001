// exec "/rl start" on the demo stack's real processes, whose environment dies during its start-up: the answer says
// failed and exec exits 1, never "all three processes are up" (the background supervisor answers the exec). An
// environment counts as started once its first group reached the trajectory API: one that dies after that fails the
// run with one notice, whichever of the answer and the death came first.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readDb, supervisedFoldersPerTest, waitFor } from "../helpers/bot-process.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const folders = supervisedFoldersPerTest();

const runsOf = (cwd: string) =>
  readDb(
    cwd,
    {},
    (db) => db.prepare("SELECT status, failed_component AS c FROM runs").all() as Array<{ status: string; c: string }>,
  ) ?? [];

async function startWith(fault: string) {
  const cwd = tempDir("rl-start-dies-");
  folders.push(cwd);
  const env = { DEMO_ENV_FAULT: fault };
  expect((await runCli(["exec", "/rl select arithmetic"], { cwd, env })).code).toBe(0);
  const start = await runCli(["exec", "/rl start"], { cwd, env });
  return { cwd, env, start, said: start.stdout + start.stderr };
}

describe("a start whose environment dies during its start-up", () => {
  // exit_after:0 dies as its process starts, before it registers; exit_at_first_group dies where it would send its
  // first group (a failing first step), after it registered: neither ever shows data at the API.
  it.each([
    ["exit_after:0", "environment exits 0.0 s after it started"],
    ["exit_at_first_group", "environment exits where its first group would be sent"],
  ])(
    "DEMO_ENV_FAULT=%s: exec answers failed with the environment's log, exit 1",
    async (fault, cause) => {
      const { cwd, env, start, said } = await startWith(fault);
      expect(start.code, said).toBe(1);
      expect(said).not.toContain("processes are up");
      expect(said).toMatch(/Run [0-9a-f]{8} \(arithmetic\): failed/);
      expect(said).toContain("env exited with code 1 while the run was starting.");
      expect(said).toContain(`demo fault injected: ${cause}`);

      expect(runsOf(cwd)).toEqual([{ status: "failed", c: "env" }]);
      const json = await runCli(["exec", "/rl runs", "--json"], { cwd, env });
      expect((JSON.parse(json.stdout) as { runs: Array<{ status: string }> }).runs.map((r) => r.status)).toEqual([
        "failed",
      ]);
    },
    60_000,
  );

  // exit_after_first_group:S dies S seconds after its first group reached the API: the start may see the data first
  // (and answer running; mostly so with 1 s) or the exit first (and answer failed; mostly so with 0 s); either way the
  // run ends failed, said once.
  it.each(["0", "1"])(
    "DEMO_ENV_FAULT=exit_after_first_group:%s: the run ends failed with the environment's log, said once",
    async (seconds) => {
      const { cwd, start, said } = await startWith(`exit_after_first_group:${seconds}`);
      const runs = await waitFor(() => {
        const rows = runsOf(cwd);
        return rows.length === 1 && rows[0]!.status !== "starting" && rows[0]!.status !== "running" && rows;
      }, "the run to end");
      expect(runs).toEqual([{ status: "failed", c: "env" }]);
      const notices = path.join(cwd, "data", "notices.log");
      if (start.code === 0) {
        // Answered running: the failure is the run's notice, in the notices file the background supervisor writes.
        expect(said).toContain("processes are up");
        const failed = await waitFor(() => {
          const text = existsSync(notices) ? readFileSync(notices, "utf8") : "";
          return text.includes("failed") && text;
        }, "the failure notice");
        expect(failed.match(/env exited with code 1/g), failed).toHaveLength(1);
        expect(failed).toContain(`demo fault injected: environment exits ${seconds}.0 s after sending its first group`);
      } else {
        expect(start.code, said).toBe(1);
        expect(said).not.toContain("processes are up");
        expect(said).toContain("env exited with code 1 while the run was starting.");
      }
    },
    60_000,
  );
});
