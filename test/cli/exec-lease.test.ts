import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { readLeaseHolder } from "../../src/lease/lease-holder.ts";
import { botsPerTest, waitFor } from "../helpers/bot-process.ts";
import { demoLockedFields } from "../helpers/demo-stack.ts";
import { runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";

const { dataDirs, startBot, demoFolder } = botsPerTest();

describe("rl-chatops exec and the running bot", () => {
  it("is answered by the running bot, with the bot's settings and the same exit codes", async () => {
    const cwd = tempDir();
    // The bot reads another environments folder than exec would on its own: the answer shows who served it.
    await startBot(cwd, { RL_ENVIRONMENTS_DIR: path.join(PACKAGE_ROOT, "test/fixtures/envs") });

    const envs = await runCli(["exec", "/rl envs", "--json"], { cwd, env: { RL_LOG_LEVEL: "warn" } });
    expect(envs.code).toBe(0);
    expect(envs.stderr).toBe("");
    const names = (JSON.parse(envs.stdout) as { environments: Array<{ name: string }> }).environments.map(
      (e) => e.name,
    );
    expect(names).toContain("gsm8k");
    expect(names).not.toContain("arithmetic");

    const usage = await runCli(["exec", "/rl set group_size"], { cwd });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Usage: /rl set <field> <value...>");
    const refused = await runCli(["exec", "/rl config", "--channel", "nowhere", "--json"], { cwd });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: "NO_ENVIRONMENT" } });
  });

  it("with no bot, the command is run by a background supervisor that holds the lease, not by exec; a failed start exits 1", async () => {
    const cwd = tempDir();
    const dataDir = path.join(cwd, "data");
    dataDirs.push(dataDir);
    // The trainer never becomes healthy, so the start is slow and then fails.
    const env = {
      RL_LOCKED_FIELDS: await demoLockedFields(cwd, { fault: "no_health" }),
      RL_READY_TIMEOUT_SECONDS: "8",
      RL_STOP_GRACE_SECONDS: "2",
    };
    expect((await runCli(["exec", "/rl select arithmetic"], { cwd, env })).code).toBe(0);
    const exec = runCli(["exec", "/rl start", "--json"], { cwd, env });
    const holder = await waitFor(() => {
      const h = readLeaseHolder(dataDir);
      return h?.mode === "background" ? h : undefined;
    }, "the background supervisor to hold the lease");
    expect(readFileSync(`/proc/${holder.pid}/cmdline`, "utf8").split("\0")).toContain("supervise");

    const out = await exec;
    expect(out.code).toBe(1);
    const failed = JSON.parse(out.stdout) as { error: { code: string; message: string } };
    expect(failed.error.code).toBe("PROCESS_FAILED");
    expect(failed.error.message).toMatch(/trainer/);
    // Idle once the start has failed (RL_IDLE_EXIT_MINUTES is 0 in the tests): it lets go of the folder and exits.
    await waitFor(() => readLeaseHolder(dataDir) === undefined, "the background supervisor to let go of the folder");
  });

  it("starts and stops a run with nothing on stderr, the run supervised by the background supervisor meanwhile", async () => {
    const { cwd, env } = await demoFolder({ RL_STOP_GRACE_SECONDS: "2" });
    expect((await runCli(["exec", "/rl select arithmetic"], { cwd, env })).code).toBe(0);

    const start = await runCli(["exec", "/rl start", "--json"], { cwd, env });
    expect(start.stderr).toBe("");
    expect(start.code).toBe(0);
    const run = JSON.parse(start.stdout) as { run_id: string; status: string; note?: string };
    expect(run.status).toBe("running");
    expect(run.note).toBeUndefined();
    expect(readLeaseHolder(path.join(cwd, "data"))?.mode).toBe("background");

    const stop = await runCli(["exec", `/rl stop ${run.run_id}`], { cwd, env });
    expect(stop.stderr).toBe("");
    expect(stop.code).toBe(0);
  });
});
