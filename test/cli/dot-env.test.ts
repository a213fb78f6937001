// ./.env is read at start as people write it: .env.example copied as it is starts the bot, the real environment wins,
// a misspelt setting is named with the real one, and .env.example is a valid shell file too.
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config.ts";
import { loadDotEnv } from "../../src/cli/load-dot-env.ts";
import { loadSettingNames } from "../../src/cli/setting-names.ts";
import { CLI, runCli } from "../helpers/run-cli.ts";
import { tempDir } from "../helpers/test-services.ts";
import { spawnTracked } from "../helpers/children.ts";

const EXAMPLE = path.join(PACKAGE_ROOT, ".env.example");

describe(".env", () => {
  it("cp .env.example .env, then start: the console opens on the demo stack and ends with its input", async () => {
    const cwd = tempDir();
    copyFileSync(EXAMPLE, path.join(cwd, ".env"));
    const out = await runCli([], { cwd, input: "/rl envs\n" });
    expect({ code: out.code, stderr: out.stderr }).toEqual({ code: 0, stderr: "" });
    expect(out.stdout).toContain("arithmetic");
    // RL_DATA_DIR=./data from the file.
    expect(existsSync(path.join(cwd, "data", "rl-chatops.db"))).toBe(true);
  });

  it("leaves a variable the environment already has as it is", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, ".env"), "RL_DATA_DIR=./from-file\nRL_LOG_LEVEL=debug\n");
    const out = await runCli(["exec", "/rl envs"], { cwd, env: { RL_DATA_DIR: "./from-env" } });
    expect(out.code).toBe(0);
    expect(existsSync(path.join(cwd, "from-env", "rl-chatops.db"))).toBe(true);
    expect(existsSync(path.join(cwd, "from-file"))).toBe(false);
    // RL_LOG_LEVEL=silent from the environment (runCli) beat the file's debug: no log lines.
    expect(out.stderr).toBe("");
  });

  it("warns of a name no setting has, with the nearest real one, and lets wandb's own names pass", async () => {
    const cwd = tempDir();
    writeFileSync(
      path.join(cwd, ".env"),
      "RL_DATA_DIRR=./x\nRL_WANDB_PROJECT=demo\nSLACK_TOKEN_BOT_XYZ_QQ=1\nWANDB_MODE=offline\nHOME_EXTRA=1\n",
    );
    const out = await runCli(["exec", "/rl envs"], { cwd });
    expect(out.code).toBe(0);
    const warnings = out.stderr.trim().split("\n");
    expect(warnings).toEqual([
      expect.stringMatching(/\.env: RL_DATA_DIRR is not a setting of rl-chatops; did you mean RL_DATA_DIR\?$/),
      expect.stringMatching(/\.env: RL_WANDB_PROJECT is not a setting of rl-chatops; did you mean WANDB_PROJECT\?$/),
      expect.stringMatching(/\.env: SLACK_TOKEN_BOT_XYZ_QQ is not a setting of rl-chatops \(the settings are listed/),
    ]);
  });

  it("scan warns of a misspelt setting too, and takes the settings the file sets", async () => {
    // scan's program gets the settings' names from its second part (dist/scan-folder.cjs), loaded for this file only.
    const cwd = tempDir();
    writeFileSync(path.join(cwd, ".env"), "RL_SCAN_RECURSIVEE=true\nRL_STACK=tinker-cookbook\n");
    const out = await runCli(["scan", path.join(PACKAGE_ROOT, "examples", "tinker-cookbook"), "--json"], { cwd });
    expect(out.code).toBe(0);
    expect(out.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /\.env: RL_SCAN_RECURSIVEE is not a setting of rl-chatops; did you mean RL_SCAN_RECURSIVE\?$/,
      ),
    ]);
    // RL_STACK from the file: the folder was read as the cookbook's, its recipes found.
    expect(out.stdout).toContain("math_rl.train");
  });

  it("reads quotes as the shell does, and sets only what the environment lacks", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, ".env"), 'RL_DIGEST_CRON="*/5 * * * *"\nRL_STACK=tinker-cookbook\n');
    const env: NodeJS.ProcessEnv = { RL_STACK: "atropos-tinker" };
    expect(await loadDotEnv(cwd, env, loadSettingNames)).toEqual([]);
    expect(env).toEqual({ RL_STACK: "atropos-tinker", RL_DIGEST_CRON: "*/5 * * * *" });
    expect(await loadDotEnv(tempDir(), env, loadSettingNames)).toEqual([]);
  });

  it(".env.example is a shell file too: set -a; . ./.env.example works and the bot takes what it sets", async () => {
    const cwd = tempDir();
    copyFileSync(EXAMPLE, path.join(cwd, ".env.example"));
    // The supervisor exec starts leaves when idle, not after the example's 10 minutes: no process outlives the test.
    const script = `set -e; set -a; . ./.env.example; RL_IDLE_EXIT_MINUTES=0; set +a; printf '%s\\n' "$RL_DIGEST_CRON"; exec "$0" "$1" exec "/rl envs"`;
    const out = await spawnTracked("bash", ["-c", script, process.execPath, CLI], {
      cwd,
      env: { RL_LOG_LEVEL: "silent" },
      reject: false,
    });
    expect({ code: out.exitCode, stderr: out.stderr }).toEqual({ code: 0, stderr: "" });
    expect(out.stdout.split("\n")[0]).toBe("*/30 * * * *");
    expect(out.stdout).toContain("arithmetic");
  });
});
