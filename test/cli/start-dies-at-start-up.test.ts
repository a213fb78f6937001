// exec "/rl start" on the demo stack's real processes, whose environment dies during its start-up: the answer says
// failed and exec exits 1, never "all three processes are up" (the background supervisor answers the exec).
import { describe, expect, it } from "vitest";
import { readDb, supervisedFoldersPerTest } from "../helpers/bot-process.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const folders = supervisedFoldersPerTest();

describe("a start whose environment dies during its start-up", () => {
  // exit_after:1 dies 1 s after the process started, within the settle period, after it registered and sent groups;
  // exit_after_first_group:0 dies as soon as its first group reached the trajectory API (traffic shown).
  it.each(["exit_after:1", "exit_after_first_group:0"])(
    "DEMO_ENV_FAULT=%s: exec answers failed with the environment's log, exit 1",
    async (fault) => {
      const cwd = tempDir("rl-start-dies-");
      folders.push(cwd);
      const env = { DEMO_ENV_FAULT: fault };
      expect((await runCli(["exec", "/rl select arithmetic"], { cwd, env })).code).toBe(0);
      const start = await runCli(["exec", "/rl start"], { cwd, env });
      const said = start.stdout + start.stderr;
      expect(start.code, said).toBe(1);
      expect(said).not.toContain("processes are up");
      expect(said).toMatch(/Run [0-9a-f]{8} \(arithmetic\): failed/);
      expect(said).toContain("env exited with code 1 while the run was starting.");
      expect(said).toContain("demo fault injected: environment exits");

      const runs = readDb(cwd, {}, (db) => db.prepare("SELECT status, failed_component AS c FROM runs").all()) ?? [];
      expect(runs).toEqual([{ status: "failed", c: "env" }]);
      const json = await runCli(["exec", "/rl runs", "--json"], { cwd, env });
      expect((JSON.parse(json.stdout) as { runs: Array<{ status: string }> }).runs.map((r) => r.status)).toEqual([
        "failed",
      ]);
    },
    60_000,
  );
});
