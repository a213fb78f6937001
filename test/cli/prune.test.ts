// rl-chatops prune: the files of old ended runs listed (--dry-run), refused while another process owns the data
// folder, deleted or moved into an archive with every file named; the runs stay, noted; live and recent runs keep theirs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/open-database.ts";
import { createRunFilesRepo } from "../../db/run-files.ts";
import { createRunProcessesRepo } from "../../db/run-processes.ts";
import { createRunsRepo, type RunStatus } from "../../db/runs.ts";
import { loadConfig } from "../../src/config.ts";
import { tryAcquireLease } from "../../src/lease/acquire-lease.ts";
import { logPathOf, runFolderOf } from "../../src/stacks/log-path.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const DAY = 24 * 3600_000;
const channel = { platform: "slack", workspace: "T1", channel: "C1" };

/** A data folder with runs ended `daysAgo` (or live), each with two logs, a run config and a run folder. */
function dataFolder(runs: Array<{ id: string; daysAgo: number; status: RunStatus }>) {
  const cwd = tempDir("rl-prune-");
  const config = loadConfig({ RL_LOG_LEVEL: "silent" }, cwd);
  const db = openDatabase(config.databasePath);
  let clock = 0;
  const repo = createRunsRepo(db, () => clock);
  const processes = createRunProcessesRepo(db);
  const files: Record<string, string[]> = {};
  for (const run of runs) {
    clock = Date.now() - run.daysAgo * DAY - 3600_000;
    repo.insert({ id: run.id, channel, environment: "arithmetic", config: {}, status: "starting", createdBy: "U1" });
    const configPath = path.join(config.runConfigsDir, `run_${run.id}.yaml`);
    const folder = runFolderOf(config.dataDir, run.id);
    mkdirSync(path.dirname(configPath), { recursive: true });
    mkdirSync(folder, { recursive: true });
    mkdirSync(config.logsDir, { recursive: true });
    writeFileSync(configPath, "env: {}\n");
    writeFileSync(path.join(folder, "samples.jsonl"), "x".repeat(5000));
    files[run.id] = [configPath, folder];
    for (const component of ["api", "trainer"]) {
      const log = logPathOf(config.logsDir, run.id, component);
      writeFileSync(log, `${component} log\n`);
      processes.upsert({ runId: run.id, component, logPath: log, state: "ready" });
      files[run.id]!.push(log);
    }
    const ended = run.status !== "running" ? { endedAt: Date.now() - run.daysAgo * DAY } : {};
    repo.update(run.id, { status: run.status, configPath, ...ended });
  }
  db.close();
  return { cwd, config, files };
}

describe("rl-chatops prune", () => {
  it("lists with --dry-run, refuses beside an owner, then archives or deletes old runs' files and notes each run", async () => {
    const { cwd, config, files } = dataFolder([
      { id: "aaaa0001", daysAgo: 300, status: "completed" },
      { id: "bbbb0002", daysAgo: 200, status: "failed" },
      { id: "cccc0003", daysAgo: 10, status: "completed" },
      { id: "dddd0004", daysAgo: 400, status: "running" },
    ]);
    const all = Object.values(files).flat();

    const dry = await runCli(["prune", "--older-than", "90d", "--dry-run"], { cwd });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Would remove 8 files");
    for (const file of [...files.aaaa0001!, ...files.bbbb0002!]) expect(dry.stdout).toContain(file);
    expect(dry.stdout).not.toContain("cccc0003");
    expect(dry.stdout).not.toContain("dddd0004");
    expect(dry.stdout).toContain("Nothing was changed (--dry-run).");
    expect(all.every((file) => existsSync(file))).toBe(true);

    // Another process owns the data folder (a bot): nothing goes, and it says what to do.
    const held = tryAcquireLease(config.dataDir, "bot");
    expect("lease" in held).toBe(true);
    const refused = await runCli(["prune", "--older-than", "90d"], { cwd });
    if ("lease" in held) held.lease.release();
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/owns the data folder .*Stop it first/);
    expect(all.every((file) => existsSync(file))).toBe(true);

    const archive = path.join(tempDir("rl-archive-"), "old-runs");
    const moved = await runCli(["prune", "--older-than", "250d", "--archive", archive], { cwd });
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain(`Moved 4 files`);
    expect(files.aaaa0001!.every((file) => !existsSync(file))).toBe(true);
    expect(readFileSync(path.join(archive, "aaaa0001", "trainer_aaaa0001.log"), "utf8")).toBe("trainer log\n");
    expect(existsSync(path.join(archive, "aaaa0001", "aaaa0001", "samples.jsonl"))).toBe(true);

    const removed = await runCli(["prune", "--older-than", "90d"], { cwd });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("Removed 4 files");
    expect(removed.stdout).not.toContain("aaaa0001");
    expect(files.bbbb0002!.every((file) => !existsSync(file))).toBe(true);
    expect([...files.cccc0003!, ...files.dddd0004!].every((file) => existsSync(file))).toBe(true);

    const db = openDatabase(config.databasePath);
    const notes = createRunFilesRepo(db);
    expect(notes.noteOf("aaaa0001")).toEqual({
      prunedAt: expect.any(Number),
      archivedTo: path.join(archive, "aaaa0001"),
    });
    expect(notes.noteOf("bbbb0002")).toEqual({ prunedAt: expect.any(Number) });
    expect(notes.noteOf("cccc0003")).toBeUndefined();
    expect(db.prepare("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 4 });
    db.close();

    const again = await runCli(["prune", "--older-than", "90d"], { cwd });
    expect(again.stdout).toContain("Removed 0 files (0.0 MB) of 0 runs");
  });

  it("needs an age, and says how to write one", async () => {
    const cwd = tempDir("rl-prune-");
    const none = await runCli(["prune"], { cwd });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("rl-chatops prune --older-than 90d (or set RL_PRUNE_AFTER_DAYS)");
    const bad = await runCli(["prune", "--older-than", "3 months"], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--older-than takes an age such as 90d, 12w or 36h");
  });
});
